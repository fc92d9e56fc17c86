// GET /annonces/price-suggestion (CONTRACT section 22): what carriers asked per kg on a route over
// the last 180 days, in one currency, for a carrier about to publish. By cities when they have at
// least 5 trips, else by countries; below 5 trips there is no figure (nulls), only the count.
import { and, asc, eq, gte, ne, type SQL } from 'drizzle-orm';
import { announcements } from '../../db/schema';
import type { Deps } from '../../env';
import { amountOf } from '../../lib/money';
import { cityKey } from '../reference/city-key';

/** Fewer trips than this say nothing reliable: no figures. */
export const MIN_SAMPLE = 5;
/** How far back trips count, by departure date. */
export const LOOKBACK_DAYS = 180;
/** At most this many prices are read (a busy route's last ones); percentiles hardly move beyond. */
const MAX_SAMPLE = 5000;

/**
 * The p-th percentile (0..1) of ascending integer prices, linear between the closest ranks (the
 * spreadsheet PERCENTILE.INC), rounded half up to the minor unit. `sorted` is not empty.
 */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.min(low + 1, sorted.length - 1);
  return Math.round(sorted[low] + (sorted[high] - sorted[low]) * (rank - low));
}

export interface SuggestionFigures {
  sampleSize: number;
  p25Cents: number | null;
  medianCents: number | null;
  p75Cents: number | null;
}

/** The figures of a sample (ascending prices in minor units): nulls below MIN_SAMPLE. */
export function figuresOf(sorted: readonly number[]): SuggestionFigures {
  if (sorted.length < MIN_SAMPLE) return { sampleSize: sorted.length, p25Cents: null, medianCents: null, p75Cents: null };
  return { sampleSize: sorted.length, p25Cents: percentile(sorted, 0.25), medianCents: percentile(sorted, 0.5), p75Cents: percentile(sorted, 0.75) };
}

export interface SuggestionQuery {
  departureCountry: string;
  arrivalCountry: string;
  departureCity?: string;
  arrivalCity?: string;
  currency: string;
}

/** YYYY-MM-DD `days` before `now` (UTC). */
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);

async function pricesWhere(deps: Deps, where: SQL): Promise<number[]> {
  const rows = await deps.db
    .select({ price: announcements.pricePerKgCents })
    .from(announcements)
    .where(where)
    .orderBy(asc(announcements.pricePerKgCents))
    .limit(MAX_SAMPLE);
  return rows.map((r) => r.price);
}

export async function priceSuggestion(deps: Deps, q: SuggestionQuery, now = new Date()) {
  // Every trip published on the route whatever became of it, except those withdrawn (CANCELLED).
  const route = and(
    eq(announcements.departureCountry, q.departureCountry),
    eq(announcements.arrivalCountry, q.arrivalCountry),
    gte(announcements.departureDate, daysBefore(now, LOOKBACK_DAYS)),
    eq(announcements.currency, q.currency),
    ne(announcements.status, 'CANCELLED'),
  )!;
  let figures: SuggestionFigures | null = null;
  if (q.departureCity !== undefined || q.arrivalCity !== undefined) {
    const cities = and(
      route,
      q.departureCity !== undefined ? eq(announcements.departureCityKey, cityKey(q.departureCity)) : undefined,
      q.arrivalCity !== undefined ? eq(announcements.arrivalCityKey, cityKey(q.arrivalCity)) : undefined,
    )!;
    const byCity = figuresOf(await pricesWhere(deps, cities));
    if (byCity.sampleSize >= MIN_SAMPLE) figures = byCity;
  }
  figures ??= figuresOf(await pricesWhere(deps, route));
  const amount = (minor: number | null) => (minor === null ? null : amountOf(minor, q.currency));
  return {
    currency: q.currency,
    median: amount(figures.medianCents),
    p25: amount(figures.p25Cents),
    p75: amount(figures.p75Cents),
    sampleSize: figures.sampleSize,
  };
}
