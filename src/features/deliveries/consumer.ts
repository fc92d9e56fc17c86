// The DELIVERIES queue's consumer: renders and sends each delivery through its channel's provider.
// One attempt is claimed by a compare-and-set on `attempts`, so two copies of a message (a
// redelivery, the sweep) never send twice at once, and a row that is SENT is never sent again.
// A failure is retried with exponential backoff (message.retry), then lands DEAD with the
// provider's reason; what no retry can fix (no template, a provider's 4xx refusal: a bad number,
// a bad token) is FAILED at once with the reason. The money documents a message carries are
// rendered by money/, which writes to the outbox: the entry (src/index.ts) passes the renderer in,
// so deliveries stays below money.
import { and, eq } from 'drizzle-orm';
import { checkConfig } from '../../config';
import { deliveries, devices, reservations, type DeliveryRow, type Locale, type MoneyDocumentKind } from '../../db/schema';
import { depsOf, type Deps } from '../../env';
import { apiUrl, rootUrl } from '../../lib/urls';
import type { EmailAttachmentFile } from '../../providers/email/email';
import type { SendOutcome } from '../../providers/push/push-provider';
import type { DeliveryMessage } from './outbox';
import { messageClassOf, renderEmail, renderPush, renderSms, renderWebhook, type Rendered } from './templates';
import { unsubscribeToken } from './unsubscribe-token';

/** Attempts before a delivery is DEAD (the queue's own max_retries is higher: we decide first). */
export const MAX_ATTEMPTS = 5;
export const DEAD_LETTER_QUEUE = 'deliveries-dlq';

/** Seconds before attempt `attempts + 1`: 30 s, 1, 2, 4 min... capped at one hour. */
export const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);

type Outcome = { retryAfterSeconds: number } | null;

