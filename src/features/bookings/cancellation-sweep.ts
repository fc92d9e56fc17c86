// The sweep a suspension and a trip hidden by moderation share: reservations cancelled in rounds
// of lifecycle plans, one batch a round, then the provider side of each one cancelled.
import type { ReservationRow } from '../../db/schema';
import type { Deps } from '../../env';
import { closeCheckout, needsSettlement, PAYMENT_STATUS, settleWithProvider } from '../money';
import { commitTransitions, type TransitionPlan } from '../reservations/lifecycle';

export interface CancellationSweep<T extends { r: ReservationRow }> {
  /** Batches to run at most (a request runs a few; the cron takes what is left). */
  rounds: number;
  /** Plans per batch: every statement counts against the invocation's D1 query limit. */
  batch: number;
  /** What is still to cancel, read from the state each round (so a sweep cut short is found again). */
  due: (limit: number) => Promise<T[]>;
  /** The cancellation of one of them. */
  plan: (item: T, now: Date) => TransitionPlan;
}

/**
 * Runs a sweep and returns how many reservations it cancelled. After each batch, a void or refund
 * with the provider for those paid, the open checkout closed for those unpaid. A plan that lost a
 * race (paid or deposited meanwhile) is read again in the next round; the sweep stops when a round
 * finds nothing, or finds less than a batch and every plan applied.
 */
export async function sweepCancellations<T extends { r: ReservationRow }>(deps: Deps, sweep: CancellationSweep<T>): Promise<number> {
  let cancelled = 0;
  for (let round = 0; round < sweep.rounds; round++) {
    const due = await sweep.due(sweep.batch);
    if (due.length === 0) break;
    const now = new Date();
    const { rows } = await commitTransitions(
      deps.db,
      due.map((item) => sweep.plan(item, now)),
    );
    for (const [i, row] of rows.entries()) {
      if (!row) continue;
      cancelled += 1;
      if (needsSettlement(row)) await settleWithProvider(deps, row.id);
      else if (due[i].r.paymentStatus === PAYMENT_STATUS.PENDING) await closeCheckout(deps, due[i].r);
    }
    if (due.length < sweep.batch && rows.every((row) => row !== null)) break;
  }
  return cancelled;
}
