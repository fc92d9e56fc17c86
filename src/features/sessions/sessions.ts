// Login sessions: a session is one refresh-token family kept in D1 (strongly consistent).
// Refresh rotates the pair with a conditional UPDATE on the current refresh token id, so a
// refresh token is spent once; presenting a spent one revokes the whole family, except the token
// just replaced within REFRESH_GRACE_SECONDS of its rotation: a phone app whose parallel requests
// all refresh gets the same new pair again (re-signed from the row: HS256 is deterministic), and
// the winner's tokens stay valid. Access tokens are checked against KV only, so revoking a session
// also blacklists its live access token, and rotation blacklists the access token it supersedes.
import { and, eq, isNull, ne } from 'drizzle-orm';
import { consoleSessions, sessions, users } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { accessDenied, unauthorized, type Text } from '../../errors';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, signToken, verifyToken } from '../../lib/jwt';
import { blacklistToken, isTokenRevoked, revokeUserTokensBefore } from '../../lib/token-revocation';
import { audit } from '../audit/audit';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token has left: apps need not trust the phone's clock. */
  expiresIn: number;
  /** Seconds the refresh token has left. */
  refreshExpiresIn: number;
}

/** How long after a rotation the refresh token it replaced still returns the same new pair. */
export const REFRESH_GRACE_SECONDS = 30;

export type SessionMethod = (typeof sessions.$inferInsert)['method'];
export type RevokeReason =
  | 'LOGOUT'
  | 'REUSE_DETECTED'
  | 'PASSWORD_CHANGED'
  | 'PASSWORD_RESET'
  | 'SUSPENDED'
  | 'ROLES_CHANGED'
  | 'ACCOUNT_DELETED'
  | 'ACCOUNT_UNAVAILABLE';

const nowSeconds = () => Math.floor(Date.now() / 1000);

const refused = (message: Text = 'auth.refreshTokenInvalidExpired') =>
  unauthorized(message, { suggestions: ['auth.logAgainObtainNew'] });

/** `jtis` and `now` given: the pair signed before with them (same claims, same bytes). */
async function signPair(env: Env, userId: number, roles: string[], sid: string, now = nowSeconds(), jtis?: { access: string; refresh: string }) {
  const sub = String(userId);
  const [access, refresh] = await Promise.all([
    signToken(env, { sub, typ: 'access', roles, sid, jti: jtis?.access }, ACCESS_TOKEN_TTL_SECONDS, now),
    signToken(env, { sub, typ: 'refresh', sid, jti: jtis?.refresh }, REFRESH_TOKEN_TTL_SECONDS, now),
  ]);
  return { access, refresh };
}

const responsePair = (access: { token: string; exp: number }, refresh: { token: string; exp: number }, now = nowSeconds()): TokenPair => ({
  accessToken: access.token,
  refreshToken: refresh.token,
  expiresIn: Math.max(0, access.exp - now),
  refreshExpiresIn: Math.max(0, refresh.exp - now),
});

/**
 * The pair that replaced `jti`, when `jti` is the refresh token of the session's last rotation
 * and that rotation is at most REFRESH_GRACE_SECONDS old; else null (reuse).
 */
async function pairWithinGrace(env: Env, session: typeof sessions.$inferSelect, jti: string): Promise<TokenPair | null> {
  const { previousRefreshJti, issuedAt, issuedRoles } = session;
  if (previousRefreshJti !== jti || issuedAt === null || !issuedRoles) return null;
  if (nowSeconds() - issuedAt > REFRESH_GRACE_SECONDS) return null;
  const { access, refresh } = await signPair(env, session.userId, issuedRoles, session.id, issuedAt, {
    access: session.accessJti,
    refresh: session.refreshJti,
  });
  return responsePair(access, refresh);
}

/** Signs the first token pair of a new session; `insert` writes its row (alone or in the caller's batch). */
export async function prepareSession(deps: Deps, user: { id: number; roles: string[] }, method: SessionMethod) {
  const { db, env } = deps;
  const sid = crypto.randomUUID();
  // One clock read: the tokens' exp and the answer's expiresIn (a second read could say 899).
  const now = nowSeconds();
  const { access, refresh } = await signPair(env, user.id, user.roles, sid, now);
  const insert = db.insert(sessions).values({
    id: sid,
    userId: user.id,
    method,
    refreshJti: refresh.jti,
    refreshExp: refresh.exp,
    accessJti: access.jti,
    accessExp: access.exp,
  });
  const pair = responsePair(access, refresh, now);
  return { pair, insert };
}

/** Opens a new session (registration, social login) and returns its first token pair. */
export async function openSession(deps: Deps, user: { id: number; roles: string[] }, method: SessionMethod): Promise<TokenPair> {
  const { pair, insert } = await prepareSession(deps, user, method);
  await insert;
  return pair;
}

