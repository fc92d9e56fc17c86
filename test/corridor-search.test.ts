// Finding a trip across the corridor (CONTRACT section 30): nearby places by great-circle distance,
// flexible dates, best first by the documented score, the limits, the cap on the total, saved
// searches with the same parameters, and where trips are placed on the map.
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications, places, searchAlerts, userRatings } from '../src/db/schema';
import { cityKey } from '../src/features/reference/city-key';
import { formatMoneyIn } from '../src/lib/money';
import { boxAround, cellOf, cellsOf, distanceKm } from '../src/lib/geo';
import { KM_PER_DAY_OFF, KM_PER_STAR_MISSING, rankNearby, scoreOf, UNRATED_STARS } from '../src/features/announcements/nearby-score';
import { del, errorBody, get, post, put } from './helpers/http';
import { aCarrier, aUser, daysFromToday, publishTrip } from './helpers/factories';
import { db, tripRow } from './helpers/db';
import { depsOf } from '../src/env';
import { closeDepartedAnnouncements } from '../src/features/announcements/announcements.service';

const API = '/v1/api';

async function placeOf(name: string, country: string) {
  const [p] = await db().select().from(places).where(sql`${places.nameKey} = ${cityKey(name)} AND ${places.countryCode} = ${country}`).orderBy(sql`${places.population} DESC`).limit(1);
  return p;
}

/** Trips of a test live on their own days, far ahead, so tests of this file do not see each other's. */
let nextDay = 200;
const ownDay = () => {
  nextDay += 20;
  return nextDay;
};

const search = (query: Record<string, string | number>) =>
  get(`${API}/annonces?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`);

const trip = (carrier: Parameters<typeof publishTrip>[0], from: [string, string], to: [string, string], day: number, extra: Record<string, unknown> = {}) =>
  publishTrip(carrier, {
    departureCity: from[0],
    departureCountry: from[1],
    arrivalCity: to[0],
    arrivalCountry: to[1],
    departureDate: daysFromToday(day),
    arrivalDate: daysFromToday(day + 1),
    currency: 'EUR',
    pricePerKg: 8,
    ...extra,
  });

/** `n` copies of a trip written straight into the table (publishing them one by one would take minutes), each a cent dearer. */
const copies = (model: { id: number }, n: number) =>
  env.DB.prepare(
    `INSERT INTO announcements (carrier_id, departure_city, departure_country, arrival_city, arrival_country, departure_city_key, arrival_city_key,
       departure_date, arrival_date, total_weight_g, price_per_kg_cents, currency, transport_mode, departure_latitude, departure_longitude,
       arrival_latitude, arrival_longitude, departure_cell, arrival_cell)
     WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
     SELECT carrier_id, departure_city, departure_country, arrival_city, arrival_country, departure_city_key, arrival_city_key,
       departure_date, arrival_date, total_weight_g, price_per_kg_cents + x, currency, transport_mode, departure_latitude, departure_longitude,
       arrival_latitude, arrival_longitude, departure_cell, arrival_cell FROM announcements, n WHERE announcements.id = ?`,
  ).bind(n, model.id).run();

const DAKAR: [string, string] = ['Dakar', 'SN'];
const THIES: [string, string] = ['Thiès', 'SN'];
const SAINT_LOUIS: [string, string] = ['Saint-Louis', 'SN'];
const PARIS: [string, string] = ['Paris', 'FR'];
const ORLY: [string, string] = ['Orly', 'FR'];
const LYON: [string, string] = ['Lyon', 'FR'];

