// Each provider ID token signs in once (CONTRACT 25): a token seen on the wire, in a log or on a
// shared phone is no key to the account. The token's key (its `jti`, or its hash) is kept until the
// token expires; the primary key decides between two concurrent exchanges of one token.
import { eq } from 'drizzle-orm';
import { spentIdTokens } from '../../db/schema';
import type { Deps } from '../../env';
import { authenticationError, msg } from '../../errors';
import { CLOCK_SKEW_SECONDS } from '../../lib/jwt';
import type { SocialIdentity } from '../../providers/social-login/social-login';

export const providerName = (identity: SocialIdentity) => (identity.provider === 'GOOGLE' ? 'Google' : 'Apple');

/** Marks the token spent, or 401 when it already was (by this exchange's twin, or any time before). */
export async function spendIdToken(deps: Deps, identity: SocialIdentity): Promise<void> {
  const result = await deps.db
    .insert(spentIdTokens)
    // The verifier accepts a token until `exp` plus the clock skew: remembered as long.
    .values({ tokenKey: identity.tokenKey, expiresAt: identity.expiresAt + CLOCK_SKEW_SECONDS })
    .onConflictDoNothing({ target: spentIdTokens.tokenKey });
  if (result.meta.changes !== 1) {
    const provider = providerName(identity);
    throw authenticationError('auth.idTokenAlreadyUsed', { provider }, { suggestions: [msg('auth.signAgainObtainFresh', { provider })] });
  }
}

/**
 * Gives the token back when the sign-in it started did not happen (a second factor still to type,
 * a suspended account): the same token may then be sent again, with the code.
 */
export async function unspendIdToken(deps: Deps, identity: SocialIdentity): Promise<void> {
  await deps.db.delete(spentIdTokens).where(eq(spentIdTokens.tokenKey, identity.tokenKey));
}
