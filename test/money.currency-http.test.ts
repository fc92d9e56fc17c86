// CONTRACT section 20 at the HTTP level: trips carry their currency, reservations are priced in it,
// the ledger and the wallets keep each currency apart.
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from './helpers/db';
import { errorBody, get, post, put } from './helpers/http';
import { aCarrier, aCategory, aPayoutAccount, aReservation, aTrip, aUser, bookThroughApi, FIFTY_EUR, publishTrip, tripInput, uniqueCity } from './helpers/factories';
import { accountBalance, fakeStripeForThisFile, walletKey } from './helpers/money';

const API = '/v1/api';
const stripe = fakeStripeForThisFile();

type Account = { key: string; kind: string; owner_type: string | null; owner_id: number | null; currency: string; balance_cents: number };
const accounts = async () => (await db().all<Account>(sql`SELECT key, kind, owner_type, owner_id, currency, balance_cents FROM ledger_accounts ORDER BY id`));

// First in the file: the old-shape rows are written before any posting opens a per-currency account.
describe('migration 0028: every ledger account per currency', () => {
  it('moves the accounts of the old key format to EUR accounts, every balance and line kept', async () => {
    const owners = [await aUser(), await aCarrier()];
    const old = [
      ['ESCROW', 'ESCROW', null, null, 0],
      ['PLATFORM_REVENUE', 'PLATFORM_REVENUE', null, null, 750],
      ['PROVIDER_CLEARING', 'PROVIDER_CLEARING', null, null, -5000],
      [`WALLET:USER:${owners[1].id}`, 'WALLET', 'USER', owners[1].id, 3000],
      [`HELD:USER:${owners[1].id}`, 'HELD', 'USER', owners[1].id, 1250],
      [`RECEIVABLE:USER:${owners[0].id}`, 'RECEIVABLE', 'USER', owners[0].id, 0],
    ] as const;
    for (const [key, kind, ownerType, ownerId, cents] of old) {
      await db().run(sql`INSERT INTO ledger_accounts (key, kind, owner_type, owner_id, currency, balance_cents) VALUES (${key}, ${kind}, ${ownerType}, ${ownerId}, 'EUR', ${cents})`);
    }
    // One old entry whose lines the accounts' balances sum up.
    await db().run(sql`INSERT INTO ledger_entries (key, token, type, description) VALUES ('old-entry', 'old-token', 'ESCROW_RELEASED', 'before 0028')`);
    for (const [key, cents] of [['PROVIDER_CLEARING', -5000], ['PLATFORM_REVENUE', 750], [`WALLET:USER:${owners[1].id}`, 3000], [`HELD:USER:${owners[1].id}`, 1250]] as const) {
      await db().run(sql`INSERT INTO ledger_lines (entry_id, account_id, amount_cents) SELECT e.id, a.id, ${cents} FROM ledger_entries e, ledger_accounts a WHERE e.key = 'old-entry' AND a.key = ${key}`);
    }
    const before = await accounts();
    const lineSums = async () => db().all(sql`SELECT a.id, SUM(l.amount_cents) AS s FROM ledger_lines l JOIN ledger_accounts a ON a.id = l.account_id GROUP BY a.id ORDER BY a.id`);
    const linesBefore = await lineSums();

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0028_'))!;
    for (const q of migration.queries) await env.DB.prepare(q).run();
    const after = await accounts();
    expect(after).toEqual(before.map((a) => ({ ...a, key: `${a.key}:EUR` })));
    expect(await lineSums()).toEqual(linesBefore);
    // Run again: nothing changes.
    for (const q of migration.queries) await env.DB.prepare(q).run();
    expect(await accounts()).toEqual(after);
    // The application reads them: the carrier's wallet shows its 30.00 EUR and its 12.50 held.
    expect(await accountBalance(walletKey(owners[1].id))).toBe(3000);
    const { token } = owners[1] as { token: string };
    expect((await get(`${API}/user/me/wallet`, { token })).body).toMatchObject({ currency: 'EUR', balance: 30, heldBalance: 12.5 });
    // Clean the old-shape fixture so that later postings start from an empty ledger.
    await db().run(sql`DELETE FROM ledger_lines`);
    await db().run(sql`DELETE FROM ledger_entries`);
    await db().run(sql`DELETE FROM ledger_accounts`);
  });
});

