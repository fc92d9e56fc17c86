// What was left of the corridor (issue 29, CONTRACT section 20): the search never orders EUR
// against XOF, dashboards and analytics show each currency apart, automatic payouts per currency,
// and partial refunds of Wave payments.
import { describe, expect, it } from 'vitest';
import { errorBody, get, post, put } from './helpers/http';
import { eq } from 'drizzle-orm';
import { announcements, mobilePayoutAccounts, notifications, withdrawals } from '../src/db/schema';
import { env } from 'cloudflare:workers';
import { db, runCron } from './helpers/db';
import { aCarrier, anAdmin, aReservation, aTrip, aUser, FIFTY_EUR, publishTrip, uniqueCity } from './helpers/factories';
import { accountBalance, fakeStripeForThisFile, ledgerInvariantViolations, walletKey } from './helpers/money';

const API = '/v1/api';
const stripe = fakeStripeForThisFile();

/** A carrier with a delivered 50.00 EUR reservation and a delivered 10 000 XOF one, both withdrawable. */
async function paidInTwoCurrencies(sender?: { id: number; token: string }) {
  const carrier = await aCarrier();
  await aReservation({ carrier, sender, status: 'DELIVERED', available: true, payment: stripe, ...FIFTY_EUR });
  const xofTrip = await aTrip(carrier, { currency: 'XOF', pricePerKgCents: 5000, departureCountry: 'SN', departureCity: 'Dakar' });
  const { reservation } = await aReservation({ trip: xofTrip, sender, status: 'DELIVERED', available: true, payment: stripe, weightG: 2_000, set: { currency: 'XOF' } });
  expect(reservation).toMatchObject({ currency: 'XOF', totalAmountCents: 10_000, carrierAmountCents: 8_500 });
  return carrier;
}

describe('search: a sort by price compares within one currency', () => {
  it('sorting by pricePerKg keeps to one currency: the `currency` filter, else the departure country, else the main one', async () => {
    const carrier = await aCarrier();
    const city = uniqueCity('Kaolack');
    const cheapXof = await publishTrip(carrier, { departureCity: city, departureCountry: 'SN', pricePerKg: 3000 });
    const dearXof = await publishTrip(carrier, { departureCity: city, departureCountry: 'SN', pricePerKg: 6000 });
    const eur = await publishTrip(carrier, { departureCity: city, departureCountry: 'SN', currency: 'EUR', pricePerKg: 9 });
    const ids = async (q: string) => {
      const res = await get(`${API}/annonces?departureCity=${encodeURIComponent(city)}&${q}`);
      expect(res.status).toBe(200);
      return (res.body.content as { id: number; currency: string }[]).map((t) => t.id);
    };
    // Without a price order every trip is listed, whatever its currency.
    expect((await ids('sort=departureDate,asc')).sort()).toEqual([cheapXof.id, dearXof.id, eur.id].sort());
    // 9 EUR must not come before 3000 XOF because 900 < 3000 as minor units.
    expect(await ids('sort=pricePerKg,asc&currency=XOF')).toEqual([cheapXof.id, dearXof.id]);
    expect(await ids('sort=pricePerKg,desc&currency=XOF')).toEqual([dearXof.id, cheapXof.id]);
    expect(await ids('sort=pricePerKg,asc&currency=EUR')).toEqual([eur.id]);
    expect(await ids('sort=pricePerKg,asc&departureCountry=SN')).toEqual([cheapXof.id, dearXof.id]);
    expect(await ids('sort=pricePerKg,asc')).toEqual([eur.id]);
  });
});

