// The provider side of mobile-money payments that escrow.ts routes to, through the port: which
// method paid a reservation (its payment session's), and the refund to the paying number. The rail
// decides how (Wave: the whole checkout, or a payout of the part; pawaPay: a refund of the deposit,
// whole or part). Each refund is one operation (operations.ts): one UUID on every retry, an unknown
// outcome asked about, never sent with a new id. Until the rail says COMPLETED the reservation stays
// REFUND_PENDING and the settlement cron asks again (docs/decisions-mobile-money.md).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications, paymentSessions, reservations, users, type PaymentMethod } from '../../db/schema';
import { runBatch } from '../../db/statements';
import { notify, reservationRef } from '../deliveries/notify';
import { textAmount } from '../../lib/message-text';
import { amountOf } from '../../lib/money';
import { rootUrl } from '../../lib/urls';
import { msg } from '../../messages';
import type { Deps } from '../../env';
import { chargedCents } from './ledger/posting-rules';
import { drive, operationByRef, operationFor } from './mobile-money/operations';
import { reportCaught } from '../../error-tracking';
import { ProviderRejectedError } from '../../providers/payment';

/** How the checkout `paymentId` was paid: MOBILE_MONEY for a mobile-money session, CARD otherwise. */
export async function paymentMethodOf(db: Db, paymentId: string | null): Promise<PaymentMethod> {
  if (!paymentId) return 'CARD';
  const [s] = await db.select({ method: paymentSessions.method }).from(paymentSessions).where(eq(paymentSessions.sessionId, paymentId));
  return s?.method ?? 'CARD';
}

/** The rail of a mobile-money payment (its session's provider), or null when none is configured. */
export async function railOfPayment(deps: Deps, paymentId: string) {
  const [s] = await deps.db.select({ provider: paymentSessions.provider }).from(paymentSessions).where(eq(paymentSessions.sessionId, paymentId));
  return s ? deps.providers.mobileMoney.rail(s.provider) : null;
}

/** What a mobile-money refund did: its id for the reservation's refundId, and whether it was a part. */
export interface MobileRefund {
  refundId: string;
  partial: boolean;
  /** The number paid back (E.164), when the rail named one. */
  phone: string | null;
}

interface RefundedReservation {
  id: number;
  reservationNumber: string;
  senderId: number;
  paymentId: string | null;
  authorizationId: string | null;
  totalAmountCents: number;
  protectionPremiumCents?: number;
  currency: string;
  /** The refund attempt (an operator's retry starts the next one). */
  refundAttempt?: number;
}

/** The sender's verified phone and name: where a refund goes when the pay-in did not say who paid. */
async function sender(db: Db, senderId: number) {
  const [u] = await db
    .select({ phone: users.phoneNumber, verified: users.phoneVerified, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, senderId));
  return { phone: u?.verified ? u.phone : null, name: u ? `${u.firstName} ${u.lastName}` : '' };
}

/**
 * A refund that waits on the sender says so (CONTRACT 26): the amount, and the link to the booking
 * in the app where they verify their number; once per reservation, however often the cron retries.
 */
async function tellToVerifyPhone(deps: Deps, r: RefundedReservation, refundCents: number) {
  const [told] = await deps.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, r.senderId),
        eq(notifications.type, 'PAYMENT_REFUNDED'),
        sql`json_extract(${notifications.text}, '$.key') = 'notice.refundAwaitsPhone'`,
        sql`json_extract(${notifications.data}, '$.reservationId') = ${r.id}`,
      ),
    )
    .limit(1);
  if (told) return;
  const text = msg('notice.refundAwaitsPhone', { amount: textAmount(refundCents, r.currency), number: r.reservationNumber, link: rootUrl(deps.env, `/app/bookings/${r.id}`) });
  const data = { ...reservationRef(r), amount: amountOf(refundCents, r.currency), currency: r.currency, awaiting: 'PHONE_VERIFICATION' };
  await runBatch(deps.db, notify(deps.db, { userId: r.senderId, type: 'PAYMENT_REFUNDED', text, data }));
}

