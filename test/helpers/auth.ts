// Helpers for authentication tests: accounts made through the real HTTP flow, the development
// mail outbox, and a local JWKS standing in for Google and Apple (fetch stubbed).
import { env } from 'cloudflare:workers';
import { and, desc, eq } from 'drizzle-orm';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { vi } from 'vitest';
import { database } from '../../src/db/client';
import { deliveries } from '../../src/db/schema';
import { renderEmail } from '../../src/features/deliveries/templates';
import { post } from './http';

let counter = 0;
export const PASSWORD = 'Correct-horse-battery-1';

export const uniqueEmail = (prefix = 'member') => `${prefix}${++counter}-${crypto.randomUUID().slice(0, 8)}@example.test`;

/** A fresh client IP per caller, so per-IP rate limits of different tests never meet. */
export const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

export interface RegisteredUser {
  id: number;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  user: Record<string, unknown>;
}

export async function registerUser(overrides: Record<string, unknown> = {}): Promise<RegisteredUser> {
  const body = { email: uniqueEmail(), password: PASSWORD, firstName: 'Jane', lastName: 'Doe', ...overrides };
  const res = await post('/v1/api/auth/register', body);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.user.id,
    email: res.body.user.email,
    password: String(body.password),
    accessToken: res.body.accessToken,
    refreshToken: res.body.refreshToken,
    user: res.body.user,
  };
}

export async function login(email: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return post('/v1/api/auth/login', { email, password }, { headers });
}

/**
 * The last e-mail of a template written to the outbox for an address (the deliveries row the
 * request's batch wrote), rendered as the consumer renders it, and the token its link carries.
 */
export async function lastMail(to: string, template: string) {
  const [row] = await database(env.DB)
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.to, to), eq(deliveries.channel, 'EMAIL')))
    .orderBy(desc(deliveries.id));
  if (!row || row.template !== template) throw new Error(`no ${template} mail for ${to}`);
  const rendered = renderEmail(env, row);
  const token = rendered.text.match(/token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error('mail carries no token');
  return { ...row, subject: rendered.subject, body: rendered.text, token };
}

// ---- Social login: a local identity provider --------------------------------------------

export interface LocalIdp {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function createIdp(kid: string): Promise<LocalIdp> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, jwk };
}

/** Serves each URL's key set from fetch; every other request fails loudly (no network in tests). */
export function serveJwks(sets: Record<string, JWK[]>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const keys = sets[url];
    if (!keys) return new Response('unexpected outbound request in test', { status: 599 });
    return new Response(JSON.stringify({ keys }), { headers: { 'Content-Type': 'application/json' } });
  });
}

export interface IdTokenOptions {
  issuer: string;
  audience: string;
  subject: string;
  email?: string;
  emailVerified?: boolean | string;
  expiresInSeconds?: number;
  extra?: Record<string, unknown>;
  /** A fresh `jti` by default, as Google's tokens carry; null for none, as Apple's. */
  jti?: string | null;
}

export async function signIdToken(idp: LocalIdp, o: IdTokenOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jti = o.jti === undefined ? crypto.randomUUID() : o.jti;
  return new SignJWT({ email: o.email, email_verified: o.emailVerified ?? true, ...(jti === null ? {} : { jti }), ...o.extra })
    .setProtectedHeader({ alg: 'RS256', kid: idp.kid })
    .setIssuer(o.issuer)
    .setAudience(o.audience)
    .setSubject(o.subject)
    .setIssuedAt(now - 10)
    .setExpirationTime(now + (o.expiresInSeconds ?? 3600))
    .sign(idp.privateKey);
}
