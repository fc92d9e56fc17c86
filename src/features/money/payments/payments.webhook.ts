// The provider webhook: verify the signature on the raw body, store the event once, apply it.
// Handlers "ensure" a state rather than step through one, so duplicates and out-of-order
// deliveries (capture before authorisation) converge to the same end state.
import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../../env';
import { paymentEvents, paymentSessions, reservations } from '../../../db/schema';
import { invalidArgument, unauthorized } from '../../../errors';
import {
  MalformedEventError,
  SignatureError,
  verifyProviderEvent,
  type ProviderEvent,
} from '../../../providers/payment/webhook-signature';
import { notify, reservationRef } from '../../deliveries/notify';
import { textAmount } from '../../../lib/message-text';
import { msg } from '../../../messages';
import { chargedCents } from '../ledger/posting-rules';
import { syncConnectedAccount } from '../pay-connect/pay-connect.service';
import { authorizePayment, commitWithSettlement, markCaptured, PAYMENT_STATUS, refundEffects, settleWithProvider } from '../escrow';
import { loadReservation } from '../../reservations/lifecycle';
import { statusChanged, statusChangedOnCommit } from '../../reservations/status-feed';
import { checkoutMismatch, reportMismatch } from './checkout-match';

export interface WebhookResult {
  received: true;
  duplicate: boolean;
}

export async function handlePaymentWebhook(deps: Deps, rawBody: string, signature: string | undefined): Promise<WebhookResult> {
  let event: ProviderEvent;
  try {
    event = await verifyProviderEvent(rawBody, signature, deps.env.STRIPE_WEBHOOK_SECRET);
  } catch (err) {
    if (err instanceof SignatureError) {
      deps.providers.metrics.event('WEBHOOK_REFUSED', 'stripe');
      throw unauthorized('money.invalidWebhookSignature', {
        suggestions: ['money.signRawBodyEndpoint'],
      });
    }
    if (err instanceof MalformedEventError) {
      throw invalidArgument(err.text, { suggestions: ['money.sendProviderEventObject'] });
    }
    throw err;
  }
  const db = deps.db;
  await db
    .insert(paymentEvents)
    .values({ id: event.id, type: event.type, providerCreated: event.created, payload: rawBody })
    .onConflictDoNothing({ target: paymentEvents.id });
  const [stored] = await db.select({ processedAt: paymentEvents.processedAt }).from(paymentEvents).where(eq(paymentEvents.id, event.id));
  if (stored?.processedAt) return { received: true, duplicate: true };
  await applyEvent(deps, event);
  await db
    .update(paymentEvents)
    .set({ processedAt: new Date().toISOString() })
    .where(and(eq(paymentEvents.id, event.id), isNull(paymentEvents.processedAt)));
  return { received: true, duplicate: false };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : null);

/** Reservation id from the object's metadata, or through the stored checkout session. */
async function reservationIdOf(deps: Deps, object: Record<string, any>): Promise<number | null> {
  const fromMetadata = Number(object.metadata?.reservationId);
  if (Number.isInteger(fromMetadata) && fromMetadata > 0) return fromMetadata;
  const db = deps.db;
  if (object.object === 'checkout.session') {
    const [s] = await db.select({ id: paymentSessions.reservationId }).from(paymentSessions).where(eq(paymentSessions.sessionId, object.id));
    return s?.id ?? null;
  }
  const pi = object.object === 'payment_intent' ? object.id : str(object.payment_intent);
  if (pi) {
    const [r] = await db.select({ id: reservations.id }).from(reservations).where(eq(reservations.authorizationId, pi));
    return r?.id ?? null;
  }
  return null;
}