describe('the places', () => {
  it('are keyed by the search normal form of their names, with French names for a few', async () => {
    const all = await db().select({ name: places.name, nameKey: places.nameKey }).from(places);
    expect(all.length).toBeGreaterThan(5000);
    expect(all.filter((p) => cityKey(p.name) !== p.nameKey)).toEqual([]);
    expect(await placeOf('Bruxelles', 'BE')).toMatchObject({ latitude: (await placeOf('Brussels', 'BE')).latitude });
    expect(await placeOf('Orly', 'FR')).toMatchObject({ countryCode: 'FR' });
    expect(await placeOf('Thies', 'SN')).toMatchObject({ name: 'Thiès' });
  });

  it('a published trip is placed on the map, and placed again when its city changes', async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const published = await trip(carrier, THIES, ORLY, day);
    const thies = await placeOf('Thiès', 'SN');
    const orly = await placeOf('Orly', 'FR');
    expect(await tripRow(published.id)).toMatchObject({
      departureLatitude: thies.latitude,
      departureLongitude: thies.longitude,
      departureCell: cellOf(thies),
      arrivalLatitude: orly.latitude,
      arrivalCell: cellOf(orly),
    });
    const moved = await put(`${API}/annonces/${published.id}`, { arrivalCity: 'Lyon' }, { token: carrier.token });
    expect(moved.status).toBe(200);
    const lyon = await placeOf('Lyon', 'FR');
    expect(await tripRow(published.id)).toMatchObject({ arrivalLatitude: lyon.latitude, arrivalLongitude: lyon.longitude, arrivalCell: cellOf(lyon) });
    // A city that is not one of the corridor's places: no point, found by its name only.
    await put(`${API}/annonces/${published.id}`, { arrivalCity: 'Nowhere-sur-Mer' }, { token: carrier.token });
    expect(await tripRow(published.id)).toMatchObject({ arrivalLatitude: null, arrivalLongitude: null, arrivalCell: null });
  });
});

describe('the geometry', () => {
  it('great-circle distances and the box of a disc', () => {
    // Paris - Dakar is about 4,200 km; a degree of latitude about 111.2 km.
    expect(distanceKm({ latitude: 48.8534, longitude: 2.3488 }, { latitude: 14.6937, longitude: -17.4441 })).toBeCloseTo(4205, -1);
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(111.19, 1);
    const box = boxAround({ latitude: 60, longitude: 10 }, 100);
    // At 60 degrees north a degree of longitude is half as long: the box is twice as wide.
    expect(box.maxLatitude - 60).toBeCloseTo(0.8993, 3);
    expect(box.maxLongitude - 10).toBeGreaterThan(1.79);
    // Every point 100 km away in any direction is inside the box, and its cell among the box's cells.
    for (let bearing = 0; bearing < 360; bearing += 15) {
      const p = destination({ latitude: 60, longitude: 10 }, 99.9, bearing);
      expect(p.latitude).toBeGreaterThanOrEqual(box.minLatitude);
      expect(p.latitude).toBeLessThanOrEqual(box.maxLatitude);
      expect(p.longitude).toBeGreaterThanOrEqual(box.minLongitude);
      expect(p.longitude).toBeLessThanOrEqual(box.maxLongitude);
      expect(cellsOf(box)).toContain(cellOf(p));
    }
  });
});

/** The point `km` away from `from` along `bearing` degrees (great circle). */
function destination(from: { latitude: number; longitude: number }, km: number, bearing: number) {
  const R = 6371.0088;
  const rad = Math.PI / 180;
  const d = km / R;
  const lat1 = from.latitude * rad;
  const b = bearing * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 = from.longitude * rad + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { latitude: lat2 / rad, longitude: lng2 / rad };
}

