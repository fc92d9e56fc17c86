// The DELIVERIES queue's consumer: renders and sends each delivery through its channel's provider.
// One attempt is claimed by a compare-and-set on `attempts`, so two copies of a message (a
// redelivery, the sweep) never send twice at once, and a row that is SENT is never sent again.
// A failure is retried with exponential backoff (message.retry), then lands DEAD with the
// provider's reason; a row the template cannot render is FAILED at once.
import { and, eq } from 'drizzle-orm';
import { checkConfig } from '../../config';
import { deliveries, type DeliveryRow } from '../../db/schema';
import { depsOf, type Deps } from '../../env';
import { apiUrl } from '../../lib/urls';
import { emailProvider } from '../../providers/email';
import type { DeliveryMessage } from './outbox';
import { renderEmail, type Rendered } from './templates';
import { unsubscribeToken } from './unsubscribe-token';

/** Attempts before a delivery is DEAD (the queue's own max_retries is higher: we decide first). */
export const MAX_ATTEMPTS = 5;
export const DEAD_LETTER_QUEUE = 'deliveries-dlq';

/** Seconds before attempt `attempts + 1`: 30 s, 1, 2, 4 min... capped at one hour. */
export const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);

type Outcome = { retryAfterSeconds: number } | null;

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** Thrown for what no retry can fix (no template): the row is FAILED at once. */
class PermanentFailure extends Error {}

/** Sends one delivery. Returns when to try again, or null when the message is done with. */
export async function deliverOne(deps: Deps, id: number): Promise<Outcome> {
  const { db, env } = deps;
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
    const { providerMessageId } = await send(env, row);
    await db
      .update(deliveries)
      .set({ status: 'SENT', providerMessageId, sentAt: new Date().toISOString(), lastError: null })
      .where(and(eq(deliveries.id, id), eq(deliveries.status, 'QUEUED')));
    return null;
  } catch (err) {
    const lastError = reasonOf(err);
    const status = err instanceof PermanentFailure ? 'FAILED' : attempts >= MAX_ATTEMPTS ? 'DEAD' : 'QUEUED';
    await db.update(deliveries).set({ status, lastError }).where(and(eq(deliveries.id, id), eq(deliveries.status, 'QUEUED')));
    console.error(JSON.stringify({ level: 'error', event: 'delivery.failed', deliveryId: id, template: row.template, attempts, status, error: lastError }));
    return status === 'QUEUED' ? { retryAfterSeconds: backoffSeconds(attempts) } : null;
  }
}

async function send(env: Env, row: DeliveryRow): Promise<{ providerMessageId: string }> {
  if (row.channel !== 'EMAIL') throw new PermanentFailure(`No provider for the ${row.channel} channel yet`);
  let rendered: Rendered;
  try {
    rendered = renderEmail(env, row);
  } catch (err) {
    throw new PermanentFailure(reasonOf(err));
  }
  return emailProvider(env).send({
    deliveryId: row.id,
    to: row.to,
    template: row.template,
    locale: row.locale,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers: rendered.messageClass === 'NOTIFICATION' && row.userId ? await unsubscribeHeaders(env, row.userId, row.template) : {},
    links: rendered.links,
  });
}

/** RFC 8058 one-click unsubscribe: a signed link to turn this kind's e-mail off, POSTed by the mail client. */
async function unsubscribeHeaders(env: Env, userId: number, kind: string): Promise<Record<string, string>> {
  const url = apiUrl(env, `/unsubscribe?token=${await unsubscribeToken(env, userId, kind)}`);
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The queue() handler: deliveries from the main queue; the dead-letter queue's rows become DEAD. */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
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
        await deps.db
          .update(deliveries)
          .set({ status: 'DEAD', lastError: 'The delivery queue gave up on this message (dead-letter queue)' })
          .where(and(eq(deliveries.id, id), eq(deliveries.status, 'QUEUED')));
        message.ack();
        continue;
      }
      const outcome = await deliverOne(deps, id);
      if (outcome) message.retry({ delaySeconds: outcome.retryAfterSeconds });
      else message.ack();
    } catch (err) {
      // D1 itself failed: the queue retries the message (its attempts were not counted).
      console.error(JSON.stringify({ level: 'error', event: 'delivery.consumer_error', deliveryId: id, error: reasonOf(err) }));
      message.retry({ delaySeconds: 60 });
    }
  }
}
