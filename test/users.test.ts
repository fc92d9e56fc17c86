// The caller's account (/user/me), public profiles (/users/{id}), user administration
// (/admin/users, /superadmin/users/{id}/roles), the demo seed and the OpenAPI entries.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../src/db/client';
import { depsOf } from '../src/env';
import { msg } from '../src/errors';
import { announcements, auditLogs, deliveries, ledgerAccounts, notifications, reservations, sessions, users, withdrawals } from '../src/db/schema';
import { cityKey } from '../src/features/reference/city-key';
import type { ReservationStatus } from '../src/features/reservations/reservation-state';
import { runSeed } from '../src/features/dev/seed';
import { ACCOUNT_DELETION_GUARDS } from '../src/features/users/users.service';
import { PASSWORD, login, registerUser } from './helpers/auth';
import { call, del, errorBody, get, post, put } from './helpers/http';
import { aUser, tokenFor, anAdmin, aSuperAdmin, aTrip, aReservation, aCarrier, aCategory, anAgency, bookingInput, uniqueCity } from './helpers/factories';
import { runCron } from './helpers/db';

const db = database(env.DB);
const ME = '/v1/api/user/me';

// The built-in guards; a test may push its own and gets the list back as it was.
const BUILT_IN_GUARDS = [...ACCOUNT_DELETION_GUARDS];
afterEach(() => {
  vi.useRealTimers();
  ACCOUNT_DELETION_GUARDS.splice(0, ACCOUNT_DELETION_GUARDS.length, ...BUILT_IN_GUARDS);
});

const unauthorized = (res: { status: number; body: any }) => {
  expect(res.status).toBe(401);
  expect(res.body.errorCode).toBe('UNAUTHORIZED');
};
const denied = (res: { status: number; body: any }) => {
  expect(res.status).toBe(403);
  expect(res.body.errorCode).toBe('ACCESS_DENIED');
};
const auditRows = (targetId: number, action: string) =>
  db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.targetId, String(targetId)), eq(auditLogs.action, action)));

describe('GET /user/me', () => {
  it('returns the user object of the caller and nothing secret', async () => {
    const reg = await registerUser({ nationality: 'SN' });
    const res = await get(ME, { token: reg.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(reg.user);
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash|googleSubject|appleSubject/i);
  });

  it('requires a token', async () => {
    const res = await get(ME);
    expect(res.status).toBe(401);
    expect(errorBody(res)).toEqual({
      status: 401,
      errorCode: 'UNAUTHORIZED',
      message: 'Authentication required: send Authorization: Bearer <access token>',
      path: ME,
      suggestions: ['Log in or refresh the access token, then retry'],
    });
  });
});

describe('PUT /user/me', () => {
  it('changes the fields sent, clears those sent as null, ignores email and roles', async () => {
    const reg = await registerUser({ phoneNumber: '+221770000000', nationality: 'SN' });
    const username = `new_${crypto.randomUUID().slice(0, 8)}`;
    const res = await put(
      ME,
      { firstName: 'Renamed', username, phoneNumber: null, avatarUrl: 'https://cdn.example.com/a.png', email: 'x@evil.test', roles: ['ROLE_ADMIN'] },
      { token: reg.accessToken },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Renamed',
      lastName: 'Doe',
      username,
      phoneNumber: null,
      nationality: 'SN',
      avatarUrl: 'https://cdn.example.com/a.png',
      email: reg.email,
      roles: ['ROLE_CLIENT'],
    });
    expect((await get(ME, { token: reg.accessToken })).body).toEqual(res.body);
  });

  it('a username taken by someone else is 409 ALREADY_EXISTS', async () => {
    const username = `taken_${crypto.randomUUID().slice(0, 8)}`;
    await registerUser({ username });
    const other = await registerUser();
    const res = await put(ME, { username }, { token: other.accessToken });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ errorCode: 'ALREADY_EXISTS', message: 'An account with this username already exists' });
  });

  it('bad values are 400 VALIDATION_ERROR with every field', async () => {
    const reg = await registerUser();
    const res = await put(ME, { firstName: '', birthDate: '21/04/1990', avatarUrl: 'not a url', username: 'a b' }, { token: reg.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('VALIDATION_ERROR');
    expect(res.body.fieldErrors.map((f: any) => f.field).sort()).toEqual(['avatarUrl', 'birthDate', 'firstName', 'username']);
  });
});