describe('GET /annonces with radiusKm', () => {
  it('finds the trips leaving near the asked departure and arriving near the asked arrival, with their distances', async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const fromThies = await trip(carrier, THIES, ORLY, day);
    const direct = await trip(carrier, DAKAR, PARIS, day);
    const fromSaintLouis = await trip(carrier, SAINT_LOUIS, PARIS, day);
    await trip(carrier, DAKAR, LYON, day);
    const window = { dateFrom: daysFromToday(day), dateTo: daysFromToday(day) };

    // Without a radius only the city names match, as before.
    expect((await search({ departureCity: 'Dakar', arrivalCity: 'Paris', ...window })).body.content.map((t: { id: number }) => t.id)).toEqual([direct.id]);

    const near = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', radiusKm: 100, ...window });
    expect(near.status).toBe(200);
    const [dakar, thies, paris, orly, saintLouis] = await Promise.all([
      placeOf('Dakar', 'SN'), placeOf('Thiès', 'SN'), placeOf('Paris', 'FR'), placeOf('Orly', 'FR'), placeOf('Saint-Louis', 'SN'),
    ]);
    const thiesKm = Math.round(distanceKm(dakar, thies) * 10) / 10;
    const orlyKm = Math.round(distanceKm(paris, orly) * 10) / 10;
    expect(thiesKm).toBeGreaterThan(50);
    expect(thiesKm).toBeLessThan(80);
    expect(near.body.content.map((t: { id: number; departureDistanceKm: number; arrivalDistanceKm: number }) => [t.id, t.departureDistanceKm, t.arrivalDistanceKm])).toEqual([
      [direct.id, 0, 0],
      [fromThies.id, thiesKm, orlyKm],
    ]);
    expect(near.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });

    // Saint-Louis is about 180 km from Dakar: within 300 km, not within 100. Lyon (about 390 km from Paris) never.
    const wide = await search({ departureCity: 'dakar', arrivalCity: 'PARIS', departureCountry: 'SN', radiusKm: 300, ...window });
    const saintLouisKm = Math.round(distanceKm(dakar, saintLouis) * 10) / 10;
    expect(saintLouisKm).toBeGreaterThan(100);
    expect(wide.body.content.map((t: { id: number; departureDistanceKm: number }) => [t.id, t.departureDistanceKm])).toEqual([
      [direct.id, 0],
      [fromThies.id, thiesKm],
      [fromSaintLouis.id, saintLouisKm],
    ]);

    // One end only: the other is not measured (null).
    const fromNear = await search({ departureCity: 'Dakar', radiusKm: 100, ...window });
    expect(fromNear.body.content.map((t: { id: number; arrivalDistanceKm: unknown }) => [t.id, t.arrivalDistanceKm]).sort()).toEqual(
      [[direct.id, null], [fromThies.id, null], [(fromNear.body.content as { id: number; arrivalCity: string }[]).find((t) => t.arrivalCity === 'Lyon')!.id, null]].sort(),
    );
  });

  it('the towns around Dakar that the main data set lacks (Rufisque, Mbour, Guédiawaye) are places too, and a trip from Rufisque is found', async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const [dakar, rufisque, mbour, written, guediawaye] = await Promise.all([
      placeOf('Dakar', 'SN'), placeOf('Rufisque', 'SN'), placeOf('Mbour', 'SN'), placeOf("M'bour", 'SN'), placeOf('Guediawaye', 'SN'),
    ]);
    expect([rufisque?.name, mbour?.name, guediawaye?.name]).toEqual(['Rufisque', 'Mbour', 'Guédiawaye']);
    expect(written).toMatchObject({ latitude: mbour.latitude, longitude: mbour.longitude });
    const rufisqueKm = Math.round(distanceKm(dakar, rufisque) * 10) / 10;
    expect(rufisqueKm).toBeGreaterThan(15);
    expect(rufisqueKm).toBeLessThan(25);
    const fromRufisque = await trip(carrier, ['Rufisque', 'SN'], ORLY, day);
    expect(await tripRow(fromRufisque.id)).toMatchObject({ departureLatitude: rufisque.latitude, departureCell: cellOf(rufisque) });
    const near = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', radiusKm: 30, date: daysFromToday(day) });
    expect(near.body.content.map((t: { id: number; departureDistanceKm: number }) => [t.id, t.departureDistanceKm])).toEqual([[fromRufisque.id, rufisqueKm]]);
  });

  it('a city that is not a known place is matched by its name, at distance 0', async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const hamlet = await trip(carrier, ['Ndiaganiao Village', 'SN'], ORLY, day);
    const res = await search({ departureCity: 'ndiaganiao village', arrivalCity: 'Paris', radiusKm: 50, dateFrom: daysFromToday(day), dateTo: daysFromToday(day) });
    expect(res.body.content.map((t: { id: number; departureDistanceKm: number }) => [t.id, t.departureDistanceKm])).toEqual([[hamlet.id, 0]]);
  });
});

