// Agencies (CONTRACT section 12): registration, profile, branches, employees and the super-admin
// suspension (documents: agency-documents.service.ts). Ownership is read from the database, not
// from token roles, so a role granted a moment ago (registration) works before the next token refresh.
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import {
  agencies,
  agencyBranches,
  agencyEmployees,
  announcements,
  users,
  type AgencyBranchRow,
  type AgencyRow,
} from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { alreadyExists, invalidState, notFound } from '../../errors';
import { offsetOf, orderBy, toPage, type PageParams } from '../../lib/pagination';
import { revokeUserTokensBefore } from '../../lib/token-revocation';
import { grantRoleStatement, removeRoleStatement } from '../../lib/user-roles';
import { audit, auditInsert, auditInsertIfChanged } from '../audit/audit';
import { notify } from '../deliveries/notify';
import { readPage, runBatch, totalledPage, withTotal } from '../../db/statements';
import { agencyForMember, agencyForOwner, getAgency, staffScope } from '../../access/agency-scope';
import { msg } from '../../messages';

export interface AgencyInput {
  name?: string;
  legalName?: string | null;
  registrationNumber?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
  address?: string | null;
  city?: string | null;
  country?: string | null;
  description?: string | null;
}

export interface BranchInput {
  name?: string;
  address?: string | null;
  city?: string | null;
  country?: string | null;
  phoneNumber?: string | null;
}

