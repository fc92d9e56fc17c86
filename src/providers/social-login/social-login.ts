// Social login: Google and Apple ID tokens verified with jose against the issuer's JWKS
// (signature, algorithm, issuer, audience = our configured client ids, expiry, verified email),
// issued at most SOCIAL_TOKEN_MAX_AGE_SECONDS ago and not in the future (30 s of clock skew), and
// a token for several audiences only when we are its authorized party (`azp`).
// The issuer comes from the configuration (config.ts): the provider's, or outside production
// without client ids the local sandbox issuer (sandbox-issuer.ts), verified by the same code.
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { appConfig, type SocialIssuer } from '../../config';
import { sha256Hex } from '../../lib/digest';
import { CLOCK_SKEW_SECONDS } from '../../lib/jwt';
import { sandboxJwks } from './sandbox-issuer';

/**
 * An ID token proves a sign-in that just happened: the app sends it at once. Google's live an
 * hour, so an older `iat` (or one with a far `exp`) is a token kept or replayed.
 */
export const SOCIAL_TOKEN_MAX_AGE_SECONDS = 60 * 60;

export type SocialProvider = 'GOOGLE' | 'APPLE';

export interface SocialIdentity {
  provider: SocialProvider;
  /** The provider's stable user id (`sub`). */
  subject: string;
  /** The email, only when the provider says it is verified (Apple may omit it after the first sign-in). */
  email: string | null;
  givenName?: string;
  familyName?: string;
  /** What makes the token single-use (CONTRACT 25): `jti:` its id, or `sha256:` the hash of the signed part of a token without one (Apple's). */
  tokenKey: string;
  /** The token's `exp` (seconds): how long it must be remembered as spent. */
  expiresAt: number;
}

export class SocialTokenError extends Error {
  override name = 'SocialTokenError';
}

// One key set per URL per isolate: jose caches the keys and refetches on an unknown `kid`.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keySet(url: string) {
  let set = keySets.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(url));
    keySets.set(url, set);
  }
  return set;
}

/** The issuer's key set: the provider's remote JWKS, or the sandbox issuer's own keys. */
const keysOf = async (env: Env, issuer: SocialIssuer) =>
  issuer.jwksUrl ? keySet(issuer.jwksUrl) : createLocalJWKSet(await sandboxJwks(env));

async function verify(env: Env, token: string, issuer: SocialIssuer): Promise<JWTPayload> {
  const { audience } = issuer;
  if (audience.length === 0) throw new SocialTokenError('Social login is not configured');
  try {
    const { payload } = await jwtVerify(token, await keysOf(env, issuer), {
      algorithms: ['RS256', 'ES256'],
      issuer: issuer.issuers,
      audience,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: new Date(),
      clockTolerance: CLOCK_SKEW_SECONDS,
      maxTokenAge: SOCIAL_TOKEN_MAX_AGE_SECONDS,
    });
    // A token for several audiences that merely includes ours was issued to another client:
    // ours only when we are the party it was issued to (OpenID Connect Core 3.1.3.7).
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && !(typeof payload.azp === 'string' && audience.includes(payload.azp))) {
      throw Object.assign(new Error('azp is not one of our client ids'), { name: 'JWTClaimValidationFailed' });
    }
    return payload;
  } catch (err) {
    // The reason (e.g. JWTExpired, JWTClaimValidationFailed, JWKSTimeout) helps operators tell a
    // provider outage from bad tokens; the token itself is never logged.
    const reason = err instanceof Error ? err.name : 'verification failed';
    console.warn(JSON.stringify({ level: 'warn', event: 'social_login.refused', jwksUrl: issuer.jwksUrl ?? 'sandbox', reason }));
    throw new SocialTokenError(reason);
  }
}

/** Apple sends booleans as strings ("true"); Google as booleans. */
const isTrue = (value: unknown) => value === true || value === 'true';

async function identity(provider: SocialProvider, token: string, payload: JWTPayload): Promise<SocialIdentity> {
  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
  // Without a jti, the hash of the signed part (header and claims): the signature's own encoding can
  // be varied (spare base64url bits) and still verify, so hashing the whole token would miss a replay.
  const signed = token.slice(0, token.lastIndexOf('.'));
  const tokenKey = typeof payload.jti === 'string' && payload.jti ? `jti:${payload.jti}` : `sha256:${await sha256Hex(signed)}`;
  return {
    provider,
    subject: String(payload.sub),
    tokenKey: `${provider}:${tokenKey}`,
    expiresAt: Number(payload.exp),
    email: email && isTrue(payload.email_verified) ? email : null,
    givenName: typeof payload.given_name === 'string' ? payload.given_name : undefined,
    familyName: typeof payload.family_name === 'string' ? payload.family_name : undefined,
  };
}

export async function verifyGoogleIdToken(env: Env, idToken: string): Promise<SocialIdentity> {
  return identity('GOOGLE', idToken, await verify(env, idToken, appConfig(env).social.google));
}

export async function verifyAppleIdentityToken(env: Env, identityToken: string): Promise<SocialIdentity> {
  return identity('APPLE', identityToken, await verify(env, identityToken, appConfig(env).social.apple));
}
