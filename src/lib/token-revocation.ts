// Token revocation in KV: a blacklist by token id (logout) and a per-user cut-off (suspension,
// role removal, password change). Entries expire with the tokens they cover.
import { REFRESH_TOKEN_TTL_SECONDS } from './jwt';

const MIN_KV_TTL = 60; // KV refuses shorter TTLs.

const blacklistKey = (jti: string) => `bl:${jti}`;
const cutoffKey = (userId: number) => `rv:${userId}`;

export async function blacklistToken(kv: KVNamespace, jti: string, exp: number, now = Math.floor(Date.now() / 1000)) {
  const remaining = exp - now;
  if (remaining <= 0) return;
  await kv.put(blacklistKey(jti), '1', { expirationTtl: Math.max(MIN_KV_TTL, remaining) });
}

/** Every token of the user issued before `at` (seconds) is refused from now on. */
export async function revokeUserTokensBefore(kv: KVNamespace, userId: number, at = Math.floor(Date.now() / 1000)) {
  await kv.put(cutoffKey(userId), String(at), { expirationTtl: REFRESH_TOKEN_TTL_SECONDS });
}

/** Both checks in one KV bulk read: this runs on every authenticated request. */
export async function isTokenRevoked(kv: KVNamespace, claims: { jti: string; sub: string; iat: number }) {
  const keys = [blacklistKey(claims.jti), cutoffKey(Number(claims.sub))];
  const found = await kv.get(keys, 'text');
  const cutoff = found.get(keys[1]) ?? null;
  return (found.get(keys[0]) ?? null) !== null || (cutoff !== null && claims.iat < Number(cutoff));
}

/** Whether the per-user cut-off covers a credential issued at `issuedAt` (seconds): the console's sessions. */
export async function isRevokedForUser(kv: KVNamespace, userId: number, issuedAt: number) {
  const cutoff = await kv.get(cutoffKey(userId), 'text');
  return cutoff !== null && issuedAt < Number(cutoff);
}
