// Minimal HTML pages for browser-facing endpoints (callbacks, sandbox checkout, onboarding return).
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../../env';
import { htmlPage as pageFrame } from '../../../lib/html-page';
import { preferredLocale } from '../../../lib/locale';
import { render, type KeyWithoutParams } from '../../../messages';
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function htmlPage(title: string, message: string, body = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.4rem;margin-right:.8rem}</style>
</head><body><h1>${escape(title)}</h1><p>${escape(message)}</p>${body}</body></html>`;
}

export { escape as escapeHtml };

/**
 * A page a person's browser is sent back to (a checkout's or an onboarding's return), in the
 * reader's language (Accept-Language; English when it names neither): its title and sentence are
 * message keys (messages/pages.ts).
 */
export function returnPage(c: Context<AppEnv>, title: KeyWithoutParams, text: KeyWithoutParams) {
  const locale = preferredLocale(c.req.header('Accept-Language'), 'en');
  c.header('Content-Language', locale);
  c.header('Vary', 'Accept-Language');
  return c.html(pageFrame(render(title, locale), html`<p>${render(text, locale)}</p>`, '', locale), 200);
}