describe('trips carry their currency', () => {
  it('defaults to the departure country: XOF from Senegal, EUR from France and from a country without its own', async () => {
    const carrier = await aCarrier();
    const dakar = await publishTrip(carrier, { departureCity: 'Dakar', departureCountry: 'SN', arrivalCity: 'Paris', arrivalCountry: 'FR', pricePerKg: 5000 });
    expect(dakar).toMatchObject({ currency: 'XOF', pricePerKg: 5000 });
    expect(await publishTrip(carrier)).toMatchObject({ currency: 'EUR', pricePerKg: 8.5 });
    expect(await publishTrip(carrier, { departureCountry: 'JP' })).toMatchObject({ currency: 'EUR' });
    expect(await publishTrip(carrier, { departureCountry: 'CM', pricePerKg: 4000 })).toMatchObject({ currency: 'XAF', pricePerKg: 4000 });
  });

  it('takes an explicit currency, refuses an unknown or a disabled one with the validation body naming the field', async () => {
    const carrier = await aCarrier();
    expect(await publishTrip(carrier, { currency: 'XOF', pricePerKg: 3000 })).toMatchObject({ currency: 'XOF', departureCountry: 'FR', pricePerKg: 3000 });
    const unknown = await post(`${API}/annonces`, tripInput({ currency: 'ZZZ' }), { token: carrier.token });
    expect(unknown.status).toBe(400);
    expect(errorBody(unknown)).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [{ field: 'currency', message: 'Unknown currency: send an ISO 4217 code such as EUR or XOF', rejectedValue: 'ZZZ' }],
    });
    // CHF and GNF are in the table but not in the default enabled set.
    const disabled = await post(`${API}/annonces`, tripInput({ currency: 'CHF' }), { token: carrier.token, headers: { 'Accept-Language': 'fr' } });
    expect(disabled.status).toBe(400);
    expect(errorBody(disabled)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [{ field: 'currency', message: expect.stringContaining("Le CHF n'est pas proposé sur cette plateforme"), rejectedValue: 'CHF' }],
    });
  });

  it("accepts exactly the currency's decimals: 150.5 XOF and 12.345 EUR are refused, not rounded", async () => {
    const carrier = await aCarrier();
    const xof = await post(`${API}/annonces`, tripInput({ departureCountry: 'SN', pricePerKg: 150.5 }), { token: carrier.token });
    expect(xof.status).toBe(400);
    expect(errorBody(xof)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [{ field: 'pricePerKg', message: 'XOF has no decimals: send a whole amount', rejectedValue: 150.5 }],
    });
    const eur = await post(`${API}/annonces`, tripInput({ pricePerKg: 12.345 }), { token: carrier.token });
    expect(errorBody(eur).fieldErrors).toEqual([{ field: 'pricePerKg', message: 'An amount in EUR has at most 2 decimals', rejectedValue: 12.345 }]);
    const update = await put(`${API}/annonces/${(await publishTrip(carrier, { currency: 'XOF', pricePerKg: 2000 })).id}`, { pricePerKg: 2000.5 }, { token: carrier.token });
    expect(update.status).toBe(400);
    expect(errorBody(update).fieldErrors).toEqual([{ field: 'pricePerKg', message: 'XOF has no decimals: send a whole amount', rejectedValue: 2000.5 }]);
  });

  it('PUT keeps the currency; changing it is allowed without reservations and refused (409) with one', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier, { pricePerKg: 10 });
    expect((await put(`${API}/annonces/${trip.id}`, { description: 'More room' }, { token: carrier.token })).body).toMatchObject({ currency: 'EUR', pricePerKg: 10 });
    // 10 EUR read as 10 XOF; 8.5 would not be a whole franc.
    expect((await put(`${API}/annonces/${trip.id}`, { currency: 'XOF', pricePerKg: 6500 }, { token: carrier.token })).body).toMatchObject({ currency: 'XOF', pricePerKg: 6500 });
    const sender = await aUser();
    const category = await aCategory();
    const booking = await bookThroughApi(sender, trip.id, category.id, 2);
    expect(booking).toMatchObject({ currency: 'XOF', pricePerKg: 6500, totalAmount: 13000 });
    const refused = await put(`${API}/annonces/${trip.id}`, { currency: 'EUR', pricePerKg: 10 }, { token: carrier.token });
    expect(refused.status).toBe(409);
    expect(errorBody(refused)).toMatchObject({ errorCode: 'INVALID_STATE', message: 'The currency of a trip with reservations cannot change (it is XOF)' });
  });

  it('search filters by currency; a price filter compares within one currency', async () => {
    const carrier = await aCarrier();
    const city = uniqueCity('Thiès');
    const xof = await publishTrip(carrier, { departureCity: city, departureCountry: 'SN', pricePerKg: 5000 });
    const eur = await publishTrip(carrier, { departureCity: city, departureCountry: 'SN', currency: 'EUR', pricePerKg: 9 });
    const ids = async (q: string) => ((await get(`${API}/annonces?departureCity=${encodeURIComponent(city)}&${q}`)).body.content as { id: number }[]).map((t) => t.id).sort();
    expect(await ids('currency=XOF')).toEqual([xof.id]);
    expect(await ids('currency=EUR')).toEqual([eur.id]);
    // 9 EUR is not "below 6000" in francs: only francs are compared.
    expect(await ids('currency=XOF&maxPricePerKg=6000')).toEqual([xof.id]);
    expect(await ids('currency=XOF&maxPricePerKg=4999')).toEqual([]);
    expect(await ids('currency=EUR&maxPricePerKg=9&minPricePerKg=9')).toEqual([eur.id]);
    // Without currency, the price compares in the departure country's currency (XOF for SN)...
    expect(await ids('departureCountry=SN&maxPricePerKg=6000')).toEqual([xof.id]);
    // ...and without a country either, in the platform's main currency (EUR).
    expect(await ids('maxPricePerKg=10')).toEqual([eur.id]);
    const bad = await get(`${API}/annonces?currency=ZZZ`);
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'currency', rejectedValue: 'ZZZ' }] });
  });
});

