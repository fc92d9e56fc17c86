// The operator console's sign-in: a cookie session stored in D1 (so suspending the operator or
// revoking their tokens ends it: sessions/sessions.ts revokes these rows with the token sessions, and
// the per-user cut-off in KV is honoured too), an idle timeout and a maximum age, and the CSRF
// tokens of its forms: a random nonce MACed with the session's key and the form's action, spent
// once by that action. The sign-in form's token is the server's (MACed), not any cookie value.
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { consoleFormTokens, consoleSessions, staffTotp, users, type ConsoleSessionRow, type UserRow } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { randomBase64Url, sha256Hex, toHex } from '../../lib/digest';
import { timingSafeEqual } from '../../lib/timing-safe';
import { isRevokedForUser } from '../../lib/token-revocation';

// Console routes have their own Variables (the operator); these helpers need only deps and env.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyContext = Context<any>;

export const OPERATOR_ROLES = ['ROLE_ADMIN', 'ROLE_SUPERADMIN'] as const;
export const IDLE_TIMEOUT_SECONDS = 8 * 60 * 60;
/** However active, a session ends 12 h after sign-in (a console left open, a copied cookie). */
export const MAX_AGE_SECONDS = 12 * 60 * 60;
/** How long the sign-in form's token is accepted. */
const LOGIN_TOKEN_SECONDS = 60 * 60;
/** lastSeenAt is rewritten at most this often (seconds): one write per minute, not per page. */
const TOUCH_EVERY_SECONDS = 60;

export const SESSION_COOKIE = 'console_session';
/** The sign-in form's CSRF token (double-submit: the cookie and the field must match). */
export const LOGIN_COOKIE = 'console_login';
const COOKIE_PATH = '/console';

export const isOperator = (roles: readonly string[]) => OPERATOR_ROLES.some((r) => roles.includes(r));


async function mac(key: string, nonce: string) {
  const k = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode(nonce)));
}

const secondsOf = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Cookie attributes: HttpOnly, SameSite=Strict, Secure outside local development. */
const cookieOptions = (env: Env, maxAge?: number) => ({
  path: COOKIE_PATH,
  httpOnly: true,
  secure: env.ENVIRONMENT !== 'development',
  sameSite: 'Strict' as const,
  ...(maxAge === undefined ? {} : { maxAge }),
});

export interface Operator {
  session: ConsoleSessionRow;
  user: UserRow;
  /** The operator as the services' AuthUser (roles read afresh on every request). */
  auth: AuthUser;
  /** Whether the operator has a confirmed TOTP authenticator (production sends them to enrol first). */
  twoFactor: boolean;
}

/** The cookie's lifetime: the idle timeout, never past the session's maximum age. */
const cookieAge = (createdAt: string, now = Math.floor(Date.now() / 1000)) =>
  Math.max(0, Math.min(IDLE_TIMEOUT_SECONDS, secondsOf(createdAt) + MAX_AGE_SECONDS - now));

/** Opens a session for an operator who passed the password check; sets its cookie. */
export async function openConsoleSession(c: AnyContext, user: UserRow) {
  const { db } = c.get('deps') as Deps;
  const secret = randomBase64Url(32);
  const now = new Date().toISOString();
  await db.insert(consoleSessions).values({ id: await sha256Hex(secret), userId: user.id, csrfKey: randomBase64Url(32), lastSeenAt: now, createdAt: now });
  setCookie(c, SESSION_COOKIE, secret, cookieOptions(c.env, IDLE_TIMEOUT_SECONDS));
  deleteCookie(c, LOGIN_COOKIE, { path: COOKIE_PATH });
}

async function endSession(deps: Deps, id: string, reason: string) {
  await deps.db
    .update(consoleSessions)
    .set({ revokedAt: new Date().toISOString(), revokedReason: reason })
    .where(and(eq(consoleSessions.id, id), isNull(consoleSessions.revokedAt)));
}

