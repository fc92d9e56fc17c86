// A rail's callback (POST /webhooks/wave, POST /webhooks/pawapay; CONTRACT sections 20 and 29): the
// signature checked on the raw body by the rail (when it signs), the delivery stored once
// (payment_events, id `<rail>:<event>`), then applied through the same functions a status check
// uses, so a callback, a status check and the cron converge on one outcome, applied once.
import { and, eq, isNull } from 'drizzle-orm';
import { paymentEvents } from '../../../db/schema';
import type { Deps } from '../../../env';
import { endpointNotFound, invalidArgument, unauthorized } from '../../../errors';
import type { RailCallback } from '../../../providers/mobile-money';
import { settleWithProvider } from '../escrow';
import type { WebhookResult } from '../payments/payments.webhook';
import { settleMobilePayout } from '../withdrawals/withdrawals.service';
import { operationById, operationByRef, recordOutcome } from './operations';
import { settlePayIn } from './pay-in';

/** Wave's own words for its signature (its tests and docs name them); the generic ones for the others. */
const REFUSAL_TEXT: Record<string, { malformed: 'payment.malformedWaveEvent' | 'mobilemoney.malformedCallback'; signature: 'payment.invalidWaveSignature' | 'mobilemoney.invalidCallbackSignature' }> = {
  WAVE: { malformed: 'payment.malformedWaveEvent', signature: 'payment.invalidWaveSignature' },
};
const GENERIC = { malformed: 'mobilemoney.malformedCallback', signature: 'mobilemoney.invalidCallbackSignature' } as const;

export async function handleRailCallback(deps: Deps, railCode: string, rawBody: string, headers: Headers, now = new Date(), target?: { method: string; url: string }): Promise<WebhookResult> {
  const rail = deps.providers.mobileMoney.rail(railCode);
  if (!rail) throw endpointNotFound('mobilemoney.unknownRail', { rail: railCode });
  const verified = await rail.verifyCallback(rawBody, headers, now, target);
  if (!verified.ok) {
    const text = REFUSAL_TEXT[rail.code] ?? GENERIC;
    // CONTRACT section 1: a missing, bad or stale signature is 401; a well-signed but unreadable body 400.
    if (verified.reason === 'malformed-event') throw invalidArgument(text.malformed);
    deps.providers.metrics.event('WEBHOOK_REFUSED', rail.code.toLowerCase());
    throw unauthorized(text.signature, rail.code === 'WAVE' ? { suggestions: ['payment.signWaveBody'] } : {});
  }
  const { callback } = verified;
  const id = `${rail.code.toLowerCase()}:${callback.eventId}`;
  const { db } = deps;
  await db
    .insert(paymentEvents)
    .values({ id, type: callback.type, providerCreated: Math.floor(now.getTime() / 1000), payload: rawBody })
    .onConflictDoNothing({ target: paymentEvents.id });
  const [stored] = await db.select({ processedAt: paymentEvents.processedAt }).from(paymentEvents).where(eq(paymentEvents.id, id));
  if (stored?.processedAt) return { received: true, duplicate: true };
  await applyCallback(deps, rail.code, callback);
  await db
    .update(paymentEvents)
    .set({ processedAt: new Date().toISOString() })
    .where(and(eq(paymentEvents.id, id), isNull(paymentEvents.processedAt)));
  return { received: true, duplicate: false };
}

async function applyCallback(deps: Deps, railCode: string, callback: RailCallback): Promise<void> {
  const result = callback.operation;
  if (!result) return; // not an operation of ours (Wave's b2b or merchant payments)
  const op = (await operationByRef(deps.db, railCode, result.ref)) ?? (await operationById(deps.db, result.ref));
  if (result.kind === 'PAYIN') return settlePayIn(deps, op, result);
  // A payout or refund we never made: acknowledged, nothing to apply.
  if (!op || op.kind !== result.kind) return;
  if (result.kind === 'PAYOUT') return settleMobilePayout(deps, op, result);
  await recordOutcome(deps.db, op, result);
  // A confirmed refund: the reservation's settlement reads the operation and records it, once.
  if (op.reservationId && result.status !== 'PENDING') await settleWithProvider(deps, op.reservationId);
}
