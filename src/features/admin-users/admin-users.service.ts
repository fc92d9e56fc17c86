// User administration: list and read accounts, suspend and activate them (admins), set roles
// (super-admins). Every change is one conditional UPDATE batched with its audit entry; removing
// access (suspension, a role taken away) revokes the user's tokens; a suspension also cancels the
// reservations it ends (applySuspension).
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema';
import { readPage } from '../../db/statements';
import type { AuthUser, Deps } from '../../env';
import { accessDenied, businessRule, invalidState, notFound } from '../../errors';
import { jsonArrayIncludes } from '../../lib/json-array';
import { orderBy, type PageParams } from '../../lib/pagination';
import { ROLES, hasRole, type Role } from '../../middleware/auth';
import { auditInsertIfChanged } from '../audit/audit';
import { loadUser } from '../users/user-rows';
import { revokeAllUserTokens } from '../sessions/sessions';
import { cancelForSuspension } from '../bookings/suspension';

export const USER_SORT_FIELDS = ['createdAt', 'email', 'lastName', 'lastLoginAt', 'id'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export interface UserFilters {
  q?: string;
  role?: Role;
  enabled?: boolean;
  kycStatus?: UserRow['kycStatus'];
  emailVerified?: boolean;
  deleted?: boolean;
}

/** The longest search text accepted (the API refuses longer with 400; the console's field stops there). */
export const USER_SEARCH_MAX_LENGTH = 100;

function filterConditions(f: UserFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (f.q) {
    // instr(), not LIKE: D1 refuses LIKE patterns over 50 bytes (a 500 for a pasted e-mail address),
    // and a plain substring needs no escaping of % and _.
    const needle = f.q.toLowerCase();
    conditions.push(
      or(
        sql`instr(lower(${users.email}), ${needle}) > 0`,
        sql`instr(lower(${users.firstName}), ${needle}) > 0`,
        sql`instr(lower(${users.lastName}), ${needle}) > 0`,
        sql`instr(lower(coalesce(${users.username}, '')), ${needle}) > 0`,
      ),
    );
  }
  if (f.role) conditions.push(jsonArrayIncludes(users.roles, f.role));
  if (f.enabled !== undefined) conditions.push(eq(users.enabled, f.enabled));
  if (f.kycStatus) conditions.push(eq(users.kycStatus, f.kycStatus));
  if (f.emailVerified !== undefined) conditions.push(eq(users.emailVerified, f.emailVerified));
  if (f.deleted !== undefined) conditions.push(f.deleted ? sql`${users.deletedAt} IS NOT NULL` : isNull(users.deletedAt));
  return and(...conditions);
}

export async function listUsers(deps: Deps, filters: UserFilters, page: PageParams<UserSortField>) {
  const { db } = deps;
  const where = filterConditions(filters);
  const order = orderBy(
    page.sort,
    { createdAt: users.createdAt, email: users.email, lastName: users.lastName, lastLoginAt: users.lastLoginAt, id: users.id },
    users.id,
  );
  return readPage(db, users, where, order, page);
}

export async function getUser(deps: Deps, id: number): Promise<UserRow> {
  const user = await loadUser(deps, id);
  if (!user) throw notFound('User', id);
  return user;
}

const STAFF_ROLES: Role[] = ['ROLE_ADMIN', 'ROLE_SUPERADMIN'];

/** Only a super-admin may act on another staff account; nobody suspends themselves. */
export function assertCanModerate(auth: AuthUser, target: UserRow) {
  if (target.id === auth.id) throw businessRule('admin.cannotSuspendActivateOwn');
  const targetIsStaff = target.roles.some((r) => STAFF_ROLES.includes(r as Role));
  if (targetIsStaff && !auth.roles.includes('ROLE_SUPERADMIN')) {
    throw accessDenied('admin.onlySuperAdministratorSuspend');
  }
  if (target.deletedAt) throw invalidState('admin.accountDeleted');
}

export const suspendUser = (deps: Deps, auth: AuthUser, id: number, reason: string | null, ip: string | null) =>
  setAccountEnabled(deps, auth, id, false, reason, ip);

export const activateUser = (deps: Deps, auth: AuthUser, id: number, ip: string | null) =>
  setAccountEnabled(deps, auth, id, true, null, ip);

/**
 * Suspends (enabled false, with its reason) or re-activates an account: the conditional update
 * and its audit entry in one batch; a suspension also revokes every token of the account.
 */
async function setAccountEnabled(deps: Deps, auth: AuthUser, id: number, enabled: boolean, reason: string | null, ip: string | null) {
  const { db } = deps;
  const target = await getUser(deps, id);
  assertCanModerate(auth, target);
  const now = new Date().toISOString();
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ enabled, suspendedAt: enabled ? null : now, suspensionReason: reason, updatedAt: now })
      .where(and(eq(users.id, id), eq(users.enabled, !enabled), isNull(users.deletedAt)))
      .returning(),
    auditInsertIfChanged(db, enabled
      ? { actorId: auth.id, action: 'USER_ACTIVATED', targetType: 'USER', targetId: id, ip }
      : { actorId: auth.id, action: 'USER_SUSPENDED', targetType: 'USER', targetId: id, ip, details: { reason } }),
  ]);
  if (updated.length !== 1) throw invalidState(enabled ? 'admin.accountNotSuspended' : 'admin.accountAlreadySuspended');
  if (!enabled) await applySuspension(deps, id, auth.id);
  return updated[0];
}

