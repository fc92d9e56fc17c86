// D1 round trips of the hot endpoints (issue 9's targets: reads in one round trip, booking creation
// in one write batch after its read, deposit in at most two), and the rows D1 reads and writes for
// them. Read from the x-d1-round-trips, x-d1-rows-read and x-d1-rows-written headers the session
// middleware sets outside production; the round trips are checked against a binding counted from
// the outside, the rows against what the endpoints' indexes allow.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { ROUND_TRIPS_HEADER, ROWS_READ_HEADER, ROWS_WRITTEN_HEADER } from '../src/db/session';
import { login, registerUser } from './helpers/auth';
import { aCarrier, aCategory, aReservation, aTrip, aUser, bookingInput, bookThroughApi, secondsFromNow } from './helpers/factories';
import { BASE, get, post, put, type ApiResponse } from './helpers/http';

const roundTrips = (res: ApiResponse) => Number(res.headers.get(ROUND_TRIPS_HEADER));
const rows = (res: ApiResponse) => ({ read: Number(res.headers.get(ROWS_READ_HEADER)), written: Number(res.headers.get(ROWS_WRITTEN_HEADER)) });

/**
 * The real binding, its request sessions counted from the outside through the public API only:
 * one round trip per all/first/run/raw and per batch(), and the rows of the results that carry
 * their meta (all, run, batch). The session stays the native one, as the app's counter needs.
 */
function countedFromOutside(base: Env = env) {
  const seen = { trips: 0, statements: 0, rowsRead: 0, rowsWritten: 0, withoutMeta: 0 };
  const add = (result: D1Result) => {
    seen.rowsRead += result.meta.rows_read;
    seen.rowsWritten += result.meta.rows_written;
  };
  const countStatement = (statement: D1PreparedStatement): D1PreparedStatement => {
    for (const method of ['all', 'run', 'first', 'raw'] as const) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => Promise<unknown>;
      Object.defineProperty(statement, method, {
        configurable: true,
        value: async (...args: unknown[]) => {
          seen.trips += 1;
          seen.statements += 1;
          const result = await original(...args);
          if (method === 'all' || method === 'run') add(result as D1Result);
          else seen.withoutMeta += 1;
          return result;
        },
      });
    }
    const bind = statement.bind.bind(statement);
    Object.defineProperty(statement, 'bind', { configurable: true, value: (...values: unknown[]) => countStatement(bind(...values)) });
    return statement;
  };
  const withSession = (constraint?: string) => {
    const session = base.DB.withSession(constraint);
    const prepare = session.prepare.bind(session);
    const batch = session.batch.bind(session);
    Object.defineProperty(session, 'prepare', { configurable: true, value: (query: string) => countStatement(prepare(query)) });
    Object.defineProperty(session, 'batch', {
      configurable: true,
      value: async (statements: D1PreparedStatement[]) => {
        seen.trips += 1;
        seen.statements += statements.length;
        const results = await batch(statements);
        for (const result of results) add(result);
        return results;
      },
    });
    return session;
  };
  const DB = new Proxy(base.DB, { get: (target, prop) => (prop === 'withSession' ? withSession : Reflect.get(target, prop, target)) });
  return { env: { ...base, DB } as Env, seen };
}

