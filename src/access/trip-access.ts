// Who manages a trip (edit, cancel, travel proof, reading it once withdrawn): the carrier of a
// private trip; for an agency's trip its acting staff now (CONTRACT 25: the owner, the current
// employees of the trip's branch; its publisher has no right of their own); admins where allowed.
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { announcements } from '../db/schema';
import type { AuthUser, Deps } from '../env';
import { accessDenied } from '../errors';
import { hasRole } from '../middleware/auth';
import { actsForAgencyTrip, canStaffManageAnnouncement, staffScope } from './agency-scope';

export interface TripParties {
  carrierId: number;
  agencyId: number | null;
  branchId: number | null;
}

/** The caller published this trip (in their own name or their agency's): they do not book it. */
export const publishedBy = (auth: Pick<AuthUser, 'id'>, a: Pick<TripParties, 'carrierId'>): boolean => auth.id === a.carrierId;

/** Does the caller act for this trip now (admins aside)? */
export async function actsForTrip(deps: Deps, auth: AuthUser, a: TripParties): Promise<boolean> {
  if (a.agencyId !== null) return canStaffManageAnnouncement(await staffScope(deps, auth.id), a);
  return auth.id === a.carrierId;
}

/** actsForTrip(), or an admin when `admins`; everyone else gets 403. */
export async function assertCanManageTrip(deps: Deps, auth: AuthUser, a: TripParties, admins: boolean): Promise<void> {
  if (admins && hasRole(auth, 'ROLE_ADMIN')) return;
  if (!(await actsForTrip(deps, auth, a))) throw accessDenied();
}

/**
 * The trips `userId` lists as theirs (GET /annonces/mine, the carrier dashboard; `row` for a
 * reservation's columns): those they published and still act
 * for, their private trips and the agency trips of their branch; an agency trip they published
 * before moving branch or leaving is no longer theirs (CONTRACT 25).
 */
export const publishedAndActingCondition = (
  db: Db,
  userId: number,
  row: { carrierId: AnySQLiteColumn; agencyId: AnySQLiteColumn; tripId: AnySQLiteColumn } = { carrierId: announcements.carrierId, agencyId: announcements.agencyId, tripId: announcements.id },
): SQL => and(eq(row.carrierId, userId), or(isNull(row.agencyId), actsForAgencyTrip(db, sql`${userId}`, row.agencyId, row.tripId)))!;
