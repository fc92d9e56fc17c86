// Hosted checkout for a PENDING_PAYMENT reservation, payment status, and the browser callbacks
// (which ask the provider for the session's state instead of trusting the query string).
import { and, desc, eq } from 'drizzle-orm';
import { paymentSessions, reservations, users } from '../../../db/schema';
import type { AuthUser, Deps } from '../../../env';
import { businessRule, invalidState, paymentError, paymentProcessingError, msg } from '../../../errors';
import { formatMoney } from '../../../lib/money';
import { assertCanAccess } from '../../../access/ownership';
import { assertReservationAccess } from '../../../access/reservation-access';
import { minimumChargeCents, ProviderRejectedError, type CheckoutSession } from '../../../providers/payment';
import { authorizePayment, PAYMENT_STATUS } from '../escrow';
import { apiUrl } from '../../../lib/urls';
import { loadReservation } from '../../reservations/lifecycle';
import { statusChangedOnCommit } from '../../reservations/status-feed';
import { appConfig } from '../../../config';
import type { PaymentMethod, PaymentStatusValue } from '../../../db/schema';
import { toStripeAmount, type CurrencyCode } from '../../../lib/currency';
import { assertMethodOffered, paymentMethods, type MethodFilter } from './payment-methods';
import { openMobileMoneyPayIn, type PayInChoice } from '../mobile-money/pay-in';
import { operationByRef } from '../mobile-money/operations';
import { paymentMethodOf, railOfPayment } from '../mobile-money-settlement';
import { checkoutLines, transportLineName } from './checkout-lines';
import { chargedCents } from '../ledger/posting-rules';
import { reportCaught } from '../../../error-tracking';
import { assertCheckoutOpen } from '../pauses';

/** Stripe accepts session expiries between 30 minutes and 24 hours ahead. */
const SESSION_LIFETIME_S = 30 * 60 + 60;
/** A session this close to its end is not handed out again. */
const REUSE_MARGIN_S = 120;

/**
 * A booking total the payment provider would refuse (below its minimum charge for the currency) is a
 * broken business rule: refused when booking, and again at checkout for a booking made before.
 */
export function assertChargeable(totalAmountCents: number, currency: string): void {
  const minimum = minimumChargeCents(currency);
  if (totalAmountCents < minimum) {
    throw businessRule('money.bookingTotalBelowPayment', { total: formatMoney(totalAmountCents, currency), minimum: formatMoney(minimum, currency) }, {
      suggestions: [msg('money.bookMoreWeightTotal', { minimum: formatMoney(minimum, currency) })],
    });
  }
}

/** Whether the latest session can be handed out again for this request: same method (and operator), still approvable. */
async function reusable(deps: Deps, latest: typeof paymentSessions.$inferSelect | undefined, method: PaymentMethod, choice: PayInChoice, nowS: number) {
  if (!latest || latest.method !== method || Date.parse(latest.expiresAt) / 1000 <= nowS + REUSE_MARGIN_S) return false;
  if (method !== 'MOBILE_MONEY') return true;
  const op = await operationByRef(deps.db, latest.provider.toUpperCase(), latest.sessionId);
  if (op && choice.provider && op.operator !== choice.provider) return false;
  if (op && choice.phone && op.phone && op.phone !== choice.phone.replace(/[^\d+]/g, '')) return false;
  // A hosted page stays payable after a failed try; a PIN prompt refused or failed cannot be revived.
  return latest.url !== '' || op?.status !== 'FAILED';
}