/**
 * The signed-in operator of this request, or null: the session exists, is not revoked nor idle
 * for more than 8 h, its user is enabled, not deleted, still an operator, and no revocation
 * cut-off (suspension, role removal, password reset) came after it was opened.
 */
export async function currentOperator(c: AnyContext): Promise<Operator | null> {
  const secret = getCookie(c, SESSION_COOKIE);
  if (!secret) return null;
  const deps: Deps = c.get('deps');
  const [row] = await deps.db
    .select({ session: consoleSessions, user: users, totpConfirmedAt: staffTotp.confirmedAt })
    .from(consoleSessions)
    .innerJoin(users, eq(users.id, consoleSessions.userId))
    .leftJoin(staffTotp, eq(staffTotp.userId, consoleSessions.userId))
    .where(eq(consoleSessions.id, await sha256Hex(secret)));
  if (!row || row.session.revokedAt) return null;
  const { session, user } = row;
  const now = Math.floor(Date.now() / 1000);
  if (now - secondsOf(session.lastSeenAt) > IDLE_TIMEOUT_SECONDS) {
    await endSession(deps, session.id, 'IDLE');
    return null;
  }
  if (now - secondsOf(session.createdAt) >= MAX_AGE_SECONDS) {
    await endSession(deps, session.id, 'EXPIRED');
    return null;
  }
  if (!user.enabled || user.deletedAt || !isOperator(user.roles)) {
    await endSession(deps, session.id, 'ACCOUNT_UNAVAILABLE');
    return null;
  }
  if (await isRevokedForUser(c.env.KV, user.id, secondsOf(session.createdAt))) {
    await endSession(deps, session.id, 'TOKENS_REVOKED');
    return null;
  }
  if (now - secondsOf(session.lastSeenAt) >= TOUCH_EVERY_SECONDS) {
    await deps.db.update(consoleSessions).set({ lastSeenAt: new Date().toISOString() }).where(eq(consoleSessions.id, session.id));
    setCookie(c, SESSION_COOKIE, secret, cookieOptions(c.env, cookieAge(session.createdAt, now)));
  }
  const auth: AuthUser = { id: user.id, roles: user.roles, jti: `console:${session.id}`, exp: now + IDLE_TIMEOUT_SECONDS };
  return { session, user, auth, twoFactor: Boolean(row.totpConfirmedAt) };
}

/** POST /console/logout. */
export async function closeConsoleSession(c: AnyContext, operator: Operator) {
  await endSession(c.get('deps') as Deps, operator.session.id, 'LOGOUT');
  deleteCookie(c, SESSION_COOKIE, cookieOptions(c.env));
}

/** A fresh CSRF token for the form of this session that posts to `action` (a path): `nonce.mac`. */
export async function formToken(session: ConsoleSessionRow, action: string) {
  const nonce = randomBase64Url(16);
  return `${nonce}.${await mac(session.csrfKey, `${action}\n${nonce}`)}`;
}

/** The nonce of a token made for this session and action, or null for a missing, foreign, other form's or forged token. */
export async function checkFormToken(session: ConsoleSessionRow, token: string | undefined, action: string): Promise<string | null> {
  const [nonce, given, ...rest] = (token ?? '').split('.');
  if (!nonce || !given || rest.length > 0) return null;
  return timingSafeEqual(given, await mac(session.csrfKey, `${action}\n${nonce}`)) ? nonce : null;
}

/** Spends a form token: true the first time, false when the same form was already submitted. */
export async function spendFormToken(deps: Deps, sessionId: string, nonce: string): Promise<boolean> {
  const inserted = await deps.db.insert(consoleFormTokens).values({ sessionId, nonce }).onConflictDoNothing().returning({ nonce: consoleFormTokens.nonce });
  return inserted.length === 1;
}