describe('GET /annonces with date and dateFlexDays', () => {
  it('finds trips up to dateFlexDays either side of date, best first by the documented score', async () => {
    const carrier = await aCarrier();
    const rated = await aCarrier();
    const day = ownDay();
    const onTheDay = await trip(carrier, DAKAR, PARIS, day, { pricePerKg: 8 });
    const dayAfter = await trip(carrier, DAKAR, PARIS, day + 1, { pricePerKg: 8 });
    const dearer = await trip(carrier, DAKAR, PARIS, day, { pricePerKg: 12 });
    const nearby = await trip(carrier, THIES, ORLY, day, { pricePerKg: 8 });
    const byRated = await trip(rated, DAKAR, PARIS, day - 1, { pricePerKg: 8 });
    await trip(carrier, DAKAR, PARIS, day + 2, { pricePerKg: 8 }); // outside one day of flexibility
    await db().insert(userRatings).values({ userId: rated.id, reviewCount: 2, ratingSum: 10 }).onConflictDoUpdate({ target: userRatings.userId, set: { reviewCount: 2, ratingSum: 10 } });

    const res = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', radiusKm: 100, date: daysFromToday(day), dateFlexDays: 1 });
    expect(res.status).toBe(200);
    const ids = res.body.content.map((t: { id: number }) => t.id);
    // Scores (km): on the day 0 + unrated 25 = 25; the rated carrier a day early 50 + 0 = 50; 50 % dearer
    // 50 + 25 = 75, tied with the day after (50 + 25) and first by its earlier departure; Thiès - Orly
    // about 70 km + 25.
    expect(ids).toEqual([onTheDay.id, byRated.id, dearer.id, dayAfter.id, nearby.id]);
    expect(res.body.page.totalElements).toBe(5);
    // The card shows the rating the trip was ranked by.
    expect(res.body.content.map((t: { carrier: { ratingAverage: number | null; reviewCount: number } }) => [t.carrier.ratingAverage, t.carrier.reviewCount])).toEqual([
      [null, 0], [5, 2], [null, 0], [null, 0], [null, 0],
    ]);

    // Without a radius: the names only, the same order without Thiès; no distances.
    const named = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', date: daysFromToday(day), dateFlexDays: 1 });
    expect(named.body.content.map((t: { id: number }) => t.id)).toEqual([onTheDay.id, byRated.id, dearer.id, dayAfter.id]);
    expect(named.body.content[0]).not.toHaveProperty('departureDistanceKm');

    // dateFlexDays 0: the day itself; dateFrom/dateTo narrow the window further.
    expect((await search({ departureCity: 'Dakar', arrivalCity: 'Paris', date: daysFromToday(day) })).body.content.map((t: { id: number }) => t.id)).toEqual([onTheDay.id, dearer.id]);
    expect(
      (await search({ departureCity: 'Dakar', arrivalCity: 'Paris', date: daysFromToday(day), dateFlexDays: 1, dateFrom: daysFromToday(day + 1) })).body.content.map((t: { id: number }) => t.id),
    ).toEqual([dayAfter.id]);
    // Pages follow the ranking.
    const second = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', radiusKm: 100, date: daysFromToday(day), dateFlexDays: 1, size: 2, page: 1 });
    expect(second.body.content.map((t: { id: number }) => t.id)).toEqual([dearer.id, dayAfter.id]);
    expect(second.body.page).toEqual({ number: 1, size: 2, totalElements: 5, totalPages: 3 });
  });

  it('the score: distance, date gap, price within its currency, rating', () => {
    expect(scoreOf({ departureKm: 10, arrivalKm: 5, dayGap: 2, pricePerKgCents: 1500, cheapest: 1000, rating: 4 })).toBe(15 + 2 * KM_PER_DAY_OFF + 50 + KM_PER_STAR_MISSING);
    expect(scoreOf({ departureKm: null, arrivalKm: null, dayGap: 0, pricePerKgCents: 9000, cheapest: 1000, rating: null })).toBe(100 + KM_PER_STAR_MISSING * (5 - UNRATED_STARS));
    const base = { departureDate: '2030-01-01', departureLatitude: 0, departureLongitude: 0, arrivalLatitude: 10, arrivalLongitude: 10, ratingCount: null, ratingSum: null };
    // 5000 XOF is the cheapest in francs, 9 EUR the cheapest in euros: neither is "dearer" than the other.
    const ranked = rankNearby(
      [
        { ...base, id: 1, pricePerKgCents: 900, currency: 'EUR' },
        { ...base, id: 2, pricePerKgCents: 5000, currency: 'XOF' },
        { ...base, id: 3, pricePerKgCents: 1800, currency: 'EUR' },
      ],
      { departure: { latitude: 0, longitude: 0 }, arrival: { latitude: 10, longitude: 10 }, radiusKm: 10 },
    );
    expect(ranked.map((r) => [r.id, r.score])).toEqual([[1, 25], [2, 25], [3, 125]]);
  });
});

