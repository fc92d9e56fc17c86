// Authentication and roles: requireAuth (bearer access token), requireRole. Who may act on what
// (ownership, reservations, agencies) is src/access/.
import { createMiddleware } from 'hono/factory';
import type { AppEnv, AuthUser } from '../env';
import { accessDenied, unauthorized, msg, type AppErrorOptions } from '../errors';
import { verifyToken } from '../lib/jwt';
import { isTokenRevoked } from '../lib/token-revocation';

export const ROLES = [
  'ROLE_CLIENT',
  'ROLE_VERIFIED_USER',
  'ROLE_AGENCY_OWNER',
  'ROLE_AGENCY_EMPLOYEE',
  'ROLE_ADMIN',
  'ROLE_SUPERADMIN',
] as const;
export type Role = (typeof ROLES)[number];

const LOG_IN_AGAIN: AppErrorOptions = { suggestions: ['request.logRefreshAccessToken'] };

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
const bearerToken = (header: string | undefined) => header?.match(/^Bearer\s+(\S+)$/i)?.[1];

export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  c.set('auth', await authenticate(c.env, bearerToken(c.req.header('Authorization'))));
  await next();
});

/** The caller of an access token, checked for expiry and revocation (KV); 401 otherwise. */
export async function authenticate(env: Env, token: string | null | undefined): Promise<AuthUser> {
  if (!token) throw unauthorized('request.authenticationRequiredSendAuthorization', LOG_IN_AGAIN);
  const claims = await verifyToken(env, token, 'access');
  if (!claims) throw unauthorized('request.accessTokenInvalidExpired', LOG_IN_AGAIN);
  if (await isTokenRevoked(env.KV, claims)) throw unauthorized('request.accessTokenRevoked', LOG_IN_AGAIN);
  return { id: Number(claims.sub), roles: claims.roles ?? [], jti: claims.jti, exp: claims.exp, iat: claims.iat, sid: claims.sid };
}

/** The caller of an optional bearer token on a public route: null when absent or not valid (the route stays public). */
export async function optionalCaller(env: Env, header: string | undefined): Promise<AuthUser | null> {
  const token = bearerToken(header);
  if (!token) return null;
  return authenticate(env, token).catch(() => null);
}

export const hasRole = (auth: AuthUser, ...roles: Role[]) =>
  auth.roles.includes('ROLE_SUPERADMIN') || roles.some((r) => auth.roles.includes(r));

/** Passes callers holding any of the roles (a super-admin holds them all). Use after requireAuth. */
export const requireRole = (...roles: Role[]) =>
  // The roles ride on the middleware so the OpenAPI document can say who may call the route.
  Object.assign(
    createMiddleware<AppEnv>(async (c, next) => {
      if (!hasRole(c.get('auth'), ...roles)) throw accessDenied(msg('request.requiresRole', { roles: roles.join(', ') }));
      await next();
    }),
    { roles },
  );

/** The access token of a socket: `Sec-WebSocket-Protocol: bearer.<token>` (browsers cannot set headers). */
export function socketToken(request: Request): { token: string | null; protocol?: string } {
  const offered = (request.headers.get('Sec-WebSocket-Protocol') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bearer = offered.find((p) => p.startsWith('bearer.'));
  if (bearer) return { token: bearer.slice('bearer.'.length), protocol: offered.find((p) => !p.startsWith('bearer.')) ?? bearer };
  const header = request.headers.get('Authorization')?.match(/^Bearer\s+(\S+)$/i);
  return { token: header?.[1] ?? null };
}

/** A socket's caller: the token travels as the subprotocol `bearer.<accessToken>` (or, outside browsers, the usual header). */
export const requireSocketAuth = createMiddleware<AppEnv>(async (c, next) => {
  c.set('auth', await authenticate(c.env, socketToken(c.req.raw).token));
  await next();
});