/** The invoice or credit note of a user for a reservation, in the e-mail's language (money's reservationDocumentPdf); null when there is none. */
export type DocumentPdf = (
  deps: Deps,
  userId: number,
  reservationId: number,
  kind: MoneyDocumentKind,
  locale: Locale,
) => Promise<{ filename: string; pdf: ArrayBuffer } | null>;

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** Thrown for what no retry can fix (no template, a provider's refusal): the row is FAILED at once. */
class PermanentFailure extends Error {}

/** Sends one delivery. Returns when to try again, or null when the message is done with. */
export async function deliverOne(deps: Deps, id: number, documentPdf: DocumentPdf): Promise<Outcome> {
  const { db } = deps;
  const [row] = await db.select().from(deliveries).where(eq(deliveries.id, id));
  // Unknown, SENT, FAILED or DEAD: nothing to do (an operator's retry puts it back to QUEUED).
  if (!row || row.status !== 'QUEUED') return null;
  const attempts = row.attempts + 1;
  const claim = await db
    .update(deliveries)
    .set({ attempts })
    .where(and(eq(deliveries.id, id), eq(deliveries.status, 'QUEUED'), eq(deliveries.attempts, row.attempts)))
    .run();
  if (claim.meta.changes !== 1) return null; // another copy of the message holds this attempt
  try {
    const { providerMessageId } = await send(deps, row, documentPdf);
    await db
      .update(deliveries)
      .set({ status: 'SENT', providerMessageId, sentAt: new Date().toISOString(), lastError: null })
      .where(and(eq(deliveries.id, id), eq(deliveries.status, 'QUEUED')));
    return null;
  } catch (err) {
    const lastError = reasonOf(err);
    const status = err instanceof PermanentFailure ? 'FAILED' : attempts >= MAX_ATTEMPTS ? 'DEAD' : 'QUEUED';
    await db.update(deliveries).set({ status, lastError }).where(and(eq(deliveries.id, id), eq(deliveries.status, 'QUEUED')));
    if (status === 'DEAD') deps.providers.metrics.event('DELIVERY_DEAD', row.channel);
    console.error(JSON.stringify({ level: 'error', event: 'delivery.failed', deliveryId: id, template: row.template, attempts, status, error: lastError }));
    return status === 'QUEUED' ? { retryAfterSeconds: backoffSeconds(attempts) } : null;
  }
}

/** The provider call of each channel; each throws a PermanentFailure for what no retry fixes. */
async function send(deps: Deps, stored: DeliveryRow, documentPdf: DocumentPdf): Promise<{ providerMessageId: string }> {
  const row = await withReservationNumber(deps, stored);
  if (row.channel === 'PUSH') return sendPush(deps, row);
  if (row.channel === 'SMS') return sendSms(deps, row);
  if (row.channel === 'WEBHOOK') return sendWebhook(deps, row);
  return sendEmail(deps, row, documentPdf);
}

/**
 * A message a person reads names its reservation by number. Notices carry it in their data
 * (reservationRef); for one written before they did, it is looked up here, off the request path.
 */
async function withReservationNumber(deps: Deps, row: DeliveryRow): Promise<DeliveryRow> {
  const data = row.payload.data as Record<string, unknown> | null | undefined;
  const reservationId = Number(data?.reservationId);
  if (!data || typeof data.reservationNumber === 'string' || !Number.isInteger(reservationId)) return row;
  const [found] = await deps.db
    .select({ reservationNumber: reservations.reservationNumber })
    .from(reservations)
    .where(eq(reservations.id, reservationId));
  return found ? { ...row, payload: { ...row.payload, data: { ...data, reservationNumber: found.reservationNumber } } } : row;
}

/** What no retry can change: a rendering error. */
function rendered<T>(render: () => T): T {
  try {
    return render();
  } catch (err) {
    throw new PermanentFailure(reasonOf(err));
  }
}

async function sendEmail(deps: Deps, row: DeliveryRow, documentPdf: DocumentPdf): Promise<{ providerMessageId: string }> {
  const { env } = deps;
  // The visible unsubscribe link and the one-click header name the same signed token.
  const unsubscribeUrl = messageClassOf(row.template) === 'NOTIFICATION' && row.userId ? await unsubscribeLinks(env, row.userId, row.template) : null;
  const email: Rendered = rendered(() => renderEmail(env, row, { unsubscribeUrl: unsubscribeUrl?.page }));
  return deps.providers.email.send({
    deliveryId: row.id,
    to: row.to,
    template: row.template,
    locale: row.locale,
    subject: email.subject,
    text: email.text,
    html: email.html,
    headers: unsubscribeUrl ? { 'List-Unsubscribe': `<${unsubscribeUrl.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {},
    links: email.links,
    attachments: await attachmentsOf(deps, row, documentPdf),
  });
}

/**
 * Money documents travel with the message about them (CONTRACT section 19): the sender's delivery
 * notice carries the invoice (the payment is captured by then), a refund notice its credit note.
 * An authorisation has no document: nothing is charged yet.
 */
const DOCUMENT_OF_TEMPLATE: Partial<Record<string, MoneyDocumentKind>> = { RESERVATION_DELIVERED: 'INVOICE', PAYMENT_REFUNDED: 'CREDIT_NOTE' };

async function attachmentsOf(deps: Deps, row: DeliveryRow, documentPdf: DocumentPdf): Promise<EmailAttachmentFile[]> {
  const kind = DOCUMENT_OF_TEMPLATE[row.template];
  if (!kind || !row.userId) return [];
  const reservationId = Number((row.payload.data as { reservationId?: unknown } | null)?.reservationId);
  if (!Number.isInteger(reservationId)) return [];
  const document = await documentPdf(deps, row.userId, reservationId, kind, row.locale);
  return document ? [{ filename: document.filename, type: 'application/pdf', content: document.pdf }] : [];
}

/** What an outcome of the push or SMS port means for the delivery. */
function settled(outcome: SendOutcome): { providerMessageId: string } {
  if (outcome.status === 'SENT') return { providerMessageId: outcome.providerMessageId };
  if (outcome.status === 'RETRY') throw new Error(outcome.reason);
  throw new PermanentFailure(outcome.reason);
}

/**
 * A PUSH row goes to every device the account has when it is sent. A device FCM calls
 * UNREGISTERED is deleted. The row is SENT once one device took it; retried when a device could
 * not take it now and none did (a device reached twice shows it once: the delivery id is the
 * collapse key); FAILED when every device refused it or none is left.
 */
async function sendPush(deps: Deps, row: DeliveryRow): Promise<{ providerMessageId: string }> {
  const { db, env } = deps;
  const push = rendered(() => renderPush(env, row));
  const targets = row.userId ? await db.select({ id: devices.id, token: devices.token }).from(devices).where(eq(devices.userId, row.userId)).orderBy(devices.id) : [];
  if (targets.length === 0) throw new PermanentFailure('No device registered for push');
  const provider = deps.providers.push;
  const outcomes: SendOutcome[] = [];
  for (const device of targets) {
    const outcome = await provider.send({ deliveryId: String(row.id), token: device.token, ...push, template: row.template, locale: row.locale });
    // Only while it still holds that token: a re-registration meanwhile keeps the row.
    if (outcome.status === 'UNREGISTERED') await db.delete(devices).where(and(eq(devices.id, device.id), eq(devices.token, device.token)));
    outcomes.push(outcome);
  }
  const sent = outcomes.filter((o) => o.status === 'SENT');
  if (sent.length > 0) return { providerMessageId: sent.map((o) => o.providerMessageId).join(' ').slice(0, 500) };
  const reasons = outcomes.map((o) => ('reason' in o ? o.reason : '')).join('; ');
  if (outcomes.some((o) => o.status === 'RETRY')) throw new Error(reasons);
  throw new PermanentFailure(reasons);
}

async function sendSms({ env, providers }: Deps, row: DeliveryRow): Promise<{ providerMessageId: string }> {
  const sms = rendered(() => renderSms(env, row));
  return settled(await providers.sms.send({ deliveryId: String(row.id), to: row.to, body: sms.text, template: row.template, locale: row.locale, links: sms.links }));
}

async function sendWebhook({ env, providers }: Deps, row: DeliveryRow): Promise<{ providerMessageId: string }> {
  const { text } = rendered(() => renderWebhook(env, row));
  return settled(await providers.alertWebhook.send({ deliveryId: String(row.id), url: row.to, text, template: row.template, locale: row.locale }));
}

/**
 * The two unsubscribe links of a notification e-mail, one signed token: RFC 8058 one-click (the API
 * URL the mail client POSTs) and the visible link a person clicks (a page that asks before it
 * turns the e-mail off: link checkers open every link of a message).
 */
async function unsubscribeLinks(env: Env, userId: number, kind: string): Promise<{ oneClick: string; page: string }> {
  const token = await unsubscribeToken(env, userId, kind);
  return { oneClick: apiUrl(env, `/unsubscribe?token=${token}`), page: rootUrl(env, `/unsubscribe?token=${token}`) };
}

/** The queue() handler: deliveries from the main queue; the dead-letter queue's rows become DEAD. */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env, documentPdf: DocumentPdf): Promise<void> {
  // Like the cron, nothing is sent on an incomplete configuration: the messages wait.
  if (!checkConfig(env).ok) {
    batch.retryAll({ delaySeconds: 300 });
    return;
  }
  const deps = depsOf(env);
  for (const message of batch.messages) {
    const id = Number(message.body?.id);
    if (!Number.isInteger(id)) {
      message.ack();
      continue;
    }
    try {
      if (batch.queue === DEAD_LETTER_QUEUE) {
        const dead = await deps.db
          .update(deliveries)
          .set({ status: 'DEAD', lastError: 'The delivery queue gave up on this message (dead-letter queue)' })
          .where(and(eq(deliveries.id, id), eq(deliveries.status, 'QUEUED')))
          .run();
        if (dead.meta.changes > 0) deps.providers.metrics.event('DELIVERY_DEAD', 'dead-letter queue');
        message.ack();
        continue;
      }
      const outcome = await deliverOne(deps, id, documentPdf);
      if (outcome) message.retry({ delaySeconds: outcome.retryAfterSeconds });
      else message.ack();
    } catch (err) {
      // D1 itself failed: the queue retries the message (its attempts were not counted).
      console.error(JSON.stringify({ level: 'error', event: 'delivery.consumer_error', deliveryId: id, error: reasonOf(err) }));
      message.retry({ delaySeconds: 60 });
    }
  }
}
