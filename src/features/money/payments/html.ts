// The pages a payer's browser lands on (checkout and onboarding returns, the sandbox providers' pages), in the reader's language.
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../../env';
import { htmlPage as pageFrame } from '../../../lib/html-page';
import { preferredLocale } from '../../../lib/locale';
import { msg, render, SANDBOX_OUTCOMES, type KeyWithoutParams, type Message } from '../../../messages';
import { renderText } from '../../../lib/message-text';
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

/** A button of a sandbox page: a form posting to `action`. */
export interface SandboxButton {
  action: string;
  label: Message;
}

/**
 * A sandbox page standing in for a provider's (the card checkout, the payout onboarding, Wave's,
 * the payer's phone for pawaPay), in the reader's language like the return pages: its title, one
 * sentence, then its buttons or, once the payment is over, what became of it.
 */
export function sandboxPage(c: Context<AppEnv>, title: KeyWithoutParams, text: Message, next: SandboxButton[] | { status: string; reason?: string }) {
  const locale = preferredLocale(c.req.header('Accept-Language'), 'en');
  c.header('Content-Language', locale);
  c.header('Vary', 'Accept-Language');
  const after = Array.isArray(next)
    ? next.map((b) => html`<form method="post" action="${b.action}" style="display:inline"><button type="submit">${renderText(b.label, locale)}</button></form> `)
    : html`<p>${renderText(sandboxOutcome(next.status, next.reason), locale)}</p>`;
  return c.html(pageFrame(render(title, locale), html`<p>${renderText(text, locale)}</p>${after}`, '', locale), 200);
}

/** What became of a finished sandbox payment, in words (a status the words do not know is shown as it is). */
function sandboxOutcome(status: string, reason?: string): Message {
  const outcome = SANDBOX_OUTCOMES[status] ?? { en: status, fr: status };
  return reason ? msg('sandbox.endedWhy', { outcome, reason }) : msg('sandbox.ended', { outcome });
}
