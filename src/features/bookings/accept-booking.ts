// The carrier accepts a paid booking (and the sender's link to the recipient page).
import type { AuthUser, Deps } from '../../env';
import { recipientPageUrl } from '../../lib/urls';
import { assertReservationAccess } from '../../access/reservation-access';
import { recipientLinkMessages } from '../deliveries/recipient';
import { notify, reservationRef } from '../deliveries/notify';
import { msg } from '../../messages';
import { loadReservation } from '../reservations/lifecycle';
import type { ReservationDtoView } from '../reservations/reservation-views';
import { commitForRequest } from './booking-ending';

export async function acceptReservation(deps: Deps, auth: AuthUser, id: number): Promise<ReservationDtoView> {
  const { db } = deps;
  const r = await loadReservation(db, id);
  await assertReservationAccess(deps, auth, r, { carrier: true });
  const note = { userId: r.senderId, type: 'RESERVATION_CONFIRMED' as const, text: msg('notice.bookingAccepted', { number: r.reservationNumber }), data: reservationRef(r) };
  return commitForRequest(deps, {
    id,
    from: r.status,
    action: 'ACCEPT',
    set: { confirmedAt: new Date().toISOString() },
    // The sender's notice, and the recipient's link to the parcel's public page.
    effects: (guard) => [...notify(db, note, guard), recipientLinkMessages(db, id, 'CONFIRMED', guard)],
  });
}

export async function recipientLink(deps: Deps, auth: AuthUser, id: number) {
  const r = await loadReservation(deps.db, id);
  await assertReservationAccess(deps, auth, r, { sender: true });
  return { url: recipientPageUrl(deps.env, r.recipientToken), token: r.recipientToken };
}