/**
 * What a committed suspension does at once (CONTRACT section 19): the account's tokens stop
 * working, then the reservations it affects are cancelled (bookings/suspension.ts; the cron
 * finishes a sweep cut short). Its trips leave the search and refuse bookings by the account's
 * state alone (announcements/carrier-availability.ts). Used by the admin endpoint, the console
 * and a report closed with SUSPEND_USER.
 */
export async function applySuspension(deps: Deps, userId: number, actorId: number | null) {
  await revokeAllUserTokens(deps, userId, 'SUSPENDED');
  try {
    await cancelForSuspension(deps, userId, actorId);
  } catch (err) {
    // The suspension is committed and its trips already withdrawn: the cron's sweep finishes the rest.
    console.error(JSON.stringify({ level: 'error', msg: 'suspension sweep failed', userId, error: String(err) }));
  }
}

/** ROLE_CLIENT always, no duplicates, in the canonical order of ROLES. */
export const normalizeRoles = (roles: readonly string[]): Role[] =>
  ROLES.filter((r) => r === 'ROLE_CLIENT' || roles.includes(r));

/**
 * Sets a user's roles (compare-and-set on the previous value). Used by the super-admin endpoint
 * and by features that grant or remove a role (KYC, agencies): a removed role revokes the
 * user's tokens, a granted one applies from the next refresh.
 */
export async function setUserRoles(
  deps: Deps,
  actor: { id: number | null; ip: string | null },
  id: number,
  requested: readonly string[],
): Promise<UserRow> {
  const { db } = deps;
  const target = await getUser(deps, id);
  if (target.deletedAt) throw invalidState('admin.accountDeleted');
  const roles = normalizeRoles(requested);
  const before = target.roles;
  const removed = before.filter((r) => !roles.includes(r as Role));
  const added = roles.filter((r) => !before.includes(r));
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ roles, updatedAt: new Date().toISOString() })
      .where(and(eq(users.id, id), sql`json(${users.roles}) = json(${JSON.stringify(before)})`))
      .returning(),
    auditInsertIfChanged(db, {
      actorId: actor.id,
      action: 'ROLES_CHANGED',
      targetType: 'USER',
      targetId: id,
      ip: actor.ip,
      details: { before, after: roles, added, removed },
    }),
  ]);
  if (updated.length !== 1) throw invalidState('admin.rolesChangedConcurrentlyRetry');
  if (removed.length > 0) await revokeAllUserTokens(deps, id, 'ROLES_CHANGED');
  return updated[0];
}

export async function changeRolesAsSuperAdmin(deps: Deps, auth: AuthUser, id: number, requested: readonly string[], ip: string | null) {
  if (id === auth.id && !requested.includes('ROLE_SUPERADMIN')) {
    throw businessRule('admin.cannotRemoveOwnSuper');
  }
  if (!hasRole(auth, 'ROLE_SUPERADMIN')) throw accessDenied();
  return setUserRoles(deps, { id: auth.id, ip }, id, requested);
}
