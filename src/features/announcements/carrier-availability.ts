// A suspended carrier's own trips leave the search and take no bookings (CONTRACT section 19). The
// rule is read from users.enabled at query time, so it applies at once and ends with the
// activation. An agency's trips are the agency's: its status governs them (access/agency-scope.ts), not
// the account of the staff member who published them.
import { and, eq, exists, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { announcements, users } from '../../db/schema';

/** SQL over the announcements table: true unless the trip is a private carrier's and that account is suspended (or closed). */
export const carrierAvailableCondition = (): SQL =>
  sql`(${announcements.agencyId} IS NOT NULL OR ${exists(
    new QueryBuilder().select({ one: sql`1` }).from(users).where(and(eq(users.id, announcements.carrierId), eq(users.enabled, true))),
  )})`;

/** The same rule for a trip already read with its carrier's `enabled`. */
export const isCarrierAvailable = (trip: { agencyId: number | null }, carrierEnabled: boolean): boolean => trip.agencyId !== null || carrierEnabled;

/**
 * The search's form of both rules (this one and the agency's, access/agency-scope.ts): the trip's
 * own publisher_suspended, which triggers keep equal to them in the statement that suspends or
 * reactivates (migration 0077). Read from the trip, it costs no row per match: looking up every
 * match's carrier was half of what a page's total read.
 */
export const publisherListedCondition = (): SQL => eq(announcements.publisherSuspended, false);
