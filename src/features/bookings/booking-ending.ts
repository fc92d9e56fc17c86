// How a booking ends (reject, cancel, expiry, suspension, trip removal): ONE refund rule for all of
// them (cancellation-policy.ts cancellationOutcome: the carrier's side and the system refund in
// full, the sender's by the trip's policy), the capacity given back, the parties told, and the
// money side from money/, all in the transition's batch.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { announcements, type ReservationRow } from '../../db/schema';
import type { Deps } from '../../env';
import { needsSettlement, PAYMENT_STATUS, refundEffects, settleWithProvider } from '../money';
import { notify, reservationRef, toEach, type Notification } from '../deliveries/notify';
import { amountOf } from '../../lib/money';
import { textAmount } from '../../lib/message-text';
import { msg, type Message } from '../../messages';
import { allEffects, commitTransition, type TransitionPlan } from '../reservations/lifecycle';
import { dtoViewFromReads, getReservationDtoView, reservationDtoViewStatements, type ReservationDtoView } from '../reservations/reservation-views';
import { outcomeForReservation, type Canceller, type CancellationOutcome } from './cancellation-policy';

export const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * What ending `r` now does with its money. `by` is who ends it: the sender (the trip's policy), or
 * the carrier's side, which covers the carrier's rejection, the system's (no answer in 24 hours,
 * a suspension, a removed trip): everything goes back. Unpaid: nothing moves.
 */
export const endingOutcome = (r: ReservationRow, by: Canceller, now: Date): CancellationOutcome => outcomeForReservation(r, by, now);

/** A booking that ends before payment ends its open checkout too: no PENDING payment is left behind. */
export const checkoutEnded = (r: ReservationRow) => (r.paymentStatus === PAYMENT_STATUS.PENDING ? { paymentStatus: PAYMENT_STATUS.EXPIRED } : {});

/** Gives the reserved weight back to the trip (a FULL future trip is ACTIVE again). */
const releaseCapacity = (db: Db, r: ReservationRow, now: Date) => (guard: SQL) => [
  db
    .update(announcements)
    .set({
      reservedWeightG: sql`${announcements.reservedWeightG} - ${r.reservedWeightG}`,
      status: sql`CASE WHEN ${announcements.status} = 'FULL' AND ${announcements.departureDate} >= ${today(now)} THEN 'ACTIVE' ELSE ${announcements.status} END`,
      updatedAt: now.toISOString(),
    })
    .where(and(eq(announcements.id, r.announcementId), guard)),
];

/**
 * The effects of a transition that ends a booking: capacity back to the trip, the parties told,
 * and the outcome's money: the transport price part of the refund back to the sender (the premium
 * follows it when it goes back in full), the carrier's kept share to its wallet, the rest kept.
 */
export const endingEffects = (db: Db, r: ReservationRow, notes: Notification[], o: CancellationOutcome, now: Date) =>
  allEffects(
    releaseCapacity(db, r, now),
    (guard) => notify(db, notes, guard),
    o.paid ? refundEffects(db, r, o.refundCents - (r.protectionPremiumCents - o.keptPremiumCents), undefined, o.keptCarrierCents) : undefined,
  );

/**
 * Commits one request's transition with the reservation's view read in the same batch; when
 * money went back, the provider side follows and the view is read again.
 */
export async function commitForRequest(deps: Deps, plan: TransitionPlan): Promise<ReservationDtoView> {
  const { db } = deps;
  const { row, reads } = await commitTransition(db, plan, { reads: reservationDtoViewStatements(db, plan.id) });
  if (needsSettlement(row)) {
    await settleWithProvider(deps, row.id);
    return getReservationDtoView(db, row.id);
  }
  return dtoViewFromReads(plan.id, reads);
}

/** What the two parties are told when a booking ends: who ended it and how (CONTRACT section 26). */
export type EndingWay = 'REJECTED' | 'UNANSWERED' | 'EXPIRED' | 'SENDER_CANCELLED' | 'CARRIER_CANCELLED';

/** The words of each way, to the sender and to the carrier, when money was paid. */
const PAID_WORDS = {
  REJECTED: ['notice.rejectedToSender', 'notice.rejectedToCarrier'],
  UNANSWERED: ['notice.unansweredToSender', 'notice.unansweredToCarrier'],
  SENDER_CANCELLED: ['notice.senderCancelledToSender', 'notice.senderCancelledToCarrier'],
  CARRIER_CANCELLED: ['notice.carrierCancelledToSender', 'notice.carrierCancelledToCarrier'],
} as const;

const SENDER_CANCELLED_IN_FULL = ['notice.senderCancelledInFullToSender', 'notice.senderCancelledInFullToCarrier'] as const;

const KIND = { REJECTED: 'RESERVATION_REJECTED', UNANSWERED: 'RESERVATION_REJECTED', EXPIRED: 'RESERVATION_EXPIRED', SENDER_CANCELLED: 'RESERVATION_CANCELLED', CARRIER_CANCELLED: 'RESERVATION_CANCELLED' } as const;

/**
 * Both parties' notices of an ending, with what goes back to the sender, what is kept and the
 * carrier's kept share, whoever ended it and whatever the policy (a STRICT cancellation keeping
 * everything still tells the sender). Nothing paid: the carrier learns it in the app only (no
 * e-mail, push or SMS for an unpaid booking ending). `carrierSide`: the carrier, or each member of
 * the agency trip's acting staff (reservation-access.ts carrierSideIds).
 */
export function endingNotices(r: ReservationRow, way: EndingWay, o: CancellationOutcome, carrierSide: readonly number[], data: Record<string, unknown> = {}): Notification[] {
  const money = (cents: number) => textAmount(cents, r.currency);
  const number = r.reservationNumber;
  const values = { number, refund: money(o.refundCents), kept: money(o.keptCents), carrierKept: money(o.keptCarrierCents), kg: r.reservedWeightG / 1000 };
  const facts = { ...reservationRef(r), ...data, refundAmount: amountOf(o.refundCents, r.currency), keptAmount: amountOf(o.keptCents, r.currency), currency: r.currency };
  const type = KIND[way];
  let toSender: Message;
  let toCarrier: Message;
  if (way === 'EXPIRED') [toSender, toCarrier] = [msg('notice.expiredToSender', { number }), msg('notice.expiredToCarrier', { number, kg: values.kg })];
  else if (!o.paid) toSender = toCarrier = msg('notice.cancelledUnpaid', { number });
  else {
    // A sender's cancellation that keeps nothing (before confirmation, or a FLEXIBLE policy in time) says "in full", not "0 kept".
    const [s, c] = way === 'SENDER_CANCELLED' && o.keptCents === 0 ? SENDER_CANCELLED_IN_FULL : PAID_WORDS[way];
    [toSender, toCarrier] = [{ key: s, params: values }, { key: c, params: values }];
  }
  return [{ userId: r.senderId, type, text: toSender, data: facts }, ...toEach(carrierSide, { type, text: toCarrier, data: facts, inAppOnly: !o.paid })];
}
