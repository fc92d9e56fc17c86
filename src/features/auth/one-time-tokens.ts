// Single-use tokens for email verification and password reset: 32 random bytes given to the
// user once (by mail), only their SHA-256 stored, valid one hour, spent by a conditional UPDATE
// so two concurrent uses cannot both succeed. Issuing a new token voids the older ones.
import { and, eq, gt, isNull } from 'drizzle-orm';
import { oneTimeTokens } from '../../db/schema';
import type { Db } from '../../db/client';
import type { Statement } from '../../db/statements';
import type { Deps } from '../../env';
import { invalidArgument } from '../../errors';
import { randomBase64Url, sha256Hex } from '../../lib/digest';

export type TokenPurpose = (typeof oneTimeTokens.$inferInsert)['purpose'];

export const ONE_TIME_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * A new token for the user: its clear text (to be mailed, never stored or logged) and the
 * statements that store its hash and void the older ones, for the batch that also writes the
 * message carrying it.
 */
export async function oneTimeTokenStatements(db: Db, userId: number, purpose: TokenPurpose): Promise<{ token: string; statements: Statement[] }> {
  const token = randomBase64Url(32);
  const now = new Date();
  return {
    token,
    statements: [
      db
        .update(oneTimeTokens)
        .set({ usedAt: now.toISOString() })
        .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt))),
      db.insert(oneTimeTokens).values({
        userId,
        purpose,
        tokenHash: await sha256Hex(token),
        expiresAt: new Date(now.getTime() + ONE_TIME_TOKEN_TTL_MS).toISOString(),
      }),
    ],
  };
}

/** Spends the token; returns its user id, or throws 400 INVALID_ARGUMENT (unknown, used or expired). */
export async function consumeOneTimeToken(deps: Deps, token: string, purpose: TokenPurpose): Promise<number> {
  const { db } = deps;
  const now = new Date().toISOString();
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, await sha256Hex(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ userId: oneTimeTokens.userId });
  if (!row) {
    throw invalidArgument('auth.tokenInvalidExpiredAlready', {
      fieldErrors: [{ field: 'token', message: 'auth.tokenFieldInvalid', rejectedValue: '[redacted]' }],
      suggestions: [purpose === 'PASSWORD_RESET' ? 'auth.requestNewPasswordReset' : 'auth.requestNewVerificationEmail'],
    });
  }
  return row.userId;
}
