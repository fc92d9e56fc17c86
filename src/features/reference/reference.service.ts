// Static reference data (countries, their main cities), generated at build time from maintained
// packages by scripts/build-reference-data.mjs. Lookups are memoised per isolate: the data never
// changes while a worker runs, so a named per-isolate cache keyed by country code holds them
// (its hits, misses and size show in GET /superadmin/cache/stats).
import { namedCache } from '../../lib/cache';
import data from './reference-data.generated.json';
import { cityKey } from './city-key';

export interface Country {
  code: string;
  alpha3: string;
  name: string;
}

export interface City {
  name: string;
  countryCode: string;
  population: number;
  latitude: number;
  longitude: number;
}

type CityTuple = [string, number, number, number];

const countries: Country[] = data.countries;
const countryCodes = new Set(countries.map((c) => c.code));
const rawCities = data.cities as unknown as Record<string, CityTuple[]>;

/** Country code -> its cities, built on first request for that country. */
export const CITY_CACHE = 'reference.cities';
const cityCache = namedCache<City[]>(CITY_CACHE);

export const listCountries = (): Country[] => countries;

export const isCountryCode = (code: string): boolean => countryCodes.has(code);

/** Cities of a country, most populous first; `null` for an unknown country code. */
export function listCities(code: string, q?: string): City[] | null {
  const upper = code.toUpperCase();
  if (!countryCodes.has(upper)) return null;
  const cities = cityCache.getOrLoad(upper, () =>
    (rawCities[upper] ?? []).map(([name, population, latitude, longitude]) => ({
      name,
      countryCode: upper,
      population,
      latitude,
      longitude,
    })),
  );
  if (!q) return cities;
  const prefix = cityKey(q);
  return cities.filter((c) => cityKey(c.name).startsWith(prefix));
}

/**
 * The listed city nearest to a point (equirectangular distance, exact enough at city scale), and
 * how far it is: a person reads "near Dakar", not coordinates. Null only without reference data.
 */
export function nearestCity(lat: number, lng: number): { city: City; distanceKm: number } | null {
  let best: { code: string; tuple: CityTuple; d2: number } | null = null;
  const cosLat = Math.cos((lat * Math.PI) / 180);
  for (const [code, list] of Object.entries(rawCities)) {
    for (const tuple of list) {
      const dLat = tuple[2] - lat;
      let dLng = Math.abs(tuple[3] - lng);
      if (dLng > 180) dLng = 360 - dLng;
      const d2 = dLat * dLat + dLng * cosLat * (dLng * cosLat);
      if (!best || d2 < best.d2) best = { code, tuple, d2 };
    }
  }
  if (!best) return null;
  const [name, population, latitude, longitude] = best.tuple;
  return { city: { name, countryCode: best.code, population, latitude, longitude }, distanceKm: Math.sqrt(best.d2) * 111.2 };
}
