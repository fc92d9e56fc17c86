// OWASP API Security Top 10 (2023), one block per risk, through HTTP against the real worker.
// Each block attacks the running API the way a client could and asserts the refusal (exact
// status and error code) and that nothing changed in D1.
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app';
import { database } from '../src/db/client';
import {
  agencies,
  announcements,
  disputes,
  files,
  ledgerEntries,
  notifications,
  reservations,
  searchAlerts,
  transactions,
  users,
} from '../src/db/schema';
import { ACCESS_TOKEN_TTL_SECONDS, signToken } from '../src/lib/jwt';
import { signCallback } from '../src/providers/kyc';
import worker from '../src/index';
import { FakeStripe, stripeSignature } from './helpers/fake-stripe';
import { call, errorBody, get, post, put } from './helpers/http';
import { aFile, anAgency, aBranch, type TestUser, aUser, aCarrier, anAdmin, aSuperAdmin, aCategory, aTrip, aReservation, bookingInput, FIFTY_EUR } from './helpers/factories';
import { WEBHOOK } from './helpers/money';
import { reservationRow, tripRow, runCron } from './helpers/db';

const stripe = new FakeStripe();
const db = database(env.DB);

/** Every outbound request the worker makes (msw sees them all), by host. */
const outbound: string[] = [];
beforeAll(() => {
  stripe.server.listen({ onUnhandledRequest: 'error' });
  stripe.server.events.on('request:start', ({ request }) => outbound.push(new URL(request.url).host));
});
afterAll(() => stripe.server.close());
afterEach(() => vi.useRealTimers());

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

type Operation = { method: string; path: string; op: Record<string, any> };

async function openApi() {
  const res = await get('/v1/api/openapi.json');
  expect(res.status).toBe(200);
  return res.body as { info: { version: string }; paths: Record<string, Record<string, any>>; components: Record<string, any> };
}

function operations(doc: Awaited<ReturnType<typeof openApi>>): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) ops.push({ method: method.toUpperCase(), path, op });
    }
  }
  return ops;
}

const isPublic = (o: Operation) => Array.isArray(o.op.security) && o.op.security.length === 0;