export async function createCheckout(deps: Deps, auth: AuthUser, reservationId: number, method: PaymentMethod = 'CARD', choice: PayInChoice = {}) {
  const db = deps.db;
  const r = await loadReservation(db, reservationId);
  assertCanAccess(auth, [r.senderId], []); // only the sender pays
  if (r.status !== 'PENDING_PAYMENT') {
    throw invalidState('money.reservationOnlyPendingPayment', { id: r.id, status: r.status });
  }
  if (Date.parse(r.paymentDeadline) <= Date.now()) throw invalidState('money.paymentWindowReservationClosed', { id: r.id });
  await assertMethodOffered(deps, method, r.currency, appConfig(deps.env).currencies);
  if (method === 'CARD') assertChargeable(r.totalAmountCents, r.currency);
  const nowS = Math.floor(Date.now() / 1000);
  const [latest] = await db
    .select()
    .from(paymentSessions)
    .where(eq(paymentSessions.reservationId, r.id))
    .orderBy(desc(paymentSessions.attempt))
    .limit(1);
  // The open session is handed out again only for the same method.
  if (await reusable(deps, latest, method, choice, nowS)) {
    const pending = latest!.method === 'MOBILE_MONEY' ? await operationByRef(deps.db, latest!.provider.toUpperCase(), latest!.sessionId) : null;
    return {
      paymentId: latest!.sessionId,
      paymentApprovalUrl: latest!.url || null,
      expiresAt: latest!.expiresAt,
      ...(pending ? { status: 'PENDING' as const, provider: pending.operator ?? undefined, approval: latest!.url ? ('REDIRECT' as const) : ('PIN_PROMPT' as const) } : {}),
    };
  }
  await assertCheckoutOpen(deps, method, choice.provider); // paused: no new checkout (an open one above is still handed back)
  const attempt = (latest?.attempt ?? 0) + 1;
  if (method === 'MOBILE_MONEY') return openMobileMoneyPayIn(deps, r, attempt, choice);
  return openCardCheckout(deps, r, attempt, nowS);
}

/** A Stripe checkout (manual capture) for the reservation's total, recorded as its session. */
async function openCardCheckout(deps: Deps, r: Awaited<ReturnType<typeof loadReservation>>, attempt: number, nowS: number) {
  const db = deps.db;
  // The payer's stored language names the lines and the provider's page: the same on every attempt,
  // whatever the request says, so a retried request sends the parameters of the first (idempotency).
  const [sender] = await db.select({ email: users.email, locale: users.locale }).from(users).where(eq(users.id, r.senderId));
  const locale = sender?.locale ?? 'fr';
  const callback = apiUrl(deps.env, '/payments/callback');
  let session: CheckoutSession;
  try {
    session = await deps.providers.payment.createCheckoutSession({
      reservationId: r.id,
      reservationNumber: r.reservationNumber,
      description: transportLineName(r, locale),
      // Stripe's own unit for the currency (zero-decimal currencies such as XOF unscaled): the
      // price and the protection premium, each its own line (CONTRACT 21).
      amountCents: toStripeAmount(chargedCents(r), r.currency as CurrencyCode),
      lines: checkoutLines(r, locale),
      locale,
      currency: r.currency,
      customerEmail: sender?.email,
      successUrl: `${callback}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${callback}/cancel?session_id={CHECKOUT_SESSION_ID}`,
      // Rounded to the minute so a concurrent double request sends identical parameters.
      expiresAt: Math.ceil((nowS + SESSION_LIFETIME_S) / 60) * 60,
      idempotencyKey: `checkout-${r.id}-${attempt}`,
    });
  } catch (err) {
    const raise = err instanceof ProviderRejectedError ? paymentError : paymentProcessingError;
    throw raise('money.checkoutNotOpened', { suggestions: ['money.retryMoment'], cause: err });
  }
  const expiresAt = new Date(session.expiresAt * 1000).toISOString();
  await db.batch([
    db
      .insert(paymentSessions)
      .values({
        reservationId: r.id,
        provider: deps.providers.payment.name,
        sessionId: session.id,
        attempt,
        url: session.url,
        amountCents: chargedCents(r),
        currency: r.currency,
        expiresAt,
      })
      .onConflictDoNothing(),
    // The checkout is open: the status feed says PENDING.
    statusChangedOnCommit(
      db
        .update(reservations)
        .set({
          paymentId: session.id,
          paymentApprovalUrl: session.url,
          paymentStatus: PAYMENT_STATUS.PENDING,
          updatedAt: new Date().toISOString(),
        })
        .where(and(eq(reservations.id, r.id), eq(reservations.status, 'PENDING_PAYMENT')))
        .returning({ id: reservations.id }),
    ),
  ]);
  return { paymentId: session.id, paymentApprovalUrl: session.url, expiresAt };
}