describe('PUT /user/me: avatarUrl (CONTRACT section 19)', () => {
  const PNG = new Uint8Array(64);
  PNG.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
  const PDF = new Uint8Array(64);
  PDF.set([...'%PDF-1.7\n'].map((c) => c.charCodeAt(0)));

  async function upload(token: string, purpose: string, data = PNG, type = 'image/png') {
    const form = new FormData();
    form.append('file', new File([data], 'a', { type }));
    form.append('purpose', purpose);
    const res = await call('POST', '/v1/api/files', { raw: form, token });
    expect(res.status).toBe(201);
    return res.body.url as string;
  }

  it('refuses javascript:, data:, file: and http: URLs: 400 on avatarUrl, nothing stored', async () => {
    const reg = await registerUser();
    for (const avatarUrl of ['javascript:alert(1)', 'data:image/png;base64,iVBORw0KGgo=', 'file:///etc/passwd', 'http://cdn.example.com/a.png', 'https://']) {
      const res = await put(ME, { avatarUrl }, { token: reg.accessToken });
      expect(errorBody(res)).toEqual({
        status: 400,
        errorCode: 'VALIDATION_ERROR',
        message: 'Validation failed for body: avatarUrl',
        path: ME,
        suggestions: ['Correct the fields listed and try again'],
        fieldErrors: [{ field: 'avatarUrl', message: 'An https address, or the address of the avatar you uploaded', rejectedValue: avatarUrl }],
      });
    }
    expect((await get(ME, { token: reg.accessToken })).body.avatarUrl).toBeNull();
  });

  it("accepts the url POST /files answered for the caller's own avatar, and shows it on the public profile", async () => {
    const reg = await registerUser();
    const url = await upload(reg.accessToken, 'AVATAR');
    const res = await put(ME, { avatarUrl: url }, { token: reg.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.avatarUrl).toBe(url);
    const other = await aUser();
    expect((await get(`/v1/api/users/${reg.user.id}`, { token: other.token })).body.avatarUrl).toBe(url);
  });

  it("refuses another user's upload, or the caller's own file that is not an avatar", async () => {
    const reg = await registerUser();
    const other = await registerUser();
    const othersAvatar = await upload(other.accessToken, 'AVATAR');
    const ownKycDocument = await upload(reg.accessToken, 'KYC_DOCUMENT', PDF, 'application/pdf');
    for (const avatarUrl of [othersAvatar, ownKycDocument, '/v1/api/files/999999']) {
      const res = await put(ME, { avatarUrl }, { token: reg.accessToken });
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('VALIDATION_ERROR');
      expect(res.body.fieldErrors).toEqual([{ field: 'avatarUrl', message: expect.any(String), rejectedValue: avatarUrl }]);
    }
    expect((await get(ME, { token: reg.accessToken })).body.avatarUrl).toBeNull();
  });
});

describe('DELETE /user/me', () => {
  it('anonymises the account, keeps the row, revokes every token and frees the email', async () => {
    const reg = await registerUser({ phoneNumber: '+33612345678', birthDate: '1980-01-01' });
    const other = await login(reg.email);
    const res = await del(ME, { token: reg.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Account deleted' });

    const [row] = await db.select().from(users).where(eq(users.id, reg.id));
    expect(row).toMatchObject({
      email: `deleted-user-${reg.id}@deleted.invalid`,
      passwordHash: null,
      firstName: 'Deleted',
      lastName: 'User',
      phoneNumber: null,
      birthDate: null,
      enabled: false,
    });
    expect(row.deletedAt).not.toBeNull();
    unauthorized(await get(ME, { token: reg.accessToken }));
    unauthorized(await get(ME, { token: other.body.accessToken }));
    unauthorized(await post('/v1/api/auth/refresh', { refreshToken: other.body.refreshToken }));
    expect((await login(reg.email)).status).toBe(401);
    expect(await db.select().from(sessions).where(and(eq(sessions.userId, reg.id)))).toSatisfy((rows: any[]) =>
      rows.every((s) => s.revokedReason === 'ACCOUNT_DELETED'),
    );
    // Others still see the (anonymised) profile the records point to.
    const viewer = await aUser();
    expect((await get(`/v1/api/users/${reg.id}`, { token: viewer.token })).body).toMatchObject({ firstName: 'Deleted', lastName: 'User' });
    expect(await auditRows(reg.id, 'ACCOUNT_DELETED')).toHaveLength(1);
    // The address can open a new account.
    expect((await post('/v1/api/auth/register', { email: reg.email, password: PASSWORD, firstName: 'New', lastName: 'Me' })).status).toBe(201);
  });

  it('is refused 409 INVALID_STATE while a registered guard objects, and nothing changes', async () => {
    const reg = await registerUser();
    ACCOUNT_DELETION_GUARDS.push(async (_db, userId) => (userId === reg.id ? msg('error.external', { text: 'The wallet still holds money' }) : null));
    const res = await del(ME, { token: reg.accessToken });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ errorCode: 'INVALID_STATE', message: 'The wallet still holds money' });
    expect((await get(ME, { token: reg.accessToken })).status).toBe(200);
  });
});

describe('DELETE /user/me: the built-in guards', () => {
  const refused = async (token: string, message: RegExp) => {
    const res = await del(ME, { token });
    expect(res.status).toBe(409);
    expect(errorBody(res)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: expect.stringMatching(message) });
    expect((await get(ME, { token })).status).toBe(200);
  };

  it.each<[ReservationStatus, 'sender' | 'carrier']>([
    ['PENDING_PAYMENT', 'sender'],
    ['PAID', 'carrier'],
    ['CONFIRMED', 'sender'],
    ['DEPOSITED', 'carrier'],
    ['IN_TRANSIT', 'sender'],
    ['DISPUTED', 'carrier'],
  ])('refuses while a %s reservation is open (as %s)', async (status, role) => {
    const sender = await aUser();
    const carrier = await aUser();
    const { reservation: r } = await aReservation({ trip: await aTrip(carrier), sender, status });
    await refused((role === 'sender' ? sender : carrier).token, new RegExp(`reservation is in progress \\(${r.reservationNumber}\\)`));
  });

  it.each<ReservationStatus>(['DELIVERED', 'CANCELLED', 'REJECTED', 'EXPIRED', 'REFUNDED'])('allows it after a %s reservation', async (status) => {
    const sender = await aUser();
    const carrier = await aUser();
    // The trip is over too: an open one keeps its carrier's account (privacy.test.ts).
    await aReservation({ trip: await aTrip(carrier, { status: 'CLOSED' }), sender, status });
    expect((await del(ME, { token: sender.token })).status).toBe(200);
    expect((await del(ME, { token: carrier.token })).status).toBe(200);
  });

  it('refuses while the wallet holds money, allows it at zero', async () => {
    const user = await aUser();
    const key = `WALLET:USER:${user.id}`;
    await db.insert(ledgerAccounts).values({ key, kind: 'WALLET', ownerType: 'USER', ownerId: user.id, currency: 'EUR', balanceCents: 1 });
    await refused(user.token, /wallet holds money/);
    await db.update(ledgerAccounts).set({ balanceCents: 0 }).where(eq(ledgerAccounts.key, key));
    expect((await del(ME, { token: user.token })).status).toBe(200);
  });

  it('refuses while a delivered share is still held for the dispute window', async () => {
    const user = await aUser();
    const key = `HELD:USER:${user.id}`;
    await db.insert(ledgerAccounts).values({ key, kind: 'HELD', ownerType: 'USER', ownerId: user.id, currency: 'EUR', balanceCents: 4250 });
    await refused(user.token, /wallet holds money/);
    await db.update(ledgerAccounts).set({ balanceCents: 0 }).where(eq(ledgerAccounts.key, key));
    expect((await del(ME, { token: user.token })).status).toBe(200);
  });

  it('refuses while a withdrawal is pending, not after it completed or failed', async () => {
    const user = await aUser();
    const base = { ownerType: 'USER' as const, ownerId: user.id, amountCents: 500, currency: 'EUR', destinationAccountId: 'acct_x' };
    const [w] = await db.insert(withdrawals).values({ ...base, token: crypto.randomUUID(), status: 'PENDING' }).returning();
    await db.insert(withdrawals).values({ ...base, token: crypto.randomUUID(), status: 'FAILED' });
    await refused(user.token, /withdrawal is pending/);
    await db.update(withdrawals).set({ status: 'COMPLETED' }).where(eq(withdrawals.id, w.id));
    expect((await del(ME, { token: user.token })).status).toBe(200);
  });

  it('refuses an agency owner', async () => {
    const owner = await aUser();
    const created = await post('/v1/api/agencies', { name: 'Kept Agency' }, { token: owner.token });
    expect(created.status).toBe(201);
    await refused(owner.token, new RegExp(`owns an agency \\(${created.body.id}\\)`));
  });
});

