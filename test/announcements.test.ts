// Announcements (CONTRACT section 6): publishing, the public search with every filter and sort,
// ownership, the capacity and date rules, deletion with reservations, the cron that closes
// departed trips, and the indexes that serve the search.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { announcements, deliveries, notifications, reservations, type AnnouncementRow } from '../src/db/schema';
import {
  closeDepartedAnnouncements,
  pageStatements,
  searchConditions,
  type SearchFilters,
} from '../src/features/announcements/announcements.service';
import { del, errorBody, get, post, put } from './helpers/http';
import { daysFromToday, uniqueCity, aUser, tokenFor, aCarrier, anAdmin, aCategory, tripInput, publishTrip, aReservation } from './helpers/factories';
import { runCron } from './helpers/db';
import { depsOf } from '../src/env';

const db = () => database(env.DB);
const API = '/v1/api';

describe('POST /annonces', () => {
  it('publishes a trip with the exact Announcement shape', async () => {
    const carrier = await aCarrier({ firstName: 'Carla', lastName: 'Carrier' });
    const category = await aCategory();
    const res = await post(`${API}/annonces`, tripInput({ acceptedCategoryIds: [category.id], departureCountry: 'fr' }), {
      token: carrier.token,
    });
    expect(res.status).toBe(201);
    const { id, createdAt, updatedAt, ...rest } = res.body;
    expect(id).toBeTypeOf('number');
    expect(Date.parse(createdAt)).not.toBeNaN();
    expect(updatedAt).toBe(createdAt);
    expect(rest).toEqual({
      carrierId: carrier.id,
      agencyId: null,
      branchId: null,
      departureCity: 'Paris',
      departureCountry: 'FR',
      arrivalCity: 'Dakar',
      arrivalCountry: 'SN',
      departureDate: daysFromToday(10),
      arrivalDate: daysFromToday(11),
      totalWeight: 20,
      reservedWeight: 0,
      remainingWeight: 20,
      pricePerKg: 8.5,
      currency: 'EUR',
      pickupPoint: 'Gare de Lyon',
      deliveryPoint: 'Plateau',
      description: 'Two suitcases of spare room',
      transportMode: 'PLANE',
      acceptedCategoryIds: [category.id],
      status: 'ACTIVE',
      cancellationPolicy: 'MODERATE',
      travelVerified: false,
      carrier: {
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
      },
    });
    const [row] = await db().select().from(announcements).where(eq(announcements.id, id));
    expect(row).toMatchObject({ totalWeightG: 20_000, pricePerKgCents: 850, departureCityKey: 'paris', arrivalCityKey: 'dakar' });
  });

  it('is refused to a user without ROLE_VERIFIED_USER or agency staff role: 403 ACCESS_DENIED', async () => {
    const client = await aUser();
    const res = await post(`${API}/annonces`, tripInput(), { token: client.token });
    expect(res.status).toBe(403);
    expect(errorBody(res)).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
  });

  it('is refused to anonymous callers: 401', async () => {
    expect((await post(`${API}/annonces`, tripInput())).status).toBe(401);
  });

  it('a staff role in the token without a membership in the database is refused: 403', async () => {
    const roleOnly = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    const refused = await post(`${API}/annonces`, tripInput(), { token: roleOnly.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Publishing a trip requires a verified identity');
  });

  it('lists every invalid field in fieldErrors', async () => {
    const carrier = await aCarrier();
    const res = await post(
      `${API}/annonces`,
      tripInput({ departureCountry: 'XX', totalWeight: -1, transportMode: 'ROCKET', departureDate: '2030-02-30' }),
      { token: carrier.token },
    );
    expect(res.status).toBe(400);
    const body = errorBody(res);
    expect(body).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR', path: `${API}/annonces` });
    const fields = (body.fieldErrors as { field: string; rejectedValue: unknown }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['departureCountry', 'departureDate', 'totalWeight', 'transportMode']);
    expect(body.fieldErrors).toContainEqual(expect.objectContaining({ field: 'totalWeight', rejectedValue: -1 }));
  });

  it('a price of zero is refused with a field error, on publish and on update (issue 14)', async () => {
    const carrier = await aCarrier();
    const zero = await post(`${API}/annonces`, tripInput({ pricePerKg: 0 }), { token: carrier.token });
    expect(zero.status).toBe(400);
    expect(errorBody(zero)).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [{ field: 'pricePerKg', message: 'Must be greater than 0 (at least 0.01)', rejectedValue: 0 }],
    });
    // Below a cent it would be stored as 0 cents: refused too.
    expect(errorBody(await post(`${API}/annonces`, tripInput({ pricePerKg: 0.004 }), { token: carrier.token })).fieldErrors).toEqual([
      { field: 'pricePerKg', message: 'Must be greater than 0 (at least 0.01)', rejectedValue: 0.004 },
    ]);
    const trip = await publishTrip(carrier);
    const update = await put(`${API}/annonces/${trip.id}`, { pricePerKg: 0 }, { token: carrier.token });
    expect(update.status).toBe(400);
    expect(errorBody(update).fieldErrors).toEqual([{ field: 'pricePerKg', message: 'Must be greater than 0 (at least 0.01)', rejectedValue: 0 }]);
    const [row] = await db().select().from(announcements).where(eq(announcements.id, trip.id));
    expect(row.pricePerKgCents).toBe(Math.round(trip.pricePerKg * 100));
  });

  it('enforces arrivalDate >= departureDate >= today', async () => {
    const carrier = await aCarrier();
    const res = await post(
      `${API}/annonces`,
      tripInput({ departureDate: daysFromToday(-1), arrivalDate: daysFromToday(-2) }),
      { token: carrier.token },
    );
    expect(res.status).toBe(400);
    expect(errorBody(res).fieldErrors).toEqual([
      { field: 'departureDate', message: expect.stringContaining('today'), rejectedValue: daysFromToday(-1) },
      { field: 'arrivalDate', message: 'The arrival date must be on or after the departure date', rejectedValue: daysFromToday(-2) },
    ]);
    const today = await post(`${API}/annonces`, tripInput({ departureDate: daysFromToday(0), arrivalDate: daysFromToday(0) }), {
      token: carrier.token,
    });
    expect(today.status).toBe(201);
  });

  it('lists the date rules with the field errors in one round (past departureDate, totalWeight -1, transportMode XX)', async () => {
    const carrier = await aCarrier();
    const res = await post(
      `${API}/annonces`,
      tripInput({ departureDate: daysFromToday(-1), totalWeight: -1, transportMode: 'XX' }),
      { token: carrier.token },
    );
    expect(res.status).toBe(400);
    expect(errorBody(res)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: totalWeight, transportMode, departureDate',
      path: `${API}/annonces`,
      suggestions: ['Correct the fields listed and try again'],
      fieldErrors: [
        { field: 'totalWeight', message: expect.any(String), rejectedValue: -1 },
        { field: 'transportMode', message: expect.any(String), rejectedValue: 'XX' },
        { field: 'departureDate', message: `The departure date must be today (${daysFromToday(0)}) or later`, rejectedValue: daysFromToday(-1) },
      ],
    });
  });

  it('checks arrivalDate >= departureDate while other fields fail, and not against a malformed departureDate', async () => {
    const carrier = await aCarrier();
    const both = await post(
      `${API}/annonces`,
      tripInput({ departureDate: daysFromToday(5), arrivalDate: daysFromToday(4), pricePerKg: -3 }),
      { token: carrier.token },
    );
    expect(both.status).toBe(400);
    expect(errorBody(both).fieldErrors).toEqual([
      { field: 'pricePerKg', message: expect.any(String), rejectedValue: -3 },
      { field: 'arrivalDate', message: 'The arrival date must be on or after the departure date', rejectedValue: daysFromToday(4) },
    ]);
    const malformed = await post(`${API}/annonces`, tripInput({ departureDate: 'soon', arrivalDate: daysFromToday(4) }), {
      token: carrier.token,
    });
    expect(malformed.status).toBe(400);
    expect(errorBody(malformed).fieldErrors).toEqual([{ field: 'departureDate', message: expect.any(String), rejectedValue: 'soon' }]);
  });

  it('refuses unknown or prohibited categories', async () => {
    const carrier = await aCarrier();
    const prohibited = await aCategory({ prohibited: true });
    const res = await post(`${API}/annonces`, tripInput({ acceptedCategoryIds: [prohibited.id, 999_999] }), {
      token: carrier.token,
    });
    expect(res.status).toBe(400);
    expect(errorBody(res).fieldErrors).toEqual([
      {
        field: 'acceptedCategoryIds',
        message: `Unknown or prohibited categories: ${prohibited.id}, 999999`,
        rejectedValue: [prohibited.id, 999_999],
      },
    ]);
  });
});

