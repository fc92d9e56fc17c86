// "Best first" of the corridor search (CONTRACT section 30; docs/decisions-search.md). A trip's
// score is a cost in kilometres, lower is better:
//   departure distance + arrival distance (km, great-circle, from the asked cities)
//   + KM_PER_DAY_OFF per day between its departure and the asked date
//   + KM_PER_PRICE_PERCENT per per cent above the cheapest match in its currency (at most 100 %)
//   + KM_PER_STAR_MISSING per star its carrier's average rating is below 5 (unrated: UNRATED_STARS)
// Ties go to the earlier departure, then to the older trip. Prices compare within a currency only
// (CONTRACT section 20): a trip in francs is measured against the cheapest trip in francs.
import { distanceKm, type Point } from '../../lib/geo';

export const KM_PER_DAY_OFF = 50;
export const KM_PER_PRICE_PERCENT = 1;
export const KM_PER_STAR_MISSING = 25;
export const UNRATED_STARS = 4;

/** A candidate as the search reads it. */
export interface Candidate {
  id: number;
  departureDate: string;
  pricePerKgCents: number;
  currency: string;
  departureLatitude: number | null;
  departureLongitude: number | null;
  arrivalLatitude: number | null;
  arrivalLongitude: number | null;
  ratingCount: number | null;
  ratingSum: number | null;
}

export interface Asked {
  /** The asked cities' points; null for an end matched by name (or not asked). */
  departure: Point | null;
  arrival: Point | null;
  radiusKm: number;
  date?: string;
}

export interface Ranked {
  id: number;
  /** null when that end is not measured (no point asked). */
  departureKm: number | null;
  arrivalKm: number | null;
  score: number;
  departureDate: string;
  /** The carrier's rating as the candidate read it (the page shows the one it was ranked by). */
  ratingCount: number | null;
  ratingSum: number | null;
}

const DAY_MS = 86_400_000;
const daysBetween = (a: string, b: string) => Math.round(Math.abs(Date.parse(a) - Date.parse(b)) / DAY_MS);

/** km from the asked point, or null when not measured; NaN for a trip end not on the map (never within a radius). */
function kmFrom(asked: Point | null, latitude: number | null, longitude: number | null): number | null {
  if (!asked) return null;
  return latitude === null || longitude === null ? Number.NaN : distanceKm(asked, { latitude, longitude });
}

/** The score of one trip (lower is better); `cheapest` is the cheapest match in its currency. */
export function scoreOf(t: { departureKm: number | null; arrivalKm: number | null; dayGap: number; pricePerKgCents: number; cheapest: number; rating: number | null }): number {
  const pricePercent = t.cheapest > 0 ? Math.min(100, (100 * (t.pricePerKgCents - t.cheapest)) / t.cheapest) : 0;
  return (
    (t.departureKm ?? 0) +
    (t.arrivalKm ?? 0) +
    KM_PER_DAY_OFF * t.dayGap +
    KM_PER_PRICE_PERCENT * pricePercent +
    KM_PER_STAR_MISSING * (5 - (t.rating ?? UNRATED_STARS))
  );
}

/** The candidates within the radius (exact distance), best first, then by departure date, then by id. */
export function rankNearby(candidates: readonly Candidate[], asked: Asked): Ranked[] {
  const within = candidates
    .map((c) => ({ c, departureKm: kmFrom(asked.departure, c.departureLatitude, c.departureLongitude), arrivalKm: kmFrom(asked.arrival, c.arrivalLatitude, c.arrivalLongitude) }))
    .filter(({ departureKm, arrivalKm }) => (departureKm === null || departureKm <= asked.radiusKm) && (arrivalKm === null || arrivalKm <= asked.radiusKm));
  const cheapest = new Map<string, number>();
  for (const { c } of within) cheapest.set(c.currency, Math.min(cheapest.get(c.currency) ?? Infinity, c.pricePerKgCents));
  return within
    .map(({ c, departureKm, arrivalKm }) => ({
      id: c.id,
      departureKm,
      arrivalKm,
      departureDate: c.departureDate,
      ratingCount: c.ratingCount,
      ratingSum: c.ratingSum,
      score: scoreOf({
        departureKm,
        arrivalKm,
        dayGap: asked.date ? daysBetween(c.departureDate, asked.date) : 0,
        pricePerKgCents: c.pricePerKgCents,
        cheapest: cheapest.get(c.currency) ?? c.pricePerKgCents,
        rating: c.ratingCount ? (c.ratingSum ?? 0) / c.ratingCount : null,
      }),
    }))
    .sort((x, y) => x.score - y.score || x.departureDate.localeCompare(y.departureDate) || x.id - y.id);
}
