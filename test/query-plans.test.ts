// No hot request's cost grows with table size: every SQL statement the hot endpoints run (captured
// at the D1 binding) is planned with EXPLAIN QUERY PLAN, and none may scan a large table.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { PASSWORD, registerUser } from './helpers/auth';
import { BASE, get } from './helpers/http';
import { secondsFromNow, aUser, aCarrier, aCategory, aTrip, aReservation, bookingInput } from './helpers/factories';
import { countingEnv } from './helpers/db';

const LARGE_TABLES = [
  'users', 'announcements', 'reservations', 'reservation_items', 'notifications', 'reviews', 'sessions',
  'ledger_accounts', 'ledger_entries', 'ledger_lines', 'transactions', 'withdrawals', 'audit_log', 'reports', 'disputes',
];
// Any SCAN, even of an index: every hot statement seeks (SEARCH) by key today; an ordered index
// walk bounded by LIMIT would be acceptable, and would be listed here with its reason.
const FULL_SCAN = new RegExp(`^SCAN (${LARGE_TABLES.join('|')})\\b`);

async function statementsOf(requests: { method?: string; path: string; token?: string; body?: unknown }[]) {
  const counting = countingEnv();
  for (const r of requests) {
    const headers: Record<string, string> = {};
    if (r.token) headers.Authorization = `Bearer ${r.token}`;
    if (r.body !== undefined) headers['Content-Type'] = 'application/json';
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}${r.path}`, { method: r.method ?? 'GET', headers, body: r.body === undefined ? undefined : JSON.stringify(r.body) }),
      counting.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status, `${r.method ?? 'GET'} ${r.path}`).toBeLessThan(300);
  }
  return [...new Set(counting.statements)];
}

async function fullScans(statements: string[]) {
  const found: { sql: string; step: string }[] = [];
  for (const sql of statements) {
    if (!/^\s*(select|insert|update|delete|with)/i.test(sql)) continue;
    // Planned with every parameter NULL: D1 wants them all bound; the plan does not depend on them.
    const params = Array.from({ length: sql.match(/\?/g)?.length ?? 0 }, () => null);
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
    for (const { detail } of plan.results) if (FULL_SCAN.test(detail)) found.push({ sql: sql.slice(0, 160), step: detail });
  }
  return found;
}

describe('query plans of the hot endpoints', () => {
  it('no statement scans a large table', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const member = await registerUser();
    const category = await aCategory();
    const trip = await aTrip(carrier);
    const { reservation, carrier: owner, sender: booker } = await aReservation({ status: 'IN_TRANSIT' });
    const qr = await aReservation({ status: 'CONFIRMED' });
    const deposit = (await get(`/v1/api/bookings/${qr.reservation.id}/qrcode/deposit`, { token: qr.sender.token })).body.payload;

    const statements = await statementsOf([
      { method: 'POST', path: '/v1/api/auth/login', body: { email: member.email, password: PASSWORD } },
      { path: `/v1/api/annonces?departureCity=${encodeURIComponent(trip.departureCity)}&arrivalCity=${encodeURIComponent(trip.arrivalCity)}&sort=departureDate,asc` },
      { path: '/v1/api/annonces' },
      // The corridor search (CONTRACT section 30): both discs, one disc, a flexible date by city names.
      { path: `/v1/api/annonces?departureCity=Dakar&arrivalCity=Paris&radiusKm=150&date=${trip.departureDate}&dateFlexDays=3` },
      { path: '/v1/api/annonces?departureCity=Dakar&radiusKm=300' },
      { path: '/v1/api/annonces?arrivalCity=Paris&radiusKm=50' },
      { path: `/v1/api/annonces?departureCity=Paris&arrivalCity=Dakar&date=${trip.departureDate}&dateFlexDays=7` },
      { path: `/v1/api/annonces/${trip.id}` },
      { path: '/v1/api/bookings/as-carrier', token: owner.token },
      { path: '/v1/api/bookings/as-carrier?status=IN_TRANSIT', token: owner.token },
      { path: '/v1/api/bookings/as-sender', token: booker.token },
      { path: `/v1/api/bookings/${reservation.id}`, token: booker.token },
      { method: 'POST', path: '/v1/api/bookings', token: sender.token, body: bookingInput(trip.id, category.id, 1) },
      { method: 'POST', path: '/v1/api/qrcode/process/depot', token: qr.carrier.token, body: { payload: deposit } },
      { method: 'POST', path: `/v1/api/tracking/${reservation.id}/positions`, token: owner.token, body: { lat: 1, lng: 2, recordedAt: secondsFromNow(-1) } },
      { path: '/v1/api/notifications', token: sender.token },
      { path: '/v1/api/notifications?unreadOnly=true', token: sender.token },
      { path: '/v1/api/reviews/customers' },
      { path: `/v1/api/users/${carrier.id}/reviews` },
      { path: '/v1/api/user/me/wallet', token: carrier.token },
      { path: '/v1/api/user/me', token: carrier.token },
    ]);
    expect(statements.length).toBeGreaterThan(20);
    expect(await fullScans(statements)).toEqual([]);
  });

  it('the check itself finds a full scan', async () => {
    expect(await fullScans(['SELECT * FROM reservations WHERE content_info = ?'])).toEqual([
      { sql: 'SELECT * FROM reservations WHERE content_info = ?', step: 'SCAN reservations' },
    ]);
  });
});