/** What the sender of a reservation can pay it with (CONTRACT section 20): the methods taking its currency. */
export async function reservationPaymentMethods(deps: Deps, auth: AuthUser, reservationId: number) {
  const r = await loadReservation(deps.db, reservationId);
  assertCanAccess(auth, [r.senderId], []);
  return { methods: await paymentMethods(deps, appConfig(deps.env).currencies, { currency: r.currency }) };
}

/** Every method, by currency and country (GET /payments/methods?currency=&country=): anyone signed in. */
export async function listPaymentMethods(deps: Deps, filter: MethodFilter) {
  return { methods: await paymentMethods(deps, appConfig(deps.env).currencies, filter) };
}

export async function paymentStatus(deps: Deps, auth: AuthUser, reservationId: number) {
  const db = deps.db;
  const r = await loadReservation(db, reservationId);
  // Like the reservation itself: its parties, the owning agency's staff, admins.
  await assertReservationAccess(deps, auth, r, { sender: true, carrier: true, admins: true });
  return { reservationId: r.id, paymentId: r.paymentId, paymentStatus: r.paymentStatus as PaymentStatusValue | null, reservationStatus: r.status };
}

export type CallbackOutcome = 'AUTHORIZED' | 'NOT_COMPLETED' | 'CANCELLED' | 'BOOKING_ENDED' | 'UNKNOWN';

/**
 * Closes the open checkout of a booking that ended unpaid (cancelled, expired), so its page can no
 * longer be paid. Best effort after the commit: a payment that still slips through is voided when
 * it arrives (authorizePayment), so a provider failure here is logged, not raised.
 */
export async function closeCheckout(deps: Deps, r: { id: number; paymentId: string | null; paymentStatus: string | null }) {
  if (!r.paymentId || r.paymentStatus !== PAYMENT_STATUS.PENDING) return;
  try {
    if ((await paymentMethodOf(deps.db, r.paymentId)) === 'MOBILE_MONEY') await (await railOfPayment(deps, r.paymentId))?.cancelPayIn(r.paymentId);
    else await deps.providers.payment.expireCheckoutSession(r.paymentId);
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'checkout session not closed', reservationId: r.id });
  }
}

/** Browser came back from checkout: ask the provider, apply an authorisation if there is one. */
export async function checkoutReturned(deps: Deps, sessionId: string, cancelled: boolean) {
  let session: CheckoutSession;
  try {
    session = await deps.providers.payment.retrieveCheckoutSession(sessionId);
  } catch {
    return { outcome: 'UNKNOWN' as CallbackOutcome, reservationId: null };
  }
  const [known] = await deps.db.select().from(paymentSessions).where(eq(paymentSessions.sessionId, session.id));
  const reservationId = known?.reservationId ?? session.reservationId;
  if (!reservationId) return { outcome: 'UNKNOWN' as CallbackOutcome, reservationId: null };
  // The page tells what happened to the booking, not what the browser was sent back for.
  if (session.status === 'complete' && session.paymentIntentId) {
    const applied = await authorizePayment(deps, reservationId, { paymentId: session.id, authorizationId: session.paymentIntentId });
    return { outcome: (applied === 'NOT_PAYABLE' ? 'BOOKING_ENDED' : 'AUTHORIZED') as CallbackOutcome, reservationId };
  }
  if (session.status === 'expired') return { outcome: 'BOOKING_ENDED' as CallbackOutcome, reservationId };
  return { outcome: (cancelled ? 'CANCELLED' : 'NOT_COMPLETED') as CallbackOutcome, reservationId };
}
