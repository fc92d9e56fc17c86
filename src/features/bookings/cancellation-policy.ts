// What cancelling a booking does with its money (CONTRACT section 22): one pure function over the
// trip's policy, who cancels, the status, the time left before departure and the price split. The
// quote (GET /bookings/{id}/cancellation-quote) and the cancel both call it, so they cannot differ.
import type { CancellationPolicy } from '../../db/schema';
import { invalidState } from '../../errors';
import type { ReservationStatus } from '../reservations/reservation-state';
import { freeCancellationAfterTripChange } from './booking-rules';

export type Canceller = 'SENDER' | 'CARRIER';

/** The money of a booking in minor units of its currency; the premium exists once protection does. */
export interface CancellationMoney {
  totalCents: number;
  commissionCents: number;
  carrierCents: number;
  /** Protection premium paid beside the transport price (0 without protection). */
  premiumCents?: number;
}

export interface CancellationInput {
  policy: CancellationPolicy;
  by: Canceller;
  status: ReservationStatus;
  /** Milliseconds from now to departure (negative once departed). */
  msBeforeDeparture: number;
  /** The trip's dates or points changed under this booking: the sender cancels for free (section 19). */
  tripChanged?: boolean;
  money: CancellationMoney;
}

/** Why the outcome is what it is: a case outside the table, or the table's time window. */
export const CANCELLATION_RULES = [
  'NOT_PAID',
  'CARRIER_CANCELLATION',
  'NOT_CONFIRMED',
  'TRIP_CHANGED',
  'DEPARTURE_72H_OR_MORE',
  'DEPARTURE_24_TO_72H',
  'DEPARTURE_UNDER_24H',
] as const;
export type CancellationRule = (typeof CANCELLATION_RULES)[number];

export interface CancellationOutcome {
  /** Whether money was ever paid (nothing to void or refund otherwise). */
  paid: boolean;
  /** Back to the sender: transport price part plus the premium when the price goes back in full. */
  refundCents: number;
  /** Kept: keptCommissionCents + keptCarrierCents + keptPremiumCents. */
  keptCents: number;
  /** To platform revenue. */
  keptCommissionCents: number;
  /** To the carrier (or agency) wallet. */
  keptCarrierCents: number;
  /** To the protection reserve. */
  keptPremiumCents: number;
  rule: CancellationRule;
}

type Cell = 'FULL' | 'MINUS_COMMISSION' | 'HALF_CARRIER_SHARE' | 'NOTHING';

/** The table of section 22: policy by window (72 h or more, 24 to 72 h, under 24 h). */
const TABLE: Record<CancellationPolicy, readonly [Cell, Cell, Cell]> = {
  FLEXIBLE: ['FULL', 'FULL', 'MINUS_COMMISSION'],
  MODERATE: ['FULL', 'MINUS_COMMISSION', 'HALF_CARRIER_SHARE'],
  STRICT: ['MINUS_COMMISSION', 'HALF_CARRIER_SHARE', 'NOTHING'],
};

const HOUR_MS = 3_600_000;
const WINDOWS = ['DEPARTURE_72H_OR_MORE', 'DEPARTURE_24_TO_72H', 'DEPARTURE_UNDER_24H'] as const;

/** 72 h before departure or earlier: 0; from 24 h (included) to 72 h: 1; under 24 h: 2. */
export const windowIndex = (msBeforeDeparture: number): 0 | 1 | 2 => (msBeforeDeparture >= 72 * HOUR_MS ? 0 : msBeforeDeparture >= 24 * HOUR_MS ? 1 : 2);

/**
 * A trip departs on a date without a time: the cancellation clock counts to the start of that day
 * in UTC (the carrier may leave at any hour of it).
 */
export const departureInstant = (departureDate: string): number => Date.parse(`${departureDate}T00:00:00.000Z`);

