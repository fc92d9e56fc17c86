// A user row by id, and the 409 for a taken email or username: read by auth (registration, login)
// and users (profile, deletion) alike, so it lives with the rows' owner.
import { eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors';
import { users } from '../../db/schema';
import type { Deps } from '../../env';
import { alreadyExists, type AppError } from '../../errors';

export async function loadUser(deps: Deps, id: number) {
  const { db } = deps;
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** 409 ALREADY_EXISTS naming the taken field. */
export const accountExists = (field: 'email' | 'username') =>
  alreadyExists('auth.accountAlreadyExists', { field }, {
    suggestions: field === 'email' ? ['auth.logResetPasswordIf'] : ['auth.chooseAnotherUsername'],
  });

/** The 409 for a failed insert or update on users, or null when the failure is something else. */
export function uniqueConflict(err: unknown): AppError | null {
  if (!isUniqueViolation(err)) return null;
  return accountExists(String(err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : err).includes('users.username') ? 'username' : 'email');
}
