// Granting and removing one role in users.roles (a JSON array) as a single UPDATE, so it can go in
// the same D1 batch as the change that causes it and never loses a concurrent change to another role.
import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { Role } from '../middleware/auth';
import { jsonArrayWith, jsonArrayWithout } from './json-array';

/** `guard`: granted only if it holds when the batch reaches the statement. */
export function grantRoleStatement(db: Db, userId: number, role: Role, guard?: SQL) {
  return db
    .update(users)
    .set({
      roles: jsonArrayWith(users.roles, role),
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(users.id, userId), guard));
}

export function removeRoleStatement(db: Db, userId: number, role: Role) {
  return db
    .update(users)
    .set({
      roles: jsonArrayWithout(users.roles, role),
      updatedAt: new Date().toISOString(),
    })
    .where(eq(users.id, userId));
}