describe('reservations are priced in the trip currency', () => {
  it('an XOF booking shows whole francs, split exactly (total = commission + carrier)', async () => {
    const carrier = await aCarrier();
    const trip = await publishTrip(carrier, { departureCountry: 'SN', departureCity: 'Dakar', pricePerKg: 3333 });
    const sender = await aUser();
    const category = await aCategory();
    const r = await bookThroughApi(sender, trip.id, category.id, 1.5);
    // 1.5 kg x 3333 = 4999.5 -> 5000 (one rounding, to the franc); 15% = 750.
    expect(r).toMatchObject({ currency: 'XOF', pricePerKg: 3333, totalAmount: 5000, platformCommission: 750, carrierAmount: 4250 });
    for (const v of [r.totalAmount, r.platformCommission, r.carrierAmount]) expect(Number.isInteger(v)).toBe(true);
    const read = await get(`${API}/bookings/${r.id}`, { token: sender.token });
    expect(read.body).toMatchObject({ currency: 'XOF', totalAmount: 5000 });
  });

  it('an EUR reservation shows its currency and its cents, as before', async () => {
    const { sender, reservation } = await aReservation({ weightG: 4_000, pricePerKgCents: 1_250 });
    const { token } = sender as { token: string };
    const read = await get(`${API}/bookings/${reservation.id}`, { token });
    expect(read.body).toMatchObject({ currency: 'EUR', pricePerKg: 12.5, totalAmount: 50, platformCommission: 7.5, carrierAmount: 42.5 });
  });
});