async function applyEvent(deps: Deps, event: ProviderEvent): Promise<void> {
  const object = event.data.object;
  if (event.type === 'account.updated') {
    await syncConnectedAccount(deps, {
      id: object.id,
      chargesEnabled: Boolean(object.charges_enabled),
      payoutsEnabled: Boolean(object.payouts_enabled),
      detailsSubmitted: Boolean(object.details_submitted),
      requirements: object.requirements?.currently_due ?? [],
    });
    return;
  }
  const reservationId = await reservationIdOf(deps, object);
  const db = deps.db;
  // Not ours (another integration on the same account, or a deleted reservation): acknowledge,
  // or the provider would retry it for days.
  if (!reservationId) return;
  const [exists] = await db.select({ id: reservations.id }).from(reservations).where(eq(reservations.id, reservationId));
  if (!exists) return;
  const mismatch = await checkoutMismatch(db, event, reservationId);
  if (mismatch) return reportMismatch(db, event, reservationId, mismatch);
  // Whatever the event records (an expired checkout, a lapsed hold, a refund), the reservation's
  // status feed reads it again once the request ends (reservations/status-feed.ts).
  statusChanged(db, reservationId);
  switch (event.type) {
    case 'checkout.session.completed': {
      const pi = str(object.payment_intent);
      if (pi) await authorizePayment(deps, reservationId, { paymentId: object.id, authorizationId: pi });
      return;
    }
    case 'checkout.session.expired':
      await db
        .update(reservations)
        .set({ paymentStatus: PAYMENT_STATUS.EXPIRED, updatedAt: new Date().toISOString() })
        .where(and(eq(reservations.id, reservationId), eq(reservations.paymentId, object.id), eq(reservations.status, 'PENDING_PAYMENT')));
      return;
    case 'payment_intent.amount_capturable_updated':
      await authorizePayment(deps, reservationId, { authorizationId: object.id });
      return;
    case 'payment_intent.succeeded': {
      // A capture can arrive before the authorisation: apply the authorisation first.
      await authorizePayment(deps, reservationId, { authorizationId: object.id });
      // Less than the whole amount: our partial capture of a cancellation's kept share (its answer
      // may have been lost), a capture and not a refund.
      const partial = typeof object.amount_received === 'number' && object.amount_received < object.amount;
      await markCaptured(deps, reservationId, str(object.latest_charge), partial);
      return;
    }
    case 'payment_intent.payment_failed':
      return paymentFailed(deps, reservationId);
    case 'payment_intent.canceled':
      return paymentCanceled(deps, reservationId, object);
    case 'charge.refunded':
    case 'charge.refund.updated':
    case 'refund.updated':
      return refundMoved(deps, reservationId);
    default:
      return;
  }
}

/** The sender's payment did not go through: the booking waits for another try, the sender is told. */
export async function paymentFailed({ db, providers }: Deps, reservationId: number): Promise<void> {
  const r = await loadReservation(db, reservationId);
  if (r.status !== 'PENDING_PAYMENT') return;
  await db.batch([
    // Either rail's failure (card event, mobile-money outcome): the status feed says FAILED.
    statusChangedOnCommit(
      db
        .update(reservations)
        .set({ paymentStatus: PAYMENT_STATUS.FAILED, updatedAt: new Date().toISOString() })
        .where(and(eq(reservations.id, r.id), eq(reservations.status, 'PENDING_PAYMENT')))
        .returning({ id: reservations.id }),
    ),
    ...notify(db, {
      userId: r.senderId,
      type: 'PAYMENT_FAILED',
      text: msg('notice.paymentFailed', { amount: textAmount(chargedCents(r), r.currency), number: r.reservationNumber }),
      data: reservationRef(r),
    }),
  ]);
  providers.metrics.event('PAYMENT_FAILED', r.currency);
}

/** A card hold ended: the void we asked for, or a hold that lapsed (before or after the handover). */
async function paymentCanceled(deps: Deps, reservationId: number, object: ProviderEvent['data']['object']): Promise<void> {
  const { db } = deps;
  const r = await loadReservation(db, reservationId);
  if (r.paymentStatus === PAYMENT_STATUS.VOID_PENDING) {
    await db
      .update(reservations)
      .set({ paymentStatus: PAYMENT_STATUS.VOIDED, updatedAt: new Date().toISOString() })
      .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, PAYMENT_STATUS.VOID_PENDING)));
  } else if (
    r.paymentStatus === PAYMENT_STATUS.AUTHORIZED &&
    object.cancellation_reason === 'automatic' &&
    (r.status === 'PAID' || r.status === 'CONFIRMED')
  ) {
    // The card hold lapsed before the parcel was handed over: nothing was ever taken, so the
    // reservation is cancelled and its escrow released without a provider call.
    // A concurrent transition winning leaves nothing to do here.
    await commitWithSettlement(deps, {
      id: r.id,
      from: r.status,
      action: 'CANCEL',
      set: { cancellationReason: 'Payment authorisation expired' },
      effects: refundEffects(db, r, r.totalAmountCents, PAYMENT_STATUS.AUTHORIZATION_EXPIRED),
    });
  } else if (r.paymentStatus === PAYMENT_STATUS.AUTHORIZED && object.cancellation_reason === 'automatic') {
    // Lapsed after deposit (captures kept failing): flag it for a person; the money was never taken.
    await db
      .update(reservations)
      .set({ paymentStatus: PAYMENT_STATUS.AUTHORIZATION_EXPIRED, updatedAt: new Date().toISOString() })
      .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, PAYMENT_STATUS.AUTHORIZED)));
  }
}

/**
 * A refund moved at the provider (created, succeeded, failed): while ours waits for it, the
 * settlement asks the provider where the refund stands and confirms it (refunds.ts), so an event
 * never decides alone. A partial capture's released rest is no refund (older API versions report it
 * as one): PARTIALLY_CAPTURED is left as it is.
 */
async function refundMoved(deps: Deps, reservationId: number): Promise<void> {
  const r = await loadReservation(deps.db, reservationId);
  if (r.paymentStatus === PAYMENT_STATUS.REFUND_PENDING) await settleWithProvider(deps, r.id);
}
