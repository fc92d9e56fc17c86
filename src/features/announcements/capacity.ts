// A trip's capacity: what it can still take is its total less what is reserved. Bookings apply
// the rule when they check a trip read earlier and, atomically, in the statements that take the
// weight; the search filters on it. One definition in TypeScript, its twin in SQL beside it.
import { sql, type SQL } from 'drizzle-orm';
import { announcements } from '../../db/schema';

/** A trip's load, in grams. */
export interface TripLoad {
  totalWeightG: number;
  reservedWeightG: number;
}

/** Grams a trip can still take (never below 0). */
export const remainingCapacityG = (trip: TripLoad): number => Math.max(0, trip.totalWeightG - trip.reservedWeightG);

/** A booking of `weightG` fits while it is no more than what remains. */
export const fitsCapacity = (trip: TripLoad, weightG: number): boolean => weightG <= remainingCapacityG(trip);

/**
 * The same rule on the announcements row: the booking's guard (`weight <= remaining`), its FULL
 * flip (`weight >= remaining`: nothing is left once it is taken) and the search by weight.
 */
export const remainingCapacitySql = (): SQL => sql`${announcements.totalWeightG} - ${announcements.reservedWeightG}`;
