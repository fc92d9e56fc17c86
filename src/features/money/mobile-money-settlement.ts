// The provider side of mobile-money payments that escrow.ts routes to: which method paid a
// reservation (its checkout session's), and Wave's refund of a whole checkout. Wave refunds only
// whole checkouts, so a partial refund of a Wave payment cannot be sent: it stays REFUND_PENDING
// and is logged for operators (docs/decisions-wavepay.md).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentSessions, type PaymentMethod } from '../../db/schema';
import type { Deps } from '../../env';
import { chargedCents } from './ledger/posting-rules';

/** How the checkout `paymentId` was paid: MOBILE_MONEY for a Wave session, CARD otherwise. */
export async function paymentMethodOf(db: Db, paymentId: string | null): Promise<PaymentMethod> {
  if (!paymentId) return 'CARD';
  const [s] = await db.select({ method: paymentSessions.method }).from(paymentSessions).where(eq(paymentSessions.sessionId, paymentId));
  return s?.method ?? 'CARD';
}

/**
 * Refunds a Wave checkout in full (idempotency key per reservation). Returns the refund's id for
 * the reservation's refundId, or null when the refund is partial and cannot be sent.
 */
export async function refundMobileMoney(
  deps: Deps,
  r: { id: number; authorizationId: string | null; totalAmountCents: number; protectionPremiumCents?: number },
  refundCents: number,
): Promise<string | null> {
  const checkoutId = r.authorizationId;
  if (!checkoutId) return null;
  // Whole means what was charged: the price and the protection premium.
  if (refundCents !== chargedCents(r)) {
    console.error(JSON.stringify({ level: 'error', msg: 'partial refund of a Wave payment left to operators', reservationId: r.id, refundCents }));
    return null;
  }
  await deps.providers.mobileMoney.refundCheckout(checkoutId, `refund-${r.id}`);
  return `refund-${checkoutId}`;
}