export const agencyView = (a: AgencyRow) => ({
  id: a.id,
  name: a.name,
  legalName: a.legalName,
  registrationNumber: a.registrationNumber,
  email: a.email,
  phoneNumber: a.phoneNumber,
  address: a.address,
  city: a.city,
  country: a.country,
  description: a.description,
  ownerId: a.ownerId,
  status: a.status,
  suspensionReason: a.suspensionReason,
  suspendedAt: a.suspendedAt,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

export const branchView = (b: AgencyBranchRow) => ({
  id: b.id,
  agencyId: b.agencyId,
  name: b.name,
  address: b.address,
  city: b.city,
  country: b.country,
  phoneNumber: b.phoneNumber,
  active: b.active,
  createdAt: b.createdAt,
  updatedAt: b.updatedAt,
});

const alreadyInAgency = (who: string) =>
  alreadyExists('agency.alreadyBelongsAgency', { who }, { suggestions: ['agency.oneAgencyOnly'] });

const now = () => new Date().toISOString();

export async function registerAgency(deps: Deps, userId: number, input: AgencyInput & { name: string }, ip: string | null) {
  const { db } = deps;
  const [user] = await db.select({ agencyId: users.agencyId }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User', userId);
  if (user.agencyId !== null || (await staffScope(deps, userId))) throw alreadyInAgency('You');
  const stamp = now();
  try {
    // One batch: the agency, the owner's agency_id (looked up by the unique owner index) and the role.
    const [[agency]] = await db.batch([
      db.insert(agencies).values({ ...input, ownerId: userId }).returning(),
      db
        .update(users)
        .set({ agencyId: sql`${db.select({ id: agencies.id }).from(agencies).where(eq(agencies.ownerId, userId))}`, updatedAt: stamp })
        .where(eq(users.id, userId)),
      grantRoleStatement(db, userId, 'ROLE_AGENCY_OWNER'),
    ]);
    await audit(deps, { actorId: userId, action: 'AGENCY_REGISTERED', targetType: 'AGENCY', targetId: agency.id, ip });
    return agency;
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw alreadyInAgency('You');
    }
    throw err;
  }
}

/** GET /agencies/me: the caller's agency and their place in it. */
export async function myAgency(deps: Deps, userId: number) {
  const scope = await staffScope(deps, userId);
  if (!scope) throw notFound('Agency of the current user');
  const agency = await getAgency(deps, scope.agencyId);
  return { ...agencyView(agency), role: scope.role, branchId: scope.branchId, branchActive: scope.branchActive };
}

export async function updateAgency(deps: Deps, auth: AuthUser, id: number, input: AgencyInput) {
  const { db } = deps;
  await agencyForOwner(deps, auth, id);
  const [row] = await db.update(agencies).set({ ...input, updatedAt: now() }).where(eq(agencies.id, id)).returning();
  return row;
}

// ---- branches

export async function getBranch(deps: Deps, agencyId: number, branchId: number) {
  const { db } = deps;
  const [row] = await db
    .select()
    .from(agencyBranches)
    .where(and(eq(agencyBranches.id, branchId), eq(agencyBranches.agencyId, agencyId)));
  if (!row) throw notFound('Branch', branchId);
  return row;
}

export async function createBranch(deps: Deps, auth: AuthUser, agencyId: number, input: BranchInput & { name: string }) {
  const { db } = deps;
  await agencyForOwner(deps, auth, agencyId);
  const [row] = await db.insert(agencyBranches).values({ ...input, agencyId }).returning();
  return row;
}

export async function listBranches(deps: Deps, auth: AuthUser, agencyId: number, q: PageParams<'createdAt' | 'name'>) {
  const { db } = deps;
  await agencyForMember(deps, auth, agencyId);
  const order = orderBy(q.sort, { createdAt: agencyBranches.createdAt, name: agencyBranches.name }, agencyBranches.id);
  const { rows, total } = await readPage(db, agencyBranches, eq(agencyBranches.agencyId, agencyId), order, q);
  return toPage(rows.map(branchView), total, q);
}

export async function branchForMember(deps: Deps, auth: AuthUser, agencyId: number, branchId: number) {
  await agencyForMember(deps, auth, agencyId);
  return getBranch(deps, agencyId, branchId);
}

export async function updateBranch(deps: Deps, auth: AuthUser, agencyId: number, branchId: number, input: BranchInput) {
  const { db } = deps;
  await agencyForOwner(deps, auth, agencyId);
  await getBranch(deps, agencyId, branchId);
  const [row] = await db.update(agencyBranches).set({ ...input, updatedAt: now() }).where(eq(agencyBranches.id, branchId)).returning();
  return row;
}

/** A branch with employees or live trips cannot be deleted: move the employees and close the trips first. */
export async function deleteBranch(deps: Deps, auth: AuthUser, agencyId: number, branchId: number, ip: string | null) {
  const { db } = deps;
  await agencyForOwner(deps, auth, agencyId);
  await getBranch(deps, agencyId, branchId);
  const [[staff], [trips]] = await db.batch([
    db.select({ n: count() }).from(agencyEmployees).where(eq(agencyEmployees.branchId, branchId)),
    db
      .select({ n: count() })
      .from(announcements)
      .where(and(eq(announcements.branchId, branchId), inArray(announcements.status, ['ACTIVE', 'FULL']))),
  ]);
  if (staff.n > 0) throw invalidState('agency.branchStillEmployeesMove');
  if (trips.n > 0) throw invalidState('agency.branchStillActiveAnnouncements');
  await db.batch([
    db.delete(agencyBranches).where(eq(agencyBranches.id, branchId)),
    auditInsertIfChanged(db, { actorId: auth.id, action: 'AGENCY_BRANCH_DELETED', targetType: 'AGENCY_BRANCH', targetId: branchId, ip, details: { agencyId } }),
  ]);
}

/** Activate or deactivate: a conditional update, 409 when the branch is already in that state. */
export async function setBranchActive(deps: Deps, auth: AuthUser, agencyId: number, branchId: number, active: boolean, ip: string | null) {
  const { db } = deps;
  await agencyForOwner(deps, auth, agencyId);
  await getBranch(deps, agencyId, branchId);
  const [[row]] = await db.batch([
    db
      .update(agencyBranches)
      .set({ active, updatedAt: now() })
      .where(and(eq(agencyBranches.id, branchId), eq(agencyBranches.active, !active)))
      .returning(),
    auditInsertIfChanged(db, {
      actorId: auth.id,
      action: active ? 'AGENCY_BRANCH_ACTIVATED' : 'AGENCY_BRANCH_DEACTIVATED',
      targetType: 'AGENCY_BRANCH',
      targetId: branchId,
      ip,
      details: { agencyId },
    }),
  ]);
  if (!row) throw invalidState('agency.branchAlready', { active: active ? 'active' : 'deactivated' });
  return row;
}

// ---- employees

const employeeColumns = {
  userId: agencyEmployees.userId,
  agencyId: agencyEmployees.agencyId,
  branchId: agencyEmployees.branchId,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  joinedAt: agencyEmployees.createdAt,
};

async function getEmployee(db: Db, agencyId: number, userId: number) {
  const [row] = await db
    .select(employeeColumns)
    .from(agencyEmployees)
    .innerJoin(users, eq(users.id, agencyEmployees.userId))
    .where(and(eq(agencyEmployees.userId, userId), eq(agencyEmployees.agencyId, agencyId)));
  if (!row) throw notFound('Employee', userId);
  return row;
}

export async function listEmployees(deps: Deps, auth: AuthUser, agencyId: number, q: PageParams<'joinedAt'> & { branchId?: number }) {
  const { db } = deps;
  await agencyForOwner(deps, auth, agencyId);
  const where: SQL | undefined = and(eq(agencyEmployees.agencyId, agencyId), q.branchId ? eq(agencyEmployees.branchId, q.branchId) : undefined);
  const countAll = db.select({ total: count() }).from(agencyEmployees).where(where);
  const offset = offsetOf(q);
  const found = await db
    .select(withTotal(employeeColumns, countAll))
    .from(agencyEmployees)
    .innerJoin(users, eq(users.id, agencyEmployees.userId))
    .where(where)
    .orderBy(...orderBy(q.sort, { joinedAt: agencyEmployees.createdAt }, agencyEmployees.userId))
    .limit(q.size)
    .offset(offset);
  const { rows, total } = await totalledPage(db, found, offset, () => countAll);
  return toPage(rows, total, q);
}

export async function moveEmployee(deps: Deps, auth: AuthUser, agencyId: number, userId: number, branchId: number, ip: string | null) {
  const { db } = deps;
  await agencyForOwner(deps, auth, agencyId);
  await getEmployee(db, agencyId, userId);
  await getBranch(deps, agencyId, branchId);
  await db.batch([
    db
      .update(agencyEmployees)
      .set({ branchId, updatedAt: now() })
      .where(and(eq(agencyEmployees.userId, userId), eq(agencyEmployees.agencyId, agencyId))),
    auditInsertIfChanged(db, { actorId: auth.id, action: 'AGENCY_EMPLOYEE_MOVED', targetType: 'USER', targetId: userId, ip, details: { agencyId, branchId } }),
  ]);
  return getEmployee(db, agencyId, userId);
}

/** Removal takes the role away and revokes the employee's tokens, so the old role stops at once. */
export async function removeEmployee(deps: Deps, auth: AuthUser, agencyId: number, userId: number, ip: string | null) {
  const { db, env } = deps;
  const agency = await agencyForOwner(deps, auth, agencyId);
  await getEmployee(db, agencyId, userId);
  await db.batch([
    db.delete(agencyEmployees).where(and(eq(agencyEmployees.userId, userId), eq(agencyEmployees.agencyId, agencyId))),
    db.update(users).set({ agencyId: null, updatedAt: now() }).where(and(eq(users.id, userId), eq(users.agencyId, agencyId))),
    removeRoleStatement(db, userId, 'ROLE_AGENCY_EMPLOYEE'),
    ...notify(db, {
      userId,
      type: 'AGENCY_EMPLOYEE_REMOVED',
      text: msg('notice.agencyLeft', { agency: agency.name }),
      data: { agencyId },
    }),
    auditInsert(db, { actorId: auth.id, action: 'AGENCY_EMPLOYEE_REMOVED', targetType: 'USER', targetId: userId, ip, details: { agencyId } }),
  ]);
  await revokeUserTokensBefore(env.KV, userId);
}

// ---- super-admin

export async function listAgencies(deps: Deps, q: PageParams<'createdAt' | 'name'> & { status?: 'ACTIVE' | 'SUSPENDED' }) {
  const { db } = deps;
  const where = q.status ? eq(agencies.status, q.status) : undefined;
  const order = orderBy(q.sort, { createdAt: agencies.createdAt, name: agencies.name }, agencies.id);
  const { rows, total } = await readPage(db, agencies, where, order, q);
  return toPage(rows.map(agencyView), total, q);
}

/** Suspend or reactivate: a conditional update (409 when already so), the owner notified, audit-logged. */
export async function setAgencySuspended(deps: Deps, adminId: number, id: number, suspend: boolean, ip: string | null, reason?: string) {
  const { db } = deps;
  await getAgency(deps, id);
  const stamp = now();
  const [row] = await db
    .update(agencies)
    .set(
      suspend
        ? { status: 'SUSPENDED', suspensionReason: reason ?? null, suspendedAt: stamp, updatedAt: stamp }
        : { status: 'ACTIVE', suspensionReason: null, suspendedAt: null, updatedAt: stamp },
    )
    .where(and(eq(agencies.id, id), eq(agencies.status, suspend ? 'ACTIVE' : 'SUSPENDED')))
    .returning();
  if (!row) throw invalidState(suspend ? 'agency.alreadySuspended' : 'agency.alreadyActive');
  await runBatch(db, [
    ...notify(db, {
      userId: row.ownerId,
      type: suspend ? 'AGENCY_SUSPENDED' : 'AGENCY_ACTIVATED',
      text: suspend ? msg('notice.agencySuspended', { agency: row.name, reason: reason ?? '' }) : msg('notice.agencyActivated', { agency: row.name }),
      data: { agencyId: id },
    }),
    auditInsert(db, {
      actorId: adminId,
      action: suspend ? 'AGENCY_SUSPENDED' : 'AGENCY_ACTIVATED',
      targetType: 'AGENCY',
      targetId: id,
      ip,
      details: suspend ? { reason } : undefined,
    }),
  ]);
  return row;
}