/**
 * Spent tokens are dropped at each sign-in once their session has surely ended: a token spent at
 * t belongs to a session opened before t, so over by t + MAX_AGE_SECONDS.
 */
export async function forgetOldFormTokens(deps: Deps) {
  const before = new Date(Date.now() - MAX_AGE_SECONDS * 1000).toISOString();
  await deps.db.delete(consoleFormTokens).where(lt(consoleFormTokens.createdAt, before));
}

/** The server's key for sign-in tokens, derived from the JWT keys (a secret every environment has). */
const loginKey = (env: Env) => `console-login\n${env.JWT_KEYS}`;

/** A sign-in token the server issued and that has not expired: `nonce.expiry.mac`. */
async function isLoginToken(env: Env, token: string | undefined): Promise<boolean> {
  const [nonce, expiry, given, ...rest] = (token ?? '').split('.');
  if (!nonce || !expiry || !given || rest.length > 0 || !/^\d{1,12}$/.test(expiry)) return false;
  if (Number(expiry) <= Math.floor(Date.now() / 1000)) return false;
  return timingSafeEqual(given, await mac(loginKey(env), `${nonce}.${expiry}`));
}

/** The sign-in form's token, kept in its cookie too (double submit); made by the server, MACed. */
export async function loginToken(c: AnyContext): Promise<string> {
  const existing = getCookie(c, LOGIN_COOKIE);
  if (existing && (await isLoginToken(c.env, existing))) return existing;
  const nonce = randomBase64Url(24);
  const expiry = String(Math.floor(Date.now() / 1000) + LOGIN_TOKEN_SECONDS);
  const token = `${nonce}.${expiry}.${await mac(loginKey(c.env), `${nonce}.${expiry}`)}`;
  setCookie(c, LOGIN_COOKIE, token, cookieOptions(c.env, LOGIN_TOKEN_SECONDS));
  return token;
}

/** The second step of a sign-in (an operator with an authenticator): who passed the password, until when. */
const SECOND_STEP_SECONDS = 5 * 60;

/** A token naming the operator who passed the password check: `userId.expiry.nonce.mac`, 5 minutes. */
export async function secondStepToken(env: Env, userId: number): Promise<string> {
  const body = `${userId}.${Math.floor(Date.now() / 1000) + SECOND_STEP_SECONDS}.${randomBase64Url(12)}`;
  return `${body}.${await mac(loginKey(env), `second-step\n${body}`)}`;
}

/** The user id of a second-step token this server issued and that has not expired, else null. */
export async function secondStepUser(env: Env, token: string | undefined): Promise<number | null> {
  const [id, expiry, nonce, given, ...rest] = (token ?? '').split('.');
  if (!id || !expiry || !nonce || !given || rest.length > 0 || !/^\d{1,12}$/.test(id) || !/^\d{1,12}$/.test(expiry)) return null;
  if (Number(expiry) <= Math.floor(Date.now() / 1000)) return null;
  return timingSafeEqual(given, await mac(loginKey(env), `second-step\n${id}.${expiry}.${nonce}`)) ? Number(id) : null;
}

/** The field equals the cookie and is a token this server issued: a value planted in the cookie is not. */
export async function loginTokenMatches(c: AnyContext, given: string | undefined): Promise<boolean> {
  const expected = getCookie(c, LOGIN_COOKIE);
  return Boolean(expected && given && timingSafeEqual(expected, given) && (await isLoginToken(c.env, given)));
}

/**
 * A console POST from the console's own pages. A browser says where a form came from with
 * Sec-Fetch-Site (a header no page can set), which decides when present: our pages send
 * `Referrer-Policy: no-referrer`, under which Chromium sends `Origin: null` even for our own
 * forms. Without it (an older browser), the Origin must be ours. A client sending neither (not a
 * browser) still needs the form's token.
 */
export function isSameOriginPost(c: AnyContext): boolean {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('Origin');
  return origin === undefined || origin === new URL(c.req.url).origin;
}
