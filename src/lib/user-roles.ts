// Granting and removing one role in users.roles (a JSON array) as a single UPDATE, so it can go in
// the same D1 batch as the change that causes it and never loses a concurrent change to another role.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { Role } from '../middleware/auth';

export function grantRoleStatement(db: Db, userId: number, role: Role) {
  return db
    .update(users)
    .set({
      roles: sql`CASE WHEN EXISTS (SELECT 1 FROM json_each(${users.roles}) WHERE value = ${role}) THEN ${users.roles}
        ELSE json_insert(${users.roles}, '$[#]', ${role}) END`,
      updatedAt: new Date().toISOString(),
    })
    .where(eq(users.id, userId));
}

export function removeRoleStatement(db: Db, userId: number, role: Role) {
  return db
    .update(users)
    .set({
      roles: sql`(SELECT coalesce(json_group_array(value), '[]') FROM json_each(${users.roles}) WHERE value <> ${role})`,
      updatedAt: new Date().toISOString(),
    })
    .where(eq(users.id, userId));
}
