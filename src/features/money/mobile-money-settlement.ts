// The provider side of mobile-money payments that escrow.ts routes to: which method paid a
// reservation (its checkout session's), Wave's refund of a whole checkout, and the partial refund.
// Wave refunds only whole checkouts, so a partial refund (a cancellation keeping a part, a partial
// dispute refund) is paid back as a Wave payout to the sender's verified Wave number; without one,
// or while Wave has not paid it, it stays REFUND_PENDING in the console's queue
// (docs/decisions-wavepay.md).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentSessions, users, type PaymentMethod } from '../../db/schema';
import type { Deps } from '../../env';
import { MobileMoneyRejectedError, ProviderRejectedError } from '../../providers/mobile-money';
import { waveMobile } from './payout-accounts/payout-accounts.rules';
import { chargedCents } from './ledger/posting-rules';
import { reportCaught } from '../../error-tracking';

/** How the checkout `paymentId` was paid: MOBILE_MONEY for a Wave session, CARD otherwise. */
export async function paymentMethodOf(db: Db, paymentId: string | null): Promise<PaymentMethod> {
  if (!paymentId) return 'CARD';
  const [s] = await db.select({ method: paymentSessions.method }).from(paymentSessions).where(eq(paymentSessions.sessionId, paymentId));
  return s?.method ?? 'CARD';
}

/** What a mobile-money refund did: its id for the reservation's refundId, and whether it was a part. */
export interface MobileRefund {
  refundId: string;
  partial: boolean;
}

interface RefundedReservation {
  id: number;
  reservationNumber: string;
  senderId: number;
  authorizationId: string | null;
  totalAmountCents: number;
  protectionPremiumCents?: number;
  currency: string;
}

/**
 * Refunds a Wave-paid reservation: the whole checkout when the whole price goes back (idempotency
 * key per reservation), else the part as a Wave payout to the sender's verified number. Null when
 * nothing could be sent yet (the status stays REFUND_PENDING and the cron or an operator retries).
 */
export async function refundMobileMoney(deps: Deps, r: RefundedReservation, refundCents: number): Promise<MobileRefund | null> {
  const checkoutId = r.authorizationId;
  if (!checkoutId) return null;
  // Whole means what was charged: the price and the protection premium.
  if (refundCents !== chargedCents(r)) return partialRefundByPayout(deps, r, refundCents);
  await deps.providers.mobileMoney.refundCheckout(checkoutId, `refund-${r.id}`);
  return { refundId: `refund-${checkoutId}`, partial: false };
}

/** The payer's wallet a partial refund is paid to: the sender's verified phone, when it is a Wave number. */
async function senderWallet(db: Db, senderId: number) {
  const [u] = await db
    .select({ phone: users.phoneNumber, verified: users.phoneVerified, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, senderId));
  const mobile = u?.verified && u.phone ? waveMobile(u.phone) : null;
  return mobile ? { mobile, name: `${u!.firstName} ${u!.lastName}` } : null;
}

async function partialRefundByPayout(deps: Deps, r: RefundedReservation, refundCents: number): Promise<MobileRefund | null> {
  const log = (why: string) => reportCaught(deps.env, new Error(`partial Wave refund left to operators: ${why}`), { msg: 'partial Wave refund left to operators', reservationId: r.id, refundCents });
  const wallet = await senderWallet(deps.db, r.senderId);
  if (!wallet) {
    log('the sender has no verified Wave number');
    return null;
  }
  try {
    // The same key on every retry: Wave answers with the same payout, never a second one.
    const payout = await deps.providers.mobileMoney.createPayout({
      amountMinor: refundCents,
      currency: r.currency,
      mobile: wallet.mobile,
      name: wallet.name,
      clientReference: `refund-${r.reservationNumber}`,
      paymentReason: `Refund ${r.reservationNumber}`,
      idempotencyKey: `refund-${r.id}`,
    });
    if (payout.status === 'succeeded') return { refundId: `payout-${payout.id}`, partial: true };
    log(payout.failure ? `${payout.failure.code}: ${payout.failure.message}` : `payout ${payout.status}`);
    return null;
  } catch (err) {
    if (err instanceof MobileMoneyRejectedError || err instanceof ProviderRejectedError) {
      log(err.message);
      return null;
    }
    throw err;
  }
}