describe('API1 broken object level authorization', () => {
  /** Real objects of `owner` (and of the carrier of their reservation), one per resource kind. */
  async function ownedObjects(owner: TestUser) {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const { reservation: booking } = await aReservation({ trip, sender: owner, status: 'DISPUTED' });
    const [dispute] = await db
      .insert(disputes)
      .values({
        reservationId: booking.id,
        openedBy: owner.id,
        openerRole: 'SENDER',
        reason: 'DAMAGED',
        description: 'Broken',
        previousStatus: 'DEPOSITED',
        token: crypto.randomUUID(),
      })
      .returning();
    const [notification] = await db
      .insert(notifications)
      .values({ userId: owner.id, type: 'TEST', title: 'Mine', message: 'Private' })
      .returning();
    const [alert] = await db.insert(searchAlerts).values({ userId: owner.id, name: 'Mine', departureCity: 'Paris' }).returning();
    const [entry] = await db
      .insert(ledgerEntries)
      .values({ key: `owasp:${crypto.randomUUID()}`, token: crypto.randomUUID(), type: 'PAYMENT_ESCROWED', reservationId: booking.id, description: 'x' })
      .returning();
    const [transaction] = await db
      .insert(transactions)
      .values({
        ownerType: 'USER',
        ownerId: owner.id,
        type: 'PAYMENT',
        amountCents: -2300,
        currency: 'EUR',
        ledgerEntryId: entry.id,
        reservationId: booking.id,
        description: 'Payment',
      } as typeof transactions.$inferInsert)
      .returning();
    const file = await aFile(owner, { purpose: 'KYC_DOCUMENT' });
    const agency = await anAgency(owner, { name: 'Owner Agency' });
    const branch = await aBranch(agency, { name: 'Main' });
    return { booking, dispute, notification, alert, transaction, file, agency, branch, carrier };
  }

  it('a stranger gets 403 ACCESS_DENIED on every {id} route of the owned resources', async () => {
    const doc = await openApi();
    const owner = await aCarrier();
    const objects = await ownedObjects(owner);
    const stranger = await aCarrier();
    // The resource kinds and the real id each path parameter stands for.
    const kinds: [string, Record<string, number>][] = [
      ['/v1/api/bookings/', { id: objects.booking.id }],
      ['/v1/api/tracking/', { reservationId: objects.booking.id }],
      ['/v1/api/payments/', { reservationId: objects.booking.id }],
      ['/v1/api/disputes/', { id: objects.dispute.id }],
      ['/v1/api/notifications/', { id: objects.notification.id }],
      ['/v1/api/search-alerts/', { id: objects.alert.id }],
      ['/v1/api/transactions/', { id: objects.transaction.id }],
      ['/v1/api/files/', { id: objects.file.id }],
      ['/v1/api/agencies/', { id: objects.agency.id, branchId: objects.branch.id, userId: owner.id, accountId: 1 }],
    ];
    const table = operations(doc).flatMap((o) => {
      const kind = kinds.find(([prefix]) => o.path.startsWith(prefix));
      if (!kind || isPublic(o) || !/\{(id|reservationId)\}/.test(o.path)) return [];
      const path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => String(kind[1][name]));
      return [{ method: o.method, template: o.path, path }];
    });
    expect(table.length).toBeGreaterThan(25);
    // Every resource kind is covered by at least one route (the filter cannot silently drop one).
    for (const [prefix] of kinds) expect(table.some((t) => t.template.startsWith(prefix)), prefix).toBe(true);
    const failures: string[] = [];
    for (const { method, template, path } of table) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : bodies[`${method} ${template}`] ?? {};
      const res = await call(method, path, { token: stranger.token, body });
      if (res.status !== 403 || res.body?.errorCode !== 'ACCESS_DENIED') {
        failures.push(`${method} ${template}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        continue;
      }
      expect(errorBody(res), `${method} ${template}`).toEqual({
        status: 403,
        errorCode: 'ACCESS_DENIED',
        // Messages name the rule ("Only the carrier of this reservation can do this"), never the owner.
        message: expect.not.stringMatching(owner.email),
        path,
        suggestions: [],
      });
    }
    expect(failures).toEqual([]);
    // Nothing of the owner's changed.
    expect((await reservationRow(objects.booking.id)).status).toBe('DISPUTED');
    expect((await db.select().from(notifications).where(eq(notifications.id, objects.notification.id)))[0].readAt).toBeNull();
    expect(await db.select().from(searchAlerts).where(eq(searchAlerts.id, objects.alert.id))).toHaveLength(1);
    expect(await db.select().from(files).where(eq(files.id, objects.file.id))).toHaveLength(1);
    expect((await db.select().from(agencies).where(eq(agencies.id, objects.agency.id)))[0].name).toBe('Owner Agency');
  });
});

/** Valid bodies, so validation passes and the ownership check is what answers. */
const bodies: Record<string, unknown> = {
  'PUT /v1/api/search-alerts/{id}': { name: 'Hijack', departureCity: 'Paris', arrivalCity: 'Dakar' },
  'POST /v1/api/bookings/{id}/deposit': { depositCode: '123456' },
  'POST /v1/api/bookings/{id}/deliver': { deliveryCode: '654321' },
  'POST /v1/api/tracking/{reservationId}/positions': { lat: 14.7, lng: -17.4, recordedAt: new Date().toISOString() },
  'POST /v1/api/agencies/{id}/branches': { name: 'Hijack branch' },
  'POST /v1/api/agencies/{id}/employees': { email: 'hijack@test.local', branchId: 1 },
  'PUT /v1/api/agencies/{id}/employees/{userId}': { branchId: 1 },
  'POST /v1/api/agencies/{id}/withdrawals': { amount: 10 },
  'PUT /v1/api/agencies/{id}/withdrawals/auto': { enabled: true, threshold: 50 },
  'POST /v1/api/agencies/{id}/payout-accounts': { type: 'MOBILE_MONEY', provider: 'WAVE', phone: '+221770000001', name: 'Hijack' },
  'POST /v1/api/disputes/{id}/messages': { body: 'Let me in' },
  'POST /v1/api/bookings/{id}/messages': { body: 'Let me in' },
};

describe('API2 broken authentication', () => {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

  async function expectUnauthorized(token: string) {
    const res = await get('/v1/api/user/me', { token });
    expect(res.status).toBe(401);
    // One answer for every bad token: nothing tells the caller which check failed.
    expect(errorBody(res)).toEqual({
      status: 401,
      errorCode: 'UNAUTHORIZED',
      message: 'Access token is invalid or expired',
      path: '/v1/api/user/me',
      suggestions: ['Log in or refresh the access token, then retry'],
    });
  }

  it('refuses an expired access token', async () => {
    const user = await aUser();
    expect((await get('/v1/api/user/me', { token: user.token })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60_000);
    await expectUnauthorized(user.token);
  });

  it('refuses an alg:none token, a token signed with another key and a refresh token', async () => {
    const user = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] });
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: String(user.id),
      typ: 'access',
      roles: user.roles,
      jti: crypto.randomUUID(),
      iat: now,
      exp: now + 600,
      iss: env.JWT_ISSUER,
      aud: env.JWT_AUDIENCE,
    };
    const kid = JSON.parse(env.JWT_KEYS)[0].kid;
    await expectUnauthorized(`${b64({ alg: 'none', typ: 'JWT', kid })}.${b64(claims)}.`);
    await expectUnauthorized(`${b64({ alg: 'none', typ: 'JWT', kid })}.${b64(claims)}`);
    const forged = await new SignJWT({ typ: 'access', roles: user.roles })
      .setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' })
      .setSubject(String(user.id))
      .setJti(crypto.randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .setIssuer(env.JWT_ISSUER)
      .setAudience(env.JWT_AUDIENCE)
      .sign(new TextEncoder().encode('attacker-secret-0123456789abcdefghijklmnopqrstuvw'));
    await expectUnauthorized(forged);
    const refresh = await signToken(env, { sub: String(user.id), typ: 'refresh', sid: crypto.randomUUID() }, 3600);
    await expectUnauthorized(refresh.token);
    // The same claims, properly signed as an access token, pass: the refusals are about the token.
    const good = await signToken(env, { sub: String(user.id), typ: 'access', roles: user.roles }, ACCESS_TOKEN_TTL_SECONDS);
    expect((await get('/v1/api/user/me', { token: good.token })).status).toBe(200);
  });
});

describe('API3 broken object property level authorization', () => {
  const userRow = async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0];

  it('PUT /user/me cannot set roles, enabled, kycStatus, a wallet balance or the email', async () => {
    const user = await aUser({ passwordHash: 'v1$100000$c2FsdA$aGFzaA' });
    const before = await userRow(user.id);
    const res = await put(
      '/v1/api/user/me',
      { firstName: 'Mallory', roles: ['ROLE_SUPERADMIN'], enabled: false, kycStatus: 'VERIFIED', walletBalance: 1_000_000, email: 'evil@test.local' },
      { token: user.token },
    );
    // Accepted: the allowed field applies, the privileged ones are ignored.
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Mallory', roles: ['ROLE_CLIENT'], enabled: true, kycStatus: 'NOT_VERIFIED', walletBalance: 0, email: before.email });
    const after = await userRow(user.id);
    expect(after.firstName).toBe('Mallory');
    expect(after.roles).toEqual(before.roles);
    expect(after.enabled).toBe(true);
    expect(after.kycStatus).toBe('NOT_VERIFIED');
    expect(after.email).toBe(before.email);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|password_hash|c2FsdA/);
    const me = await get('/v1/api/user/me', { token: user.token });
    expect(JSON.stringify(me.body)).not.toMatch(/passwordHash|password_hash|c2FsdA/);
  });

  it('PUT /annonces/{id} cannot set reservedWeight, status or carrierId', async () => {
    const carrier = await aCarrier();
    const other = await aCarrier();
    const trip = await aTrip(carrier, { reservedWeightG: 2000 });
    const res = await put(
      `/v1/api/annonces/${trip.id}`,
      { description: 'Updated description', reservedWeight: 0, status: 'COMPLETED', carrierId: other.id },
      { token: carrier.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ carrierId: carrier.id, reservedWeight: 2, status: 'ACTIVE', description: 'Updated description' });
    const after = await tripRow(trip.id);
    expect(after.description).toBe('Updated description');
    expect(after.reservedWeightG).toBe(2000);
    expect(after.status).toBe('ACTIVE');
    expect(after.carrierId).toBe(carrier.id);
  });

  it('POST /bookings cannot choose its status or amounts', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const category = await aCategory();
    const trip = await aTrip(carrier, { pricePerKgCents: 1000 });
    const res = await post(
      '/v1/api/bookings',
      bookingInput(trip.id, category.id, 2, { status: 'PAID', totalAmount: 0.01, carrierAmount: 9999, carrierId: sender.id }),
      { token: sender.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'PENDING_PAYMENT', carrierId: carrier.id, senderId: sender.id });
    const rows = await db.select().from(reservations).where(eq(reservations.announcementId, trip.id));
    expect(rows).toHaveLength(1);
    // 2 kg at 10 EUR/kg: the amounts are the server's, whatever the body claimed.
    expect(rows[0]).toMatchObject({ status: 'PENDING_PAYMENT', carrierId: carrier.id, totalAmountCents: 2000 });
    expect(rows[0].carrierAmountCents).toBeGreaterThan(0);
    expect(rows[0].carrierAmountCents).toBeLessThan(2000);
  });

  it('responses never leak password hashes, others’ recipient tokens or KYC session tokens', async () => {
    const sender = await aUser({ passwordHash: 'v1$100000$c2FsdA$aGFzaA' });
    const carrier = await aCarrier({ passwordHash: 'v1$100000$c2FsdA$aGFzaA' });
    const trip = await aTrip(carrier);
    const { reservation: booking } = await aReservation({ trip, sender, status: 'PAID' });
    const admin = await anAdmin();
    const root = await aSuperAdmin();
    const kyc = await post('/v1/api/kyc/sessions', undefined, { token: sender.token });
    expect(kyc.status).toBe(201);
    const responses = [
      await get(`/v1/api/bookings/${booking.id}`, { token: carrier.token }),
      await get('/v1/api/bookings/as-carrier', { token: carrier.token }),
      await get(`/v1/api/annonces/${trip.id}`),
      await get(`/v1/api/users/${sender.id}`, { token: carrier.token }),
      await get(`/v1/api/admin/users/${sender.id}`, { token: admin.token }),
      await get('/v1/api/admin/users?size=100', { token: admin.token }),
      await get(`/v1/api/superadmin/reservations/${booking.id}`, { token: root.token }),
      await get('/v1/api/superadmin/kyc?size=100', { token: root.token }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text).not.toMatch(/passwordHash|password_hash|c2FsdA/);
      expect(text).not.toContain(kyc.body.kycSessionToken);
      // Admin views keep the field (the spec's shape) but always null.
      expect(text).not.toMatch(/"kycSessionToken":"/);
    }
    // The carrier does not get the sender's recipient link token.
    for (const res of responses.slice(0, 3)) expect(JSON.stringify(res.body)).not.toContain(booking.recipientToken);
  });
});

describe('API4 unrestricted resource consumption', () => {
  it('caps the page size at 100', async () => {
    const user = await aUser();
    const res = await get('/v1/api/notifications?size=100000', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.page.size).toBe(100);
  });

  it('refuses a JSON body of 1 MiB + 1 byte with 413', async () => {
    const user = await aUser();
    const raw = JSON.stringify({ firstName: 'x'.repeat(1024 * 1024 + 1 - 16) });
    expect(new TextEncoder().encode(raw).length).toBe(1024 * 1024 + 1);
    const res = await call('PUT', '/v1/api/user/me', { raw, token: user.token, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(errorBody(res)).toMatchObject({ status: 413, errorCode: 'INVALID_ARGUMENT' });
  });

  it('rate-limits login with 429 and Retry-After', async () => {
    const email = `owasp-${crypto.randomUUID().slice(0, 8)}@test.local`;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      last = await post('/v1/api/auth/login', { email, password: 'Wrong-password-1' });
      statuses.push(last.status);
      if (last.status === 429) break;
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get('Retry-After')).toBe('60');
    expect(errorBody(last!)).toMatchObject({ status: 429, errorCode: 'BUSINESS_RULE_VIOLATION' });
  });
});

describe('API5 broken function level authorization', () => {
  it('every /admin and /superadmin operation refuses a plain user with 403', async () => {
    const doc = await openApi();
    const ops = operations(doc).filter((o) => /^\/v1\/api\/(admin|superadmin)\//.test(o.path));
    expect(ops.length).toBeGreaterThan(20);
    const user = await aCarrier();
    const failures: string[] = [];
    for (const { method, path } of ops) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const res = await call(method, path.replace(/\{[^}]+\}/g, '1'), { token: user.token, body });
      if (res.status !== 403 || res.body?.errorCode !== 'ACCESS_DENIED') failures.push(`${method} ${path}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('API6 unrestricted access to sensitive business flows', () => {
  it('cannot hold more capacity than exists, and unpaid holds expire through the cron', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const category = await aCategory();
    const trip = await aTrip(carrier, { totalWeightG: 5000 });
    const first = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 4), { token: sender.token });
    expect(first.status).toBe(201);
    const beyond = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2), { token: sender.token });
    expect(beyond.status).toBe(422);
    expect(beyond.body.errorCode).toBe('BUSINESS_RULE_VIOLATION');
    expect((await tripRow(trip.id)).reservedWeightG).toBe(4000);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    await runCron(Date.now());
    vi.useRealTimers();
    expect((await reservationRow(first.body.id)).status).toBe('EXPIRED');
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
    const again = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 5), { token: sender.token });
    expect(again.status).toBe(201);
  });

  it('a carrier cannot book their own trip', async () => {
    const carrier = await aCarrier();
    const category = await aCategory();
    const trip = await aTrip(carrier);
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: carrier.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'OWN_TRIP',
      message: 'You cannot book your own announcement',
      path: '/v1/api/bookings',
      suggestions: [],
    });
    expect(await db.select().from(reservations).where(eq(reservations.announcementId, trip.id))).toHaveLength(0);
  });
});