describe('GET /users/{id}', () => {
  it('returns the public profile only: names, avatar, verified, rating (none yet)', async () => {
    const carrier = await aUser({ firstName: 'Carla', lastName: 'Carrier', kycStatus: 'VERIFIED' });
    const viewer = await aUser();
    const res = await get(`/v1/api/users/${carrier.id}`, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: carrier.id,
      firstName: 'Carla',
      lastName: 'Carrier',
      username: null,
      avatarUrl: null,
      verified: true,
      phoneVerified: false,
      ratingAverage: null,
      reviewCount: 0,
      memberSince: expect.any(String),
      cancellationRate: 0,
    });
  });

  it('404 for an unknown id, 400 TYPE_MISMATCH for a non-integer, 401 without a token', async () => {
    const viewer = await aUser();
    const missing = await get('/v1/api/users/999999', { token: viewer.token });
    expect(missing.status).toBe(404);
    expect(errorBody(missing)).toEqual({
      status: 404,
      errorCode: 'RESOURCE_NOT_FOUND',
      message: 'User 999999 not found',
      path: '/v1/api/users/999999',
      suggestions: [],
    });
    expect((await get('/v1/api/users/abc', { token: viewer.token })).body.errorCode).toBe('TYPE_MISMATCH');
    unauthorized(await get(`/v1/api/users/${viewer.id}`));
  });
});

