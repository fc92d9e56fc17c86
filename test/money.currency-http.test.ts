// CONTRACT section 20 at the HTTP level: trips carry their currency, reservations are priced in it,
// the ledger and the wallets keep each currency apart.
import { describe, expect, it } from 'vitest';
import { errorBody, get, post, put } from './helpers/http';
import { aCarrier, aCategory, aReservation, aUser, bookThroughApi, publishTrip, tripInput, uniqueCity } from './helpers/factories';

const API = '/v1/api';

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


