// Search alerts: saved searches, owner-only. Matching against new trips lives with announcements
// (announcements/alert-matching.ts) because it runs when a trip is published.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { readPage } from '../../db/statements';
import { searchAlerts, type SearchAlertRow } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { amountOf, fromGrams, toGrams } from '../../lib/money';
import { toMinor } from '../../lib/amount';
import { mainCurrency } from '../../lib/main-currency';
import { appConfig } from '../../config';
import { priceFilterCurrency } from '../announcements/trip-currency';
import { orderBy, toPage, type PageParams } from '../../lib/pagination';
import { assertCanAccess } from '../../access/ownership';
import { notFound } from '../../errors';
import { cityKey } from '../reference/city-key';
import { locate } from '../reference/places';
import type { TRANSPORT_MODES } from '../../db/schema';

export interface AlertInput {
  name?: string | null;
  departureCity?: string | null;
  arrivalCity?: string | null;
  departureCountry?: string | null;
  arrivalCountry?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  minWeight?: number | null;
  maxPricePerKg?: number | null;
  currency?: string | null;
  categoryId?: number | null;
  transportMode?: (typeof TRANSPORT_MODES)[number] | null;
  radiusKm?: number;
  date?: string | null;
  dateFlexDays?: number;
  active?: boolean;
}

export const toAlert = (row: SearchAlertRow) => ({
  id: row.id,
  userId: row.userId,
  name: row.name,
  departureCity: row.departureCity,
  arrivalCity: row.arrivalCity,
  departureCountry: row.departureCountry,
  arrivalCountry: row.arrivalCountry,
  dateFrom: row.dateFrom,
  dateTo: row.dateTo,
  minWeight: row.minWeightG === null ? null : fromGrams(row.minWeightG),
  maxPricePerKg: row.maxPricePerKgCents === null ? null : amountOf(row.maxPricePerKgCents, row.currency ?? 'EUR'),
  currency: row.currency,
  categoryId: row.categoryId,
  transportMode: row.transportMode,
  radiusKm: row.radiusKm,
  date: row.date,
  dateFlexDays: row.dateFlexDays,
  active: row.active,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** PUT replaces every criterion, so absent fields become null, as on create. */
/**
 * A price limit and its currency, as the search compares prices (CONTRACT section 20): the
 * `currency` given, else the departure country's, else the main one; the limit in its decimals.
 */
function priceLimit(env: Env, input: AlertInput) {
  if (input.maxPricePerKg == null) return { maxPricePerKgCents: null, currency: null };
  const config = appConfig(env);
  const filters = { currency: input.currency ?? undefined, departureCountry: input.departureCountry ?? undefined };
  const currency = priceFilterCurrency(filters, config.currencies, mainCurrency(config));
  return { maxPricePerKgCents: toMinor(input.maxPricePerKg, currency, 'maxPricePerKg').minor, currency };
}

const columnsOf = (env: Env, input: AlertInput) => ({
  name: input.name ?? null,
  departureCity: input.departureCity ?? null,
  arrivalCity: input.arrivalCity ?? null,
  departureCityKey: input.departureCity ? cityKey(input.departureCity) : null,
  arrivalCityKey: input.arrivalCity ? cityKey(input.arrivalCity) : null,
  departureCountry: input.departureCountry ?? null,
  arrivalCountry: input.arrivalCountry ?? null,
  dateFrom: input.dateFrom ?? null,
  dateTo: input.dateTo ?? null,
  minWeightG: input.minWeight == null ? null : toGrams(input.minWeight),
  ...priceLimit(env, input),
  categoryId: input.categoryId ?? null,
  transportMode: input.transportMode ?? null,
  radiusKm: input.radiusKm ?? 0,
  date: input.date ?? null,
  dateFlexDays: input.dateFlexDays ?? 0,
  active: input.active ?? true,
});

/** The alert's cities on the map, when it has a radius (CONTRACT section 30). */
async function alertPlaces(db: Db, input: AlertInput) {
  const at = async (city?: string | null, country?: string | null) => ((input.radiusKm ?? 0) > 0 && city ? locate(db, city, country) : null);
  const [from, to] = await Promise.all([at(input.departureCity, input.departureCountry), at(input.arrivalCity, input.arrivalCountry)]);
  return {
    departureLatitude: from?.latitude ?? null,
    departureLongitude: from?.longitude ?? null,
    arrivalLatitude: to?.latitude ?? null,
    arrivalLongitude: to?.longitude ?? null,
  };
}

async function loadOwned(db: Db, auth: AuthUser, id: number) {
  const [row] = await db.select().from(searchAlerts).where(eq(searchAlerts.id, id));
  if (!row) throw notFound('Search alert', id);
  assertCanAccess(auth, [row.userId], []);
  return row;
}

export async function createAlert(deps: Deps, auth: AuthUser, input: AlertInput) {
  const { db } = deps;
  const [row] = await db
    .insert(searchAlerts)
    .values({ userId: auth.id, ...columnsOf(deps.env, input), ...(await alertPlaces(db, input)) })
    .returning();
  return toAlert(row);
}

export async function listAlerts(deps: Deps, auth: AuthUser, p: PageParams<'createdAt'>) {
  const { db } = deps;
  const where = eq(searchAlerts.userId, auth.id);
  const order = orderBy(p.sort, { createdAt: searchAlerts.createdAt }, searchAlerts.id);
  const { rows, total } = await readPage(db, searchAlerts, where, order, p);
  return toPage(rows.map(toAlert), total, p);
}

export const getAlert = async (deps: Deps, auth: AuthUser, id: number) => toAlert(await loadOwned(deps.db, auth, id));

export async function replaceAlert(deps: Deps, auth: AuthUser, id: number, input: AlertInput) {
  const { db } = deps;
  await loadOwned(db, auth, id);
  const [row] = await db
    .update(searchAlerts)
    .set({ ...columnsOf(deps.env, input), ...(await alertPlaces(db, input)), updatedAt: new Date().toISOString() })
    .where(eq(searchAlerts.id, id))
    .returning();
  if (!row) throw notFound('Search alert', id);
  return toAlert(row);
}

export async function deleteAlert(deps: Deps, auth: AuthUser, id: number) {
  const { db } = deps;
  await loadOwned(db, auth, id);
  await db.delete(searchAlerts).where(eq(searchAlerts.id, id));
}
