// Back office: dashboards, admin analytics (hand-computed fixture, EXPLAIN QUERY PLAN), super-admin
// audit logs, caches and supervision, and every /admin and /superadmin route refused to non-admins.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import {
  agencyEmployees,
  auditLogs,
  ledgerAccounts,
  ledgerEntries,
  ledgerLines,
  transactions,
  userRatings,
} from '../src/db/schema';
import { analyticsQueries } from '../src/features/analytics/analytics.service';
import { period } from '../src/features/analytics/analytics.rules';
import { call, del, errorBody, get, post, put } from './helpers/http';
import { anAgency, aBranch, daysFromToday, aUser, aCarrier, anAdmin, aSuperAdmin, aTrip, aReservation } from './helpers/factories';

const db = () => database(env.DB);
/** The EUR account named `name`: every account is per currency, its key ends with it (migration 0028). */
async function account(name: string, kind: 'ESCROW' | 'PLATFORM_REVENUE' | 'PROVIDER_CLEARING' | 'WALLET', balanceCents = 0) {
  const key = `${name}:EUR`;
  await db().insert(ledgerAccounts).values({ key, kind, currency: 'EUR', balanceCents }).onConflictDoNothing();
  const [row] = await db().select().from(ledgerAccounts).where(eq(ledgerAccounts.key, key));
  return row.id;
}

/** A balanced ledger entry posted at `createdAt`, lines given as [accountId, cents]. */
async function postEntry(createdAt: string, type: 'PAYMENT_ESCROWED' | 'ESCROW_RELEASED' | 'ESCROW_REFUNDED', lines: [number, number][]) {
  expect(lines.reduce((s, [, c]) => s + c, 0)).toBe(0);
  const [entry] = await db()
    .insert(ledgerEntries)
    .values({ key: crypto.randomUUID(), token: crypto.randomUUID(), type, description: 'fixture', createdAt })
    .returning();
  await db()
    .insert(ledgerLines)
    .values(lines.map(([accountId, amountCents]) => ({ entryId: entry.id, accountId, amountCents })));
  return entry;
}