describe('GET /annonces (search)', () => {
  it('matches cities case- and accent-insensitively and lists only ACTIVE future trips', async () => {
    const carrier = await aCarrier();
    const from = uniqueCity('Saint-Étienne');
    const hit = await publishTrip(carrier, { departureCity: from });
    const full = await publishTrip(carrier, { departureCity: from });
    await db().update(announcements).set({ status: 'FULL' }).where(eq(announcements.id, full.id));
    const past = await publishTrip(carrier, { departureCity: from });
    await db().update(announcements).set({ departureDate: daysFromToday(-1) }).where(eq(announcements.id, past.id));

    const query = encodeURIComponent(from.toUpperCase().replace('É', 'E').replace('-', ' '));
    const res = await get(`${API}/annonces?departureCity=${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: [hit], page: { number: 0, size: 20, totalElements: 1, totalPages: 1 } });
  });

  it('applies every filter', async () => {
    const carrier = await aCarrier();
    const other = await aCategory();
    const wanted = await aCategory();
    const to = uniqueCity('Abidjan');
    const base = { arrivalCity: to, arrivalCountry: 'CI' };
    const a = await publishTrip(carrier, { ...base, departureDate: daysFromToday(5), arrivalDate: daysFromToday(5), pricePerKg: 5, totalWeight: 10, transportMode: 'PLANE', acceptedCategoryIds: [wanted.id] });
    const b = await publishTrip(carrier, { ...base, departureDate: daysFromToday(15), arrivalDate: daysFromToday(16), pricePerKg: 12, totalWeight: 3, transportMode: 'BOAT', acceptedCategoryIds: [other.id] });
    const c = await publishTrip(carrier, { ...base, departureCity: 'Lyon', departureDate: daysFromToday(25), arrivalDate: daysFromToday(26), pricePerKg: 7.25, totalWeight: 30, transportMode: 'CAR', departureCountry: 'BE' });

    const ids = async (qs: string) => {
      const res = await get(`${API}/annonces?arrivalCity=${encodeURIComponent(to)}&${qs}`);
      expect(res.status).toBe(200);
      return res.body.content.map((x: { id: number }) => x.id);
    };
    expect(await ids('')).toEqual([a.id, b.id, c.id]);
    expect(await ids('departureCity=paris')).toEqual([a.id, b.id]);
    expect(await ids('departureCountry=be')).toEqual([c.id]);
    expect(await ids('arrivalCountry=FR')).toEqual([]);
    expect(await ids(`dateFrom=${daysFromToday(10)}`)).toEqual([b.id, c.id]);
    expect(await ids(`dateTo=${daysFromToday(20)}`)).toEqual([a.id, b.id]);
    expect(await ids('minWeight=5')).toEqual([a.id, c.id]);
    // Same filters, other values: the compiled search binds each request's own.
    expect(await ids('minWeight=20')).toEqual([c.id]);
    expect(await ids('sort=createdAt,asc&size=2&page=0')).toEqual([a.id, b.id]);
    expect(await ids('maxPricePerKg=7.25')).toEqual([a.id, c.id]);
    expect(await ids('transportMode=BOAT')).toEqual([b.id]);
    // c accepts every category (empty list), b only `other`.
    expect(await ids(`categoryId=${wanted.id}`)).toEqual([a.id, c.id]);
    expect(await ids('sort=pricePerKg,desc')).toEqual([b.id, c.id, a.id]);
    expect(await ids('sort=departureDate,desc')).toEqual([c.id, b.id, a.id]);
    expect(await ids('sort=createdAt,asc&size=2&page=1')).toEqual([c.id]);
  });

  it('answers the spec error codes for bad query parameters', async () => {
    const bad = await get(`${API}/annonces?sort=carrierId,asc`);
    expect(bad.status).toBe(400);
    expect(errorBody(bad).errorCode).toBe('INVALID_ARGUMENT');
    const mismatch = await get(`${API}/annonces?minWeight=heavy`);
    expect(mismatch.status).toBe(400);
    expect(errorBody(mismatch)).toMatchObject({ errorCode: 'TYPE_MISMATCH', fieldErrors: [expect.objectContaining({ field: 'minWeight', rejectedValue: 'heavy' })] });
    const mode = await get(`${API}/annonces?transportMode=ROCKET`);
    expect(mode.status).toBe(400);
    expect(errorBody(mode).errorCode).toBe('VALIDATION_ERROR');
  });

  it('is served by indexes, with and without city filters (EXPLAIN QUERY PLAN)', async () => {
    // Each filter set, and the index that must serve it (city searches use their city index).
    const cases: [SearchFilters, string][] = [
      [{}, 'announcements_status_departure_idx'],
      [{ departureCity: 'Paris' }, 'announcements_departure_idx'],
      [{ arrivalCity: 'Dakar' }, 'announcements_arrival_idx'],
      [{ departureCity: 'Paris', arrivalCity: 'Dakar', minWeight: 2, categoryId: 1 }, 'announcements_route_idx'],
      [
        { departureCountry: 'FR', maxPricePerKg: 10, transportMode: 'PLANE', dateFrom: daysFromToday(3), dateTo: daysFromToday(30) },
        'announcements_status_departure_idx',
      ],
    ];
    for (const [filters, index] of cases) {
      for (const field of ['departureDate', 'pricePerKg', 'createdAt'] as const) {
        const { page, total } = pageStatements(db(), searchConditions(filters, daysFromToday(0)), {
          page: 0,
          size: 20,
          sort: { field, direction: 'asc' },
        });
        for (const statement of [page, total]) {
          const { sql, params } = statement.toSQL();
          const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .bind(...params)
            .all<{ detail: string }>();
          const details = plan.results.map((r) => r.detail);
          const context = JSON.stringify({ filters, field, details });
          expect(details.filter((d) => /^SCAN announcements\b(?! USING)/.test(d)), context).toEqual([]);
          expect(details.some((d) => d.startsWith('SEARCH announcements USING') && d.includes(`INDEX ${index} (`)), context).toBe(true);
        }
      }
    }
  });
});

describe('GET /annonces/{id}, /annonces/mine', () => {
  it('reads one trip publicly', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    const res = await get(`${API}/annonces/${trip.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(trip);
  });

  it('an unknown trip is 404 RESOURCE_NOT_FOUND; a non-numeric id TYPE_MISMATCH', async () => {
    const missing = await get(`${API}/annonces/999999`);
    expect(missing.status).toBe(404);
    expect(errorBody(missing)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND', message: 'Announcement 999999 not found' });
    expect(errorBody(await get(`${API}/annonces/abc`)).errorCode).toBe('TYPE_MISMATCH');
  });

  it("lists the caller's trips of every status, with a status filter", async () => {
    const carrier = await aCarrier();
    const stranger = await aCarrier();
    const a = await publishTrip(carrier);
    const b = await publishTrip(carrier);
    await publishTrip(stranger);
    await db().update(announcements).set({ status: 'CLOSED' }).where(eq(announcements.id, b.id));
    const all = await get(`${API}/annonces/mine?sort=createdAt,asc`, { token: carrier.token });
    expect(all.status).toBe(200);
    expect(all.body.content.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
    expect(all.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    const closed = await get(`${API}/annonces/mine?status=CLOSED`, { token: carrier.token });
    expect(closed.body.content.map((x: { id: number; status: string }) => [x.id, x.status])).toEqual([[b.id, 'CLOSED']]);
    expect((await get(`${API}/annonces/mine`)).status).toBe(401);
  });
});

describe('PUT /annonces/{id}', () => {
  it('lets the owner update and keeps FULL/ACTIVE right when totalWeight changes', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await publishTrip(carrier, { totalWeight: 10 });
    // Unpaid: the route may still change (CONTRACT section 19).
    await aReservation({ trip, sender, status: 'PENDING_PAYMENT', weightG: 4000, reserveOnTrip: true });

    const full = await put(`${API}/annonces/${trip.id}`, { totalWeight: 4, departureCity: 'Lyon' }, { token: carrier.token });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ totalWeight: 4, reservedWeight: 4, remainingWeight: 0, status: 'FULL', departureCity: 'Lyon' });
    const [row] = await db().select().from(announcements).where(eq(announcements.id, trip.id));
    expect(row.departureCityKey).toBe('lyon');

    const active = await put(`${API}/annonces/${trip.id}`, { totalWeight: 6.5 }, { token: carrier.token });
    expect(active.body).toMatchObject({ totalWeight: 6.5, remainingWeight: 2.5, status: 'ACTIVE' });
    expect(active.body.updatedAt >= trip.updatedAt).toBe(true);
  });

  it('refuses totalWeight below reservedWeight with 422 BUSINESS_RULE_VIOLATION', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier, { totalWeight: 10 });
    await aReservation({ trip, sender: await aUser(), status: 'PENDING_PAYMENT', weightG: 3000, reserveOnTrip: true });
    const res = await put(`${API}/annonces/${trip.id}`, { totalWeight: 2.999 }, { token: carrier.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION', status: 422 });
  });

  it('is refused to another carrier and to an admin: 403 ACCESS_DENIED', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    const admin = await anAdmin();
    for (const user of [await aCarrier(), admin]) {
      const res = await put(`${API}/annonces/${trip.id}`, { pricePerKg: 1 }, { token: user.token });
      expect(res.status).toBe(403);
      expect(errorBody(res).errorCode).toBe('ACCESS_DENIED');
    }
  });

  it('validates the dates merged with the stored ones: arrival before departure is 400', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    const res = await put(`${API}/annonces/${trip.id}`, { arrivalDate: daysFromToday(9) }, { token: carrier.token });
    expect(res.status).toBe(400);
    expect(errorBody(res)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'arrivalDate' })] });
  });

  it('an update lists a past departureDate together with the other invalid fields', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    const res = await put(
      `${API}/annonces/${trip.id}`,
      { departureDate: daysFromToday(-1), pricePerKg: -1 },
      { token: carrier.token },
    );
    expect(res.status).toBe(400);
    expect(errorBody(res)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: pricePerKg, departureDate',
      fieldErrors: [
        { field: 'pricePerKg', message: expect.any(String), rejectedValue: -1 },
        { field: 'departureDate', message: `The departure date must be today (${daysFromToday(0)}) or later`, rejectedValue: daysFromToday(-1) },
      ],
    });
  });

  it('updating an unknown trip is 404', async () => {
    const carrier = await aCarrier();
    expect((await put(`${API}/annonces/999999`, { pricePerKg: 1 }, { token: carrier.token })).status).toBe(404);
  });

  it('refuses changes to a closed or cancelled trip (409)', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    await db().update(announcements).set({ status: 'CLOSED' }).where(eq(announcements.id, trip.id));
    const res = await put(`${API}/annonces/${trip.id}`, { pricePerKg: 1 }, { token: carrier.token });
    expect(res.status).toBe(409);
    expect(errorBody(res).errorCode).toBe('INVALID_STATE');
  });
});

