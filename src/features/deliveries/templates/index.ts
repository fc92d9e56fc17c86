// Every message's rendering, in one place: a deliveries row (template, locale, payload) becomes
// the subject, text and HTML of an e-mail with absolute links (lib/urls.ts).
import type { Locale } from '../../../db/schema';
import { rootUrl } from '../../../lib/urls';
import { TRANSACTIONAL_TEMPLATES, type TransactionalTemplate } from '../outbox';
import { renderBlocks, type RenderedEmail } from './layout';
import { isNotificationKind, notificationBlocks } from './notifications';
import { TRANSACTIONAL } from './transactional';

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