/** What each cell refunds of the transport price, and how the rest splits (commission first). */
function cellSplit(cell: Cell, m: CancellationMoney) {
  switch (cell) {
    case 'FULL':
      return { transport: m.totalCents, commission: 0, carrier: 0 };
    case 'MINUS_COMMISSION':
      return { transport: m.totalCents - m.commissionCents, commission: m.commissionCents, carrier: 0 };
    case 'HALF_CARRIER_SHARE': {
      // Half the carrier's share back; an odd minor unit goes to the sender.
      const back = Math.ceil(m.carrierCents / 2);
      return { transport: back, commission: m.commissionCents, carrier: m.carrierCents - back };
    }
    case 'NOTHING':
      return { transport: 0, commission: m.commissionCents, carrier: m.carrierCents };
  }
}

function outcome(rule: CancellationRule, cell: Cell, m: CancellationMoney): CancellationOutcome {
  const premium = m.premiumCents ?? 0;
  const split = cellSplit(cell, m);
  // The premium goes back whenever the transport price does in full.
  const premiumBack = cell === 'FULL' ? premium : 0;
  const keptPremiumCents = premium - premiumBack;
  return {
    paid: true,
    refundCents: split.transport + premiumBack,
    keptCents: split.commission + split.carrier + keptPremiumCents,
    keptCommissionCents: split.commission,
    keptCarrierCents: split.carrier,
    keptPremiumCents,
    rule,
  };
}

/**
 * The outcome of cancelling now. A carrier's cancellation, a sender's before CONFIRMED and a
 * sender's after the trip changed are full refunds; otherwise the policy's table by the time left.
 * Unpaid: nothing moves. Deposited or later (or finished): 409 INVALID_STATE.
 */
export function cancellationOutcome(input: CancellationInput): CancellationOutcome {
  const { status, by, money } = input;
  if (status === 'PENDING_PAYMENT') {
    return { paid: false, refundCents: 0, keptCents: 0, keptCommissionCents: 0, keptCarrierCents: 0, keptPremiumCents: 0, rule: 'NOT_PAID' };
  }
  if (status !== 'PAID' && status !== 'CONFIRMED') {
    throw invalidState('booking.notCancellable', { status }, { suggestions: ['booking.cancellationPossibleBeforeParcel'] });
  }
  if (money.commissionCents + money.carrierCents !== money.totalCents) throw new Error('commission and carrier share must add up to the total');
  if (by === 'CARRIER') return outcome('CARRIER_CANCELLATION', 'FULL', money);
  if (status === 'PAID') return outcome('NOT_CONFIRMED', 'FULL', money);
  if (input.tripChanged) return outcome('TRIP_CHANGED', 'FULL', money);
  const w = windowIndex(input.msBeforeDeparture);
  return outcome(WINDOWS[w], TABLE[input.policy][w], money);
}

/** The fields of a reservation the outcome reads. */
export type CancellableReservation = {
  status: ReservationStatus;
  cancellationPolicy: CancellationPolicy;
  departureDate: string;
  tripChangedAt: string | null;
  totalAmountCents: number;
  platformCommissionCents: number;
  carrierAmountCents: number;
  /** The protection premium paid (CONTRACT 21); absent: none. */
  protectionPremiumCents?: number;
};

/** The outcome for a stored reservation cancelled at `now` by `by` (the quote and the cancel). */
export function outcomeForReservation(r: CancellableReservation, by: Canceller, now: Date): CancellationOutcome {
  return cancellationOutcome({
    policy: r.cancellationPolicy,
    by,
    status: r.status,
    msBeforeDeparture: departureInstant(r.departureDate) - now.getTime(),
    tripChanged: freeCancellationAfterTripChange(r, now.toISOString().slice(0, 10)),
    money: { totalCents: r.totalAmountCents, commissionCents: r.platformCommissionCents, carrierCents: r.carrierAmountCents, premiumCents: r.protectionPremiumCents },
  });
}
