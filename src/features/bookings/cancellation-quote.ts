// GET /bookings/{id}/cancellation-quote: what cancelling now would do (CONTRACT section 22), from
// the same function the cancel uses (cancellation-policy.ts outcomeForReservation).
import type { AuthUser, Deps } from '../../env';
import { assertCanRead, sideOf } from '../../access/reservation-access';
import { amountOf } from '../../lib/money';
import { loadReservation } from '../reservations/lifecycle';
import { outcomeForReservation, type Canceller } from './cancellation-policy';

export async function cancellationQuote(deps: Deps, auth: AuthUser, id: number, now = new Date()) {
  const r = await loadReservation(deps.db, id);
  await assertCanRead(deps, auth, r);
  // The carrier side's cancellation for the carrier and its staff; anyone else (the sender, an
  // admin looking) sees the sender's, the one the policy governs.
  const by: Canceller = (await sideOf(deps, auth, r)) === 'CARRIER' ? 'CARRIER' : 'SENDER';
  const o = outcomeForReservation(r, by, now);
  return {
    refundAmount: amountOf(o.refundCents, r.currency),
    keptAmount: amountOf(o.keptCents, r.currency),
    currency: r.currency,
    policy: r.cancellationPolicy,
    rule: o.rule,
  };
}
