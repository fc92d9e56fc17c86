// The carrier rejects a booking: everything paid goes back (booking-ending.ts).
import type { AuthUser, Deps } from '../../env';
import { assertReservationAccess, carrierSideIds } from '../../access/reservation-access';
import { loadReservation } from '../reservations/lifecycle';
import type { ReservationDtoView } from '../reservations/reservation-views';
import { commitForRequest, endingEffects, endingNotices, endingOutcome } from './booking-ending';

export async function rejectReservation(deps: Deps, auth: AuthUser, id: number): Promise<ReservationDtoView> {
  const { db } = deps;
  const r = await loadReservation(db, id);
  await assertReservationAccess(deps, auth, r, { carrier: true });
  const now = new Date();
  const o = endingOutcome(r, 'CARRIER', now);
  return commitForRequest(deps, {
    id,
    from: r.status,
    action: 'REJECT',
    effects: endingEffects(db, r, endingNotices(r, 'REJECTED', o, await carrierSideIds(deps, r)), o, now),
  });
}