describe('PUT /annonces/{id}: a reservation keeps its terms (CONTRACT section 19)', () => {
  const viewOf = async (id: number, token: string) => {
    const res = await get(`${API}/bookings/${id}`, { token });
    expect(res.status).toBe(200);
    const { departureCity, arrivalCity, departureDate, arrivalDate, pickupPoint, deliveryPoint, pricePerKg } = res.body;
    return { departureCity, arrivalCity, departureDate, arrivalDate, pickupPoint, deliveryPoint, pricePerKg };
  };

  it('route and price are frozen while a reservation is paid (409); dates and points reach PAID and CONFIRMED only, each sender told', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier, { pricePerKg: 10 });
    const booked = { departureCity: 'Paris', arrivalCity: 'Dakar', departureDate: trip.departureDate, arrivalDate: trip.arrivalDate, pickupPoint: 'Gare de Lyon', deliveryPoint: 'Plateau', pricePerKg: 10 };
    const parties = await Promise.all((['PAID', 'CONFIRMED', 'DEPOSITED', 'DELIVERED'] as const).map(async (status) => {
      const sender = await aUser();
      const { reservation } = await aReservation({ trip, sender, status, reserveOnTrip: true });
      return { status, sender, id: reservation.id };
    }));
    const [paid, confirmed, deposited, delivered] = parties;

    for (const change of [{ arrivalCity: 'Abidjan', arrivalCountry: 'CI', arrivalDate: daysFromToday(13) }, { departureCountry: 'BE' }, { pricePerKg: 12 }]) {
      const refused = await put(`${API}/annonces/${trip.id}`, change, { token: carrier.token });
      expect(refused.status).toBe(409);
      expect(errorBody(refused)).toMatchObject({
        errorCode: 'INVALID_STATE',
        message: 'The route and the price of a trip with paid reservations in progress cannot change; its dates and meeting points can',
      });
    }
    expect((await get(`${API}/annonces/${trip.id}`)).body).toMatchObject({ arrivalCity: 'Dakar', arrivalDate: trip.arrivalDate, pricePerKg: 10 });
    for (const p of parties) expect(await viewOf(p.id, p.sender.token)).toEqual(booked);

    const moved = { departureDate: daysFromToday(12), arrivalDate: daysFromToday(13), pickupPoint: 'Gare du Nord' };
    const res = await put(`${API}/annonces/${trip.id}`, { ...moved, pricePerKg: 10, arrivalCity: 'Dakar' }, { token: carrier.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(moved);

    // The live bookings take the new dates and point; a deposited or finished one keeps what it was booked on.
    expect(await viewOf(paid.id, paid.sender.token)).toEqual({ ...booked, ...moved });
    expect(await viewOf(confirmed.id, carrier.token)).toEqual({ ...booked, ...moved });
    expect(await viewOf(deposited.id, deposited.sender.token)).toEqual(booked);
    expect(await viewOf(delivered.id, delivered.sender.token)).toEqual(booked);
    // The sender's dashboard and the recipient's page read the reservation's copy too.
    const shipments = async (p: (typeof parties)[number]) => (await get(`${API}/dashboard/sender`, { token: p.sender.token })).body.upcomingShipments;
    expect(await shipments(deposited)).toMatchObject([{ reservationId: deposited.id, departureDate: trip.departureDate, arrivalDate: trip.arrivalDate }]);
    expect(await shipments(paid)).toMatchObject([{ reservationId: paid.id, departureDate: moved.departureDate, arrivalDate: moved.arrivalDate }]);
    const [depositedRow] = await db().select().from(reservations).where(eq(reservations.id, deposited.id));
    const page = await get(`/r/${depositedRow.recipientToken}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(moved.arrivalDate);
    const admin = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] });
    const detail = await get(`${API}/superadmin/reservations/${delivered.id}`, { token: admin.token });
    expect(detail.body).toMatchObject({ lieuArrivee: 'Dakar', dateDepart: trip.departureDate, dateArrivee: trip.arrivalDate, pointRdv: 'Gare de Lyon' });

    const rows = await db().select().from(reservations).where(eq(reservations.announcementId, trip.id));
    const changedAt = Object.fromEntries(rows.map((r) => [r.status, r.tripChangedAt !== null]));
    expect(changedAt).toEqual({ PAID: true, CONFIRMED: true, DEPOSITED: false, DELIVERED: false });
    for (const p of parties) {
      const notes = await db().select().from(notifications).where(and(eq(notifications.userId, p.sender.id), eq(notifications.type, 'TRIP_CHANGED')));
      const outbox = await db().select().from(deliveries).where(and(eq(deliveries.userId, p.sender.id), eq(deliveries.template, 'TRIP_CHANGED')));
      if (p === paid || p === confirmed) {
        expect(notes).toMatchObject([{ data: { reservationId: p.id, announcementId: trip.id, ...moved } }]);
        expect(outbox.map((d) => d.channel)).toContain('EMAIL');
      } else {
        expect(notes).toEqual([]);
        expect(outbox).toEqual([]);
      }
    }
  });

  it('with no paid reservation the route may change: unpaid bookings take it, finished ones keep theirs', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    const pendingSender = await aUser();
    const { reservation: pending } = await aReservation({ trip, sender: pendingSender, status: 'PENDING_PAYMENT', reserveOnTrip: true });
    const { reservation: cancelled, sender: cancelledSender } = await aReservation({ trip, status: 'CANCELLED' });

    const res = await put(`${API}/annonces/${trip.id}`, { arrivalCity: 'Abidjan', arrivalCountry: 'CI', pricePerKg: 9 }, { token: carrier.token });
    expect(res.status).toBe(200);
    expect(await viewOf(pending.id, pendingSender.token)).toMatchObject({ arrivalCity: 'Abidjan', pricePerKg: 8.5 });
    expect(await viewOf(cancelled.id, cancelledSender.token)).toMatchObject({ arrivalCity: 'Dakar', pricePerKg: 8.5 });
    const [row] = await db().select().from(reservations).where(eq(reservations.id, pending.id));
    expect(row).toMatchObject({ arrivalCountry: 'CI', tripChangedAt: null });
    expect(await db().select().from(notifications).where(and(eq(notifications.userId, pendingSender.id), eq(notifications.type, 'TRIP_CHANGED')))).toHaveLength(1);
  });
});

describe('DELETE /annonces/{id}', () => {
  it('cancels the trip and its unpaid reservations in one batch, notifying their senders', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await publishTrip(carrier);
    const { reservation: unpaid } = await aReservation({ trip, sender, status: 'PENDING_PAYMENT', reserveOnTrip: true });
    const { reservation: finished } = await aReservation({ trip, sender: await aUser(), status: 'DELIVERED', reserveOnTrip: true });

    const res = await del(`${API}/annonces/${trip.id}`, { token: carrier.token });
    expect(res.status).toBe(204);
    expect((await get(`${API}/annonces/${trip.id}`)).body.status).toBe('CANCELLED');
    const rows = await db().select().from(reservations).where(eq(reservations.announcementId, trip.id));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [unpaid.id]: 'CANCELLED', [finished.id]: 'DELIVERED' });
    expect(rows.find((r) => r.id === unpaid.id)).toMatchObject({ cancelledBy: carrier.id, cancellationReason: 'ANNOUNCEMENT_CANCELLED' });
    const notes = await db().select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(notes).toMatchObject([{ type: 'RESERVATION_CANCELLED', data: { reservationId: unpaid.id, announcementId: trip.id } }]);

    const again = await del(`${API}/annonces/${trip.id}`, { token: carrier.token });
    expect(again.status).toBe(409);
    // No longer searchable.
    const search = await get(`${API}/annonces?departureCity=Paris&size=100`);
    expect(search.body.content.map((x: { id: number }) => x.id)).not.toContain(trip.id);
  });

  for (const status of ['PAID', 'CONFIRMED', 'DEPOSITED', 'IN_TRANSIT', 'DISPUTED'] as const) {
    it(`is refused with 409 INVALID_STATE while a reservation is ${status}, touching nothing`, async () => {
      const carrier = await aCarrier();
      const trip = await publishTrip(carrier);
      const { reservation: unpaid } = await aReservation({ trip, sender: await aUser(), status: 'PENDING_PAYMENT', reserveOnTrip: true });
      await aReservation({ trip, sender: await aUser(), status, reserveOnTrip: true });
      const res = await del(`${API}/annonces/${trip.id}`, { token: carrier.token });
      expect(res.status).toBe(409);
      expect(errorBody(res)).toMatchObject({ errorCode: 'INVALID_STATE', message: expect.stringContaining('paid reservation') });
      const [row] = await db().select().from(announcements).where(eq(announcements.id, trip.id));
      expect(row.status).toBe('ACTIVE');
      const [kept] = await db().select().from(reservations).where(eq(reservations.id, unpaid.id));
      expect(kept.status).toBe('PENDING_PAYMENT');
    });
  }

  it('the senders\' notifications are written in the cancellation\'s batch: if they cannot be, nothing is cancelled', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    const { reservation: unpaid } = await aReservation({ trip, sender: await aUser(), status: 'PENDING_PAYMENT', reserveOnTrip: true });
    // The notification write fails (as a lost write would): the whole change must be undone with it.
    await env.DB.exec(`CREATE TRIGGER refuse_cancel_notice BEFORE INSERT ON notifications WHEN NEW.type = 'RESERVATION_CANCELLED' BEGIN SELECT RAISE(ABORT, 'notifications unavailable'); END`);
    try {
      const res = await del(`${API}/annonces/${trip.id}`, { token: carrier.token });
      expect(res.status).toBe(500);
    } finally {
      await env.DB.exec('DROP TRIGGER refuse_cancel_notice');
    }
    const [row] = await db().select().from(announcements).where(eq(announcements.id, trip.id));
    expect(row.status).toBe('ACTIVE');
    const [kept] = await db().select().from(reservations).where(eq(reservations.id, unpaid.id));
    expect(kept.status).toBe('PENDING_PAYMENT');

    expect((await del(`${API}/annonces/${trip.id}`, { token: carrier.token })).status).toBe(204);
    const [cancelled] = await db().select().from(reservations).where(eq(reservations.id, unpaid.id));
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellationReason: 'ANNOUNCEMENT_CANCELLED' });
    expect(await db().select().from(notifications).where(and(eq(notifications.userId, unpaid.senderId), eq(notifications.type, 'RESERVATION_CANCELLED')))).toHaveLength(1);
  });

  it('is refused to strangers (403) but allowed to admins', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    const stranger = await aCarrier();
    expect(errorBody(await del(`${API}/annonces/${trip.id}`, { token: stranger.token })).errorCode).toBe('ACCESS_DENIED');
    expect((await del(`${API}/annonces/${trip.id}`, { token: (await anAdmin()).token })).status).toBe(204);
    expect((await del(`${API}/annonces/999999`, { token: carrier.token })).status).toBe(404);
  });
});

describe('closing departed trips', () => {
  const setDeparture = (id: number, date: string, status: AnnouncementRow['status'] = 'ACTIVE') =>
    db().update(announcements).set({ departureDate: date, arrivalDate: date, status }).where(eq(announcements.id, id));

  it('closes ACTIVE and FULL trips whose departure date has passed, and only those', async () => {
    const carrier = await aCarrier();
    const [gone, goneFull, today, cancelled] = [
      await publishTrip(carrier),
      await publishTrip(carrier),
      await publishTrip(carrier),
      await publishTrip(carrier),
    ];
    await setDeparture(gone.id, daysFromToday(-1));
    await setDeparture(goneFull.id, daysFromToday(-3), 'FULL');
    await setDeparture(today.id, daysFromToday(0));
    await setDeparture(cancelled.id, daysFromToday(-2), 'CANCELLED');

    expect(await closeDepartedAnnouncements(depsOf(env, db()), daysFromToday(0))).toBeGreaterThanOrEqual(2);
    const status = async (id: number) => (await db().select().from(announcements).where(eq(announcements.id, id)))[0].status;
    expect([await status(gone.id), await status(goneFull.id), await status(today.id), await status(cancelled.id)]).toEqual([
      'CLOSED',
      'CLOSED',
      'ACTIVE',
      'CANCELLED',
    ]);
  });

  it('runs from the scheduled handler', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier);
    await setDeparture(trip.id, daysFromToday(-1));
    await runCron();
    expect((await get(`${API}/annonces/${trip.id}`)).body.status).toBe('CLOSED');
  });
});

describe('dev seed', () => {
  it('creates the demo trips of carrier@demo.local once, departing in the future', async () => {
    const { runSeed } = await import('../src/features/dev/seed');
    const first = await runSeed(depsOf(env, db()));
    const carrierId = first.accounts.find((a) => a.email === 'carrier@demo.local')!.id;
    const trips = await db().select().from(announcements).where(eq(announcements.carrierId, carrierId));
    // The catalog step makes four trips; later seed steps (hand-over demo) may add theirs.
    expect(trips.length).toBeGreaterThanOrEqual(4);
    expect(trips.every((t) => t.status === 'ACTIVE' && t.departureDate > daysFromToday(0) && t.arrivalDate >= t.departureDate)).toBe(true);
    await runSeed(depsOf(env, db()));
    expect(await db().select().from(announcements).where(eq(announcements.carrierId, carrierId))).toHaveLength(trips.length);
    const search = await get(`${API}/annonces?departureCity=paris&arrivalCity=DAKAR`);
    expect(search.body.content.map((x: { carrierId: number }) => x.carrierId)).toContain(carrierId);
  });
});

describe('announcement rules (pure)', () => {
  it('folds case, accents and punctuation in city keys', async () => {
    const { cityKey } = await import('../src/features/reference/city-key');
    expect(cityKey('  Saint-Étienne ')).toBe('saint etienne');
    expect(cityKey("L'Aquila")).toBe('l aquila');
    expect(cityKey('YAOUNDÉ')).toBe(cityKey('yaounde'));
    expect(cityKey('Montréal')).toBe('montreal');
  });

  it('checks arrivalDate >= departureDate >= today', async () => {
    const { tripDateErrors } = await import('../src/features/announcements/announcement-rules');
    expect(tripDateErrors('2030-01-01', '2030-01-01', '2030-01-01')).toEqual([]);
    expect(tripDateErrors('2029-12-31', '2030-01-02', '2030-01-01').map((e) => e.field)).toEqual(['departureDate']);
    expect(tripDateErrors('2030-01-02', '2030-01-01', '2030-01-01').map((e) => e.field)).toEqual(['arrivalDate']);
  });
});

describe('agency trips', () => {
  /** An agency with two branches and one employee in each, tokens re-issued with the granted roles. */
  async function agencyWithTwoBranches() {
    const owner = await aUser();
    const agency = await post(`${API}/agencies`, { name: `Agency ${crypto.randomUUID().slice(0, 6)}` }, { token: owner.token });
    expect(agency.status).toBe(201);
    const ownerToken = await tokenFor(owner.id, ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER']);
    const branchA = await post(`${API}/agencies/${agency.body.id}/branches`, { name: 'A' }, { token: ownerToken });
    const branchB = await post(`${API}/agencies/${agency.body.id}/branches`, { name: 'B' }, { token: ownerToken });
    const employee = async (branchId: number) => {
      const user = await aUser();
      const added = await post(`${API}/agencies/${agency.body.id}/employees`, { email: user.email, branchId }, { token: ownerToken });
      expect(added.status).toBe(201);
      expect((await post(`${API}/agency-invitations/${added.body.invitationId}/accept`, undefined, { token: user.token })).status).toBe(200);
      return { ...user, token: await tokenFor(user.id, ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE']) };
    };
    return { agencyId: agency.body.id as number, ownerToken, branchA: branchA.body.id as number, branchB: branchB.body.id as number, alice: await employee(branchA.body.id), bob: await employee(branchB.body.id) };
  }

  it('staff publish for their agency and branch; an employee of branch A cannot edit branch B trips', async () => {
    const a = await agencyWithTwoBranches();
    const tripA = await post(`${API}/annonces`, tripInput(), { token: a.alice.token });
    expect(tripA.status).toBe(201);
    expect(tripA.body).toMatchObject({ carrierId: a.alice.id, agencyId: a.agencyId, branchId: a.branchA });
    const otherBranch = await post(`${API}/annonces`, tripInput({ branchId: a.branchB }), { token: a.alice.token });
    expect(otherBranch.status).toBe(403);

    const byBob = await put(`${API}/annonces/${tripA.body.id}`, { description: 'hijack' }, { token: a.bob.token });
    expect(byBob.status).toBe(403);
    expect(byBob.body.errorCode).toBe('ACCESS_DENIED');
    const byOwner = await put(`${API}/annonces/${tripA.body.id}`, { description: 'edited by the owner' }, { token: a.ownerToken });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.description).toBe('edited by the owner');
  });

  it('a deactivated branch cannot publish', async () => {
    const a = await agencyWithTwoBranches();
    expect((await post(`${API}/agencies/${a.agencyId}/branches/${a.branchB}/deactivate`, undefined, { token: a.ownerToken })).status).toBe(200);
    const res = await post(`${API}/annonces`, tripInput(), { token: a.bob.token });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION', message: 'Your branch is deactivated: it cannot publish announcements' });
  });

  it("suspension hides the agency's trips from search and reads, and stops its staff publishing; activation restores them", async () => {
    const a = await agencyWithTwoBranches();
    const city = uniqueCity('Agencyville');
    const trip = await post(`${API}/annonces`, tripInput({ departureCity: city }), { token: a.alice.token });
    const search = () => get(`${API}/annonces?departureCity=${encodeURIComponent(city)}`);
    expect((await search()).body.content.map((t: { id: number }) => t.id)).toEqual([trip.body.id]);

    const superadmin = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] });
    expect((await post(`${API}/superadmin/agencies/${a.agencyId}/suspend`, { reason: 'Audit' }, { token: superadmin.token })).status).toBe(200);
    expect((await search()).body.content).toEqual([]);
    expect((await get(`${API}/annonces/${trip.body.id}`)).status).toBe(404);
    const sender = await aUser();
    const booking = await post(
      `${API}/bookings`,
      { announcementId: trip.body.id, reservedWeight: 1, items: [{ categoryId: 1, name: 'Books' }], recipient: { firstName: 'R', lastName: 'R', phone: '+33600000000' } },
      { token: sender.token },
    );
    expect(booking.status).toBe(404);
    const publish = await post(`${API}/annonces`, tripInput(), { token: a.alice.token });
    expect(publish.status).toBe(422);
    expect(publish.body.message).toBe('Your agency is suspended: it cannot publish announcements');

    expect((await post(`${API}/superadmin/agencies/${a.agencyId}/activate`, undefined, { token: superadmin.token })).status).toBe(200);
    expect((await search()).body.content.map((t: { id: number }) => t.id)).toEqual([trip.body.id]);
  });
});