describe('dashboards per currency, never a sum across currencies', () => {
  it('GET /dashboard/carrier: `earnings` in the main currency, `earningsByCurrency` with XOF in whole francs', async () => {
    const carrier = await paidInTwoCurrencies();
    const res = await get(`${API}/dashboard/carrier`, { token: carrier.token });
    expect(res.status).toBe(200);
    const eur = { currency: 'EUR', totalEarned: 42.5, earnedThisMonth: 42.5, pendingInEscrow: 0, walletBalance: 42.5 };
    expect(res.body.earnings).toEqual(eur);
    // 8 500 XOF, not 85 (cents) and not added to the 42.50 EUR.
    expect(res.body.earningsByCurrency).toEqual([eur, { currency: 'XOF', totalEarned: 8500, earnedThisMonth: 8500, pendingInEscrow: 0, walletBalance: 8500 }]);
  });

  it('a paid XOF reservation waits in escrow in francs; a carrier without money still gets the main currency at zero', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier, { currency: 'XOF', pricePerKgCents: 5000, departureCountry: 'SN', departureCity: 'Dakar' });
    await aReservation({ trip, status: 'PAID', payment: stripe, weightG: 3_000, set: { currency: 'XOF' } });
    const res = await get(`${API}/dashboard/carrier`, { token: carrier.token });
    expect(res.body.earningsByCurrency).toEqual([
      { currency: 'EUR', totalEarned: 0, earnedThisMonth: 0, pendingInEscrow: 0, walletBalance: 0 },
      { currency: 'XOF', totalEarned: 0, earnedThisMonth: 0, pendingInEscrow: 12750, walletBalance: 0 },
    ]);
    const empty = await aCarrier();
    expect((await get(`${API}/dashboard/carrier`, { token: empty.token })).body.earningsByCurrency).toEqual([
      { currency: 'EUR', totalEarned: 0, earnedThisMonth: 0, pendingInEscrow: 0, walletBalance: 0 },
    ]);
  });

  it('GET /dashboard/sender: spending per currency, each upcoming shipment in its own currency', async () => {
    const sender = await aUser();
    await paidInTwoCurrencies(sender);
    const carrier = await aCarrier();
    const trip = await aTrip(carrier, { currency: 'XOF', pricePerKgCents: 5000, departureCountry: 'SN', departureCity: 'Dakar' });
    await aReservation({ trip, sender, status: 'PAID', payment: stripe, weightG: 1_000, set: { currency: 'XOF' } });
    const res = await get(`${API}/dashboard/sender`, { token: sender.token });
    expect(res.status).toBe(200);
    const eur = { currency: 'EUR', totalSpent: 50, totalRefunded: 0, totalReleased: 0, netSpent: 50, netSpentThisMonth: 50 };
    expect(res.body.spending).toEqual(eur);
    expect(res.body.spendingByCurrency).toEqual([eur, { currency: 'XOF', totalSpent: 15000, totalRefunded: 0, totalReleased: 0, netSpent: 15000, netSpentThisMonth: 15000 }]);
    expect(res.body.upcomingShipments).toEqual([expect.objectContaining({ status: 'PAID', totalAmount: 5000, currency: 'XOF' })]);
  });
});

