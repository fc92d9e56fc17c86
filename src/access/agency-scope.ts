// Who acts for an agency: its owner and members (agencyForOwner, agencyForMember), who acts for which
// agency and branch (staffScope, staffActsForTrip), the publishing rule (a suspended agency or a
// deactivated branch cannot publish; an employee only for their branch) and the search condition
// that hides suspended agencies' trips.
import { and, eq, notExists, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { QueryBuilder, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { agencies, agencyBranches, agencyEmployees, announcements } from '../db/schema';
import type { Db } from '../db/client';
import { rowExists } from '../db/statements';
import type { AuthUser, Deps } from '../env';
import { accessDenied, businessRule, notFound, type Text } from '../errors';
import { assertCanAccess } from './ownership';

export interface StaffScope {
  agencyId: number;
  /** The employee's branch; null for the owner, who acts for every branch. */
  branchId: number | null;
  role: 'ROLE_AGENCY_OWNER' | 'ROLE_AGENCY_EMPLOYEE';
  /** Whether the employee's branch is active (always true for the owner). */
  branchActive: boolean;
  agencySuspended: boolean;
}

/** The agency, or 404. */
export async function getAgency(deps: Deps, id: number) {
  const { db } = deps;
  const [row] = await db.select().from(agencies).where(eq(agencies.id, id));
  if (!row) throw notFound('Agency', id);
  return row;
}

/** The owner (or a super-admin) manages the agency; everyone else gets 403. */
export async function agencyForOwner(deps: Deps, auth: AuthUser, id: number) {
  const agency = await getAgency(deps, id);
  assertCanAccess(auth, [agency.ownerId], ['ROLE_SUPERADMIN']);
  return agency;
}

/** The owner, the agency's employees and admins read it. */
export async function agencyForMember(deps: Deps, auth: AuthUser, id: number) {
  const { db } = deps;
  const agency = await getAgency(deps, id);
  if (agency.ownerId === auth.id) return agency;
  const [employee] = await db
    .select({ userId: agencyEmployees.userId })
    .from(agencyEmployees)
    .where(and(eq(agencyEmployees.userId, auth.id), eq(agencyEmployees.agencyId, id)));
  assertCanAccess(auth, [employee?.userId], ['ROLE_ADMIN']);
  return agency;
}

/** The two reads of staffScope(), for a batch of the caller's own. */
const scopeStatements = (db: Db, userId: number) =>
  [
    db.select({ id: agencies.id, status: agencies.status }).from(agencies).where(eq(agencies.ownerId, userId)),
    db
      .select({ agencyId: agencyEmployees.agencyId, branchId: agencyEmployees.branchId, active: agencyBranches.active, status: agencies.status })
      .from(agencyEmployees)
      .innerJoin(agencyBranches, eq(agencyBranches.id, agencyEmployees.branchId))
      .innerJoin(agencies, eq(agencies.id, agencyEmployees.agencyId))
      .where(eq(agencyEmployees.userId, userId)),
  ] as const;

function scopeOf(
  owned: { id: number; status: string }[],
  employed: { agencyId: number; branchId: number; active: boolean; status: string }[],
): StaffScope | null {
  if (owned[0]) {
    return { agencyId: owned[0].id, branchId: null, role: 'ROLE_AGENCY_OWNER', branchActive: true, agencySuspended: owned[0].status === 'SUSPENDED' };
  }
  if (employed[0]) {
    const e = employed[0];
    return { agencyId: e.agencyId, branchId: e.branchId, role: 'ROLE_AGENCY_EMPLOYEE', branchActive: e.active, agencySuspended: e.status === 'SUSPENDED' };
  }
  return null;
}

/** The caller's place in an agency, read from the database (roles in tokens may be stale). Null for non-staff. */
export async function staffScope(deps: Deps, userId: number): Promise<StaffScope | null> {
  const { db } = deps;
  const [owned, employed] = await db.batch([...scopeStatements(db, userId)]);
  return scopeOf(owned, employed);
}

/**
 * Does this user act for the agency trip `announcementId` of `agencyId`: its agency's owner, or an
 * employee of the trip's branch (CONTRACT section 19: never another branch's)? One round trip.
 */
export async function staffActsForTrip(deps: Deps, userId: number, trip: { agencyId: number | null; announcementId: number }): Promise<boolean> {
  const { db } = deps;
  if (trip.agencyId === null) return false;
  const [owned, employed, [announcement]] = await db.batch([
    ...scopeStatements(db, userId),
    db.select({ branchId: announcements.branchId }).from(announcements).where(eq(announcements.id, trip.announcementId)),
  ]);
  return canStaffManageAnnouncement(scopeOf(owned, employed), { agencyId: trip.agencyId, branchId: announcement?.branchId ?? null });
}

/**
 * staffActsForTrip() as a condition of a statement, for listings: `userId` owns the agency of the
 * trip `announcementId`, or is an employee of that trip's branch. The arguments are the row's
 * columns (or a placeholder for the user), so a page filters without a read of its own.
 */
export const actsForAgencyTrip = (db: Db, userId: SQL | Placeholder, agencyId: AnySQLiteColumn, announcementId: AnySQLiteColumn): SQL =>
  or(
    rowExists(db, agencies, and(eq(agencies.id, agencyId), eq(agencies.ownerId, userId))),
    rowExists(
      db,
      agencyEmployees,
      and(
        eq(agencyEmployees.userId, userId),
        eq(agencyEmployees.agencyId, agencyId),
        rowExists(db, announcements, and(eq(announcements.id, announcementId), eq(announcements.branchId, agencyEmployees.branchId))),
      ),
    ),
  )!;

/** Pure: may this staff member edit or delete an announcement of (agencyId, branchId)? */
export function canStaffManageAnnouncement(scope: StaffScope | null, announcement: { agencyId: number | null; branchId: number | null }) {
  if (!scope || announcement.agencyId === null || scope.agencyId !== announcement.agencyId) return false;
  if (scope.role === 'ROLE_AGENCY_OWNER') return true;
  return announcement.branchId !== null && announcement.branchId === scope.branchId;
}

/**
 * canStaffManageAnnouncement() as a list: the users who act for an announcement of (agencyId,
 * branchId), the agency's owner and the employees of that branch (no branch: the owner only; no
 * agency: nobody). For telling the staff what the carrier is told.
 */
export const staffOfAnnouncement = (db: Db, agencyId: SQL, branchId: SQL) =>
  db
    .select({ userId: agencies.ownerId })
    .from(agencies)
    .where(eq(agencies.id, agencyId))
    .union(
      db
        .select({ userId: agencyEmployees.userId })
        .from(agencyEmployees)
        .where(and(eq(agencyEmployees.agencyId, agencyId), eq(agencyEmployees.branchId, branchId))),
    );

/**
 * The acting staff of an agency trip, read now (CONTRACT 25): its agency's owner and the current
 * employees of the trip's branch. Whoever published the trip is not among them unless they still are.
 */
export async function actingStaffIds(deps: Pick<Deps, 'db'>, trip: { agencyId: number | null; announcementId: number }): Promise<number[]> {
  if (trip.agencyId === null) return [];
  return [...new Set((await actingStaffOfTrip(deps.db, trip.announcementId)).map((r) => r.userId))];
}

/**
 * actingStaffIds() as a statement, for a batch that reads the trip anyway (a booking): no rows for a
 * private trip (its agency is null).
 */
export const actingStaffOfTrip = (db: Db, announcementId: number) =>
  staffOfAnnouncement(
    db,
    sql`(SELECT ${announcements.agencyId} FROM ${announcements} WHERE ${announcements.id} = ${announcementId})`,
    sql`(SELECT ${announcements.branchId} FROM ${announcements} WHERE ${announcements.id} = ${announcementId})`,
  );

/**
 * Who is told about the money of a wallet (FUNDS_HELD, FUNDS_AVAILABLE): the carrier of a private
 * trip; for an agency's trip its owner, who alone reads and withdraws the agency's wallet (a SQL
 * value, so the notice's own statement reads it: no round trip).
 */
export const walletHolderId = (r: { carrierId: number; agencyId: number | null }): number | SQL =>
  // An agency row gone (never in production: agencies are suspended, not deleted) falls back to the
  // carrier rather than failing the batch that moves the money.
  r.agencyId === null ? r.carrierId : sql`coalesce((SELECT ${agencies.ownerId} FROM ${agencies} WHERE ${agencies.id} = ${r.agencyId}), ${r.carrierId})`;

/** Pure: why this staff member cannot publish now, or null when they can. */
export function publishRefusalText(scope: StaffScope): Text | null {
  if (scope.agencySuspended) return 'agency.suspendedCannotPublish';
  if (!scope.branchActive) return 'agency.ownBranchDeactivated';
  return null;
}

/**
 * For announcement creation by agency staff: checks the rules and returns the agencyId and branchId
 * to store on the announcement. An employee publishes for their own branch; the owner may name
 * any active branch of the agency (or none).
 */
export async function assertStaffCanPublish(deps: Deps, scope: StaffScope, requestedBranchId?: number | null) {
  const { db } = deps;
  const refusal = publishRefusalText(scope);
  if (refusal) throw businessRule(refusal);
  if (scope.role === 'ROLE_AGENCY_EMPLOYEE') {
    if (requestedBranchId != null && requestedBranchId !== scope.branchId) throw accessDenied('agency.publishOnlyOwnBranch');
    return { agencyId: scope.agencyId, branchId: scope.branchId };
  }
  if (requestedBranchId == null) return { agencyId: scope.agencyId, branchId: null };
  const [branch] = await db
    .select({ active: agencyBranches.active })
    .from(agencyBranches)
    .where(and(eq(agencyBranches.id, requestedBranchId), eq(agencyBranches.agencyId, scope.agencyId)));
  if (!branch) throw notFound('Branch', requestedBranchId);
  if (!branch.active) throw businessRule('agency.branchDeactivated');
  return { agencyId: scope.agencyId, branchId: requestedBranchId };
}

/**
 * SQL condition for listings and search: true for trips of private carriers and of active
 * agencies, false for suspended agencies' trips. Pass the announcement's agency_id column.
 */
export const visibleAgencyCondition = (agencyIdColumn: AnySQLiteColumn): SQL =>
  sql`(${agencyIdColumn} IS NULL OR ${notExists(
    new QueryBuilder().select({ one: sql`1` }).from(agencies).where(and(eq(agencies.id, agencyIdColumn), eq(agencies.status, 'SUSPENDED'))),
  )})`;

/** For single reads (GET /annonces/{id}, booking): is this agency's content visible? */
export async function isAgencyVisible(deps: Deps, agencyId: number | null): Promise<boolean> {
  const { db } = deps;
  if (agencyId === null) return true;
  const [row] = await db.select({ status: agencies.status }).from(agencies).where(eq(agencies.id, agencyId));
  return row?.status !== 'SUSPENDED';
}