describe('API7 server-side request forgery', () => {
  it('pay-connect return with an arbitrary account id is 404 with no outbound request', async () => {
    const before = stripe.requests.length;
    const outBefore = outbound.length;
    const res = await call('GET', '/v1/api/pay-connect/return?account=acct_attacker_chosen');
    expect(res.status).toBe(404);
    expect(stripe.requests.length).toBe(before);
    expect(outbound.length).toBe(outBefore);
  });

  it('no POST/PUT input makes the service fetch a URL of the caller’s choosing', async () => {
    const doc = await openApi();
    const schemas = doc.components.schemas as Record<string, any>;
    const resolve = (s: any): any => (s?.$ref ? resolve(schemas[s.$ref.split('/').pop()]) : s);
    const URL_STRING = 'http://169.254.169.254/latest/meta-data';
    // A body with every string field set to a URL (nested objects and arrays included).
    const fill = (raw: any, depth = 0): unknown => {
      const s = resolve(raw);
      if (!s || depth > 6) return URL_STRING;
      const variant = s.anyOf ?? s.oneOf ?? s.allOf;
      if (variant) return fill(variant.find((v: any) => resolve(v)?.type !== 'null') ?? variant[0], depth + 1);
      if (s.enum) return s.enum[0];
      if (s.type === 'object' || s.properties) {
        return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fill(v, depth + 1)]));
      }
      if (s.type === 'array') return [fill(s.items, depth + 1)];
      if (s.type === 'integer' || s.type === 'number') return 1;
      if (s.type === 'boolean') return true;
      return URL_STRING;
    };
    // The listener does see the worker's outbound calls: a checkout reaches (fake) Stripe.
    const sender = await aUser();
    const { reservation: booking } = await aReservation({ sender, ...FIFTY_EUR });
    const checkoutFrom = outbound.length;
    expect((await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token })).status).toBe(200);
    expect(outbound.slice(checkoutFrom)).toContain('api.stripe.com');

    const user = await aCarrier();
    const outBefore = outbound.length;
    let sent = 0;
    for (const o of operations(doc)) {
      if (!['POST', 'PUT'].includes(o.method)) continue;
      const schema = o.op.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const res = await call(o.method, o.path.replace(/\{[^}]+\}/g, '1'), { token: user.token, body: fill(schema) });
      expect(res.status, `${o.method} ${o.path}`).toBeLessThan(500);
      sent += 1;
    }
    expect(sent).toBeGreaterThan(30);
    const foreign = outbound.slice(outBefore).filter((host) => host !== 'api.stripe.com');
    expect(foreign).toEqual([]);
  });
});