describe('analytics per currency', () => {
  const overview = async (token: string) => {
    const res = await get(`${API}/admin/analytics/overview`, { token });
    expect(res.status).toBe(200);
    return res.body as { currency: string; grossVolume: number; platformRevenue: number; byCurrency: { currency: string; grossVolume: number; platformRevenue: number }[] };
  };
  const inCurrency = (o: Awaited<ReturnType<typeof overview>>, code: string) =>
    o.byCurrency.find((f) => f.currency === code) ?? { currency: code, grossVolume: 0, platformRevenue: 0 };

  it('the overview keeps its main-currency fields and lists every currency apart, XOF in whole francs', async () => {
    const admin = await anAdmin();
    const before = await overview(admin.token);
    await paidInTwoCurrencies();
    const after = await overview(admin.token);
    expect(after.currency).toBe('EUR');
    expect(after.byCurrency[0]).toMatchObject({ currency: 'EUR', grossVolume: after.grossVolume, platformRevenue: after.platformRevenue });
    // 50.00 EUR taken (7.50 commission) and 10 000 XOF (1 500 commission): never 50 + 10 000.
    expect(after.grossVolume - before.grossVolume).toBeCloseTo(50, 6);
    expect(after.platformRevenue - before.platformRevenue).toBeCloseTo(7.5, 6);
    expect(inCurrency(after, 'XOF').grossVolume - inCurrency(before, 'XOF').grossVolume).toBe(10_000);
    expect(inCurrency(after, 'XOF').platformRevenue - inCurrency(before, 'XOF').platformRevenue).toBe(1_500);
    expect(after.byCurrency.map((f) => f.currency)).toEqual(['EUR', ...after.byCurrency.slice(1).map((f) => f.currency).sort()]);
  });

  it('a money time series is of one currency (`currency`, default the main one); counts have none', async () => {
    const admin = await anAdmin();
    const series = async (q: string) => {
      const res = await get(`${API}/admin/analytics/timeseries?${q}`, { token: admin.token });
      expect(res.status).toBe(200);
      return res.body as { currency: string | null; points: { periodStart: string; value: number }[] };
    };
    const today = new Date().toISOString().slice(0, 10);
    const todayValue = async (q: string) => (await series(`${q}&from=${today}&to=${today}`)).points[0].value;
    const [xofBefore, eurBefore] = [await todayValue('metric=grossVolume&currency=XOF'), await todayValue('metric=grossVolume')];
    await paidInTwoCurrencies();
    expect((await todayValue('metric=grossVolume&currency=XOF')) - xofBefore).toBe(10_000);
    expect((await todayValue('metric=grossVolume')) - eurBefore).toBeCloseTo(50, 6);
    expect((await series('metric=grossVolume&currency=XOF')).currency).toBe('XOF');
    expect((await series('metric=platformRevenue')).currency).toBe('EUR');
    expect((await series('metric=reservations')).currency).toBeNull();
    const bad = await get(`${API}/admin/analytics/timeseries?metric=grossVolume&currency=ZZZ`, { token: admin.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'currency', rejectedValue: 'ZZZ' }] });
  });
});

