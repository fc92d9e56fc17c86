// Social login: Google and Apple ID tokens verified with jose against the provider's JWKS
// (signature, algorithm, issuer, audience = our configured client ids, expiry, verified email).
// The JWKS URLs and client ids are configuration, so tests serve a local JWKS.
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

export type SocialProvider = 'GOOGLE' | 'APPLE';

export interface SocialIdentity {
  provider: SocialProvider;
  /** The provider's stable user id (`sub`). */
  subject: string;
  /** The email, only when the provider says it is verified (Apple may omit it after the first sign-in). */
  email: string | null;
  givenName?: string;
  familyName?: string;
}

interface ProviderConfig {
  jwksUrl: string;
  issuers: string[];
  clientIds: string;
}

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
const APPLE_ISSUERS = ['https://appleid.apple.com'];

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

const list = (csv: string | undefined) =>
  (csv ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function verify(token: string, config: ProviderConfig): Promise<JWTPayload> {
  const audience = list(config.clientIds);
  if (audience.length === 0) throw new SocialTokenError('Social login is not configured');
  try {
    const { payload } = await jwtVerify(token, keySet(config.jwksUrl), {
      algorithms: ['RS256', 'ES256'],
      issuer: config.issuers,
      audience,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: new Date(),
    });
    return payload;
  } catch (err) {
    // The reason (e.g. JWTExpired, JWTClaimValidationFailed, JWKSTimeout) helps operators tell a
    // provider outage from bad tokens; the token itself is never logged.
    const reason = err instanceof Error ? err.name : 'verification failed';
    console.warn(JSON.stringify({ level: 'warn', event: 'social_login.refused', jwksUrl: config.jwksUrl, reason }));
    throw new SocialTokenError(reason);
  }
}

/** Apple sends booleans as strings ("true"); Google as booleans. */
const isTrue = (value: unknown) => value === true || value === 'true';

function identity(provider: SocialProvider, payload: JWTPayload): SocialIdentity {
  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
  return {
    provider,
    subject: String(payload.sub),
    email: email && isTrue(payload.email_verified) ? email : null,
    givenName: typeof payload.given_name === 'string' ? payload.given_name : undefined,
    familyName: typeof payload.family_name === 'string' ? payload.family_name : undefined,
  };
}

export async function verifyGoogleIdToken(env: Env, idToken: string): Promise<SocialIdentity> {
  const payload = await verify(idToken, { jwksUrl: env.GOOGLE_JWKS_URL, issuers: GOOGLE_ISSUERS, clientIds: env.GOOGLE_CLIENT_IDS });
  return identity('GOOGLE', payload);
}

export async function verifyAppleIdentityToken(env: Env, identityToken: string): Promise<SocialIdentity> {
  const payload = await verify(identityToken, { jwksUrl: env.APPLE_JWKS_URL, issuers: APPLE_ISSUERS, clientIds: env.APPLE_CLIENT_IDS });
  return identity('APPLE', payload);
}
