// Reference data, parcel categories, search alerts and in-app notifications (CONTRACT sections 13
// and 14).
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { announcements, notifications, reservationItems } from '../src/db/schema';
import { runBatch } from '../src/db/statements';
import { notify as notificationStatements } from '../src/features/deliveries/notify';
import { del, errorBody, get, post, put } from './helpers/http';
import { daysFromToday, uniqueCity, type TestUser, aUser, aCarrier, anAdmin, aSuperAdmin, aCategory, publishTrip, aReservation } from './helpers/factories';
import { msg } from '../src/messages';
import { toldTo } from './helpers/notices';
import { formatMoneyIn } from '../src/lib/money';

const db = () => database(env.DB);
const API = '/v1/api';

describe('reference data', () => {
  it('lists ISO 3166-1 countries as the generic page, by code, cacheable', async () => {
    const res = await get(`${API}/reference/countries`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=86400');
    expect(res.body.page).toEqual({ number: 0, size: 20, totalElements: 250, totalPages: 13 });
    expect(res.body.content).toHaveLength(20);
    const all = [];
    for (let page = 0; page < 3; page++) all.push(...(await get(`${API}/reference/countries?size=100&page=${page}`)).body.content);
    expect(all).toHaveLength(250);
    expect(all.map((c) => c.code)).toEqual(all.map((c) => c.code).sort());
    expect(all).toContainEqual({ code: 'FR', alpha3: 'FRA', name: 'France' });
    expect(all).toContainEqual({ code: 'SN', alpha3: 'SEN', name: 'Senegal' });

    const byName = await get(`${API}/reference/countries?sort=name,desc&size=3`);
    expect(byName.body.content.map((c: { name: string }) => c.name)).toEqual(['Zimbabwe', 'Zambia', 'Yemen']);
    expect((await get(`${API}/reference/countries?sort=alpha3,asc`)).status).toBe(400);
  });

  it("lists a country's main cities as the generic page, most populous first, with an accent-insensitive prefix filter", async () => {
    const res = await get(`${API}/reference/countries/fr/cities?size=100`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=86400');
    const cities = res.body.content;
    expect(cities[0]).toMatchObject({ name: 'Paris', countryCode: 'FR' });
    expect(cities[0].population).toBeGreaterThan(1_000_000);
    const pops = cities.map((c: { population: number }) => c.population);
    expect(pops).toEqual([...pops].sort((a, b) => b - a));
    expect(Object.keys(cities[0]).sort()).toEqual(['countryCode', 'latitude', 'longitude', 'name', 'population']);
    expect(res.body.page).toMatchObject({ number: 0, size: 100, totalElements: expect.any(Number) });

    const second = await get(`${API}/reference/countries/FR/cities?size=2&page=1`);
    expect(second.body.content.map((c: { name: string }) => c.name)).toEqual(cities.slice(2, 4).map((c: { name: string }) => c.name));

    const filtered = (await get(`${API}/reference/countries/FR/cities?q=saint-e&size=100`)).body;
    expect(filtered.content.map((c: { name: string }) => c.name)).toContain('Saint-Étienne');
    expect(filtered.content.every((c: { name: string }) => c.name.startsWith('Saint'))).toBe(true);
    expect(filtered.page.totalElements).toBe(filtered.content.length);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown country code', async () => {
    for (const code of ['XX', 'FRA', '12']) {
      const res = await get(`${API}/reference/countries/${code}/cities`);
      expect(res.status).toBe(404);
      expect(errorBody(res)).toEqual({
        status: 404,
        errorCode: 'RESOURCE_NOT_FOUND',
        message: `Country ${code} not found`,
        path: `${API}/reference/countries/${code}/cities`,
        suggestions: [],
      });
    }
  });
});

describe('categories', () => {
  it('are seeded with defaults, prohibited ones flagged and listed last', async () => {
    const res = await get(`${API}/categories?size=100`);
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ number: 0, size: 100, totalElements: res.body.content.length, totalPages: 1 });
    const codes = res.body.content.map((c: { code: string }) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['DOCUMENTS', 'CLOTHING', 'ELECTRONICS', 'WEAPONS', 'DRUGS']));
    const weapons = res.body.content.find((c: { code: string }) => c.code === 'WEAPONS');
    expect(weapons).toEqual({
      id: expect.any(Number),
      code: 'WEAPONS',
      name: 'Weapons and ammunition',
      description: expect.any(String),
      prohibited: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const flags = res.body.content.map((c: { prohibited: boolean }) => c.prohibited);
    expect(flags).toEqual([...flags].sort((a, b) => Number(a) - Number(b)));
    // Each group in the requested order; the prohibited ones still last.
    const byCode = (await get(`${API}/categories?size=100&sort=code,desc`)).body.content as { code: string; prohibited: boolean }[];
    const allowed = byCode.filter((c) => !c.prohibited).map((c) => c.code);
    expect(allowed).toEqual([...allowed].sort().reverse());
    expect(byCode.map((c) => c.prohibited)).toEqual(flags);
    const firstTwo = (await get(`${API}/categories?size=2`)).body;
    expect(firstTwo.content.map((c: { code: string }) => c.code)).toEqual(codes.slice(0, 2));
    expect(firstTwo.page).toEqual({ number: 0, size: 2, totalElements: codes.length, totalPages: Math.ceil(codes.length / 2) });
  });

  /** A code no other test uses. */
  const freshCode = (prefix = 'SPARE') => `${prefix}_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const categoryThroughApi = async (admin: TestUser, code = freshCode()) => {
    const created = await post(`${API}/admin/categories`, { code, name: 'Spare parts' }, { token: admin.token });
    expect(created.status).toBe(201);
    return created.body;
  };

  it('an admin creates a category', async () => {
    const admin = await anAdmin();
    const code = freshCode();
    const created = await post(`${API}/admin/categories`, { code, name: 'Spare parts' }, { token: admin.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code, name: 'Spare parts', description: null, prohibited: false });
  });

  it('a category with a code in use is 409 ALREADY_EXISTS', async () => {
    const admin = await anAdmin();
    const { code } = await categoryThroughApi(admin);
    const dup = await post(`${API}/admin/categories`, { code, name: 'Again' }, { token: admin.token });
    expect(dup.status).toBe(409);
    expect(errorBody(dup).errorCode).toBe('ALREADY_EXISTS');
  });

  it('an admin updates a category', async () => {
    const admin = await anAdmin();
    const category = await categoryThroughApi(admin);
    const updated = await put(`${API}/admin/categories/${category.id}`, { prohibited: true, description: 'Engines' }, { token: admin.token });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: category.id, code: category.code, prohibited: true, description: 'Engines' });
  });

  it("renaming to another category's code is 409 ALREADY_EXISTS; keeping its own code is fine", async () => {
    const admin = await anAdmin();
    const category = await categoryThroughApi(admin);
    const clash = await put(`${API}/admin/categories/${category.id}`, { code: 'DOCUMENTS' }, { token: admin.token });
    expect(clash.status).toBe(409);
    expect(errorBody(clash).errorCode).toBe('ALREADY_EXISTS');
    expect((await put(`${API}/admin/categories/${category.id}`, { code: category.code }, { token: admin.token })).status).toBe(200);
  });

  it('two categories renamed to one new code at once: one wins, the other is a 409, never a 500', async () => {
    const admin = await anAdmin();
    const [a, b] = await Promise.all([categoryThroughApi(admin, freshCode('ONE_A')), categoryThroughApi(admin, freshCode('ONE_B'))]);
    const target = freshCode('SAME_NEW_CODE');
    const renames = await Promise.all([a, b].map((c) => put(`${API}/admin/categories/${c.id}`, { code: target }, { token: admin.token })));
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('a super-admin deletes a category; deleting it again is 404', async () => {
    const admin = await anAdmin();
    const category = await categoryThroughApi(admin);
    const superAdmin = await aSuperAdmin();
    expect((await del(`${API}/admin/categories/${category.id}`, { token: superAdmin.token })).status).toBe(204);
    expect((await del(`${API}/admin/categories/${category.id}`, { token: admin.token })).status).toBe(404);
  });

  it('updating an unknown category is 404', async () => {
    const admin = await anAdmin();
    expect((await put(`${API}/admin/categories/999999`, { name: 'x' }, { token: admin.token })).status).toBe(404);
  });

  it('validates the body with fieldErrors', async () => {
    const admin = await anAdmin();
    const res = await post(`${API}/admin/categories`, { code: 'bad code', name: '' }, { token: admin.token });
    expect(res.status).toBe(400);
    const body = errorBody(res);
    expect(body.errorCode).toBe('VALIDATION_ERROR');
    expect((body.fieldErrors as { field: string }[]).map((f) => f.field).sort()).toEqual(['code', 'name']);
  });

  it('is refused to non-admins: 403 ACCESS_DENIED', async () => {
    const user = await aCarrier();
    const res = await post(`${API}/admin/categories`, { code: 'NOPE', name: 'Nope' }, { token: user.token });
    expect(res.status).toBe(403);
    expect(errorBody(res).errorCode).toBe('ACCESS_DENIED');
  });

  it('is refused to anonymous callers: 401', async () => {
    expect((await del(`${API}/admin/categories/1`)).status).toBe(401);
  });

  it('cannot be deleted while an announcement accepts it or a reservation item uses it', async () => {
    const admin = await anAdmin();
    const carrier = await aCarrier();
    const accepted = await aCategory();
    const trip = await publishTrip(carrier, { acceptedCategoryIds: [accepted.id] });
    const res = await del(`${API}/admin/categories/${accepted.id}`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(errorBody(res)).toMatchObject({ errorCode: 'INVALID_STATE', message: expect.stringContaining('in use') });

    const itemCategory = await aCategory();
    const sender = await aUser();
    const { reservation } = await aReservation({ trip, sender });
    await db().insert(reservationItems).values({ reservationId: reservation.id, categoryId: itemCategory.id, name: 'Shoes' });
    expect((await del(`${API}/admin/categories/${itemCategory.id}`, { token: admin.token })).status).toBe(409);

    // Once the trip no longer lists it, the first category can go.
    await db().update(announcements).set({ acceptedCategoryIds: [] }).where(eq(announcements.id, trip.id));
    expect((await del(`${API}/admin/categories/${accepted.id}`, { token: admin.token })).status).toBe(204);
  });
});

describe('search alerts', () => {
  const alertBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'To Dakar',
    departureCity: 'Paris',
    arrivalCity: 'Dakar',
    departureCountry: 'FR',
    arrivalCountry: 'SN',
    dateFrom: daysFromToday(1),
    dateTo: daysFromToday(60),
    minWeight: 2,
    maxPricePerKg: 10,
    categoryId: null,
    transportMode: 'PLANE',
    ...overrides,
  });

  it('lists the place and date-range rules with the other invalid fields in one 400', async () => {
    const user = await aUser();
    const reversed = await post(
      `${API}/search-alerts`,
      alertBody({ dateFrom: daysFromToday(10), dateTo: daysFromToday(5), minWeight: -1 }),
      { token: user.token },
    );
    expect(reversed.status).toBe(400);
    expect(errorBody(reversed)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: minWeight, dateTo',
      fieldErrors: [
        { field: 'minWeight', message: expect.any(String), rejectedValue: -1 },
        { field: 'dateTo', message: 'The end date must be on or after the start date', rejectedValue: daysFromToday(5) },
      ],
    });
    const nowhere = await post(
      `${API}/search-alerts`,
      { name: 'Anywhere', transportMode: 'ROCKET' },
      { token: user.token },
    );
    expect(nowhere.status).toBe(400);
    expect(errorBody(nowhere)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: transportMode, departureCity',
      fieldErrors: [
        { field: 'transportMode', message: expect.any(String), rejectedValue: 'ROCKET' },
        {
          field: 'departureCity',
          message: 'Name at least one place: a departure or arrival city or country',
          rejectedValue: null,
        },
      ],
    });
  });

  it('creates, reads, lists, replaces and deletes an alert with the exact shape', async () => {
    const user = await aUser();
    const created = await post(`${API}/search-alerts`, alertBody(), { token: user.token });
    expect(created.status).toBe(201);
    const { id, createdAt, updatedAt, ...rest } = created.body;
    // The price limit's currency: the departure country's (EUR from France), CONTRACT section 20.
    expect(rest).toEqual({ userId: user.id, ...alertBody(), currency: 'EUR', radiusKm: 0, date: null, dateFlexDays: 0, active: true });
    expect(Date.parse(createdAt)).not.toBeNaN();
    expect(updatedAt).toBe(createdAt);

    expect((await get(`${API}/search-alerts/${id}`, { token: user.token })).body).toEqual(created.body);
    const list = await get(`${API}/search-alerts`, { token: user.token });
    expect(list.body).toEqual({ content: [created.body], page: { number: 0, size: 20, totalElements: 1, totalPages: 1 } });

    const replaced = await put(`${API}/search-alerts/${id}`, { arrivalCountry: 'CI', active: false }, { token: user.token });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id, arrivalCountry: 'CI', departureCity: null, minWeight: null, active: false });

    expect((await del(`${API}/search-alerts/${id}`, { token: user.token })).status).toBe(204);
    expect((await get(`${API}/search-alerts/${id}`, { token: user.token })).status).toBe(404);
  });

  /** A user's first alert, created with an Idempotency-Key. */
  async function alertWithKey() {
    const user = await aUser();
    const headers = { 'Idempotency-Key': `alert-${crypto.randomUUID()}` };
    const first = await post(`${API}/search-alerts`, alertBody(), { token: user.token, headers });
    expect(first.status).toBe(201);
    return { user, headers, first };
  }

  it('a replay with the same Idempotency-Key returns the first alert and creates nothing', async () => {
    const { user, headers, first } = await alertWithKey();
    const replay = await post(`${API}/search-alerts`, alertBody(), { token: user.token, headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await get(`${API}/search-alerts`, { token: user.token })).body.page.totalElements).toBe(1);
  });

  it('another body with a used Idempotency-Key is 409 INVALID_STATE and creates nothing', async () => {
    const { user, headers } = await alertWithKey();
    const other = await post(`${API}/search-alerts`, alertBody({ name: 'To Abidjan' }), { token: user.token, headers });
    expect(other.status).toBe(409);
    expect(errorBody(other)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    expect((await get(`${API}/search-alerts`, { token: user.token })).body.page.totalElements).toBe(1);
  });

  it("the Idempotency-Key is the caller's: another user with the same key creates their own alert", async () => {
    const { headers, first } = await alertWithKey();
    const stranger = await aUser();
    const theirs = await post(`${API}/search-alerts`, alertBody(), { token: stranger.token, headers });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
  });

  it('without an Idempotency-Key two identical requests make two alerts', async () => {
    const { user } = await alertWithKey();
    await post(`${API}/search-alerts`, alertBody(), { token: user.token });
    await post(`${API}/search-alerts`, alertBody(), { token: user.token });
    const newest = await get(`${API}/search-alerts`, { token: user.token });
    expect(newest.body.page.totalElements).toBe(3);
  });

  it('sort=createdAt,asc lists the alerts oldest first, the default order reversed', async () => {
    const { user, first } = await alertWithKey();
    await post(`${API}/search-alerts`, alertBody(), { token: user.token });
    await post(`${API}/search-alerts`, alertBody(), { token: user.token });
    const newest = await get(`${API}/search-alerts`, { token: user.token });
    const oldest = await get(`${API}/search-alerts?sort=createdAt,asc`, { token: user.token });
    expect(oldest.body.content.map((a: { id: number }) => a.id)).toEqual(newest.body.content.map((a: { id: number }) => a.id).reverse());
    expect(oldest.body.content[0].id).toBe(first.body.id);
  });

  it("is owner-only: others get 403 on every {id} route, even admins", async () => {
    const owner = await aUser();
    const { body: alert } = await post(`${API}/search-alerts`, alertBody(), { token: owner.token });
    for (const other of [await aUser(), await anAdmin()]) {
      const responses = [
        await get(`${API}/search-alerts/${alert.id}`, { token: other.token }),
        await put(`${API}/search-alerts/${alert.id}`, alertBody(), { token: other.token }),
        await del(`${API}/search-alerts/${alert.id}`, { token: other.token }),
      ];
      for (const res of responses) {
        expect(res.status).toBe(403);
        expect(errorBody(res).errorCode).toBe('ACCESS_DENIED');
      }
      expect((await get(`${API}/search-alerts`, { token: other.token })).body.page.totalElements).toBe(0);
    }
    expect((await get(`${API}/search-alerts`)).status).toBe(401);
  });

  it('requires a place and a coherent date range', async () => {
    const user = await aUser();
    const res = await post(`${API}/search-alerts`, { dateFrom: daysFromToday(5), dateTo: daysFromToday(1), departureCountry: 'ZZ' }, { token: user.token });
    expect(res.status).toBe(400);
    expect((errorBody(res).fieldErrors as { field: string }[]).map((f) => f.field).sort()).toEqual(['dateTo', 'departureCountry']);
    const noPlace = await post(`${API}/search-alerts`, { dateFrom: daysFromToday(5), dateTo: daysFromToday(1) }, { token: user.token });
    expect((errorBody(noPlace).fieldErrors as { field: string }[]).map((f) => f.field).sort()).toEqual(['dateTo', 'departureCity']);
  });

  it('a new matching announcement notifies the alert owner (ALERT_MATCH), once per owner', async () => {
    const watcher = await aUser();
    const bystander = await aUser();
    const carrier = await aCarrier();
    const category = await aCategory();
    const to = uniqueCity('Bamako');
    const { body: alert } = await post(`${API}/search-alerts`, alertBody({ arrivalCity: to.toUpperCase(), arrivalCountry: 'ML', categoryId: category.id }), {
      token: watcher.token,
    });
    await post(`${API}/search-alerts`, { arrivalCity: to, name: 'second alert, same user' }, { token: watcher.token });
    // Non-matching alerts: too cheap a price ceiling, inactive, the carrier's own.
    await post(`${API}/search-alerts`, alertBody({ arrivalCity: to, arrivalCountry: 'ML', maxPricePerKg: 1 }), { token: bystander.token });
    await post(`${API}/search-alerts`, { arrivalCity: to, active: false }, { token: bystander.token });
    await post(`${API}/search-alerts`, { arrivalCity: to }, { token: carrier.token });

    const trip = await publishTrip(carrier, { arrivalCity: to, arrivalCountry: 'ML', pricePerKg: 9, acceptedCategoryIds: [category.id] });
    const mine = await db().select().from(notifications).where(eq(notifications.userId, watcher.id));
    // The trip's date, free kilos and price per kg, in the reader's language, in the app and the e-mail.
    const told = await toldTo(watcher.id, 'ALERT_MATCH');
    const day = (locale: string) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${trip.departureDate}T00:00:00Z`));
    const kg = trip.remainingWeight as number;
    const fr = `Nouveau trajet Paris → ${to} le ${day('fr-FR')} : ${String(kg).replace('.', ',')} kg disponibles à ${formatMoneyIn(900, trip.currency, 'fr')}/kg.`;
    expect(told).toMatchObject({ key: 'notice.alertMatch', fr, sentFr: [['EMAIL', fr]] });
    expect(told.en).toBe(`New trip Paris → ${to} on ${day('en-GB')}: ${kg} kg available at ${formatMoneyIn(900, trip.currency, 'en')}/kg.`);
    expect(mine).toMatchObject([
      {
        type: 'ALERT_MATCH',
        title: 'New trip matching your alert',
        message: told.en,
        data: { announcementId: trip.id, alertId: alert.id },
        readAt: null,
      },
    ]);
    expect(await db().select().from(notifications).where(eq(notifications.userId, bystander.id))).toEqual([]);
    expect(await db().select().from(notifications).where(eq(notifications.userId, carrier.id))).toEqual([]);

    // A trip that does not accept the alert's category does not match the first alert, but the
    // second (no category) still does.
    const other = await aCategory();
    await publishTrip(carrier, { arrivalCity: to, arrivalCountry: 'ML', acceptedCategoryIds: [other.id] });
    const after = await db().select().from(notifications).where(eq(notifications.userId, watcher.id));
    expect(after).toHaveLength(2);
    expect(after[1].data).toMatchObject({ alertId: alert.id + 1 });
  });
});