describe('automatic payouts per currency', () => {
  it('each currency has its own setting, its threshold in its own decimals', async () => {
    const carrier = await aCarrier();
    const xof = await put(`${API}/withdrawals/auto`, { enabled: true, threshold: 5000, currency: 'XOF' }, { token: carrier.token });
    expect(xof.status).toBe(200);
    expect(xof.body).toEqual({ enabled: true, threshold: 5000, currency: 'XOF' });
    // The main currency's setting is another one, still off.
    expect((await get(`${API}/withdrawals/auto`, { token: carrier.token })).body).toEqual({ enabled: false, threshold: null, currency: 'EUR' });
    expect((await get(`${API}/withdrawals/auto?currency=XOF`, { token: carrier.token })).body).toEqual({ enabled: true, threshold: 5000, currency: 'XOF' });
    const cents = await put(`${API}/withdrawals/auto`, { enabled: true, threshold: 5000.5, currency: 'XOF' }, { token: carrier.token });
    expect(cents.status).toBe(400);
    expect(errorBody(cents)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'threshold', rejectedValue: 5000.5 }] });
    const unknown = await get(`${API}/withdrawals/auto?currency=ZZZ`, { token: carrier.token });
    expect(unknown.status).toBe(400);
    expect(errorBody(unknown)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'currency' }] });
    // The wallet shows the setting of the currency it shows.
    expect((await get(`${API}/user/me/wallet?currency=XOF`, { token: carrier.token })).body.autoWithdrawal).toEqual({ enabled: true, threshold: 5000 });
  });

  it('the cron pays each wallet against its own threshold, XOF through the Wave payout to the default mobile wallet', async () => {
    const carrier = await paidInTwoCurrencies();
    const wallet = await post(`${API}/payout-accounts`, { type: 'MOBILE_MONEY', provider: 'WAVE', phone: '+221770000042', name: 'Awa Diop' }, { token: carrier.token });
    expect(wallet.status).toBe(201);
    // 8 500 XOF >= 5 000 XOF: paid out; 42.50 EUR < 100 EUR: stays (never 8 500 compared with a euro threshold).
    await put(`${API}/withdrawals/auto`, { enabled: true, threshold: 5000, currency: 'XOF' }, { token: carrier.token });
    await put(`${API}/withdrawals/auto`, { enabled: true, threshold: 100 }, { token: carrier.token });
    await runCron();
    expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(0);
    expect(await accountBalance(walletKey(carrier.id), 'EUR')).toBe(4250);
    const rows = await db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id));
    expect(rows).toEqual([expect.objectContaining({ currency: 'XOF', amountCents: 8500, automatic: true, status: 'COMPLETED', destinationAccountId: `mobile:${wallet.body.id}` })]);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('search alerts: a price limit is of one currency', () => {
  it('a limit in EUR matches EUR trips under it, never a 500 XOF trip (500 < 1000 as minor units)', async () => {
    const watcher = await aUser();
    const carrier = await aCarrier();
    const city = uniqueCity('Ziguinchor');
    const created = await post(`${API}/search-alerts`, { departureCity: city, maxPricePerKg: 10, currency: 'EUR' }, { token: watcher.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ maxPricePerKg: 10, currency: 'EUR' });
    // Without `currency`, the departure country's: francs from Senegal, in whole francs.
    const fromSn = await post(`${API}/search-alerts`, { departureCity: city, departureCountry: 'SN', maxPricePerKg: 4000 }, { token: watcher.token });
    expect(fromSn.body).toMatchObject({ maxPricePerKg: 4000, currency: 'XOF' });
    const cents = await post(`${API}/search-alerts`, { departureCity: city, departureCountry: 'SN', maxPricePerKg: 4000.5 }, { token: watcher.token });
    expect(cents.status).toBe(400);
    expect(errorBody(cents)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'maxPricePerKg', rejectedValue: 4000.5 }] });

    const xof = await publishTrip(carrier, { departureCity: city, departureCountry: 'SN', pricePerKg: 500 });
    const eur = await publishTrip(carrier, { departureCity: city, departureCountry: 'SN', currency: 'EUR', pricePerKg: 9 });
    const matches = await db().select().from(notifications).where(eq(notifications.userId, watcher.id));
    const alertOf = (tripId: number) => matches.filter((n) => (n.data as { announcementId?: number }).announcementId === tripId).map((n) => (n.data as { alertId: number }).alertId);
    expect(alertOf(xof.id)).toEqual([fromSn.body.id]);
    expect(alertOf(eur.id)).toEqual([created.body.id]);
  });
});

describe('demo seed: the corridor', () => {
  it('a carrier in Dakar with a default Wave wallet and an XOF trip Dakar -> Abidjan, printed with the demo accounts; a rerun adds nothing', async () => {
    const { runSeed } = await import('../src/features/dev/seed');
    const { depsOf } = await import('../src/env');
    const first = await runSeed(depsOf(env, db()));
    const second = await runSeed(depsOf(env, db()));
    const dakar = first.accounts.find((a) => a.email === 'carrier.dakar@demo.local')!;
    expect(dakar.roles).toEqual(['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
    expect(second.accounts).toEqual(first.accounts);
    const wallets = await db().select().from(mobilePayoutAccounts).where(eq(mobilePayoutAccounts.ownerId, dakar.id));
    expect(wallets).toEqual([expect.objectContaining({ ownerType: 'USER', provider: 'WAVE', currency: 'XOF', phone: '+221770000100', isDefault: true })]);
    expect(await db().select().from(announcements).where(eq(announcements.carrierId, dakar.id))).toHaveLength(1);
    const search = await get(`${API}/annonces?departureCity=dakar&arrivalCity=abidjan&currency=XOF`);
    expect(search.body.content).toEqual([expect.objectContaining({ currency: 'XOF', pricePerKg: 3000, departureCountry: 'SN', arrivalCountry: 'CI' })]);
  });
});
