// Every message's rendering, in one place: a deliveries row (template, locale, payload) becomes
// the subject, text and HTML of an e-mail, the title and body of a push, or the text of an SMS,
// with absolute links (lib/urls.ts).
import type { Locale } from '../../../db/schema';
import { rootUrl } from '../../../lib/urls';
import { TRANSACTIONAL_TEMPLATES, type TransactionalTemplate } from '../outbox';
import { incidentLine, isIncidentTemplate } from './incidents';
import { itemUrl } from './item-link';
import { renderBlocks, type RenderedEmail } from './layout';
import { isNotificationKind, notificationBlocks, notificationLine } from './notifications';
import { phoneCodeSms, recipientLinkSms, TRANSACTIONAL } from './transactional';

export { NOTIFICATION_TEMPLATES } from './notifications';

const SIGNATURE: Record<Locale, string> = { fr: "— L'équipe Parcel Marketplace", en: '— The Parcel Marketplace team' };

/** What kind of message a template is: security messages ignore preferences and carry no unsubscribe. */
export type MessageClass = 'SECURITY' | 'RECIPIENT' | 'NOTIFICATION';

export interface Rendered extends RenderedEmail {
  messageClass: MessageClass;
}

const isTransactional = (template: string): template is TransactionalTemplate => (TRANSACTIONAL_TEMPLATES as readonly string[]).includes(template);

/** The class of a template (known before rendering: the consumer signs the unsubscribe link of a NOTIFICATION). */
export function messageClassOf(template: string): MessageClass {
  if (isNotificationKind(template)) return 'NOTIFICATION';
  return template === 'RECIPIENT_LINK' ? 'RECIPIENT' : 'SECURITY';
}

const ITEM_LABEL: Record<Locale, string> = { fr: "Voir dans l'application", en: 'View in the app' };
const UNSUBSCRIBE_LABEL: Record<Locale, string> = { fr: 'Ne plus recevoir ce type d’e-mail', en: 'Stop receiving this kind of email' };

/**
 * The rendered e-mail of a delivery; throws on a template that does not exist (the row is FAILED).
 * The shared frame adds what every e-mail a person can act on carries (CONTRACT section 19): a
 * notification's item link (its button) and, but for security messages, the visible unsubscribe
 * link (`unsubscribeUrl`, signed by the caller); both are in `links`.
 */
export function renderEmail(
  env: Pick<Env, 'PUBLIC_BASE_URL'>,
  row: { template: string; locale: Locale; payload: Record<string, unknown> },
  options: { unsubscribeUrl?: string } = {},
): Rendered {
  const link = (path: string) => rootUrl(env, path);
  const messageClass = messageClassOf(row.template);
  const unsubscribe = options.unsubscribeUrl && messageClass !== 'SECURITY' ? { label: UNSUBSCRIBE_LABEL[row.locale], url: options.unsubscribeUrl } : undefined;
  if (isTransactional(row.template)) {
    const blocks = TRANSACTIONAL[row.template](row.locale, row.payload, link);
    return { ...renderBlocks({ ...blocks, unsubscribe }, SIGNATURE[row.locale]), messageClass };
  }
  if (isNotificationKind(row.template)) {
    const item = { label: ITEM_LABEL[row.locale], url: itemUrl(env, row.template, row.payload) };
    return { ...renderBlocks({ ...notificationBlocks(row.template, row.locale, row.payload), item, unsubscribe }, SIGNATURE[row.locale]), messageClass };
  }
  throw new Error(`No template named ${row.template}`);
}

type Row = { template: string; locale: Locale; payload: Record<string, unknown> };

/** FCM data values are strings: the notification's data, flattened, plus its kind and the item's deep link (the e-mail's). */
function pushData(env: Pick<Env, 'PUBLIC_BASE_URL'>, kind: string, payload: Record<string, unknown>): Record<string, string> {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = { kind, link: itemUrl(env, kind, payload) };
  for (const [key, value] of Object.entries(data)) if (value !== null && value !== undefined) out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  return out;
}

/** The push of a notification (only notifications go by push); throws otherwise (the row is FAILED). */
export function renderPush(env: Pick<Env, 'PUBLIC_BASE_URL'>, row: Row): { title: string; body: string; data: Record<string, string>; links: string[] } {
  if (!isNotificationKind(row.template)) throw new Error(`No push template named ${row.template}`);
  const { subject, line } = notificationLine(row.template, row.locale, row.payload);
  const data = pushData(env, row.template, row.payload);
  return { title: subject, body: line, data, links: [data.link] };
}

/** The SMS of a notification, of the recipient's link or of a phone verification code; throws for anything else (the row is FAILED). */
export function renderSms(env: Pick<Env, 'PUBLIC_BASE_URL'>, row: Row): { text: string; links: string[] } {
  if (row.template === 'RECIPIENT_LINK') {
    const url = rootUrl(env, String(row.payload.path ?? ''));
    return { text: recipientLinkSms(row.locale, row.payload, () => url), links: [url] };
  }
  if (row.template === 'PHONE_VERIFICATION') return { text: phoneCodeSms(row.locale, row.payload), links: [] };
  if (isIncidentTemplate(row.template)) return { text: incidentLine(row.template, row.locale, row.payload), links: [] };
  if (!isNotificationKind(row.template)) throw new Error(`No SMS template named ${row.template}`);
  const { subject, line } = notificationLine(row.template, row.locale, row.payload);
  // French typography puts a space before the colon.
  return { text: row.locale === 'fr' ? `${subject} : ${line}` : `${subject}: ${line}`, links: [] };
}

/** The alert webhook's text (Slack-compatible `text`): the watchdog's alerts only; throws otherwise (the row is FAILED). */
export function renderWebhook(env: Pick<Env, 'PUBLIC_BASE_URL'>, row: Row): { text: string } {
  if (!isIncidentTemplate(row.template)) throw new Error(`No webhook template named ${row.template}`);
  return { text: `${incidentLine(row.template, row.locale, row.payload)} ${rootUrl(env, '/console/incidents')}` };
}