describe('notifications', () => {
  async function notify(user: TestUser, n: number) {
    const rows = Array.from({ length: n }, (_, i) => ({ userId: user.id, type: 'TEST', title: `Title ${i}`, message: `Message ${i}`, data: { i } }));
    return db().insert(notifications).values(rows).returning();
  }

  it('lists newest first with page and unreadOnly, counts unread, marks read and read-all', async () => {
    const user = await aUser();
    const rows = await notify(user, 3);
    const list = await get(`${API}/notifications?size=2`, { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.page).toEqual({ number: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect(list.body.content[0]).toEqual({
      id: rows[2].id,
      type: 'TEST',
      title: 'Title 2',
      message: 'Message 2',
      data: { i: 2 },
      read: false,
      readAt: null,
      createdAt: rows[2].createdAt,
    });
    expect((await get(`${API}/notifications/unread-count`, { token: user.token })).body).toEqual({ count: 3 });

    const read = await put(`${API}/notifications/${rows[0].id}/read`, undefined, { token: user.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: rows[0].id, read: true, readAt: expect.any(String) });
    const again = await put(`${API}/notifications/${rows[0].id}/read`, undefined, { token: user.token });
    expect(again.body.readAt).toBe(read.body.readAt);
    expect((await get(`${API}/notifications/unread-count`, { token: user.token })).body).toEqual({ count: 2 });
    const unread = await get(`${API}/notifications?unreadOnly=true`, { token: user.token });
    expect(unread.body.content.map((x: { id: number }) => x.id)).toEqual([rows[2].id, rows[1].id]);
    const oldestFirst = await get(`${API}/notifications?unreadOnly=true&sort=createdAt,asc`, { token: user.token });
    expect(oldestFirst.body.content.map((x: { id: number }) => x.id)).toEqual([rows[1].id, rows[2].id]);

    const all = await put(`${API}/notifications/read-all`, undefined, { token: user.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ updated: 2 });
    expect((await get(`${API}/notifications/unread-count`, { token: user.token })).body).toEqual({ count: 0 });
    expect((await put(`${API}/notifications/read-all`, undefined, { token: user.token })).body).toEqual({ updated: 0 });
  });

  it("never touches other users' notifications: 403 for theirs, 404 for unknown", async () => {
    const owner = await aUser();
    const other = await aUser();
    const [row] = await notify(owner, 1);
    await notify(other, 2);
    for (const res of [
      await put(`${API}/notifications/${row.id}/read`, undefined, { token: other.token }),
      await del(`${API}/notifications/${row.id}`, { token: other.token }),
      await put(`${API}/notifications/${row.id}/read`, undefined, { token: (await anAdmin()).token }),
    ]) {
      expect(res.status).toBe(403);
      expect(errorBody(res).errorCode).toBe('ACCESS_DENIED');
    }
    expect((await put(`${API}/notifications/read-all`, undefined, { token: other.token })).body).toEqual({ updated: 2 });
    const [stillUnread] = await db().select().from(notifications).where(eq(notifications.id, row.id));
    expect(stillUnread.readAt).toBeNull();

    expect((await put(`${API}/notifications/999999/read`, undefined, { token: owner.token })).status).toBe(404);
    expect((await del(`${API}/notifications/999999`, { token: owner.token })).status).toBe(404);
    expect(errorBody(await get(`${API}/notifications?unreadOnly=maybe`, { token: owner.token })).status).toBe(400);
    expect((await get(`${API}/notifications`)).status).toBe(401);

    expect((await del(`${API}/notifications/${row.id}`, { token: owner.token })).status).toBe(204);
    expect(await db().select().from(notifications).where(eq(notifications.id, row.id))).toEqual([]);
  });

  it("a notification reads in the reader's language: French from its kind and data when Accept-Language prefers it, as written otherwise", async () => {
    const user = await aUser();
    const [created] = await db()
      .insert(notifications)
      .values({ userId: user.id, type: 'RESERVATION_CREATED', title: 'New booking', message: '2 kg booked on your trip Paris - Dakar (R-2026-000042), awaiting payment', data: { reservationId: 42, reservationNumber: 'R-2026-000042' } })
      .returning();
    const [unknownKind] = await notify(user, 1);
    const FR = { 'Accept-Language': 'fr-FR,fr;q=0.9' };
    const french = await get(`${API}/notifications?sort=createdAt,asc`, { token: user.token, headers: FR });
    expect(french.headers.get('Content-Language')).toBe('fr');
    expect(french.headers.get('Vary')).toContain('Accept-Language');
    expect(french.body.content.map((n: { title: string; message: string }) => [n.title, n.message])).toEqual([
      ['Nouvelle réservation', 'Une nouvelle réservation R-2026-000042 a été faite sur votre trajet ; elle attend le paiement.'],
      // A kind without French words keeps what was written.
      ['Title 0', 'Message 0'],
    ]);
    expect(french.body.content[0].data).toEqual({ reservationId: 42, reservationNumber: 'R-2026-000042' });
    const english = await get(`${API}/notifications?sort=createdAt,asc`, { token: user.token });
    expect(english.headers.get('Content-Language')).toBe('en');
    expect(english.body.content[0]).toMatchObject({ title: 'New booking', message: '2 kg booked on your trip Paris - Dakar (R-2026-000042), awaiting payment' });
    // Marking one read answers it in the same language.
    const read = await put(`${API}/notifications/${created.id}/read`, undefined, { token: user.token, headers: FR });
    expect(read.body).toMatchObject({ id: created.id, title: 'Nouvelle réservation', read: true });
    expect(unknownKind.type).toBe('TEST');
  });

  it('notifications written by the one writer appear in the API', async () => {
    const user = await aUser();
    await runBatch(db(), notificationStatements(db(), { userId: user.id, type: 'KYC_APPROVED', text: msg('notice.kycApproved') }));
    const res = await get(`${API}/notifications`, { token: user.token });
    expect(res.body.content).toMatchObject([{ type: 'KYC_APPROVED', data: null, read: false }]);
  });
});
