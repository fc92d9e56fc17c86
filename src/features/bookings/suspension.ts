// What a suspension does to reservations (CONTRACT section 19): on a suspended carrier's own trips,
// every reservation not yet deposited is cancelled with a full refund and its sender told; a
// suspended sender's unpaid reservations are cancelled and their carrier told. Each cancellation
// is a lifecycle plan (capacity, notices, refund in the batch of its status change). The sweep
// runs right after the suspension commits and again from the cron (a sweep cut short, or a
// carrier with more reservations than one request handles). Activation resurrects nothing.
import { and, eq, getTableColumns, inArray, isNull, type SQL } from 'drizzle-orm';
import { reservations, users, type ReservationRow } from '../../db/schema';
import type { Deps } from '../../env';
import type { TransitionPlan } from '../reservations/lifecycle';
import { TRANSITIONS } from '../reservations/reservation-state';
import { amountOf } from '../../lib/money';
import { textAmount } from '../../lib/message-text';
import { msg } from '../../messages';
import { checkoutEnded, endingEffects, endingOutcome } from './booking-ending';
import { reservationRef, toEach, type Notification } from '../deliveries/notify';
import { carrierSideIds } from '../../access/reservation-access';
import { sweepCancellations } from './cancellation-sweep';

/**
 * Plans per batch: about 15 statements each for a paid one (ledger, notices, capacity), and every
 * statement counts against the invocation's D1 query limit; each batch is complete on its own.
 */
export const SUSPENSION_BATCH = 20;
/** Batches a suspension request runs; what is left is the cron's (one batch a run). */
const REQUEST_ROUNDS = 2;

export type SuspendedParty = 'CARRIER' | 'SENDER';

/** Why the reservation was cancelled (reservations.cancellation_reason). */
export const SUSPENSION_REASON: Record<SuspendedParty, string> = { CARRIER: 'CARRIER_SUSPENDED', SENDER: 'SENDER_SUSPENDED' };

/** Statuses a suspension cancels, by the suspended party: before deposit for a carrier, unpaid for a sender. */
export const CANCELLED_ON_SUSPENSION: Record<SuspendedParty, readonly ReservationRow['status'][]> = {
  CARRIER: TRANSITIONS.CANCEL.from,
  SENDER: ['PENDING_PAYMENT'],
};

/**
 * The reservations a suspension still has to cancel (of `userId`, or of every suspended account),
 * sought through the account's or the status's index: read from the accounts' state, so a sweep cut short is found again. Agency trips
 * are the agency's (its own suspension hides them): a suspended staff member's account does not
 * cancel them.
 */
async function dueForSuspension(deps: Deps, userId: number | null, limit: number) {
  const { db } = deps;
  const of = (party: SuspendedParty, extra?: SQL) => {
    const column = party === 'CARRIER' ? reservations.carrierId : reservations.senderId;
    return db
      .select(getTableColumns(reservations))
      .from(reservations)
      .innerJoin(users, eq(users.id, column))
      .where(
        and(
          userId === null ? undefined : eq(column, userId),
          inArray(reservations.status, [...CANCELLED_ON_SUSPENSION[party]]),
          eq(users.enabled, false),
          extra,
        ),
      )
      .limit(limit);
  };
  const [onTrips, asSender] = await db.batch([of('CARRIER', isNull(reservations.agencyId)), of('SENDER')]);
  const seen = new Set<number>();
  const due: { r: ReservationRow; party: SuspendedParty; carrierSide?: number[] }[] = [];
  for (const [rows, party] of [
    [onTrips, 'CARRIER'],
    [asSender, 'SENDER'],
  ] as const) {
    for (const r of rows) {
      if (seen.has(r.id) || due.length >= limit) continue;
      seen.add(r.id);
      due.push({ r, party });
    }
  }
  // A suspended sender's booking is news for the carrier side: the agency trip's acting staff now.
  for (const item of due) if (item.party === 'SENDER') item.carrierSide = await carrierSideIds(deps, item.r);
  return due;
}

/** The cancellation of one reservation for its suspended carrier or sender. */
export function suspensionPlan(deps: Deps, { r, party, carrierSide = [r.carrierId] }: { r: ReservationRow; party: SuspendedParty; carrierSide?: number[] }, actorId: number | null, now: Date): TransitionPlan {
  const { db } = deps;
  // The carrier's suspension is the carrier failing the booking: the sender gets everything back.
  const decision = endingOutcome(r, 'CARRIER', now);
  const data = { ...reservationRef(r), cancelledBy: 'SYSTEM', refundAmount: amountOf(decision.refundCents, r.currency), currency: r.currency };
  const number = r.reservationNumber;
  const notes: Notification[] =
    party === 'CARRIER'
      ? [
          {
            userId: r.senderId,
            type: 'RESERVATION_CANCELLED',
            text: decision.paid ? msg('notice.suspendedCarrierToSender', { number, refund: textAmount(decision.refundCents, r.currency) }) : msg('notice.suspendedCarrierUnpaidToSender', { number }),
            data,
          },
        ]
      : toEach(carrierSide, { type: 'RESERVATION_CANCELLED', text: msg('notice.suspendedSenderToCarrier', { number }), data, inAppOnly: true });
  return {
    id: r.id,
    from: r.status,
    action: 'CANCEL',
    set: { cancelledAt: now.toISOString(), cancelledBy: actorId, cancellationReason: SUSPENSION_REASON[party], ...checkoutEnded(r) },
    effects: endingEffects(db, r, notes, decision, now),
  };
}

/**
 * Cancels what the suspension of `userId` (or, from the cron, of any account: null) still has to
 * cancel, in batches of SUSPENSION_BATCH, then does the provider side (voids, refunds, open
 * checkouts closed). Returns how many reservations were cancelled.
 */
export function cancelForSuspension(deps: Deps, userId: number | null, actorId: number | null, rounds = REQUEST_ROUNDS): Promise<number> {
  return sweepCancellations(deps, {
    rounds,
    batch: SUSPENSION_BATCH,
    due: (limit) => dueForSuspension(deps, userId, limit),
    plan: (item, now) => suspensionPlan(deps, item, actorId, now),
  });
}
