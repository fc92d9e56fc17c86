// Every message's rendering, in one place: a deliveries row (template, locale, payload) becomes
// the subject, text and HTML of an e-mail, the title and body of a push, or the text of an SMS,
// with absolute links (lib/urls.ts).
import type { Locale } from '../../../db/schema';
import { rootUrl } from '../../../lib/urls';
import { TRANSACTIONAL_TEMPLATES, type TransactionalTemplate } from '../outbox';
import { renderBlocks, type RenderedEmail } from './layout';
import { isNotificationKind, notificationBlocks, notificationLine } from './notifications';
import { recipientLinkSms, TRANSACTIONAL } from './transactional';

export { NOTIFICATION_TEMPLATES } from './notifications';

const SIGNATURE: Record<Locale, string> = { fr: "— L'équipe Parcel Marketplace", en: '— The Parcel Marketplace team' };

/** What kind of message a template is: security messages ignore preferences and carry no unsubscribe. */
export type MessageClass = 'SECURITY' | 'RECIPIENT' | 'NOTIFICATION';

export interface Rendered extends RenderedEmail {
  messageClass: MessageClass;
}

const isTransactional = (template: string): template is TransactionalTemplate => (TRANSACTIONAL_TEMPLATES as readonly string[]).includes(template);

/** The rendered e-mail of a delivery; throws on a template that does not exist (the row is FAILED). */
export function renderEmail(env: Pick<Env, 'PUBLIC_BASE_URL'>, row: { template: string; locale: Locale; payload: Record<string, unknown> }): Rendered {
  const link = (path: string) => rootUrl(env, path);
  if (isTransactional(row.template)) {
    const blocks = TRANSACTIONAL[row.template](row.locale, row.payload, link);
    return { ...renderBlocks(blocks, SIGNATURE[row.locale]), messageClass: row.template === 'RECIPIENT_LINK' ? 'RECIPIENT' : 'SECURITY' };
  }
  if (isNotificationKind(row.template)) {
    return { ...renderBlocks(notificationBlocks(row.template, row.locale, row.payload), SIGNATURE[row.locale]), messageClass: 'NOTIFICATION' };
  }
  throw new Error(`No template named ${row.template}`);
}

type Row = { template: string; locale: Locale; payload: Record<string, unknown> };

/** FCM data values are strings: the notification's data, flattened, plus its kind. */
function pushData(kind: string, payload: Record<string, unknown>): Record<string, string> {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = { kind };
  for (const [key, value] of Object.entries(data)) if (value !== null && value !== undefined) out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  return out;
}

/** The push of a notification (only notifications go by push); throws otherwise (the row is FAILED). */
export function renderPush(row: Row): { title: string; body: string; data: Record<string, string> } {
  if (!isNotificationKind(row.template)) throw new Error(`No push template named ${row.template}`);
  const { subject, line } = notificationLine(row.template, row.locale, row.payload);
  return { title: subject, body: line, data: pushData(row.template, row.payload) };
}

/** The SMS of a notification or of the recipient's link; throws for anything else (the row is FAILED). */
export function renderSms(env: Pick<Env, 'PUBLIC_BASE_URL'>, row: Row): { text: string; links: string[] } {
  if (row.template === 'RECIPIENT_LINK') {
    const url = rootUrl(env, String(row.payload.path ?? ''));
    return { text: recipientLinkSms(row.locale, row.payload, () => url), links: [url] };
  }
  if (!isNotificationKind(row.template)) throw new Error(`No SMS template named ${row.template}`);
  const { subject, line } = notificationLine(row.template, row.locale, row.payload);
  // French typography puts a space before the colon.
  return { text: row.locale === 'fr' ? `${subject} : ${line}` : `${subject}: ${line}`, links: [] };
}
