// Where a city is (CONTRACT section 30): the corridor's places in D1 (migration 0076, GeoNames),
// looked up by the normal form of the name (city-key.ts) and the country. Homonyms in a country
// resolve to the most populous; without a country, to the most populous of any.
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { places } from '../../db/schema';
import type { Point } from '../../lib/geo';
import { cityKey } from './city-key';

// The places never change while a worker runs (a migration replaces them): lookups are remembered
// per isolate, the same few hundred names coming back on every search. Bounded: names are free text.
const MAX_REMEMBERED = 2048;
const remembered = new Map<string, Point | null>();

/** The place a city name stands for, or null when it is not one of the corridor's places. */
export async function locate(db: Db, city: string, country?: string | null): Promise<Point | null> {
  const key = cityKey(city);
  const memo = `${country ?? ''}|${key}`;
  const known = remembered.get(memo);
  if (known !== undefined) return known;
  const [found] = await db
    .select({ latitude: places.latitude, longitude: places.longitude })
    .from(places)
    .where(and(eq(places.nameKey, key), country ? eq(places.countryCode, country) : undefined))
    .orderBy(desc(places.population))
    .limit(1);
  const point = found ?? null;
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(memo, point);
  return point;
}
