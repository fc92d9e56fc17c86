// A super-admin's retry of a refund or a payout the provider refused (CONTRACT section 27), from
// GET /superadmin/reconciliation or the console. Each retry is claimed by a conditional write whose
// changed-row count is checked, with its audit entry in the same batch, so two operators (or two
// clicks) never refund or pay out twice: the loser gets 409 and nothing is sent for it.
import { and, eq, isNotNull } from 'drizzle-orm';
import { reservations, withdrawals } from '../../../db/schema';
import { PAYMENT_STATUS, type PaymentStatusValue } from '../../../db/schema/reservations';
import type { Deps } from '../../../env';
import { AppError, invalidState, notFound } from '../../../errors';
import { auditInsertIfChanged } from '../../audit/audit';
import { loadReservation } from '../../reservations/lifecycle';
import { settleWithProvider } from '../escrow';
import { requestWithdrawal, toWithdrawal } from '../withdrawals/withdrawals.service';
import { isRetryableRefund } from './pending';

const SEE_PENDING = { suggestions: ['reconciliation.seePending' as const] };

/**
 * Sends a refused refund again as a new attempt (a new idempotency key at Stripe, a new operation
 * for mobile money): claimed by moving the attempt number on, audited REFUND_RETRIED in that batch.
 */
export async function retryRefund(deps: Deps, actorId: number, reservationId: number, ip: string | null) {
  const { db } = deps;
  const r = await loadReservation(db, reservationId);
  if (!isRetryableRefund(r)) throw invalidState('reconciliation.refundNotFailed', { id: r.id }, SEE_PENDING);
  const attempt = r.refundAttempt + 1;
  const [claimed] = await db.batch([
    db
      .update(reservations)
      .set({ refundAttempt: attempt, settlementError: null, refundId: null, updatedAt: new Date().toISOString() })
      .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, PAYMENT_STATUS.REFUND_PENDING), eq(reservations.refundAttempt, r.refundAttempt), isNotNull(reservations.settlementError))),
    auditInsertIfChanged(db, { actorId, action: 'REFUND_RETRIED', targetType: 'RESERVATION', targetId: r.id, ip, details: { attempt, previousFailure: r.settlementError } }),
  ]);
  if ((claimed as D1Result).meta.changes !== 1) throw invalidState('reconciliation.refundRetryRaced', { id: r.id }, SEE_PENDING);
  const after = await settleWithProvider(deps, r.id);
  return { reservationId: after.id, paymentStatus: after.paymentStatus as PaymentStatusValue | null, refundId: after.refundId, attempt: after.refundAttempt, failure: after.settlementError };
}

/**
 * Pays a FAILED withdrawal out again: a new withdrawal of the same amount from the owner's wallet
 * (the failure put the money back) to their payout account as it is now, naming the failed one
 * (`retryOf`, unique: one retry each), audited PAYOUT_RETRIED in its batch. A refusal again is
 * answered with the new withdrawal FAILED and its reason, its money back in the wallet.
 */
export async function retryPayout(deps: Deps, actorId: number, withdrawalId: number, ip: string | null) {
  const { db } = deps;
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!w) throw notFound('Withdrawal', withdrawalId);
  if (w.status !== 'FAILED') throw invalidState('reconciliation.payoutNotFailed', { id: w.id }, SEE_PENDING);
  const [retried] = await db.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.retryOf, w.id));
  if (retried) throw invalidState('reconciliation.payoutAlreadyRetried', { id: w.id }, SEE_PENDING);
  try {
    await requestWithdrawal(deps, { type: w.ownerType, id: w.ownerId }, w.amountCents, false, null, w.currency, { of: w.id, actorId, ip });
  } catch (err) {
    // Refused again (502): the new withdrawal is FAILED with the provider's reason; anything else is the answer.
    if (!(err instanceof AppError && err.errorCode === 'PAYMENT_PROCESSING_ERROR' && err.status === 502)) throw err;
  }
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.retryOf, w.id));
  return { retriedWithdrawalId: w.id, withdrawal: toWithdrawal(row) };
}