describe('the limits', () => {
  it('out-of-range and inconsistent parameters are 400 with fieldErrors', async () => {
    const cases: [Record<string, string | number>, string, unknown][] = [
      [{ departureCity: 'Dakar', radiusKm: 301 }, 'radiusKm', '301'],
      [{ departureCity: 'Dakar', radiusKm: -1 }, 'radiusKm', '-1'],
      [{ date: daysFromToday(3), dateFlexDays: 8 }, 'dateFlexDays', '8'],
      [{ date: daysFromToday(3), dateFlexDays: -1 }, 'dateFlexDays', '-1'],
      [{ dateFlexDays: 2 }, 'dateFlexDays', '2'],
      [{ radiusKm: 50 }, 'radiusKm', '50'],
      [{ date: '2030-02-30' }, 'date', '2030-02-30'],
    ];
    for (const [query, field, rejectedValue] of cases) {
      const res = await search(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(errorBody(res)).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field, rejectedValue })] });
    }
    const typed = await search({ departureCity: 'Dakar', radiusKm: 'far' });
    expect(typed.status).toBe(400);
    expect(errorBody(typed).fieldErrors).toEqual([expect.objectContaining({ field: 'radiusKm' })]);
    // The bounds themselves are accepted.
    expect((await search({ departureCity: 'Dakar', radiusKm: 300, date: daysFromToday(3), dateFlexDays: 7 })).status).toBe(200);
    expect((await search({ departureCity: 'Dakar', radiusKm: 0 })).status).toBe(200);
  });

  it('past 1,000 matching trips the total is capped and says so', async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const model = await trip(carrier, THIES, ORLY, day);
    await copies(model, 1000);
    const res = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', radiusKm: 100, date: daysFromToday(day) });
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ number: 0, size: 20, totalElements: 1000, totalPages: 50, totalCapped: true });
    // Still best first among those weighed: the cheapest (the model) leads.
    expect(res.body.content[0].id).toBe(model.id);
  });
});

