// A reservation keeps the terms it was booked on (CONTRACT section 19): the trip's route, dates
// and points are copied into it at booking (the price per kg always was). Pure: no I/O here.
import type { ReservationRow, ReservationStatus } from '../../db/schema';

/** The trip's fields a reservation keeps as its own (the Reservation shows these, not the trip's). */
export const TRIP_TERM_FIELDS = [
  'departureCity',
  'departureCountry',
  'arrivalCity',
  'arrivalCountry',
  'departureDate',
  'arrivalDate',
  'pickupPoint',
  'deliveryPoint',
] as const satisfies readonly (keyof ReservationRow)[];
export type TripTerms = Pick<ReservationRow, (typeof TRIP_TERM_FIELDS)[number]>;

/** The terms a reservation copies from its trip. */
export const termsOf = (trip: TripTerms): TripTerms => Object.fromEntries(TRIP_TERM_FIELDS.map((k) => [k, trip[k]])) as TripTerms;

/** The fields of a trip that cannot change while it carries a live paid reservation (besides the price). */
export const ROUTE_FIELDS = ['departureCity', 'departureCountry', 'arrivalCity', 'arrivalCountry'] as const satisfies readonly (keyof TripTerms)[];

/**
 * Reservations a trip's edit still reaches: not deposited, not finished. A paid or confirmed one
 * takes the new dates and points (its sender is told and may cancel for free); an unpaid one the
 * route too (the route can change only while no reservation is paid), never its price: its
 * amounts were computed at booking.
 */
export const RETERMED_STATUSES = ['PENDING_PAYMENT', 'PAID', 'CONFIRMED'] as const satisfies readonly ReservationStatus[];

/** The terms `edit` changes (the keys whose value differs from `current`). */
export function changedTerms(current: TripTerms, edit: Partial<TripTerms>): (keyof TripTerms)[] {
  return TRIP_TERM_FIELDS.filter((k) => edit[k] !== undefined && edit[k] !== current[k]);
}