async function fetchWith(counted: ReturnType<typeof countedFromOutside>, path: string, token: string, body?: unknown) {
  const ctx = createExecutionContext();
  const init: RequestInit = body === undefined
    ? { headers: { Authorization: `Bearer ${token}` } }
    : { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const res = await app.fetch(new Request(`${BASE}${path}`, init), counted.env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe('D1 round trips per request (x-d1-round-trips)', () => {
  it('the header counts what the binding sees', async () => {
    const sender = await aUser();
    const counting = countedFromOutside();
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/v1/api/bookings/as-sender`, { headers: { Authorization: `Bearer ${sender.token}` } }),
      counting.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(counting.seen.trips).toBeGreaterThan(0);
    expect(Number(res.headers.get(ROUND_TRIPS_HEADER))).toBe(counting.seen.trips);
  });

  it('reads: one round trip each', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED', carrier });
    const reads: [string, ApiResponse][] = [
      ['search', await get(`/v1/api/annonces?departureCity=${encodeURIComponent(trip.departureCity)}&sort=departureDate,asc`)],
      ['as-carrier', await get('/v1/api/bookings/as-carrier', { token: carrier.token })],
      ['as-sender', await get('/v1/api/bookings/as-sender', { token: sender.token })],
      ['detail', await get(`/v1/api/bookings/${reservation.id}`, { token: sender.token })],
      ['notifications', await get('/v1/api/notifications', { token: carrier.token })],
      ['customer reviews', await get('/v1/api/reviews/customers')],
      ['profile reviews', await get(`/v1/api/users/${carrier.id}/reviews`)],
      ['announcement', await get(`/v1/api/annonces/${trip.id}`)],
    ];
    expect(reads.map(([name, res]) => [name, res.status, roundTrips(res)])).toEqual(reads.map(([name]) => [name, 200, 1]));
  });

  it('login: the account read, then one batch (stamp, audit, session, wallet numbers)', async () => {
    const user = await registerUser();
    const res = await login(user.email);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, walletBalance: 0, totalEarned: 0 });
    expect(roundTrips(res)).toBe(2);
  });

  it('booking creation: one read batch, then one write batch (reservation, item, capacity, notification)', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await aTrip(carrier);
    const category = await aCategory();
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: sender.token });
    expect(res.status).toBe(201);
    expect(roundTrips(res)).toBe(2);
    // Rows: at least the four it writes (their index entries come on top), and a bounded read: the
    // checks of CONTRACT section 19 (the sender's agency membership, the carrier's account, the trip's
    // terms copied by the insert) read a few index rows each, never a table. Each of the four
    // AUTOINCREMENT inserts (reservation, item, notification, its e-mail) also reads sqlite_sequence
    // whole: one row per table that ever had an insert, bounded by the schema, not by the data.
    const sequenceRows = (await env.DB.prepare('SELECT count(*) AS n FROM sqlite_sequence').first<{ n: number }>())!.n;
    expect(rows(res).written).toBeGreaterThanOrEqual(4);
    expect(rows(res).read).toBeGreaterThan(0);
    expect(rows(res).read - 4 * sequenceRows).toBeLessThanOrEqual(28);
  });

  it('deposit by QR: one batch (capture adds the second when the booking is paid); by code: one read more', async () => {
    const scanned = await aReservation({ status: 'CONFIRMED' });
    const qr = await get(`/v1/api/bookings/${scanned.reservation.id}/qrcode/deposit`, { token: scanned.sender.token });
    const scan = await post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: scanned.carrier.token });
    expect([scan.status, scan.body.status, roundTrips(scan)]).toEqual([200, 'DEPOSITED', 1]);

    // The batch: the sender's notice, one deliveries insert (the notice's messages and the
    // recipient's e-mail and SMS), the status change, the response's view.
    const counted = await aReservation({ status: 'CONFIRMED' });
    const qr2 = await get(`/v1/api/bookings/${counted.reservation.id}/qrcode/deposit`, { token: counted.sender.token });
    const outside = countedFromOutside();
    const scan2 = await fetchWith(outside, '/v1/api/qrcode/process/depot', counted.carrier.token, { payload: qr2.body.payload });
    expect([scan2.status, outside.seen.trips, outside.seen.statements]).toEqual([200, 1, 4]);

    const typed = await aReservation({ status: 'CONFIRMED' });
    const code = await post(`/v1/api/bookings/${typed.reservation.id}/deposit`, { depositCode: typed.reservation.depositCode }, { token: typed.carrier.token });
    expect([code.status, code.body.status, roundTrips(code)]).toEqual([200, 'DEPOSITED', 2]);
  });

  it('notification preferences PUT: one batch, the preferences read back inside it', async () => {
    const user = await aUser();
    const res = await put(
      '/v1/api/user/me/notification-preferences',
      { locale: 'en', channels: [{ kind: 'KYC_APPROVED', email: false, push: true, sms: true }] },
      { token: user.token },
    );
    expect([res.status, res.body.locale, roundTrips(res)]).toEqual([200, 'en', 1]);
    expect(res.body.channels).toContainEqual({ kind: 'KYC_APPROVED', email: false, push: true, sms: true });
  });

  it('tracking ingest while in transit: one read', async () => {
    const { carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const res = await post(
      `/v1/api/tracking/${reservation.id}/positions`,
      { lat: 14.7, lng: -17.4, recordedAt: secondsFromNow(-1) },
      { token: carrier.token },
    );
    expect([res.status, roundTrips(res)]).toEqual([201, 1]);
  });

  it('conversations: a message in two (the read batch, then the index write); pages and the listing in one', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED', set: { paidAt: new Date().toISOString() } });
    const message = await post(`/v1/api/bookings/${reservation.id}/messages`, { body: 'Bonjour' }, { token: sender.token });
    expect([message.status, roundTrips(message)]).toEqual([201, 2]);
    const reads: [string, ApiResponse][] = [
      ['messages', await get(`/v1/api/bookings/${reservation.id}/messages`, { token: carrier.token })],
      ['conversations', await get('/v1/api/conversations', { token: carrier.token })],
      ['unread count', await get('/v1/api/conversations/unread-count', { token: carrier.token })],
    ];
    expect(reads.map(([name, res]) => [name, res.status, roundTrips(res)])).toEqual(reads.map(([name]) => [name, 200, 1]));
  });
});

describe('a listing page carries its total (one statement)', () => {
  it('page and total in one statement; past the last page the total is counted alone', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const { sender } = await aReservation({ status: 'CONFIRMED', carrier, trip });
    await aReservation({ status: 'PAID', carrier, trip, sender });
    // One booked through the API: the carrier's notification.
    await bookThroughApi(sender, trip.id, (await aCategory()).id, 1);
    // One review each way: a customer review, and the carrier's profile review (with its rating).
    const { reservation: delivered } = await aReservation({ status: 'DELIVERED', carrier, trip, sender });
    expect((await post('/v1/api/reviews', { reservationId: delivered.id, rating: 4 }, { token: sender.token })).status).toBe(201);
    expect((await post('/v1/api/reviews', { reservationId: delivered.id, rating: 5 }, { token: carrier.token })).status).toBe(201);
    const pages = [
      ['as-carrier', '/v1/api/bookings/as-carrier?size=1', carrier.token, 4, 1],
      ['as-sender', '/v1/api/bookings/as-sender?size=1', sender.token, 4, 1],
      ['notifications', '/v1/api/notifications?size=1', carrier.token, undefined, 1],
      ['search', `/v1/api/annonces?departureCity=${encodeURIComponent(trip.departureCityKey ?? trip.departureCity)}&size=1`, sender.token, undefined, 1],
      ['customer reviews', '/v1/api/reviews/customers?size=1', sender.token, undefined, 1],
      ['profile reviews (with the user and rating)', `/v1/api/users/${carrier.id}/reviews?size=1`, sender.token, 1, 2],
      ['conversations', '/v1/api/conversations?size=1', sender.token, 4, 1],
    ] as const;
    // The generic page ({content, page: {totalElements}}) or the carrier listing's own shape ({data, total}).
    type AnyPage = { page?: { totalElements: number }; total?: number; content?: unknown[]; data?: unknown[] };
    const totalOf = (body: AnyPage) => body.page?.totalElements ?? body.total;
    const rowsOf = (body: AnyPage) => body.content ?? body.data;
    for (const [name, path, token, expectedTotal, statements] of pages) {
      const first = countedFromOutside();
      const res = await fetchWith(first, path, token);
      const body = (await res.json()) as AnyPage;
      expect([name, res.status, first.seen.trips, first.seen.statements]).toEqual([name, 200, 1, statements]);
      expect([name, rowsOf(body)?.length]).toEqual([name, 1]);
      if (expectedTotal !== undefined) expect([name, totalOf(body)]).toEqual([name, expectedTotal]);
      // Past the last page: no row carries the total, so it is counted alone (a second round trip), and still right.
      const past = countedFromOutside();
      const beyond = await fetchWith(past, `${path}&page=999`, token);
      const pastBody = (await beyond.json()) as AnyPage;
      expect([name, beyond.status, rowsOf(pastBody), totalOf(pastBody), past.seen.trips]).toEqual([name, 200, [], totalOf(body), 2]);
    }
  });
});

describe('D1 rows read and written per request (x-d1-rows-read, x-d1-rows-written)', () => {
  it('are the rows D1 reports in its results, summed over the request', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const counted = countedFromOutside();
    const res = await fetchWith(counted, `/v1/api/users/${carrier.id}/reviews`, sender.token);
    expect(res.status).toBe(200);
    // The profile's reviews are one batch of two: every result carries its meta, so the outside sum is complete.
    expect(counted.seen).toMatchObject({ trips: 1, statements: 2, withoutMeta: 0 });
    expect(counted.seen.rowsRead).toBeGreaterThan(0);
    expect(rows(res)).toEqual({ read: counted.seen.rowsRead, written: counted.seen.rowsWritten });
    // The detail is one statement run alone (raw(): the public API drops its meta), still counted.
    const alone = countedFromOutside();
    const detail = await fetchWith(alone, `/v1/api/bookings/${reservation.id}`, sender.token);
    expect(detail.status).toBe(200);
    expect(alone.seen).toMatchObject({ trips: 1, statements: 1, withoutMeta: 1 });
    expect(rows(detail).read).toBeGreaterThan(0);
  });

  it('a read by id reads a bounded number of rows and writes none', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED', carrier });
    for (const res of [
      await get(`/v1/api/bookings/${reservation.id}`, { token: sender.token }),
      await get(`/v1/api/annonces/${trip.id}`),
    ]) {
      expect(res.status).toBe(200);
      // A handful of primary-key and indexed lookups (the view's joins, the items), whatever the table sizes.
      expect(rows(res).read).toBeGreaterThan(0);
      expect(rows(res).read).toBeLessThanOrEqual(20);
      expect(rows(res).written).toBe(0);
    }
  });

  it('a trip search reads rows for the trips it matches, not for the others', async () => {
    const carrier = await aCarrier();
    const key = `rt${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`;
    const other = `${key}x`;
    const trip = (city: string) => aTrip(carrier, { departureCity: city, departureCityKey: city });
    const search = async () => {
      const res = await get(`/v1/api/annonces?departureCity=${key}&sort=departureDate,asc`);
      expect(res.status).toBe(200);
      expect(rows(res).written).toBe(0);
      return { read: rows(res).read, total: res.body.page.totalElements as number };
    };
    await trip(key);
    const one = await search();
    expect(one.total).toBe(1);
    expect(one.read).toBeGreaterThan(0);
    expect(one.read).toBeLessThanOrEqual(20);

    // Thirty trips from a city next to it in the index: the index keeps them out of what the search
    // reads, but for the entry after the range that ends each scan (page and count: two at most).
    for (let k = 0; k < 30; k++) await trip(other);
    const beside = await search();
    expect(beside.total).toBe(1);
    expect(beside.read).toBeGreaterThanOrEqual(one.read);
    expect(beside.read).toBeLessThanOrEqual(one.read + 2);

    // Ten more matching trips: each costs a bounded number of rows (page row, its joins, the count).
    for (let k = 0; k < 10; k++) await trip(key);
    const eleven = await search();
    expect(eleven.total).toBe(11);
    expect(eleven.read).toBeGreaterThanOrEqual(beside.read + 10);
    expect(eleven.read - beside.read).toBeLessThanOrEqual(10 * 6);
  });
});