describe('flat cost (CONTRACT section 30)', () => {
  it("a route search's total reads one row per day with trips, however many trips; other filters one index entry per match", async () => {
    const carrier = await aCarrier();
    const from: [string, string] = [`Flatville ${nextDay}`, 'SN'];
    const day = ownDay();
    const model = await trip(carrier, from, PARIS, day);
    const other = await trip(carrier, from, PARIS, day + 1);
    const rowsRead = async (query: Record<string, string | number> = {}) => {
      const res = await search({ departureCity: from[0], arrivalCity: 'Paris', size: 1, ...query });
      expect(res.status).toBe(200);
      return { rows: Number(res.headers.get('x-d1-rows-read')), total: res.body.page.totalElements as number };
    };
    await copies(model, 8);
    const ten = [await rowsRead(), await rowsRead({ transportMode: 'PLANE' })];
    await copies(model, 20);
    await copies(other, 20);
    const fifty = [await rowsRead(), await rowsRead({ transportMode: 'PLANE' })];
    expect([ten.map((r) => r.total), fifty.map((r) => r.total)]).toEqual([[10, 10], [50, 50]]);
    // The page (one trip, its carrier) is the same. By route: the same two days, the same rows
    // (counting the trips read 80 rows more: each one's index entry and its carrier). With another
    // filter the 40 more matches cost their 40 index entries (80 while each carrier was looked up).
    expect(fifty[0].rows - ten[0].rows).toBe(0);
    expect(fifty[1].rows - ten[1].rows).toBe(40);
  });

  it('a nearby search reads 2 rows per trip it weighs and 4 more per trip it returns, the rest fixed', async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const model = await trip(carrier, THIES, ORLY, day);
    const rowsRead = async (size: number) => {
      const res = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', radiusKm: 100, date: daysFromToday(day), dateFlexDays: 1, size });
      expect(res.status).toBe(200);
      return { rows: Number(res.headers.get('x-d1-rows-read')), total: res.body.page.totalElements as number, shown: res.body.content.length as number };
    };
    await copies(model, 4);
    const five = [await rowsRead(1), await rowsRead(100)];
    await copies(model, 10);
    const fifteen = [await rowsRead(1), await rowsRead(100)];
    expect([five.map((r) => [r.total, r.shown]), fifteen.map((r) => [r.total, r.shown])]).toEqual([[[5, 1], [5, 5]], [[15, 1], [15, 15]]]);
    // Weighing a candidate: its cells index entry and its carrier's rating. Showing it: its id, the
    // trip, its carrier and the carrier's cancellation counts (the rating shown is the one weighed).
    expect(fifteen[0].rows - five[0].rows).toBe(10 * 2);
    expect(fifteen[1].rows - five[1].rows).toBe(10 * (2 + 4));
  });

  it("the route's day totals follow every write of a trip: publishing, editing, cancelling, a status, a suspension, a deletion", async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const from: [string, string] = [`Totalville ${day}`, 'SN'];
    /** The day totals against the trips themselves, for every route and day (the search's own rule: ACTIVE, publisher not suspended). */
    const drift = async () => {
      const kept = await env.DB.prepare('SELECT departure_city_key k1, arrival_city_key k2, departure_date d, trips n FROM route_day_trips WHERE trips <> 0 ORDER BY 1, 2, 3').all();
      const counted = await env.DB.prepare(
        `SELECT departure_city_key k1, arrival_city_key k2, departure_date d, count(*) n FROM announcements
         WHERE status = 'ACTIVE' AND publisher_suspended = 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      ).all();
      expect(kept.results).toEqual(counted.results);
      // The routes' totals (migration 0080) are the sums of their days, and no day is kept at 0.
      const routes = await env.DB.prepare('SELECT departure_city_key k1, arrival_city_key k2, trips n FROM route_trips WHERE trips <> 0 ORDER BY 1, 2').all();
      const summed = await env.DB.prepare(
        `SELECT departure_city_key k1, arrival_city_key k2, count(*) n FROM announcements WHERE status = 'ACTIVE' AND publisher_suspended = 0 GROUP BY 1, 2 ORDER BY 1, 2`,
      ).all();
      expect(routes.results).toEqual(summed.results);
      expect((await env.DB.prepare('SELECT count(*) n FROM route_day_trips WHERE trips = 0').first<{ n: number }>())!.n).toBe(0);
    };
    const total = async () => (await search({ departureCity: from[0], arrivalCity: 'Paris' })).body.page.totalElements;
    const a = await trip(carrier, from, PARIS, day);
    const b = await trip(carrier, from, PARIS, day + 1);
    await copies(a, 3);
    expect(await total()).toBe(5);
    await drift();
    expect((await put(`${API}/annonces/${a.id}`, { departureDate: daysFromToday(day + 2), arrivalDate: daysFromToday(day + 3) }, { token: carrier.token })).status).toBe(200);
    expect((await put(`${API}/annonces/${b.id}`, { arrivalCity: 'Lyon' }, { token: carrier.token })).status).toBe(200);
    expect(await total()).toBe(4);
    await drift();
    expect((await del(`${API}/annonces/${a.id}`, { token: carrier.token })).status).toBe(204);
    await env.DB.prepare(`UPDATE announcements SET status = 'FULL' WHERE id = (SELECT max(id) FROM announcements WHERE departure_city_key = ?)`).bind(cityKey(from[0])).run();
    expect(await total()).toBe(2);
    await drift();
    await env.DB.prepare('UPDATE users SET enabled = 0 WHERE id = ?').bind(carrier.id).run();
    expect(await total()).toBe(0);
    await drift();
    await env.DB.prepare('UPDATE users SET enabled = 1 WHERE id = ?').bind(carrier.id).run();
    await env.DB.prepare(`DELETE FROM announcements WHERE id = (SELECT max(id) FROM announcements WHERE departure_city_key = ? AND status = 'ACTIVE')`).bind(cityKey(from[0])).run();
    expect(await total()).toBe(1);
    await drift();
  });

  it("a route search without an end date reads the same rows whether its trips fall on 2 days or 12; departed trips the cron has not closed, and days before dateFrom, are not counted", async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const from: [string, string] = [`Flatville ${day}`, 'SN'];
    const rowsRead = async (query: Record<string, string | number> = {}) => {
      const res = await search({ departureCity: from[0], arrivalCity: 'Paris', size: 1, ...query });
      expect(res.status).toBe(200);
      return { rows: Number(res.headers.get('x-d1-rows-read')), total: res.body.page.totalElements as number };
    };
    await trip(carrier, from, PARIS, day);
    await trip(carrier, from, PARIS, day + 1);
    const two = await rowsRead();
    for (let d = 2; d < 12; d++) await trip(carrier, from, PARIS, day + d);
    const twelve = await rowsRead();
    expect([two.total, twelve.total]).toEqual([2, 12]);
    expect(twelve.rows).toBe(two.rows);
    // From a later day: the days before it are taken away (one row each), not the ones after it counted.
    expect((await rowsRead({ dateFrom: daysFromToday(day + 10) })).total).toBe(2);
    // With an end date the days of the range are summed.
    expect((await rowsRead({ dateFrom: daysFromToday(day + 3), dateTo: daysFromToday(day + 5) })).total).toBe(3);
    // A trip departed yesterday and still ACTIVE (the cron closes such trips later) is not in a search from today.
    const departed = await trip(carrier, from, PARIS, day);
    await env.DB.prepare('UPDATE announcements SET departure_date = ?, arrival_date = ? WHERE id = ?').bind(daysFromToday(-1), daysFromToday(0), departed.id).run();
    expect((await env.DB.prepare('SELECT trips FROM route_trips WHERE departure_city_key = ?').bind(cityKey(from[0])).first<{ trips: number }>())!.trips).toBe(13);
    const listed = await search({ departureCity: from[0], arrivalCity: 'Paris', size: 100 });
    expect([listed.body.page.totalElements, listed.body.content.length]).toEqual([12, 12]);
    await closeDepartedAnnouncements(depsOf(env));
    expect((await env.DB.prepare('SELECT trips FROM route_trips WHERE departure_city_key = ?').bind(cityKey(from[0])).first<{ trips: number }>())!.trips).toBe(12);
    expect((await env.DB.prepare('SELECT count(*) n FROM route_day_trips WHERE departure_city_key = ? AND departure_date < ?').bind(cityKey(from[0]), daysFromToday(0)).first<{ n: number }>())!.n).toBe(0);
    expect((await rowsRead()).total).toBe(12);
  });

  it("a trip written for a suspended carrier stays out of the search until the account is enabled again, whatever writes the rows", async () => {
    const carrier = await aCarrier();
    const day = ownDay();
    const model = await trip(carrier, THIES, ORLY, day);
    const ids = async () => {
      const plain = await search({ departureCity: 'Thiès', arrivalCity: 'Orly', dateFrom: daysFromToday(day), dateTo: daysFromToday(day) });
      const nearby = await search({ departureCity: 'Dakar', arrivalCity: 'Paris', radiusKm: 100, date: daysFromToday(day) });
      return [plain.body.content.length, nearby.body.content.length];
    };
    expect(await ids()).toEqual([1, 1]);
    // Straight SQL, not the admin endpoint: the rule holds for any path that suspends or writes.
    await env.DB.prepare('UPDATE users SET enabled = 0 WHERE id = ?').bind(carrier.id).run();
    await copies(model, 2);
    expect(await ids()).toEqual([0, 0]);
    expect((await tripRow(model.id)).publisherSuspended).toBe(true);
    await env.DB.prepare('UPDATE users SET enabled = 1 WHERE id = ?').bind(carrier.id).run();
    expect(await ids()).toEqual([3, 3]);
  });
});

describe('saved searches with a radius and a flexible date', () => {
  it('notify on new trips near both cities within the days, and only those', async () => {
    const watcher = await aUser();
    const carrier = await aCarrier();
    const day = ownDay();
    const created = await post(
      `${API}/search-alerts`,
      { departureCity: 'Dakar', departureCountry: 'SN', arrivalCity: 'Paris', radiusKm: 100, date: daysFromToday(day), dateFlexDays: 1 },
      { token: watcher.token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ radiusKm: 100, date: daysFromToday(day), dateFlexDays: 1 });
    const matching = await trip(carrier, THIES, ORLY, day + 1);
    await trip(carrier, SAINT_LOUIS, PARIS, day); // about 180 km from Dakar
    await trip(carrier, THIES, ORLY, day + 2); // two days off
    await trip(carrier, DAKAR, LYON, day); // about 390 km from Paris
    const mine = await db().select().from(notifications).where(eq(notifications.userId, watcher.id));
    expect(mine).toMatchObject([{ type: 'ALERT_MATCH', data: { announcementId: matching.id, alertId: created.body.id } }]);
    // The notice says how far each end the radius found lies from the alert's city, in whole km.
    const [dakarAt, thiesAt, parisAt, orlyAt] = await Promise.all([placeOf('Dakar', 'SN'), placeOf('Thiès', 'SN'), placeOf('Paris', 'FR'), placeOf('Orly', 'FR')]);
    const [thiesKm, orlyKm] = [Math.round(distanceKm(dakarAt, thiesAt)), Math.round(distanceKm(parisAt, orlyAt))];
    const listed = await get(`${API}/notifications`, { token: watcher.token, headers: { 'Accept-Language': 'fr' } });
    expect(listed.body.content[0].message).toBe(
      `Nouveau trajet Thiès → Orly le ${new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${daysFromToday(day + 1)}T00:00:00Z`))} (à ${thiesKm} km de Dakar, à ${orlyKm} km de Paris) : 20 kg disponibles à ${formatMoneyIn(800, 'EUR', 'fr')}/kg.`,
    );

    // The same parameters' rules as the search.
    const refused = await post(`${API}/search-alerts`, { departureCity: 'Dakar', radiusKm: 301, dateFlexDays: 8 }, { token: watcher.token });
    expect(refused.status).toBe(400);
    expect((errorBody(refused).fieldErrors as { field: string }[]).map((f) => f.field).sort()).toEqual(['dateFlexDays', 'radiusKm']);
    const [stored] = await db().select().from(searchAlerts).where(eq(searchAlerts.id, created.body.id));
    const dakar = await placeOf('Dakar', 'SN');
    expect(stored).toMatchObject({ radiusKm: 100, departureLatitude: dakar.latitude, departureLongitude: dakar.longitude });
  });
});