describe('admin analytics', () => {
  it('equal a hand-computed fixture in a fresh period (March 2001)', async () => {
    const admin = await anAdmin();
    // Users: 3 registered in March (one verified), 1 verified in February, 1 in April.
    for (const [createdAt, kycStatus] of [
      ['2001-02-10T09:00:00.000Z', 'VERIFIED'],
      ['2001-03-05T09:00:00.000Z', 'NOT_VERIFIED'],
      ['2001-03-12T09:00:00.000Z', 'VERIFIED'],
      ['2001-03-31T23:59:59.000Z', 'PENDING'],
      ['2001-04-01T00:00:00.000Z', 'VERIFIED'],
    ] as const) {
      await aUser({ createdAt, kycStatus });
    }
    const carrier = await aCarrier();
    const sender = await aUser();
    const march = await aTrip(carrier, { createdAt: '2001-03-01T00:00:00.000Z' });
    await aTrip(carrier, { createdAt: '2001-03-20T10:00:00.000Z' });
    await aTrip(carrier, { createdAt: '2001-02-28T23:59:59.999Z' });
    // Reservations: weeks of 2001-02-26 (1), 2001-03-05 (2), 2001-03-19 (1); one in April.
    await aReservation({ trip: march, sender, status: 'DELIVERED', set: { createdAt: '2001-03-02T10:00:00.000Z' } });
    await aReservation({ trip: march, sender, status: 'DELIVERED', set: { createdAt: '2001-03-06T10:00:00.000Z' } });
    await aReservation({ trip: march, sender, status: 'CANCELLED', set: { createdAt: '2001-03-06T11:00:00.000Z' } });
    await aReservation({ trip: march, sender, status: 'PAID', set: { createdAt: '2001-03-21T10:00:00.000Z' } });
    await aReservation({ trip: march, sender, status: 'DELIVERED', set: { createdAt: '2001-04-02T10:00:00.000Z' } });
    // Ledger: payments of 20.00, 30.00, 15.00 in March; 20.00 released (17.00 + 3.00 commission);
    // 15.00 refunded minus its 2.25 commission; in April a payment of 40.00 released with 6.00 commission.
    const clearing = await account('PROVIDER_CLEARING', 'PROVIDER_CLEARING');
    const escrow = await account('ESCROW', 'ESCROW');
    const revenue = await account('PLATFORM_REVENUE', 'PLATFORM_REVENUE');
    const wallet = await account(`WALLET:USER:${carrier.id}`, 'WALLET');
    await postEntry('2001-03-02T10:05:00.000Z', 'PAYMENT_ESCROWED', [[clearing, -2000], [escrow, 2000]]);
    await postEntry('2001-03-06T10:05:00.000Z', 'PAYMENT_ESCROWED', [[clearing, -3000], [escrow, 3000]]);
    await postEntry('2001-03-06T11:05:00.000Z', 'PAYMENT_ESCROWED', [[clearing, -1500], [escrow, 1500]]);
    await postEntry('2001-03-10T10:00:00.000Z', 'ESCROW_RELEASED', [[escrow, -2000], [wallet, 1700], [revenue, 300]]);
    const refund = await postEntry('2001-03-15T10:00:00.000Z', 'ESCROW_REFUNDED', [[escrow, -1500], [clearing, 1275], [revenue, 225]]);
    await db().insert(transactions).values({ ownerType: 'USER', ownerId: sender.id, type: 'REFUND', amountCents: 1275, currency: 'EUR', ledgerEntryId: refund.id, description: 'refund' });
    // A hold released before capture (a rejection's void) is money never charged: not a refund.
    await postEntry('2001-03-16T10:00:00.000Z', 'PAYMENT_ESCROWED', [[clearing, -800], [escrow, 800]]);
    const voided = await postEntry('2001-03-17T10:00:00.000Z', 'ESCROW_REFUNDED', [[escrow, -800], [clearing, 800]]);
    await db().insert(transactions).values({ ownerType: 'USER', ownerId: sender.id, type: 'HOLD_RELEASE', amountCents: 800, currency: 'EUR', ledgerEntryId: voided.id, description: 'released' });
    await postEntry('2001-04-03T10:00:00.000Z', 'PAYMENT_ESCROWED', [[clearing, -4000], [escrow, 4000]]);
    await postEntry('2001-04-05T10:00:00.000Z', 'ESCROW_RELEASED', [[escrow, -4000], [wallet, 3400], [revenue, 600]]);

    const res = await get('/v1/api/admin/analytics/overview?from=2001-03-01&to=2001-03-31', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2001-03-01',
      to: '2001-03-31',
      currency: 'EUR',
      users: { total: 4, new: 3, verified: 2 },
      announcements: 2,
      reservations: {
        total: 4,
        byStatus: {
          PENDING_PAYMENT: 0,
          PAID: 1,
          CONFIRMED: 0,
          REJECTED: 0,
          DEPOSITED: 0,
          IN_TRANSIT: 0,
          DELIVERED: 2,
          CANCELLED: 1,
          EXPIRED: 0,
          DISPUTED: 0,
          REFUNDED: 0,
        },
      },
      grossVolume: 73,
      platformRevenue: 5.25,
      refunds: { count: 1, amount: 12.75 },
      openDisputes: 0,
      byCurrency: [{ currency: 'EUR', grossVolume: 73, platformRevenue: 5.25, refunds: { count: 1, amount: 12.75 } }],
    });

    const weekly = await get('/v1/api/admin/analytics/timeseries?metric=reservations&from=2001-03-01&to=2001-03-31&interval=week', {
      token: admin.token,
    });
    expect(weekly.status).toBe(200);
    expect(weekly.body).toEqual({
      metric: 'reservations',
      interval: 'week',
      from: '2001-03-01',
      to: '2001-03-31',
      currency: null,
      points: [
        { periodStart: '2001-02-26', value: 1 },
        { periodStart: '2001-03-05', value: 2 },
        { periodStart: '2001-03-12', value: 0 },
        { periodStart: '2001-03-19', value: 1 },
        { periodStart: '2001-03-26', value: 0 },
      ],
    });

    const monthly = await get('/v1/api/admin/analytics/timeseries?metric=platformRevenue&from=2001-02-01&to=2001-04-30&interval=month', {
      token: admin.token,
    });
    expect(monthly.body.points).toEqual([
      { periodStart: '2001-02-01', value: 0 },
      { periodStart: '2001-03-01', value: 5.25 },
      { periodStart: '2001-04-01', value: 6 },
    ]);

    const daily = await get('/v1/api/admin/analytics/timeseries?metric=grossVolume&from=2001-03-01&to=2001-03-03', { token: admin.token });
    expect(daily.body.points).toEqual([
      { periodStart: '2001-03-01', value: 0 },
      { periodStart: '2001-03-02', value: 20 },
      { periodStart: '2001-03-03', value: 0 },
    ]);

    const usersSeries = await get('/v1/api/admin/analytics/timeseries?metric=users&from=2001-03-01&to=2001-04-30&interval=month', {
      token: admin.token,
    });
    expect(usersSeries.body.points).toEqual([
      { periodStart: '2001-03-01', value: 3 },
      { periodStart: '2001-04-01', value: 1 },
    ]);
    const refundsSeries = await get('/v1/api/admin/analytics/timeseries?metric=refunds&from=2001-03-01&to=2001-03-31&interval=month', {
      token: admin.token,
    });
    expect(refundsSeries.body.points).toEqual([{ periodStart: '2001-03-01', value: 12.75 }]);
  });

  it('refuses from after to, too long a range and an unknown metric with 400', async () => {
    const admin = await anAdmin();
    const reversed = await get('/v1/api/admin/analytics/overview?from=2001-03-02&to=2001-03-01', { token: admin.token });
    expect(reversed.status).toBe(400);
    expect(errorBody(reversed)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'from' }] });

    // The range rule is listed with the other failing parameters, in one round.
    const reversedNoMetric = await get('/v1/api/admin/analytics/timeseries?from=2001-03-02&to=2001-03-01', { token: admin.token });
    expect(reversedNoMetric.status).toBe(400);
    expect(errorBody(reversedNoMetric)).toMatchObject({
      errorCode: 'MISSING_PARAMETER',
      message: 'Missing required query: metric, from',
      fieldErrors: [
        { field: 'metric', rejectedValue: null },
        { field: 'from', message: 'from must be on or before to', rejectedValue: '2001-03-02' },
      ],
    });

    const long = await get('/v1/api/admin/analytics/timeseries?metric=users&from=2000-01-01&to=2001-12-31&interval=day', { token: admin.token });
    expect(long.status).toBe(400);
    expect(errorBody(long)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'to' }] });
    // The same range by month is fine.
    const monthly = await get('/v1/api/admin/analytics/timeseries?metric=users&from=2000-01-01&to=2001-12-31&interval=month', { token: admin.token });
    expect(monthly.status).toBe(200);
    expect(monthly.body.points).toHaveLength(24);

    const unknown = await get('/v1/api/admin/analytics/timeseries?metric=happiness', { token: admin.token });
    expect(unknown.status).toBe(400);
    expect(errorBody(unknown)).toMatchObject({ errorCode: 'INVALID_ARGUMENT', fieldErrors: [{ field: 'metric', rejectedValue: 'happiness' }] });

    const missing = await get('/v1/api/admin/analytics/timeseries', { token: admin.token });
    expect(missing.status).toBe(400);
    expect(errorBody(missing).errorCode).toBe('MISSING_PARAMETER');

    const badInterval = await get('/v1/api/admin/analytics/timeseries?metric=users&interval=year', { token: admin.token });
    expect(badInterval.status).toBe(400);
    const badDate = await get('/v1/api/admin/analytics/overview?from=2001-13-01', { token: admin.token });
    expect(badDate.status).toBe(400);
    expect(errorBody(badDate)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'from', rejectedValue: '2001-13-01' }] });
    // Found by the fuzzer: Date.parse accepts '-1' (a year), the date format does not.
    for (const path of ['/v1/api/admin/analytics/overview?from=-1', '/v1/api/admin/analytics/timeseries?metric=users&to=-1']) {
      const odd = await get(path, { token: admin.token });
      expect(odd.status, path).toBe(400);
      expect(errorBody(odd).errorCode, path).toBe('VALIDATION_ERROR');
    }
    const superToken = (await aSuperAdmin()).token;
    const badInstant = await get('/v1/api/superadmin/audit-logs?from=yesterday&to=2001-01-01', { token: superToken });
    expect(badInstant.status).toBe(400);
    const reversedAndActor = await get('/v1/api/superadmin/audit-logs?from=2001-01-02&to=2001-01-01T00:00:00Z&actorId=abc', { token: superToken });
    expect(errorBody(reversedAndActor)).toMatchObject({
      status: 400,
      errorCode: 'TYPE_MISMATCH',
      message: 'Wrong type for query: actorId, from',
      fieldErrors: [
        { field: 'actorId', rejectedValue: 'abc' },
        { field: 'from', message: 'from must be on or before to', rejectedValue: '2001-01-02' },
      ],
    });
    // Integer filters are decimal integers, as everywhere: hex and empty values are TYPE_MISMATCH.
    for (const actorId of ['0x10', '']) {
      const odd = await get(`/v1/api/superadmin/audit-logs?actorId=${actorId}`, { token: superToken });
      expect(errorBody(odd), actorId).toMatchObject({ status: 400, errorCode: 'TYPE_MISMATCH' });
    }
  });

  it('defaults to the last 30 days', async () => {
    const admin = await anAdmin();
    const res = await get('/v1/api/admin/analytics/timeseries?metric=users', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.to).toBe(daysFromToday(0));
    expect(res.body.from).toBe(daysFromToday(-29));
    expect(res.body.points).toHaveLength(30);
    // Users created by this file's tests today are counted in today's bucket.
    expect(res.body.points[29].value).toBeGreaterThan(0);
  });

  it('reads only through indexes: no full scan of a large table (EXPLAIN QUERY PLAN)', async () => {
    const queries = analyticsQueries(db(), period('2001-03-01', '2001-03-31'));
    const large = /^SCAN (users|announcements|reservations|ledger_entries|ledger_lines|transactions)\b/;
    for (const [name, query] of Object.entries(queries)) {
      const { sql, params } = query.toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail);
      expect(details.filter((d) => large.test(d)), JSON.stringify({ name, details })).toEqual([]);
      expect(details.some((d) => d.startsWith('SEARCH')), JSON.stringify({ name, details })).toBe(true);
    }
  });
});

