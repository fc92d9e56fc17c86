// jose wrapped once: HS256 access and refresh tokens with a `kid`, algorithm pinned on verify.
import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Clock skew tolerated on `exp`/`nbf` (seconds). */
export const CLOCK_SKEW_SECONDS = 30;

export type TokenType = 'access' | 'refresh';

export interface TokenClaims extends JWTPayload {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
  typ: TokenType;
  roles?: string[];
  /** Refresh tokens: the session (family) they belong to. */
  sid?: string;
}

interface SigningKey {
  kid: string;
  secret: Uint8Array;
  /** The HMAC key, imported on first use and kept for the isolate's life (the key, not a promise shared across requests). */
  key?: CryptoKey;
}

/** jose imports raw key bytes on every sign and verify; a CryptoKey it takes as it is. */
const hmacKey = async (k: SigningKey) =>
  (k.key ??= await crypto.subtle.importKey('raw', k.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));

export interface JwtConfig {
  JWT_KEYS: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
}

const keyCache = new Map<string, SigningKey[]>();

/** JWT_KEYS is a JSON array `[{kid, secret}]`: the first signs, every one verifies (rotation). */
function keys(config: JwtConfig): SigningKey[] {
  let parsed = keyCache.get(config.JWT_KEYS);
  if (!parsed) {
    const list = JSON.parse(config.JWT_KEYS) as { kid: string; secret: string }[];
    if (!Array.isArray(list) || list.length === 0) throw new Error('JWT_KEYS must be a non-empty JSON array');
    parsed = list.map(({ kid, secret }) => ({ kid, secret: new TextEncoder().encode(secret) }));
    keyCache.set(config.JWT_KEYS, parsed);
  }
  return parsed;
}

export async function signToken(
  config: JwtConfig,
  claims: { sub: string; typ: TokenType; roles?: string[]; sid?: string; jti?: string },
  ttlSeconds: number,
  now = Math.floor(Date.now() / 1000),
): Promise<{ token: string; jti: string; exp: number }> {
  const [signing] = keys(config);
  const jti = claims.jti ?? crypto.randomUUID();
  const exp = now + ttlSeconds;
  const payload: Record<string, unknown> = { typ: claims.typ };
  if (claims.roles) payload.roles = claims.roles;
  if (claims.sid) payload.sid = claims.sid;
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', kid: signing.kid, typ: 'JWT' })
    .setSubject(claims.sub)
    .setJti(jti)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .setIssuer(config.JWT_ISSUER)
    .setAudience(config.JWT_AUDIENCE)
    .sign(await hmacKey(signing));
  return { token, jti, exp };
}

/** Returns the claims, or null for any token that is malformed, forged, expired or of another type. */
export async function verifyToken(config: JwtConfig, token: string, typ: TokenType): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(
      token,
      (header) => {
        const match = keys(config).find((k) => k.kid === header.kid);
        if (!match) throw new joseErrors.JWKSNoMatchingKey();
        return hmacKey(match);
      },
      {
        algorithms: ['HS256'],
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
        currentDate: new Date(),
        // A phone's clock may run a little ahead or behind (CONTRACT section 19).
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      },
    );
    if (payload.typ !== typ) return null;
    return payload as TokenClaims;
  } catch {
    return null;
  }
}