describe('user administration', () => {
  it("a plain user cannot read another user's private data (403 ACCESS_DENIED)", async () => {
    const a = await aUser();
    const b = await aUser();
    denied(await get(`/v1/api/admin/users/${b.id}`, { token: a.token }));
    denied(await get('/v1/api/admin/users', { token: a.token }));
    denied(await post(`/v1/api/admin/users/${b.id}/suspend`, {}, { token: a.token }));
    denied(await put(`/v1/api/superadmin/users/${b.id}/roles`, { roles: ['ROLE_ADMIN'] }, { token: a.token }));
  });

  it('an admin reads one user with the administrative fields', async () => {
    const admin = await anAdmin();
    const reg = await registerUser();
    const res = await get(`/v1/api/admin/users/${reg.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...reg.user,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastLoginAt: expect.any(String),
      suspendedAt: null,
      suspensionReason: null,
      deletedAt: null,
    });
    expect((await get('/v1/api/admin/users/999999', { token: admin.token })).status).toBe(404);
  });

  it('lists users page by page with search, role and status filters and a whitelisted sort', async () => {
    const admin = await anAdmin();
    const tag = crypto.randomUUID().slice(0, 8);
    const made = [];
    for (const [i, roles] of [['ROLE_CLIENT'], ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], ['ROLE_CLIENT']].entries()) {
      made.push(await aUser({ email: `list-${tag}-${i}@example.test`, lastName: `Zed${i}`, roles }));
    }
    await db.update(users).set({ enabled: false }).where(eq(users.id, made[2].id));

    const all = await get(`/v1/api/admin/users?q=LIST-${tag}&sort=email,asc&size=2`, { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.page).toEqual({ number: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect(all.body.content.map((u: any) => u.id)).toEqual([made[0].id, made[1].id]);
    const second = await get(`/v1/api/admin/users?q=list-${tag}&sort=email,asc&size=2&page=1`, { token: admin.token });
    expect(second.body.content.map((u: any) => u.id)).toEqual([made[2].id]);

    const verified = await get(`/v1/api/admin/users?q=${tag}&role=ROLE_VERIFIED_USER`, { token: admin.token });
    expect(verified.body.content.map((u: any) => u.id)).toEqual([made[1].id]);
    const suspended = await get(`/v1/api/admin/users?q=${tag}&enabled=false`, { token: admin.token });
    expect(suspended.body.content.map((u: any) => u.id)).toEqual([made[2].id]);
    const byName = await get(`/v1/api/admin/users?q=${tag}&sort=lastName,desc`, { token: admin.token });
    expect(byName.body.content.map((u: any) => u.lastName)).toEqual(['Zed2', 'Zed1', 'Zed0']);
    // A LIKE wildcard in the search is taken literally.
    expect((await get('/v1/api/admin/users?q=%25', { token: admin.token })).body.page.totalElements).toBe(0);

    const badSort = await get('/v1/api/admin/users?sort=passwordHash,asc', { token: admin.token });
    expect(badSort.status).toBe(400);
    expect(badSort.body.errorCode).toBe('INVALID_ARGUMENT');
    const badRole = await get('/v1/api/admin/users?role=ROLE_KING', { token: admin.token });
    expect(badRole.status).toBe(400);
    const badBool = await get('/v1/api/admin/users?enabled=maybe', { token: admin.token });
    expect(badBool.status).toBe(400);
  });

  it('suspend and activate: conditional, audited once, staff protected', async () => {
    const admin = await anAdmin();
    const target = await aUser();
    const res = await post(`/v1/api/admin/users/${target.id}/suspend`, { reason: 'Chargebacks' }, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: target.id, enabled: false, suspensionReason: 'Chargebacks', suspendedAt: expect.any(String) });
    const twice = await post(`/v1/api/admin/users/${target.id}/suspend`, undefined, { token: admin.token });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ errorCode: 'INVALID_STATE', message: 'The account is already suspended' });
    expect(await auditRows(target.id, 'USER_SUSPENDED')).toMatchObject([{ actorId: admin.id, details: { reason: 'Chargebacks' } }]);

    const activated = await post(`/v1/api/admin/users/${target.id}/activate`, undefined, { token: admin.token });
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ enabled: true, suspendedAt: null, suspensionReason: null });
    expect((await post(`/v1/api/admin/users/${target.id}/activate`, undefined, { token: admin.token })).status).toBe(409);
    expect(await auditRows(target.id, 'USER_ACTIVATED')).toHaveLength(1);

    const self = await post(`/v1/api/admin/users/${admin.id}/suspend`, {}, { token: admin.token });
    expect(self.status).toBe(422);
    expect(self.body.errorCode).toBe('BUSINESS_RULE_VIOLATION');
    const otherAdmin = await anAdmin();
    denied(await post(`/v1/api/admin/users/${otherAdmin.id}/suspend`, {}, { token: admin.token }));
    const superAdmin = await aSuperAdmin();
    expect((await post(`/v1/api/admin/users/${otherAdmin.id}/suspend`, {}, { token: superAdmin.token })).status).toBe(200);
    expect((await post('/v1/api/admin/users/999999/suspend', {}, { token: admin.token })).status).toBe(404);
  });

  it('a suspended helper-made token is refused once the clock moves past the suspension second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-10T08:00:00.000Z'));
    const admin = await anAdmin();
    const target = await aUser();
    vi.setSystemTime(new Date('2026-11-10T08:00:05.000Z'));
    await post(`/v1/api/admin/users/${target.id}/suspend`, {}, { token: admin.token });
    unauthorized(await get(ME, { token: target.token }));
  });
});

describe('suspension takes effect everywhere at once (CONTRACT section 19)', () => {
  const suspend = async (admin: { token: string }, id: number) =>
    expect((await post(`/v1/api/admin/users/${id}/suspend`, { reason: 'Fraud' }, { token: admin.token })).status).toBe(200);
  const activate = async (admin: { token: string }, id: number) =>
    expect((await post(`/v1/api/admin/users/${id}/activate`, undefined, { token: admin.token })).status).toBe(200);
  /** A trip of `carrier` found by a search on a city no other test uses. */
  async function searchableTrip(carrier: { id: number }, overrides: Parameters<typeof aTrip>[1] = {}) {
    const city = uniqueCity('Suspension');
    const trip = await aTrip(carrier, { departureCity: city, departureCityKey: cityKey(city), ...overrides });
    return { trip, search: async () => (await get(`/v1/api/annonces?departureCity=${encodeURIComponent(city)}`)).body.content.map((a: any) => a.id) };
  }
  const row = async (id: number) => (await db.select().from(reservations).where(eq(reservations.id, id)))[0];
  const noticesOf = (userId: number) => db.select().from(notifications).where(eq(notifications.userId, userId));

  it("a suspended carrier's trip leaves the search, refuses bookings (422), and its unpaid booking is cancelled, its sender told", async () => {
    const admin = await anAdmin();
    const carrier = await aCarrier();
    const { trip, search } = await searchableTrip(carrier);
    const { sender, reservation } = await aReservation({ trip, reserveOnTrip: true, weightG: 3_000 });
    const category = await aCategory();
    const booker = await aUser();
    expect(await search()).toEqual([trip.id]);

    await suspend(admin, carrier.id);

    expect(await search()).toEqual([]);
    const refused = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: booker.token });
    expect(refused.status).toBe(422);
    expect(errorBody(refused)).toMatchObject({
      errorCode: 'BUSINESS_RULE_VIOLATION',
      message: 'This trip no longer takes bookings: its carrier is unavailable',
    });
    expect(await row(reservation.id)).toMatchObject({ status: 'CANCELLED', cancellationReason: 'CARRIER_SUSPENDED', cancelledBy: admin.id, cancelledAt: expect.any(String) });
    const [after] = await db.select().from(announcements).where(eq(announcements.id, trip.id));
    expect(after.reservedWeightG).toBe(0);
    const notices = await noticesOf(sender.id);
    expect(notices.map((n) => [n.type, n.message])).toEqual([
      ['RESERVATION_CANCELLED', `Booking ${reservation.reservationNumber} was cancelled: the carrier can no longer carry it.`],
    ]);
    // The notice leaves the platform too (the outbox row is in the same batch).
    const outbox = await db.select().from(deliveries).where(eq(deliveries.userId, sender.id));
    expect(outbox.map((d) => d.template)).toContain('RESERVATION_CANCELLED');
  });

  it("a withdrawn trip's detail is 404 to the public and strangers, readable by its bookers and admins", async () => {
    const admin = await anAdmin();
    const carrier = await aCarrier();
    const { trip } = await searchableTrip(carrier);
    const { sender } = await aReservation({ trip, reserveOnTrip: true });
    const stranger = await aUser();
    expect((await get(`/v1/api/annonces/${trip.id}`)).status).toBe(200);

    await suspend(admin, carrier.id);

    const anonymous = await get(`/v1/api/annonces/${trip.id}`);
    expect(anonymous.status).toBe(404);
    expect(errorBody(anonymous).errorCode).toBe('RESOURCE_NOT_FOUND');
    expect((await get(`/v1/api/annonces/${trip.id}`, { token: stranger.token })).status).toBe(404);
    expect((await get(`/v1/api/annonces/${trip.id}`, { token: 'not-a-token' })).status).toBe(404);
    const booker = await get(`/v1/api/annonces/${trip.id}`, { token: sender.token });
    expect(booker.status).toBe(200);
    expect(booker.body).toMatchObject({ id: trip.id, carrierId: carrier.id });
    expect((await get(`/v1/api/annonces/${trip.id}`, { token: admin.token })).status).toBe(200);
  });

  it('activation brings the trip back to the search but resurrects no cancelled booking', async () => {
    const admin = await anAdmin();
    const carrier = await aCarrier();
    const { trip, search } = await searchableTrip(carrier);
    const { reservation } = await aReservation({ trip, reserveOnTrip: true });
    await suspend(admin, carrier.id);
    expect(await search()).toEqual([]);

    await activate(admin, carrier.id);

    expect(await search()).toEqual([trip.id]);
    expect((await get(`/v1/api/annonces/${trip.id}`)).status).toBe(200);
    expect((await row(reservation.id)).status).toBe('CANCELLED');
    await runCron();
    expect((await row(reservation.id)).status).toBe('CANCELLED');
  });

  it("a suspended sender's unpaid bookings are cancelled (the carrier told, the weight back); paid ones are left to the carrier", async () => {
    const admin = await anAdmin();
    const sender = await aUser();
    const unpaid = await aReservation({ sender, weightG: 2_000 });
    const paid = await aReservation({ sender, status: 'PAID' });

    await suspend(admin, sender.id);

    expect(await row(unpaid.reservation.id)).toMatchObject({ status: 'CANCELLED', cancellationReason: 'SENDER_SUSPENDED' });
    expect((await row(paid.reservation.id)).status).toBe('PAID');
    const [trip] = await db.select().from(announcements).where(eq(announcements.id, unpaid.trip.id));
    expect(trip.reservedWeightG).toBe(0);
    expect((await noticesOf(unpaid.carrier.id)).map((n) => [n.type, n.message])).toEqual([
      ['RESERVATION_CANCELLED', `Booking ${unpaid.reservation.reservationNumber} was cancelled before payment; its weight is available again.`],
    ]);
    // The sender's own trips-to-be are untouched: the sender carries nothing.
    expect(await noticesOf(paid.carrier.id)).toEqual([]);
  });

  it("an agency's trip stays listed and its bookings stand when the staff member who published it is suspended", async () => {
    const admin = await anAdmin();
    const owner = await aUser();
    const agency = await anAgency(owner);
    const employee = await aCarrier();
    const { trip, search } = await searchableTrip(employee, { agencyId: agency.id });
    const { reservation } = await aReservation({ trip, reserveOnTrip: true, agencyId: agency.id });

    await suspend(admin, employee.id);

    expect(await search()).toEqual([trip.id]);
    expect((await get(`/v1/api/annonces/${trip.id}`)).status).toBe(200);
    expect((await row(reservation.id)).status).toBe('PENDING_PAYMENT');
  });

  it('a carrier with more bookings than a request handles: the request cancels two batches, the cron the rest', async () => {
    const admin = await anAdmin();
    const carrier = await aCarrier();
    const { trip } = await searchableTrip(carrier, { totalWeightG: 100_000 });
    const made = [];
    for (let i = 0; i < 45; i++) made.push((await aReservation({ trip, reserveOnTrip: true, weightG: 1_000 })).reservation.id);

    await suspend(admin, carrier.id);

    const statuses = async () => {
      const rows = await db.select({ status: reservations.status }).from(reservations).where(eq(reservations.announcementId, trip.id));
      return rows.filter((r) => r.status === 'CANCELLED').length;
    };
    expect(await statuses()).toBe(40);
    await runCron();
    expect(await statuses()).toBe(45);
    const [after] = await db.select().from(announcements).where(eq(announcements.id, trip.id));
    expect(after.reservedWeightG).toBe(0);
  });
});

describe('PUT /superadmin/users/{id}/roles', () => {
  it('sets roles (ROLE_CLIENT always kept), audits before/after; a granted role applies from the next refresh', async () => {
    const superAdmin = await aSuperAdmin();
    const reg = await registerUser();
    const res = await put(`/v1/api/superadmin/users/${reg.id}/roles`, { roles: ['ROLE_ADMIN', 'ROLE_ADMIN'] }, { token: superAdmin.token });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(['ROLE_CLIENT', 'ROLE_ADMIN']);
    // Nothing was removed: the current tokens keep working.
    expect((await get(ME, { token: reg.accessToken })).status).toBe(200);
    denied(await get('/v1/api/admin/users', { token: reg.accessToken }));
    const refreshed = await post('/v1/api/auth/refresh', { refreshToken: reg.refreshToken });
    expect((await get('/v1/api/admin/users', { token: refreshed.body.accessToken })).status).toBe(200);
    expect(await auditRows(reg.id, 'ROLES_CHANGED')).toMatchObject([
      { actorId: superAdmin.id, details: { before: ['ROLE_CLIENT'], after: ['ROLE_CLIENT', 'ROLE_ADMIN'], added: ['ROLE_ADMIN'], removed: [] } },
    ]);
  });

  it("removing a role revokes the user's tokens", async () => {
    const superAdmin = await aSuperAdmin();
    const reg = await registerUser();
    await put(`/v1/api/superadmin/users/${reg.id}/roles`, { roles: ['ROLE_VERIFIED_USER'] }, { token: superAdmin.token });
    const session = await login(reg.email);
    expect(session.body.user.roles).toEqual(['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
    const res = await put(`/v1/api/superadmin/users/${reg.id}/roles`, { roles: [] }, { token: superAdmin.token });
    expect(res.body.roles).toEqual(['ROLE_CLIENT']);
    unauthorized(await get(ME, { token: session.body.accessToken }));
    unauthorized(await post('/v1/api/auth/refresh', { refreshToken: session.body.refreshToken }));
    const fresh = await login(reg.email);
    expect(fresh.body.user.roles).toEqual(['ROLE_CLIENT']);
  });

  it('an admin cannot set roles: only super-admins', async () => {
    const admin = await anAdmin();
    denied(await put(`/v1/api/superadmin/users/${admin.id}/roles`, { roles: [] }, { token: admin.token }));
  });

  it('a super-admin never removes their own super-admin role: 422', async () => {
    const superAdmin = await aSuperAdmin();
    const self = await put(`/v1/api/superadmin/users/${superAdmin.id}/roles`, { roles: ['ROLE_ADMIN'] }, { token: superAdmin.token });
    expect(self.status).toBe(422);
  });

  it('an unknown role is 400 with the rejected value', async () => {
    const admin = await anAdmin();
    const superAdmin = await aSuperAdmin();
    const bad = await put(`/v1/api/superadmin/users/${admin.id}/roles`, { roles: ['ROLE_KING'] }, { token: superAdmin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual([{ field: 'roles[0]', message: expect.any(String), rejectedValue: 'ROLE_KING' }]);
  });

  it('setting the roles of an unknown user is 404', async () => {
    const superAdmin = await aSuperAdmin();
    expect((await put('/v1/api/superadmin/users/999999/roles', { roles: [] }, { token: superAdmin.token })).status).toBe(404);
  });
});

describe('development seed', () => {
  it('creates the demo accounts of CONTRACT section 15, idempotently, and they can log in', async () => {
    const first = await runSeed(depsOf(env));
    const second = await runSeed(depsOf(env));
    expect(second.accounts).toEqual(first.accounts);
    const admin = await login('admin@demo.local', 'Demo-password-1');
    expect(admin.status).toBe(200);
    expect(admin.body.user.roles).toEqual(['ROLE_CLIENT', 'ROLE_ADMIN']);
    const carrier = await login('carrier@demo.local', 'Demo-password-1');
    expect(carrier.body.user).toMatchObject({ kycStatus: 'VERIFIED', roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'] });
    expect((await login('superadmin@demo.local', 'Demo-password-1')).body.user.roles).toContain('ROLE_SUPERADMIN');
  });
});

describe('OpenAPI document', () => {
  it('lists every identity route with its security and schemas', async () => {
    const doc = (await get('/v1/api/openapi.json')).body;
    const publicRoutes = [
      ['post', '/v1/api/auth/register'],
      ['post', '/v1/api/auth/login'],
      ['post', '/v1/api/auth/refresh'],
      ['post', '/v1/api/auth/oauth2/google'],
      ['post', '/v1/api/auth/oauth2/apple'],
      ['post', '/v1/api/auth/verify-email'],
      ['post', '/v1/api/auth/password/forgot'],
      ['post', '/v1/api/auth/password/reset'],
    ];
    const bearerRoutes = [
      ['post', '/v1/api/auth/logout'],
      ['post', '/v1/api/auth/verify-email/resend'],
      ['put', '/v1/api/auth/password'],
      ['get', '/v1/api/user/me'],
      ['put', '/v1/api/user/me'],
      ['delete', '/v1/api/user/me'],
      ['get', '/v1/api/users/{id}'],
      ['get', '/v1/api/admin/users'],
      ['get', '/v1/api/admin/users/{id}'],
      ['post', '/v1/api/admin/users/{id}/suspend'],
      ['post', '/v1/api/admin/users/{id}/activate'],
      ['put', '/v1/api/superadmin/users/{id}/roles'],
      ['post', '/v1/api/user/me/phone/verification'],
      ['post', '/v1/api/user/me/phone/verify'],
    ];
    for (const [method, path] of publicRoutes) expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([]);
    for (const [method, path] of bearerRoutes) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
      expect(doc.paths[path][method].responses['401'], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/v1/api/auth/login'].post.responses['429']).toBeDefined();
    expect(doc.paths['/v1/api/auth/register'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/RegisterRequest');
    for (const name of ['User', 'AuthResponse', 'TokenPair', 'PublicProfile', 'AdminUser', 'AdminUserPage', 'SetRolesRequest']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    expect(Object.keys(doc.components.schemas.User.properties)).toEqual([
      'id', 'firstName', 'lastName', 'username', 'phoneNumber', 'nationality', 'address', 'postalCode', 'city', 'email', 'birthDate', 'connectedAccountId', 'enabled',
      'walletBalance', 'pendingWithdrawalAmount', 'totalEarned', 'totalWithdrawn', 'roles', 'kycStatus', 'emailVerified', 'phoneVerified', 'avatarUrl', 'agencyId',
    ]);
    void tokenFor;
  });
});
