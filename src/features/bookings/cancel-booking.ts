// The sender or the carrier cancels a booking: the trip's policy as booked (CONTRACT section 22),
// exactly what the cancellation quote said (booking-ending.ts endingOutcome).
import type { AuthUser, Deps } from '../../env';
import { admittedSide, assertReservationAccess, carrierSideIds } from '../../access/reservation-access';
import { closeCheckout } from '../money';
import { loadReservation } from '../reservations/lifecycle';
import type { ReservationDtoView } from '../reservations/reservation-views';
import { checkoutEnded, commitForRequest, endingEffects, endingNotices, endingOutcome } from './booking-ending';
import type { Canceller } from './cancellation-policy';

export async function cancelReservation(deps: Deps, auth: AuthUser, id: number, reason: string | null): Promise<ReservationDtoView> {
  const { db } = deps;
  const r = await loadReservation(db, id);
  await assertReservationAccess(deps, auth, r, { sender: true, carrier: true });
  const actor: Canceller = admittedSide(auth.id, r);
  const now = new Date();
  const decision = endingOutcome(r, actor, now);
  // Both parties, whoever cancelled: what goes back to the sender and what is kept.
  const notes = endingNotices(r, actor === 'CARRIER' ? 'CARRIER_CANCELLED' : 'SENDER_CANCELLED', decision, await carrierSideIds(deps, r), { cancelledBy: actor });
  const view = await commitForRequest(deps, {
    id,
    from: r.status,
    action: 'CANCEL',
    set: { cancelledAt: now.toISOString(), cancelledBy: auth.id, cancellationReason: reason, ...checkoutEnded(r) },
    effects: endingEffects(db, r, notes, decision, now),
  });
  await closeCheckout(deps, r);
  return view;
}