describe('ledger and wallets per currency', () => {
  /** A carrier with one delivered 50.00 EUR reservation and one delivered 10 000 XOF one, both withdrawable. */
  async function carrierPaidInTwoCurrencies() {
    const carrier = await aCarrier();
    await aReservation({ carrier, status: 'DELIVERED', available: true, payment: stripe, ...FIFTY_EUR });
    const xofTrip = await aTrip(carrier, { currency: 'XOF', pricePerKgCents: 5000, departureCountry: 'SN', departureCity: 'Dakar' });
    const { reservation } = await aReservation({ trip: xofTrip, status: 'DELIVERED', available: true, payment: stripe, weightG: 2_000, set: { currency: 'XOF' } });
    expect(reservation).toMatchObject({ currency: 'XOF', totalAmountCents: 10_000, platformCommissionCents: 1_500, carrierAmountCents: 8_500 });
    return carrier;
  }

  it('GET /user/me/wallet: the main currency at the top, balances per currency, ?currency= picks another', async () => {
    const carrier = await carrierPaidInTwoCurrencies();
    const wallet = await get(`${API}/user/me/wallet`, { token: carrier.token });
    expect(wallet.status).toBe(200);
    expect(wallet.body).toEqual({
      balance: 42.5,
      heldBalance: 0,
      pendingWithdrawalAmount: 0,
      totalEarned: 42.5,
      totalWithdrawn: 0,
      currency: 'EUR',
      autoWithdrawal: { enabled: false, threshold: null },
      balances: [
        { currency: 'EUR', balance: 42.5, heldBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 42.5, totalWithdrawn: 0 },
        { currency: 'XOF', balance: 8500, heldBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 8500, totalWithdrawn: 0 },
      ],
    });
    expect((await get(`${API}/user/me/wallet?currency=XOF`, { token: carrier.token })).body).toMatchObject({ currency: 'XOF', balance: 8500, totalEarned: 8500 });
    // An enabled currency without money: zeros, and listed after the main one.
    expect((await get(`${API}/user/me/wallet?currency=MAD`, { token: carrier.token })).body).toMatchObject({ currency: 'MAD', balance: 0 });
    const disabled = await get(`${API}/user/me/wallet?currency=CHF`, { token: carrier.token });
    expect(disabled.status).toBe(400);
    expect(errorBody(disabled)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'currency', rejectedValue: 'CHF' }] });
    expect((await get(`${API}/user/me/wallet?currency=ZZZ`, { token: carrier.token })).status).toBe(400);
  });

  it('every amount of an XOF reservation is in whole francs: history, summary, cancellation quote', async () => {
    const carrier = await carrierPaidInTwoCurrencies();
    const history = await get(`${API}/transactions?size=50`, { token: carrier.token });
    const amounts = (history.body.content as { currency: string; amount: number }[]).map((t) => [t.currency, t.amount]);
    expect(amounts).toContainEqual(['XOF', 8500]);
    expect(amounts).toContainEqual(['EUR', 42.5]);
    // The summary totals one currency, the main one: the francs are not added to the euros.
    const summary = await get(`${API}/transactions/summary?period=ALL`, { token: carrier.token });
    expect(summary.body).toMatchObject({ currency: 'EUR', totalEarned: 42.5 });

    const xofTrip = await aTrip(carrier, { currency: 'XOF', pricePerKgCents: 5000, departureCountry: 'SN', departureCity: 'Dakar' });
    const { sender, reservation } = await aReservation({ trip: xofTrip, status: 'PAID', payment: stripe, weightG: 2_000, set: { currency: 'XOF' } });
    const quote = await get(`${API}/bookings/${reservation.id}/cancellation-quote`, { token: (sender as { token: string }).token });
    expect(quote.body).toEqual({ refundAmount: 10000, keptAmount: 0, currency: 'XOF', policy: 'MODERATE', rule: 'NOT_CONFIRMED' });
  });

  it('the ledger sums to zero in each currency, and each account holds one currency', async () => {
    await carrierPaidInTwoCurrencies();
    const sums = await db().all<{ currency: string; s: number }>(sql`SELECT currency, SUM(balance_cents) AS s FROM ledger_accounts GROUP BY currency ORDER BY currency`);
    expect(sums.map((r) => r.currency)).toEqual(['EUR', 'XOF']);
    for (const r of sums) expect(r.s).toBe(0);
    const all = await accounts();
    for (const a of all) expect(a.key.endsWith(`:${a.currency}`)).toBe(true);
    expect(all.filter((a) => a.kind === 'WALLET').every((a) => a.balance_cents >= 0)).toBe(true);
    // No entry has lines in two currencies.
    const mixed = await db().all(sql`SELECT l.entry_id FROM ledger_lines l JOIN ledger_accounts a ON a.id = l.account_id GROUP BY l.entry_id HAVING COUNT(DISTINCT a.currency) > 1`);
    expect(mixed).toEqual([]);
  });

  it('POST /withdrawals takes a currency and checks the balance in that currency only', async () => {
    const carrier = await carrierPaidInTwoCurrencies();
    await aPayoutAccount(carrier, stripe.addAccount().id);
    // XOF is paid out to a Wave wallet (CONTRACT section 20), EUR through the connected account.
    const wallet = await post(`${API}/payout-accounts`, { type: 'MOBILE_MONEY', provider: 'WAVE', phone: '+221771234567', name: 'Awa Diop' }, { token: carrier.token });
    expect(wallet.status).toBe(201);
    // 8 500 XOF available: 9 000 is refused although the EUR wallet is there too.
    const short = await post(`${API}/withdrawals`, { amount: 9000, currency: 'XOF' }, { token: carrier.token });
    expect(short.status).toBe(422);
    expect(errorBody(short)).toMatchObject({ errorCode: 'INSUFFICIENT_FUNDS' });
    // 50 EUR would be more than the 42.50 of the EUR wallet: refused too, whatever the francs.
    expect((await post(`${API}/withdrawals`, { amount: 50 }, { token: carrier.token })).status).toBe(422);
    const decimals = await post(`${API}/withdrawals`, { amount: 100.5, currency: 'XOF' }, { token: carrier.token });
    expect(decimals.status).toBe(400);
    expect(errorBody(decimals)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'amount', message: 'XOF has no decimals: send a whole amount', rejectedValue: 100.5 }] });
    const disabled = await post(`${API}/withdrawals`, { amount: 10, currency: 'CHF' }, { token: carrier.token });
    expect(disabled.status).toBe(400);
    const eur = await post(`${API}/withdrawals`, { amount: 40 }, { token: carrier.token });
    expect(eur.status).toBe(201);
    expect(eur.body).toMatchObject({ amount: 40, currency: 'EUR' });
    expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(8500);
    expect(await accountBalance(walletKey(carrier.id), 'EUR')).toBe(250);
  });
});

describe('demo seed', () => {
  it('shows the corridor: Paris to Dakar in EUR, Dakar to Paris in XOF', async () => {
    const { runSeed } = await import('../src/features/dev/seed');
    const { depsOf } = await import('../src/env');
    await runSeed(depsOf(env, db()));
    const search = async (from: string, to: string) => (await get(`${API}/annonces?departureCity=${from}&arrivalCity=${to}`)).body.content as { currency: string; pricePerKg: number }[];
    expect((await search('paris', 'dakar')).map((t) => [t.currency, t.pricePerKg])).toContainEqual(['EUR', 8]);
    expect((await search('dakar', 'paris')).map((t) => [t.currency, t.pricePerKg])).toContainEqual(['XOF', 5000]);
  });
});
