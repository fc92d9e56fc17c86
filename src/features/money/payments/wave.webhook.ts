// Wave's webhook (POST /webhooks/wave, CONTRACT section 20): the Wave-Signature checked on the raw
// body with its timestamp (the provider's verifyWebhook), the event stored once (payment_events,
// id `wave:<event id>`), then applied. Applying "ensures" a state, so duplicates and events out of
// order converge: a completed checkout pays the reservation (PAID, CAPTURED at once, the price in
// escrow) whatever came before it; a failed attempt after the payment changes nothing.
import { and, eq, isNull } from 'drizzle-orm';
import { paymentEvents, paymentSessions, reservations } from '../../../db/schema';
import type { Deps } from '../../../env';
import { invalidArgument, unauthorized } from '../../../errors';
import type { MobileMoneyCheckout, MobileMoneyEvent } from '../../../providers/mobile-money';
import { auditInsert } from '../../audit/audit';
import { authorizePayment, PAYMENT_STATUS } from '../escrow';
import { paymentFailed, type WebhookResult } from './payments.webhook';
import { reportCaught } from '../../../error-tracking';

export async function handleWaveWebhook(deps: Deps, rawBody: string, headers: Headers, now = new Date()): Promise<WebhookResult> {
  const verified = await deps.providers.mobileMoney.verifyWebhook(rawBody, headers, now);
  if (!verified.ok) {
    // CONTRACT section 1: a missing, bad or stale signature is 401; a well-signed but unreadable event 400.
    if (verified.reason === 'malformed-event') throw invalidArgument('payment.malformedWaveEvent');
    deps.providers.metrics.event('WEBHOOK_REFUSED', 'wave');
    throw unauthorized('payment.invalidWaveSignature', { suggestions: ['payment.signWaveBody'] });
  }
  const event = verified.event;
  const id = `wave:${event.id}`;
  const { db } = deps;
  await db
    .insert(paymentEvents)
    .values({ id, type: event.type, providerCreated: Math.floor(now.getTime() / 1000), payload: rawBody })
    .onConflictDoNothing({ target: paymentEvents.id });
  const [stored] = await db.select({ processedAt: paymentEvents.processedAt }).from(paymentEvents).where(eq(paymentEvents.id, id));
  if (stored?.processedAt) return { received: true, duplicate: true };
  await applyWaveEvent(deps, event);
  await db
    .update(paymentEvents)
    .set({ processedAt: new Date().toISOString() })
    .where(and(eq(paymentEvents.id, id), isNull(paymentEvents.processedAt)));
  return { received: true, duplicate: false };
}

async function applyWaveEvent(deps: Deps, event: MobileMoneyEvent): Promise<void> {
  const checkout = event.checkout;
  if (!checkout) return; // not a checkout event (b2b, merchant payments): not ours to apply
  const { db } = deps;
  const [session] = await db
    .select()
    .from(paymentSessions)
    .where(and(eq(paymentSessions.sessionId, checkout.id), eq(paymentSessions.method, 'MOBILE_MONEY')));
  // A session this service did not open (another integration on the wallet): acknowledged, ignored.
  if (!session) return;
  if (checkout.amountMinor !== session.amountCents || checkout.currency.toUpperCase() !== session.currency.toUpperCase()) {
    return reportWaveMismatch(deps, event, session.reservationId, checkout, session);
  }
  if (event.type === 'checkout.session.completed' && checkout.paymentStatus === 'succeeded') {
    const outcome = await authorizePayment(deps, session.reservationId, {
      paymentId: checkout.id,
      authorizationId: checkout.id,
      captureId: checkout.transactionId,
    });
    // Paid after the booking ended (cancelled, expired): the money goes straight back.
    if (outcome === 'NOT_PAYABLE') await refundLatePayment(deps, session.reservationId, checkout.id);
    return;
  }
  if (event.type === 'checkout.session.payment_failed') return paymentFailed(deps, session.reservationId);
}

/** Refunds a payment that arrived for a reservation no longer payable; the row records the refund. */
async function refundLatePayment(deps: Deps, reservationId: number, checkoutId: string) {
  try {
    await deps.providers.mobileMoney.refundCheckout(checkoutId, `refund-late-${checkoutId}`);
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'late Wave payment not refunded', reservationId });
    return;
  }
  await deps.db
    .update(reservations)
    .set({ refundId: `refund-${checkoutId}`, paymentStatus: PAYMENT_STATUS.REFUNDED, updatedAt: new Date().toISOString() })
    // Only the row of this checkout: a booking paid by card meanwhile keeps its own status.
    .where(and(eq(reservations.id, reservationId), eq(reservations.paymentId, checkoutId)));
}

/** A checkout event whose amount or currency is not the session's: changes nothing, put before operators. */
async function reportWaveMismatch(deps: Deps, event: MobileMoneyEvent, reservationId: number, checkout: MobileMoneyCheckout, session: { amountCents: number; currency: string }) {
  const details = {
    eventId: event.id,
    eventType: event.type,
    expected: { amountCents: session.amountCents, currency: session.currency },
    received: { amountCents: checkout.amountMinor, currency: checkout.currency, sessionId: checkout.id },
  };
  console.warn(JSON.stringify({ level: 'warn', event: 'payment_event.mismatch', reservationId, ...details }));
  await auditInsert(deps.db, { actorId: null, action: 'PAYMENT_EVENT_MISMATCH', targetType: 'RESERVATION', targetId: reservationId, ip: null, details });
}
