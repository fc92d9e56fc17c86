// What moderation hiding a trip does to its reservations (a report closed with HIDE_ANNOUNCEMENT;
// docs/decisions-moderation.md). Every reservation not yet handed over (TRANSITIONS.CANCEL.from:
// PENDING_PAYMENT, PAID, CONFIRMED) is cancelled as a suspension of its carrier cancels it: the
// carrier's side of the policy, so a paid sender gets everything back, capacity released and the
// sender told, each a lifecycle plan. A deposited or later parcel keeps its delivery flow.
// The sweep reads the trips' state, not a list: a CANCELLED trip never keeps a reservation before
// deposit otherwise (the carrier's own deletion refuses paid ones and cancels unpaid ones in its
// batch), so whatever such reservation remains is left over by a hide cut short or a booking that
// raced it, and the cron's run finishes it.
import { and, eq, getTableColumns, inArray } from 'drizzle-orm';
import { announcements, reservations, type ReservationRow } from '../../db/schema';
import type { Deps } from '../../env';
import { fromMinor, storedMoney } from '../../lib/amount';
import { textAmount } from '../../lib/message-text';
import { msg } from '../../messages';
import type { TransitionPlan } from '../reservations/lifecycle';
import { TRANSITIONS } from '../reservations/reservation-state';
import { checkoutEnded, endingEffects, endingOutcome } from './booking-ending';
import { reservationRef } from '../deliveries/notify';
import { sweepCancellations } from './cancellation-sweep';

/** Why the reservation was cancelled (reservations.cancellation_reason, the notice's data.reason). */
export const TRIP_REMOVED_REASON = 'TRIP_REMOVED';

/** Plans per batch, as a suspension's (about 15 statements for a paid one). */
const BATCH = 20;
/** Batches a request runs (a plan that lost a race is read again); the cron takes what is left. */
const REQUEST_ROUNDS = 3;

/** Reservations before deposit on a hidden (CANCELLED) trip: of `announcementId`, or of any (the cron). */
async function dueOnRemovedTrips(deps: Deps, announcementId: number | null, limit: number): Promise<ReservationRow[]> {
  const { db } = deps;
  return db
    .select(getTableColumns(reservations))
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .where(
      and(
        announcementId === null ? undefined : eq(reservations.announcementId, announcementId),
        inArray(reservations.status, [...TRANSITIONS.CANCEL.from]),
        eq(announcements.status, 'CANCELLED'),
      ),
    )
    .orderBy(reservations.id)
    .limit(limit);
}

/** The cancellation of one reservation whose trip moderation removed: the carrier's side, in full. */
export function tripRemovalPlan(deps: Deps, r: ReservationRow, actorId: number | null, now: Date): TransitionPlan {
  const decision = endingOutcome(r, 'CARRIER', now);
  const note = {
    userId: r.senderId,
    type: 'RESERVATION_CANCELLED' as const,
    text: decision.paid
      ? msg('notice.tripRemovedToSender', { number: r.reservationNumber, refund: textAmount(decision.refundCents, r.currency) })
      : msg('notice.tripRemovedUnpaidToSender', { number: r.reservationNumber }),
    data: {
      ...reservationRef(r),
      announcementId: r.announcementId,
      cancelledBy: 'SYSTEM',
      reason: TRIP_REMOVED_REASON,
      refundAmount: fromMinor(storedMoney(decision.refundCents, r.currency)),
      currency: r.currency,
    },
  };
  return {
    id: r.id,
    from: r.status,
    action: 'CANCEL',
    set: { cancelledAt: now.toISOString(), cancelledBy: actorId, cancellationReason: TRIP_REMOVED_REASON, ...checkoutEnded(r) },
    effects: endingEffects(deps.db, r, [note], decision, now),
  };
}

/**
 * Cancels the reservations before deposit on the hidden trip `announcementId` (or, from the cron,
 * on any hidden trip: null), in batches, then the provider side (voids, refunds, open checkouts
 * closed). A plan that lost a race (paid meanwhile) is read again in the next round. Returns how
 * many were cancelled.
 */
export function cancelOnRemovedTrip(deps: Deps, announcementId: number | null, actorId: number | null, rounds = REQUEST_ROUNDS): Promise<number> {
  return sweepCancellations(deps, {
    rounds,
    batch: BATCH,
    due: async (limit) => (await dueOnRemovedTrips(deps, announcementId, limit)).map((r) => ({ r })),
    plan: ({ r }, now) => tripRemovalPlan(deps, r, actorId, now),
  });
}