/** POST /auth/refresh: the new pair, or 401 UNAUTHORIZED for any refused refresh token. */
export async function rotateSession(deps: Deps, refreshToken: string, ip: string | null): Promise<TokenPair> {
  const { db, env } = deps;
  const claims = await verifyToken(env, refreshToken, 'refresh');
  if (!claims?.sid) throw refused();
  if (await isTokenRevoked(env.KV, claims)) throw refused();
  const userId = Number(claims.sub);
  const [session] = await db.select().from(sessions).where(eq(sessions.id, claims.sid));
  if (!session || session.userId !== userId || session.revokedAt) throw refused();

  if (session.refreshJti !== claims.jti) {
    const again = await pairWithinGrace(env, session, claims.jti);
    if (again) return again;
    await revokeFamily(deps, session.id, userId, ip, 'spent refresh token presented');
    throw refused('auth.refreshTokenAlreadyUsed');
  }

  const [user] = await db.select({ roles: users.roles, enabled: users.enabled, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
  if (!user || !user.enabled || user.deletedAt) {
    await revokeSessions(deps, { sessionId: session.id }, 'ACCOUNT_UNAVAILABLE');
    throw refused('auth.accountSuspendedClosed');
  }

  // Roles are read afresh so a role granted since the last refresh applies now.
  const now = nowSeconds();
  const { access, refresh } = await signPair(env, userId, user.roles, session.id, now);
  const result = await db
    .update(sessions)
    .set({
      refreshJti: refresh.jti,
      refreshExp: refresh.exp,
      accessJti: access.jti,
      accessExp: access.exp,
      issuedAt: now,
      issuedRoles: user.roles,
      previousRefreshJti: claims.jti,
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(sessions.id, session.id), eq(sessions.refreshJti, claims.jti), isNull(sessions.revokedAt)))
    .run();
  if (result.meta.changes !== 1) {
    // Another request spent the same refresh token first: its pair, if that was just now.
    const [winner] = await db.select().from(sessions).where(eq(sessions.id, session.id));
    const again = winner && !winner.revokedAt ? await pairWithinGrace(env, winner, claims.jti) : null;
    if (again) return again;
    await revokeFamily(deps, session.id, userId, ip, 'refresh token used twice concurrently');
    throw refused('auth.refreshTokenAlreadyUsed');
  }
  await blacklistToken(env.KV, session.accessJti, session.accessExp);
  return responsePair(access, refresh, now);
}

async function revokeFamily(deps: Deps, sessionId: string, userId: number, ip: string | null, why: string) {
  await revokeSessions(deps, { sessionId }, 'REUSE_DETECTED');
  await audit(deps, { actorId: userId, action: 'REFRESH_TOKEN_REUSE', targetType: 'SESSION', targetId: sessionId, ip, details: { why } });
}

/** POST /auth/logout: blacklists the caller's access token and the given refresh token. */
export async function closeSession(deps: Deps, auth: AuthUser, refreshToken: string): Promise<void> {
  const { env } = deps;
  const claims = await verifyToken(env, refreshToken, 'refresh');
  if (!claims) throw refused();
  if (Number(claims.sub) !== auth.id) {
    throw accessDenied('auth.refreshTokenBelongsAnother');
  }
  await Promise.all([blacklistToken(env.KV, auth.jti, auth.exp), blacklistToken(env.KV, claims.jti, claims.exp)]);
  if (claims.sid) await revokeSessions(deps, { sessionId: claims.sid }, 'LOGOUT');
}

type SessionScope = { sessionId: string } | { userId: number; exceptSessionId?: string };

/**
 * Revokes sessions (one, or every session of a user but possibly the caller's) in D1 and
 * blacklists their live tokens in KV.
 */
export async function revokeSessions(deps: Deps, scope: SessionScope, reason: RevokeReason): Promise<number> {
  const { db, env } = deps;
  const where =
    'sessionId' in scope
      ? and(eq(sessions.id, scope.sessionId), isNull(sessions.revokedAt))
      : and(
          eq(sessions.userId, scope.userId),
          isNull(sessions.revokedAt),
          scope.exceptSessionId ? ne(sessions.id, scope.exceptSessionId) : undefined,
        );
  // One instant for the token sessions and the console's: revokedAt and updatedAt read it once.
  const now = new Date().toISOString();
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason, updatedAt: now })
    .where(where)
    .returning({ accessJti: sessions.accessJti, accessExp: sessions.accessExp, refreshJti: sessions.refreshJti, refreshExp: sessions.refreshExp });
  await Promise.all(
    revoked.flatMap((s) => [blacklistToken(env.KV, s.accessJti, s.accessExp), blacklistToken(env.KV, s.refreshJti, s.refreshExp)]),
  );
  // The operator console's cookie sessions of the user end with their token sessions.
  if ('userId' in scope) {
    await db
      .update(consoleSessions)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(eq(consoleSessions.userId, scope.userId), isNull(consoleSessions.revokedAt)));
  }
  return revoked.length;
}

/**
 * Suspension, role removal, password reset, account deletion: every token of the user stops
 * working. Sessions are revoked, and a per-user cut-off also refuses tokens issued before now
 * that no session lists.
 */
export async function revokeAllUserTokens(deps: Deps, userId: number, reason: RevokeReason): Promise<void> {
  const { env } = deps;
  await revokeSessions(deps, { userId }, reason);
  await revokeUserTokensBefore(env.KV, userId);
}