describe('API8 security misconfiguration', () => {
  it('CORS never allows credentials and refuses unknown origins', async () => {
    const allowed = env.CORS_ORIGINS.split(',')[0].trim();
    for (const origin of [allowed, 'https://evil.example']) {
      const res = await call('OPTIONS', '/v1/api/user/me', {
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(res.headers.get('Access-Control-Allow-Credentials')).toBeNull();
      const plain = await call('GET', '/v1/api/health', { headers: { Origin: origin } });
      expect(plain.headers.get('Access-Control-Allow-Credentials')).toBeNull();
      if (origin === allowed) {
        expect(res.headers.get('Access-Control-Allow-Origin')).toBe(allowed);
      } else {
        expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
        expect(plain.headers.get('Access-Control-Allow-Origin')).toBeNull();
      }
    }
  });

  it('sends the secure headers', async () => {
    const res = await get('/v1/api/health');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('X-Frame-Options')).toBe('SAMEORIGIN');
    expect(res.headers.get('Strict-Transport-Security')).toContain('max-age=');
    expect(res.headers.get('X-Powered-By')).toBeNull();
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(res.headers.get('Cross-Origin-Resource-Policy')).toBe('same-origin');
    expect(res.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
    // The legacy ones no browser in use reads are not sent (src/app.ts SECURE_HEADERS).
    for (const legacy of ['X-XSS-Protection', 'X-Download-Options', 'X-Permitted-Cross-Domain-Policies', 'X-DNS-Prefetch-Control', 'Origin-Agent-Cluster']) {
      expect([legacy, res.headers.get(legacy)]).toEqual([legacy, null]);
    }
  });

  it('a 500 has no stack trace outside development', async () => {
    expect(env.ENVIRONMENT).toBe('test');
    const app = createApp();
    app.get('/v1/api/owasp-boom', () => {
      throw new Error('secret sauce: SELECT * FROM users');
    });
    const res = await app.request('http://api.test/v1/api/owasp-boom', {}, env);
    expect(res.status).toBe(500);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.errorCode).toBe('INTERNAL_ERROR');
    expect(body.debugInfo).toBeUndefined();
    expect(text).not.toMatch(/secret sauce|SELECT|at .*\.ts|stack/);
  });
});

describe('API9 improper inventory management', () => {
  it('the document is version 2.0.0, every operation documents error responses, webhooks are public', async () => {
    const doc = await openApi();
    expect(doc.info.version).toBe('2.0.0');
    const schemas = doc.components.schemas as Record<string, any>;
    const problems: string[] = [];
    // The documentation itself and the health probe (its 503 is a health report) are the
    // documented exceptions; HTML pages (the recipient link) answer HTML errors.
    const exempt = ['/v1/api/openapi.json', '/v1/api/docs', '/v1/api/health'];
    for (const o of operations(doc)) {
      // The app-link files are static documents built from configuration: no error answer.
      if (exempt.includes(o.path) || o.path.startsWith('/.well-known/')) continue;
      const errors = Object.entries(o.op.responses ?? {}).filter(([code]) => /^[45]/.test(code));
      if (errors.length === 0) problems.push(`${o.method} ${o.path}: no error response`);
      for (const [code, response] of errors as [string, any][]) {
        if (!response.content?.['application/json']) {
          if (!response.content?.['text/html']) problems.push(`${o.method} ${o.path} ${code}: no content`);
          continue;
        }
        const schema = response.content['application/json'].schema;
        const name = schema?.$ref?.split('/').pop();
        if (!name || !schemas[name]?.properties?.errorCode) problems.push(`${o.method} ${o.path} ${code}: not the error schema`);
      }
      if (o.path.startsWith('/v1/api/webhooks/') && !isPublic(o)) problems.push(`${o.method} ${o.path}: webhook not security: []`);
    }
    expect(problems).toEqual([]);
    expect(operations(doc).filter((o) => o.path.startsWith('/v1/api/webhooks/')).map((o) => o.path).sort()).toEqual(
      ['/v1/api/webhooks/kyc-provider/status-update', '/v1/api/webhooks/pawapay', '/v1/api/webhooks/payment-provider', '/v1/api/webhooks/wave'],
    );
  });
});

describe('API10 unsafe consumption of APIs', () => {
  const WEBHOOK = '/v1/api/webhooks/payment-provider';
  const KYC = '/v1/api/webhooks/kyc-provider/status-update';
  const ledgerCount = async () => (await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ledger_entries`))!.n;

  it('a tampered payment event is 401 and changes nothing', async () => {
    const { reservation: booking } = await aReservation(FIFTY_EUR);
    const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    const payload = JSON.stringify(stripe.event('payment_intent.amount_capturable_updated', pi));
    const signature = await stripeSignature(payload);
    const entries = await ledgerCount();
    const tampered = payload.replace(`"${booking.totalAmountCents}"`, '"1"').replace(String(booking.totalAmountCents), '1');
    expect(tampered).not.toBe(payload);
    const res = await call('POST', WEBHOOK, { raw: tampered, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature } });
    expect(res.status).toBe(401);
    expect(errorBody(res)).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' });
    expect((await reservationRow(booking.id)).status).toBe('PENDING_PAYMENT');
    expect(await ledgerCount()).toBe(entries);
  });

  it('a KYC callback with a wrong signature is 401 and changes nothing', async () => {
    const user = await aUser();
    const session = await post('/v1/api/kyc/sessions', undefined, { token: user.token });
    expect(session.status).toBe(201);
    const [record] = await db.all<{ session_id: string }>(sql`SELECT session_id FROM kyc_records WHERE user_id = ${user.id}`);
    const raw = JSON.stringify(JSON.stringify({ eventId: `evt-${crypto.randomUUID()}`, sessionId: record.session_id, status: 'APPROVED' }));
    const headers = await signCallback('not-the-secret', raw);
    const res = await call('POST', KYC, { raw, headers: { ...headers, 'Content-Type': 'application/json' } });
    expect(res.status).toBe(401);
    expect(errorBody(res)).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' });
    expect((await db.select().from(users).where(eq(users.id, user.id)))[0].kycStatus).toBe('PENDING');
  });

  it('a well-signed event for an unknown reservation is acknowledged and changes nothing', async () => {
    const entries = await ledgerCount();
    const before = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM reservations WHERE status <> 'PENDING_PAYMENT'`);
    const pi = stripe.authorizedPaymentIntent(5000, 'eur', { reservationId: '987654321' });
    const payload = JSON.stringify(stripe.event('payment_intent.amount_capturable_updated', pi));
    const res = await call('POST', WEBHOOK, { raw: payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': await stripeSignature(payload) } });
    expect(res.status).toBe(200);
    expect(await ledgerCount()).toBe(entries);
    expect(await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM reservations WHERE status <> 'PENDING_PAYMENT'`)).toEqual(before);
    expect(await db.select().from(announcements).where(eq(announcements.id, -1))).toHaveLength(0);
  });
});