/**
 * Refunds a mobile-money-paid reservation to the number that paid. Null while nothing is confirmed
 * (the status stays REFUND_PENDING: the rail is still working, refused it, or there is no number to
 * pay a part back to yet; the cron or an operator follows up).
 */
export async function refundMobileMoney(deps: Deps, r: RefundedReservation, refundCents: number): Promise<MobileRefund | null> {
  const ref = r.authorizationId;
  const rail = ref ? await railOfPayment(deps, r.paymentId ?? ref) : null;
  if (!ref || !rail) return null;
  const log = (why: string) => reportCaught(deps.env, new Error(`mobile-money refund left to operators: ${why}`), { msg: 'mobile-money refund left to operators', reservationId: r.id, refundCents });
  const payIn = await operationByRef(deps.db, rail.code, ref);
  const who = await sender(deps.db, r.senderId);
  const phone = payIn?.phone ?? who.phone;
  const partial = refundCents !== chargedCents(r);
  // A part goes back to a number the rail pays; without one yet nothing is sent (a number verified later is paid then).
  if (partial && !(phone && (await rail.predictOperator(phone)))) {
    log('no number of this provider to pay the part back to');
    await tellToVerifyPhone(deps, r, refundCents);
    return null;
  }
  const reference = `refund-${r.reservationNumber}`;
  const op = await operationFor(deps.db, {
    // An operator's retry is a new operation (a new UUID): the failed one stays as the rail left it.
    subject: r.refundAttempt ? `refund:${r.id}:${r.refundAttempt}` : `refund:${r.id}`,
    kind: 'REFUND',
    rail: rail.code,
    operator: payIn?.operator ?? null,
    amountMinor: refundCents,
    currency: r.currency,
    phone,
    reservationId: r.id,
    reference,
  });
  const input = { id: op.id, payIn: { ref, amountMinor: chargedCents(r) }, amountMinor: refundCents, currency: r.currency, phone, name: who.name, reference };
  const { row } = await drive(deps.db, op, { send: () => rail.refund(input), status: (known) => rail.refundStatus(op.id, known) });
  if (row.status === 'COMPLETED') return { refundId: row.ref ?? row.id, partial, phone: phone ? `+${phone.replace(/^\+/, '')}` : null };
  // Refused for good: the settlement records the refusal, and an operator retries (a new operation).
  if (row.status === 'FAILED') throw new ProviderRejectedError(`mobile-money refund refused: ${row.failureCode}: ${row.failureMessage}`);
  return null;
}

/** Refunds a pay-in that arrived for a reservation no longer payable; the row records it when confirmed. */
export async function refundLatePayIn(deps: Deps, reservationId: number, ref: string, amountMinor: number, currency: string) {
  const rail = await railOfPayment(deps, ref);
  if (!rail) return;
  const payIn = await operationByRef(deps.db, rail.code, ref);
  const reference = `refund-late-${reservationId}`;
  const op = await operationFor(deps.db, { subject: `refund-late:${ref}`, kind: 'REFUND', rail: rail.code, operator: payIn?.operator ?? null, amountMinor, currency, phone: payIn?.phone ?? null, reservationId, reference });
  const input = { id: op.id, payIn: { ref, amountMinor }, amountMinor, currency, phone: payIn?.phone ?? null, name: '', reference };
  const { row } = await drive(deps.db, op, { send: () => rail.refund(input), status: (known) => rail.refundStatus(op.id, known) });
  if (row.status !== 'COMPLETED') {
    reportCaught(deps.env, new Error(`late mobile-money payment not refunded yet (${row.status})`), { msg: 'late mobile-money payment not refunded', reservationId, operation: op.id });
    return;
  }
  await deps.db
    .update(reservations)
    .set({ refundId: row.ref ?? row.id, refundedAt: new Date().toISOString(), paymentStatus: 'REFUNDED', updatedAt: new Date().toISOString() })
    // Only the row of this payment: a booking paid otherwise meanwhile keeps its own status.
    .where(and(eq(reservations.id, reservationId), eq(reservations.paymentId, ref)));
}