describe('dashboards', () => {
  it('a carrier sees trips, reservations, earnings and rating', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const soon = await aTrip(carrier, { departureDate: daysFromToday(3), arrivalDate: daysFromToday(4), reservedWeightG: 2_000 });
    const later = await aTrip(carrier, { departureDate: daysFromToday(9), arrivalDate: daysFromToday(10), status: 'FULL' });
    await aTrip(carrier, { departureDate: daysFromToday(-5), arrivalDate: daysFromToday(-4), status: 'CLOSED' });
    const { reservation: delivered } = await aReservation({ trip: soon, sender, status: 'DELIVERED' }); // 2 kg x 10.00 = 20.00, carrier 17.00
    await aReservation({ trip: soon, sender, status: 'CONFIRMED' }); // 17.00 waiting in escrow
    await aReservation({ trip: later, sender, status: 'CANCELLED' });
    const wallet = await account(`WALLET:USER:${carrier.id}`, 'WALLET', 1_700);
    const entry = await postEntry(new Date().toISOString(), 'ESCROW_RELEASED', [
      [await account('ESCROW', 'ESCROW'), -2_000],
      [wallet, 1_700],
      [await account('PLATFORM_REVENUE', 'PLATFORM_REVENUE'), 300],
    ]);
    await db().insert(transactions).values([
      { ownerType: 'USER', ownerId: carrier.id, type: 'EARNING', amountCents: 1_700, currency: 'EUR', ledgerEntryId: entry.id, reservationId: delivered.id, description: 'e' },
      { ownerType: 'USER', ownerId: carrier.id, type: 'EARNING', amountCents: 500, currency: 'EUR', ledgerEntryId: entry.id, description: 'old', createdAt: '2020-01-01T00:00:00.000Z' },
    ]);
    await db().insert(userRatings).values({ userId: carrier.id, reviewCount: 3, ratingSum: 13 });

    const res = await get('/v1/api/dashboard/carrier', { token: carrier.token });
    expect(res.status).toBe(200);
    expect(res.body.announcements).toEqual({ total: 3, byStatus: { ACTIVE: 1, FULL: 1, CLOSED: 1, CANCELLED: 0 } });
    expect(res.body.reservations.total).toBe(3);
    expect(res.body.reservations.byStatus).toMatchObject({ DELIVERED: 1, CONFIRMED: 1, CANCELLED: 1, PAID: 0 });
    expect(res.body.upcomingTrips.map((t: { id: number }) => t.id)).toEqual([soon.id, later.id]);
    expect(res.body.upcomingTrips[0]).toMatchObject({ totalWeight: 20, reservedWeight: 2, availableWeight: 18, status: 'ACTIVE', departureCity: 'Paris' });
    expect(res.body.earnings).toEqual({ currency: 'EUR', totalEarned: 22, earnedThisMonth: 17, pendingInEscrow: 17, walletBalance: 17 });
    expect(res.body.earningsByCurrency).toEqual([res.body.earnings]);
    expect(res.body.rating).toEqual({ average: 4.33, count: 3 });
  });

  it('a sender sees reservations, upcoming shipments and spending', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await aTrip(carrier, { departureDate: daysFromToday(5), arrivalDate: daysFromToday(6) });
    const { reservation: active } = await aReservation({ trip, sender, status: 'CONFIRMED', set: { reservedWeightG: 3_000 } });
    await aReservation({ trip, sender, status: 'DELIVERED' });
    const entry = await postEntry(new Date().toISOString(), 'PAYMENT_ESCROWED', [
      [await account('PROVIDER_CLEARING', 'PROVIDER_CLEARING'), -3_000],
      [await account('ESCROW', 'ESCROW'), 3_000],
    ]);
    await db().insert(transactions).values([
      { ownerType: 'USER', ownerId: sender.id, type: 'PAYMENT', amountCents: -3_000, currency: 'EUR', ledgerEntryId: entry.id, description: 'p' },
      { ownerType: 'USER', ownerId: sender.id, type: 'PAYMENT', amountCents: -2_000, currency: 'EUR', ledgerEntryId: entry.id, description: 'p2' },
      { ownerType: 'USER', ownerId: sender.id, type: 'REFUND', amountCents: 500, currency: 'EUR', ledgerEntryId: entry.id, description: 'r' },
      { ownerType: 'USER', ownerId: sender.id, type: 'HOLD_RELEASE', amountCents: 1_000, currency: 'EUR', ledgerEntryId: entry.id, description: 'h' },
    ]);

    const res = await get('/v1/api/dashboard/sender', { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body.reservations.total).toBe(2);
    expect(res.body.upcomingShipments).toEqual([
      {
        reservationId: active.id,
        reservationNumber: active.reservationNumber,
        status: 'CONFIRMED',
        announcementId: trip.id,
        departureCity: 'Paris',
        arrivalCity: 'Dakar',
        departureDate: trip.departureDate,
        arrivalDate: trip.arrivalDate,
        reservedWeight: 3,
        totalAmount: 30,
        currency: 'EUR',
      },
    ]);
    expect(res.body.spending).toEqual({ currency: 'EUR', totalSpent: 50, totalRefunded: 5, totalReleased: 10, netSpent: 35, netSpentThisMonth: 35 });
    expect(res.body.spendingByCurrency).toEqual([res.body.spending]);
    expect(res.body.rating).toEqual({ average: null, count: 0 });

    const anonymous = await get('/v1/api/dashboard/sender');
    expect(anonymous.status).toBe(401);
  });

  it("an agency's dashboard is for its owner, its employees and admins", async () => {
    const owner = await aCarrier();
    const employee = await aCarrier();
    const stranger = await aCarrier();
    const admin = await anAdmin();
    const agency = await anAgency(owner, { name: 'Dash Agency' });
    const branch = await aBranch(agency, { name: 'Main' });
    await aBranch(agency, { name: 'Closed', active: false });
    await db().insert(agencyEmployees).values({ userId: employee.id, agencyId: agency.id, branchId: branch.id });
    const trip = await aTrip(employee, { agencyId: agency.id, branchId: branch.id, departureDate: daysFromToday(2), arrivalDate: daysFromToday(3) });
    const sender = await aUser();
    await aReservation({ trip, sender, status: 'PAID', set: { agencyId: agency.id } });
    await aReservation({ trip, sender, status: 'CANCELLED', set: { agencyId: agency.id } });

    for (const who of [owner, employee, admin]) {
      const res = await get(`/v1/api/agencies/${agency.id}/dashboard`, { token: who.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        agencyId: agency.id,
        agencyStatus: 'ACTIVE',
        announcements: { total: 1, byStatus: { ACTIVE: 1 } },
        reservations: { total: 2, byStatus: { PAID: 1, CANCELLED: 1 } },
        earnings: { currency: 'EUR', totalEarned: 0, earnedThisMonth: 0, pendingInEscrow: 17, walletBalance: 0 },
        staff: { branches: 2, activeBranches: 1, employees: 1 },
        rating: { average: null, count: 0 },
      });
      expect(res.body.upcomingTrips.map((t: { id: number }) => t.id)).toEqual([trip.id]);
    }
    const refused = await get(`/v1/api/agencies/${agency.id}/dashboard`, { token: stranger.token });
    expect(refused.status).toBe(403);
    expect(errorBody(refused).errorCode).toBe('ACCESS_DENIED');
    const missing = await get('/v1/api/agencies/999999/dashboard', { token: stranger.token });
    expect(missing.status).toBe(404);
    expect(errorBody(missing).errorCode).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('super-admin administration', () => {
  it('browses the audit log with filters', async () => {
    const root = await aSuperAdmin();
    const actor = await aUser();
    const tag = crypto.randomUUID().slice(0, 8);
    await db()
      .insert(auditLogs)
      .values([
        { actorId: actor.id, action: `TEST_A_${tag}`, targetType: 'USER', targetId: `u-${tag}`, createdAt: '2002-01-01T10:00:00.000Z' },
        { actorId: actor.id, action: `TEST_B_${tag}`, targetType: 'AGENCY', targetId: `a-${tag}`, createdAt: '2002-01-02T10:00:00.000Z' },
        { actorId: null, action: `TEST_A_${tag}`, targetType: 'USER', targetId: `u-${tag}`, createdAt: '2002-01-03T10:00:00.000Z', details: { why: 'x' } },
      ]);
    const byActor = await get(`/v1/api/superadmin/audit-logs?actorId=${actor.id}`, { token: root.token });
    expect(byActor.status).toBe(200);
    expect(byActor.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    expect(byActor.body.content.map((e: { action: string }) => e.action)).toEqual([`TEST_B_${tag}`, `TEST_A_${tag}`]);

    const byAction = await get(`/v1/api/superadmin/audit-logs?action=TEST_A_${tag}&sort=createdAt,asc`, { token: root.token });
    expect(byAction.body.content).toEqual([
      { id: expect.any(Number), actorId: actor.id, action: `TEST_A_${tag}`, targetType: 'USER', targetId: `u-${tag}`, ip: null, details: null, createdAt: '2002-01-01T10:00:00.000Z' },
      { id: expect.any(Number), actorId: null, action: `TEST_A_${tag}`, targetType: 'USER', targetId: `u-${tag}`, ip: null, details: { why: 'x' }, createdAt: '2002-01-03T10:00:00.000Z' },
    ]);

    const byTarget = await get(`/v1/api/superadmin/audit-logs?targetType=AGENCY&targetId=a-${tag}`, { token: root.token });
    expect(byTarget.body.page.totalElements).toBe(1);
    const byDay = await get(`/v1/api/superadmin/audit-logs?action=TEST_A_${tag}&from=2002-01-01&to=2002-01-02`, { token: root.token });
    expect(byDay.body.content.map((e: { createdAt: string }) => e.createdAt)).toEqual(['2002-01-01T10:00:00.000Z']);
    const byInstant = await get(`/v1/api/superadmin/audit-logs?action=TEST_A_${tag}&from=2002-01-01T10:00:00.001Z`, { token: root.token });
    expect(byInstant.body.page.totalElements).toBe(1);

    const reversed = await get('/v1/api/superadmin/audit-logs?from=2002-01-03&to=2002-01-01', { token: root.token });
    expect(reversed.status).toBe(400);
    expect(errorBody(reversed).errorCode).toBe('VALIDATION_ERROR');
    const badSort = await get('/v1/api/superadmin/audit-logs?sort=ip,asc', { token: root.token });
    expect(errorBody(badSort).errorCode).toBe('INVALID_ARGUMENT');
  });

  it('shows reference-data cache statistics and purges a cache (audited)', async () => {
    const root = await aSuperAdmin();
    const stats = async () => {
      const res = await get('/v1/api/superadmin/cache/stats', { token: root.token });
      expect(res.status).toBe(200);
      expect(res.body.scope).toBe('ISOLATE');
      return res.body.caches.find((c: { name: string }) => c.name === 'reference.cities');
    };
    const before = (await stats()) ?? { hits: 0, misses: 0, size: 0 };
    expect((await get('/v1/api/reference/countries/SN/cities')).status).toBe(200);
    expect((await get('/v1/api/reference/countries/SN/cities')).status).toBe(200);
    const after = await stats();
    expect(after.hits).toBeGreaterThanOrEqual(before.hits + 1);
    expect(after.misses + after.hits).toBe(before.misses + before.hits + 2);
    expect(after.size).toBeGreaterThanOrEqual(1);

    const purge = await del('/v1/api/superadmin/cache/reference.cities', { token: root.token });
    expect(purge.status).toBe(200);
    expect(purge.body).toEqual({ name: 'reference.cities', purgedEntries: after.size });
    expect(await stats()).toEqual({ name: 'reference.cities', hits: 0, misses: 0, size: 0 });
    const logged = await get(`/v1/api/superadmin/audit-logs?action=CACHE_PURGED&actorId=${root.id}`, { token: root.token });
    expect(logged.body.content[0]).toMatchObject({ targetType: 'CACHE', targetId: 'reference.cities', details: { purgedEntries: after.size } });

    const unknown = await del('/v1/api/superadmin/cache/nope', { token: root.token });
    expect(unknown.status).toBe(404);
    expect(errorBody(unknown).errorCode).toBe('RESOURCE_NOT_FOUND');
  });

  it('supervision checks every binding and reports configuration without secrets', async () => {
    const root = await aSuperAdmin();
    const res = await get('/v1/api/superadmin/supervision', { token: root.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('UP');
    expect(res.body.checks.map((c: { name: string; status: string }) => [c.name, c.status])).toEqual([
      ['D1', 'UP'],
      ['KV', 'UP'],
      ['R2', 'UP'],
      ['RESERVATION_QR', 'UP'],
      ['RESERVATION_TRACKING', 'UP'],
    ]);
    expect(res.body.providers).toEqual({
      // The test runner's key is sk_test_: Stripe's test mode, reported TEST (CONTRACT section 27).
      payment: { mode: 'TEST', secretKeyConfigured: true, webhookSecretConfigured: true },
      kyc: { mode: 'SANDBOX', sandboxEnabled: true, apiKeyConfigured: false, webhookSecretConfigured: true },
      socialLogin: { googleClientIds: 1, appleClientIds: 1 },
      jwt: { keyCount: 2 },
    });
    const text = JSON.stringify(res.body);
    for (const secret of ['sk_test_fake', 'whsec_test_secret', 'test-kyc-secret', 'test-qr-secret', 'test-secret-current', 'test-secret-previous']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('every /admin and /superadmin route (from the OpenAPI document)', () => {
  it('refuses a plain user (403), an anonymous caller (401), and an admin on /superadmin (403)', async () => {
    const doc = await get('/v1/api/openapi.json');
    expect(doc.status).toBe(200);
    const routes: [string, string][] = [];
    for (const [path, item] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
      if (!path.startsWith('/v1/api/admin/') && !path.startsWith('/v1/api/superadmin/')) continue;
      for (const method of Object.keys(item)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) routes.push([method.toUpperCase(), path]);
      }
    }
    // The ones this feature adds are in the document, among the others.
    for (const p of ['/v1/api/admin/analytics/overview', '/v1/api/superadmin/audit-logs', '/v1/api/superadmin/cache/{name}', '/v1/api/superadmin/supervision']) {
      expect(routes.some(([, path]) => path === p)).toBe(true);
    }
    expect(routes.length).toBeGreaterThan(10);

    const user = await aCarrier();
    const admin = await anAdmin();
    const failures: string[] = [];
    for (const [method, template] of routes) {
      const path = template.replace(/\{[^}]+\}/g, '1');
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const expectations: [string | undefined, number, string][] = [
        [undefined, 401, 'UNAUTHORIZED'],
        [user.token, 403, 'ACCESS_DENIED'],
      ];
      if (template.startsWith('/v1/api/superadmin/')) expectations.push([admin.token, 403, 'ACCESS_DENIED']);
      for (const [token, status, code] of expectations) {
        const res = await call(method, path, { token, body });
        if (res.status !== status || res.body?.errorCode !== code) {
          failures.push(`${method} ${template} as ${token === undefined ? 'anonymous' : token === user.token ? 'user' : 'admin'}: ${res.status} ${res.body?.errorCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('audit log of admin and agency actions', () => {
  /** The newest entry of `action` on the target, read back through the super-admin API. */
  async function entry(root: { token: string }, action: string, targetType: string, targetId: number) {
    const res = await get(`/v1/api/superadmin/audit-logs?action=${action}&targetType=${targetType}&targetId=${targetId}`, { token: root.token });
    expect(res.status).toBe(200);
    expect(res.body.content).toHaveLength(1);
    return res.body.content[0];
  }

  it('category create, update and delete each write an entry with the operator and the client IP', async () => {
    const root = await aSuperAdmin();
    const admin = await anAdmin();
    const ip = { 'CF-Connecting-IP': '203.0.113.7' };
    const code = `AUDIT_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const created = await post('/v1/api/admin/categories', { code, name: 'Audited' }, { token: admin.token, headers: ip });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(await entry(root, 'CATEGORY_CREATED', 'CATEGORY', id)).toMatchObject({ actorId: admin.id, targetId: String(id), ip: '203.0.113.7' });

    const updated = await put(`/v1/api/admin/categories/${id}`, { name: 'Audited again' }, { token: admin.token, headers: ip });
    expect(updated.status).toBe(200);
    expect(await entry(root, 'CATEGORY_UPDATED', 'CATEGORY', id)).toMatchObject({ actorId: admin.id, targetId: String(id), ip: '203.0.113.7' });

    // A refused change leaves no entry.
    const missing = await put('/v1/api/admin/categories/999999', { name: 'Nobody' }, { token: admin.token, headers: ip });
    expect(missing.status).toBe(404);
    const none = await get('/v1/api/superadmin/audit-logs?action=CATEGORY_UPDATED&targetId=999999', { token: root.token });
    expect(none.body.content).toEqual([]);

    const deleted = await del(`/v1/api/admin/categories/${id}`, { token: admin.token, headers: ip });
    expect(deleted.status).toBe(204);
    expect(await entry(root, 'CATEGORY_DELETED', 'CATEGORY', id)).toMatchObject({ actorId: admin.id, targetId: String(id), ip: '203.0.113.7' });
    expect((await del(`/v1/api/admin/categories/${id}`, { token: admin.token, headers: ip })).status).toBe(404);
    expect((await get(`/v1/api/superadmin/audit-logs?action=CATEGORY_DELETED&targetId=${id}`, { token: root.token })).body.content).toHaveLength(1);
  });

  it('KYC approval and rejection carry the super-admin and the client IP', async () => {
    const root = await aSuperAdmin();
    const ip = { 'CF-Connecting-IP': '198.51.100.20' };
    const user = await aUser();
    const session = await post('/v1/api/kyc/sessions', undefined, { token: user.token });
    expect(session.status).toBe(201);
    const id = session.body.id as number;
    expect((await post(`/v1/api/superadmin/kyc/${id}/approve`, undefined, { token: root.token, headers: ip })).status).toBe(200);
    expect(await entry(root, 'KYC_APPROVED_BY_ADMIN', 'KYC_RECORD', id)).toMatchObject({ actorId: root.id, targetId: String(id), ip: '198.51.100.20' });
    expect((await post(`/v1/api/superadmin/kyc/${id}/reject`, { reason: 'Blurred' }, { token: root.token, headers: ip })).status).toBe(200);
    expect(await entry(root, 'KYC_REJECTED_BY_ADMIN', 'KYC_RECORD', id)).toMatchObject({ actorId: root.id, targetId: String(id), ip: '198.51.100.20' });
  });

  it('agency suspension, activation, branch and employee changes carry the actor and the client IP', async () => {
    const root = await aSuperAdmin();
    const owner = await aUser();
    const ownerIp = { 'CF-Connecting-IP': '192.0.2.44' };
    const created = await post('/v1/api/agencies', { name: 'Audit Express', city: 'Dakar', country: 'SN' }, { token: owner.token, headers: ownerIp });
    expect(created.status).toBe(201);
    const agencyId = created.body.id as number;
    expect(await entry(root, 'AGENCY_REGISTERED', 'AGENCY', agencyId)).toMatchObject({ actorId: owner.id, ip: '192.0.2.44' });
    const branch = async (name: string) => {
      const res = await post(`/v1/api/agencies/${agencyId}/branches`, { name, city: name, country: 'FR' }, { token: owner.token, headers: ownerIp });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const [paris, lyon, spare] = [await branch('Paris'), await branch('Lyon'), await branch('Nice')];

    const employee = await aUser();
    const invited = await post(`/v1/api/agencies/${agencyId}/employees`, { email: employee.email, branchId: paris }, { token: owner.token, headers: ownerIp });
    expect(invited.status).toBe(201);
    expect(await entry(root, 'AGENCY_EMPLOYEE_INVITED', 'USER', employee.id)).toMatchObject({ actorId: owner.id, ip: '192.0.2.44', details: { agencyId, branchId: paris } });
    const employeeIp = { 'CF-Connecting-IP': '192.0.2.45' };
    expect((await post(`/v1/api/agency-invitations/${invited.body.invitationId}/accept`, undefined, { token: employee.token, headers: employeeIp })).status).toBe(200);
    expect(await entry(root, 'AGENCY_EMPLOYEE_ADDED', 'USER', employee.id)).toMatchObject({
      actorId: employee.id,
      ip: '192.0.2.45',
      details: { agencyId, branchId: paris, invitationId: invited.body.invitationId },
    });
    expect((await put(`/v1/api/agencies/${agencyId}/employees/${employee.id}`, { branchId: lyon }, { token: owner.token, headers: ownerIp })).status).toBe(200);
    expect(await entry(root, 'AGENCY_EMPLOYEE_MOVED', 'USER', employee.id)).toMatchObject({ actorId: owner.id, ip: '192.0.2.44', details: { agencyId, branchId: lyon } });
    expect((await del(`/v1/api/agencies/${agencyId}/employees/${employee.id}`, { token: owner.token, headers: ownerIp })).status).toBe(204);
    expect(await entry(root, 'AGENCY_EMPLOYEE_REMOVED', 'USER', employee.id)).toMatchObject({ actorId: owner.id, ip: '192.0.2.44', details: { agencyId } });

    expect((await post(`/v1/api/agencies/${agencyId}/branches/${spare}/deactivate`, undefined, { token: owner.token, headers: ownerIp })).status).toBe(200);
    expect(await entry(root, 'AGENCY_BRANCH_DEACTIVATED', 'AGENCY_BRANCH', spare)).toMatchObject({ actorId: owner.id, ip: '192.0.2.44' });
    // Deactivating again is refused (409) and writes nothing.
    expect((await post(`/v1/api/agencies/${agencyId}/branches/${spare}/deactivate`, undefined, { token: owner.token, headers: ownerIp })).status).toBe(409);
    expect(await entry(root, 'AGENCY_BRANCH_DEACTIVATED', 'AGENCY_BRANCH', spare)).toMatchObject({ actorId: owner.id });
    expect((await post(`/v1/api/agencies/${agencyId}/branches/${spare}/activate`, undefined, { token: owner.token, headers: ownerIp })).status).toBe(200);
    expect(await entry(root, 'AGENCY_BRANCH_ACTIVATED', 'AGENCY_BRANCH', spare)).toMatchObject({ actorId: owner.id, ip: '192.0.2.44' });
    expect((await del(`/v1/api/agencies/${agencyId}/branches/${spare}`, { token: owner.token, headers: ownerIp })).status).toBe(204);
    expect(await entry(root, 'AGENCY_BRANCH_DELETED', 'AGENCY_BRANCH', spare)).toMatchObject({ actorId: owner.id, ip: '192.0.2.44', details: { agencyId } });

    const rootIp = { 'CF-Connecting-IP': '2001:db8::1' };
    expect((await post(`/v1/api/superadmin/agencies/${agencyId}/suspend`, { reason: 'Audit' }, { token: root.token, headers: rootIp })).status).toBe(200);
    expect(await entry(root, 'AGENCY_SUSPENDED', 'AGENCY', agencyId)).toMatchObject({ actorId: root.id, ip: '2001:db8::1', details: { reason: 'Audit' } });
    expect((await post(`/v1/api/superadmin/agencies/${agencyId}/activate`, undefined, { token: root.token, headers: rootIp })).status).toBe(200);
    expect(await entry(root, 'AGENCY_ACTIVATED', 'AGENCY', agencyId)).toMatchObject({ actorId: root.id, ip: '2001:db8::1' });
  });
});
