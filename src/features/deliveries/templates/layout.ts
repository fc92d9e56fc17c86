// The one e-mail layout: a text part and an HTML part built from the same blocks, so the two
// always say the same thing. Every value is escaped in the HTML part; links are absolute.

export interface EmailBlocks {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** The one call to action, if any: its label and absolute URL. */
  action?: { label: string; url: string };
  /** Closing lines (validity, "ignore if it was not you"). */
  footer: string[];
  /** The link of the item the message is about (CONTRACT section 19), shown as the button when there is no other action. */
  item?: { label: string; url: string };
  /** The visible unsubscribe link (every e-mail but security messages): its sentence and URL. */
  unsubscribe?: { label: string; url: string };
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  links: string[];
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function renderBlocks(blocks: EmailBlocks, signature: string): RenderedEmail {
  const { subject, greeting, paragraphs, footer, item, unsubscribe } = blocks;
  // The item link is the button of a message that has no other action (every notification).
  const action = blocks.action ?? item;
  const unsubscribeLines = unsubscribe ? [`${unsubscribe.label}: ${unsubscribe.url}`] : [];
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), ...(action ? [`${action.label}: ${action.url}`, ''] : []), ...footer, ...unsubscribeLines, '', signature]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a;max-width:560px;margin:auto;padding:16px">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    action
      ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#0b57d0;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p><p style="font-size:13px;color:#555">${escapeHtml(action.url)}</p>`
      : '',
    ...footer.map((f) => `<p style="font-size:13px;color:#555">${escapeHtml(f)}</p>`),
    unsubscribe
      ? `<p style="font-size:13px;color:#555"><a href="${escapeHtml(unsubscribe.url)}" style="color:#555">${escapeHtml(unsubscribe.label)}</a></p>`
      : '',
    `<p style="font-size:13px;color:#555">${escapeHtml(signature)}</p>`,
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { subject, text, html, links: [...(action ? [action.url] : []), ...(unsubscribe ? [unsubscribe.url] : [])] };
}
