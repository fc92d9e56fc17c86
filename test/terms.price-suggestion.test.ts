// GET /annonces/price-suggestion (CONTRACT section 22) over seeded trips: by cities when they have
// at least 5 trips, else by countries; per currency; the last 180 days; nulls below 5 trips; the
// quartiles; bad input; and the route is not taken for /annonces/{id}.
import { describe, expect, it } from 'vitest';
import { figuresOf, percentile } from '../src/features/announcements/price-suggestion';
import { aCarrier, aTrip, daysFromToday } from './helpers/factories';
import { errorBody, get } from './helpers/http';

/** A trip of a fresh carrier on a route, at `price` (minor units) per kg. */
async function tripAt(route: { from: string; to: string; dep: string; arr: string }, pricePerKgCents: number, extra: Parameters<typeof aTrip>[1] = {}) {
  return aTrip(await aCarrier(), {
    departureCountry: route.from,
    arrivalCountry: route.to,
    departureCity: route.dep,
    arrivalCity: route.arr,
    departureCityKey: route.dep.toLowerCase(),
    arrivalCityKey: route.arr.toLowerCase(),
    pricePerKgCents,
    ...extra,
  });
}

const suggest = (query: string) => get(`/v1/api/annonces/price-suggestion?${query}`);

describe('percentiles', () => {
  it('linear between the closest ranks, rounded to the minor unit', () => {
    expect(percentile([1000, 1200, 1400, 1600, 1800], 0.5)).toBe(1400);
    expect(percentile([1000, 1200, 1400, 1600, 1800], 0.25)).toBe(1200);
    expect(percentile([1000, 1100, 1200, 1300, 1400, 2000], 0.5)).toBe(1250);
    expect(percentile([1000, 1100, 1200, 1300, 1400, 2000], 0.25)).toBe(1125);
    expect(percentile([1000, 1100, 1200, 1300, 1400, 2000], 0.75)).toBe(1375);
    expect(percentile([5], 0.75)).toBe(5);
  });
  it('below 5 trips there are no figures, only the count', () => {
    expect(figuresOf([1, 2, 3, 4])).toEqual({ sampleSize: 4, p25Cents: null, medianCents: null, p75Cents: null });
    expect(figuresOf([1, 2, 3, 4, 5])).toEqual({ sampleSize: 5, p25Cents: 2, medianCents: 3, p75Cents: 4 });
  });
});

describe('GET /annonces/price-suggestion', () => {
  const parisDakar = { from: 'FR', to: 'SN', dep: 'Paris', arr: 'Dakar' };
  const lyonDakar = { from: 'FR', to: 'SN', dep: 'Lyon', arr: 'Dakar' };

  it('by cities when they have 5 trips, else by countries; only the currency asked; the last 180 days; no cancelled trip', async () => {
    for (const price of [1000, 1200, 1400, 1600, 1800]) await tripAt(parisDakar, price, { departureDate: daysFromToday(-30), arrivalDate: daysFromToday(-29) });
    await tripAt(lyonDakar, 3000);
    await tripAt(lyonDakar, 3200, { status: 'FULL' });
    // Not counted: another currency, too old, withdrawn, another route.
    await tripAt(parisDakar, 9_000, { currency: 'XOF' });
    await tripAt(parisDakar, 100, { departureDate: daysFromToday(-200), arrivalDate: daysFromToday(-199) });
    await tripAt(parisDakar, 100, { status: 'CANCELLED' });
    await tripAt({ from: 'FR', to: 'CI', dep: 'Paris', arr: 'Abidjan' }, 100);

    const byCity = await suggest('departureCountry=FR&arrivalCountry=SN&departureCity=paris&arrivalCity=DAKAR&currency=EUR');
    expect(byCity.status).toBe(200);
    expect(byCity.body).toEqual({ currency: 'EUR', median: 14, p25: 12, p75: 16, sampleSize: 5 });

    // Lyon has 2 trips: the countries' 7 trips answer (10, 12, 14, 16, 18, 30, 32).
    const byCountry = await suggest('departureCountry=FR&arrivalCountry=SN&departureCity=Lyon&currency=EUR');
    expect(byCountry.body).toEqual({ currency: 'EUR', median: 16, p25: 13, p75: 24, sampleSize: 7 });
    expect((await suggest('departureCountry=fr&arrivalCountry=sn&currency=EUR')).body).toEqual(byCountry.body);

    // The trip 179 days back counts; 1 XOF trip is not enough.
    await tripAt(parisDakar, 2000, { departureDate: daysFromToday(-179), arrivalDate: daysFromToday(-178) });
    expect((await suggest('departureCountry=FR&arrivalCountry=SN&currency=EUR')).body.sampleSize).toBe(8);
    expect((await suggest('departureCountry=FR&arrivalCountry=SN&currency=XOF')).body).toEqual({ currency: 'XOF', median: null, p25: null, p75: null, sampleSize: 1 });
  });

  it('a route without enough trips: nulls and the count', async () => {
    const route = { from: 'MA', to: 'SN', dep: 'Casablanca', arr: 'Dakar' };
    for (const price of [800, 900, 1000]) await tripAt(route, price);
    expect((await suggest('departureCountry=MA&arrivalCountry=SN&currency=EUR')).body).toEqual({ currency: 'EUR', median: null, p25: null, p75: null, sampleSize: 3 });
    expect((await suggest('departureCountry=SN&arrivalCountry=MA&currency=EUR')).body).toEqual({ currency: 'EUR', median: null, p25: null, p75: null, sampleSize: 0 });
  });

  it('bad input gets the error body of the specification', async () => {
    const missing = await suggest('arrivalCountry=SN&currency=EUR');
    expect(missing.status).toBe(400);
    expect(errorBody(missing).errorCode).toBe('MISSING_PARAMETER');
    const noCurrency = await suggest('departureCountry=FR&arrivalCountry=SN');
    expect(noCurrency.status).toBe(400);
    expect(errorBody(noCurrency).errorCode).toBe('MISSING_PARAMETER');
    const badCountry = await suggest('departureCountry=XX&arrivalCountry=SN&currency=EUR');
    expect(badCountry.status).toBe(400);
    expect(errorBody(badCountry)).toMatchObject({ status: 400 });
    const badCurrency = await suggest('departureCountry=FR&arrivalCountry=SN&currency=euro');
    expect(badCurrency.status).toBe(400);
    expect(JSON.stringify(errorBody(badCurrency))).toContain('ISO 4217');
    const french = await get('/v1/api/annonces/price-suggestion?departureCountry=FR&arrivalCountry=SN&currency=euro', { headers: { 'Accept-Language': 'fr' } });
    expect(JSON.stringify(errorBody(french))).toContain('code de devise ISO 4217');
  });

  it('is not taken for a trip id, and /annonces/{id} still answers', async () => {
    const trip = await tripAt(parisDakar, 1500);
    expect((await get(`/v1/api/annonces/${trip.id}`)).body.id).toBe(trip.id);
    const answer = await suggest('departureCountry=FR&arrivalCountry=SN&currency=EUR');
    expect(answer.status).toBe(200);
    // Public and cacheable for five minutes, rate limited like search.
    expect(answer.headers.get('cache-control')).toContain('max-age=300');
    expect(answer.headers.get('ratelimit-policy')).toBeTruthy();
  });
});
