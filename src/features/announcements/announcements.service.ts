// Announcements (trips): create, search, read, update, delete, and the cron that closes departed
// trips. Capacity arithmetic is in grams and money in cents; the edge converts.
import { and, count, eq, gt, gte, inArray, lt, lte, notExists, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { compiled, runAlone, compiledShapes, pageTotal, rowExists, withTotal } from '../../db/statements';
import { announcements, carrierCancellationCounts, reservations, routeDayTrips, routeTrips, userRatings, users, type AnnouncementRow, type CancellationPolicy } from '../../db/schema';
import { AppError, businessRule, type FieldError, invalidState, notFound, validationError, msg } from '../../errors';
import { textDay } from '../../lib/message-text';
import type { AuthUser, Deps } from '../../env';
import { fromGrams, toGrams } from '../../lib/money';
import type { CurrencyCode } from '../../lib/currency';
import { mainCurrency } from '../../lib/main-currency';
import { appConfig } from '../../config';
import { currencyFixed, NO_CURRENCIES, priceBoundMinor, priceFilterCurrency, pricePerKgMinor, tripCurrency, updatedPrice, type CurrencySettings } from './trip-currency';
import { jsonArrayIncludes } from '../../lib/json-array';
import { offsetOf, orderBy, toCappedPage, type PageParams } from '../../lib/pagination';
import { accessDenied } from '../../errors';
import { hasRole } from '../../middleware/auth';
import { auditInsertIfChanged } from '../audit/audit';
import { actsForTrip, assertCanManageTrip, publishedAndActingCondition } from '../../access/trip-access';
import { assertStaffCanPublish, isAgencyVisible, staffScope } from '../../access/agency-scope';
import { closeCheckout, PAYMENT_STATUS } from '../money';
import { commitTransitions, type TransitionPlan } from '../reservations/lifecycle';
import { IN_PROGRESS_PAID_STATUSES } from '../reservations/reservation-state';
import { changedTerms, RETERMED_STATUSES, ROUTE_FIELDS, termsOf, type TripTerms } from '../reservations/reservation-terms';
import { unusableCategoryIds } from '../categories/categories.service';
import { notify, reservationRef, type Notification } from '../deliveries/notify';
import { cityKey } from '../reference/city-key';
import { SEARCH_TOTAL_CAP, todayUtc, tripDateErrors } from './announcement-rules';
import { remainingCapacitySql } from './capacity';
import { notifyMatchingAlerts } from './alert-matching';
import { anyReservation, hasReservations, liveReservations, newerLiveReservations, paidInProgress } from './trip-reservations';
import { isCarrierAvailable, publisherListedCondition } from './carrier-availability';
import { carrierColumns, listedCarrierColumns, listedColumns, toAnnouncement } from './announcement-view';
import { movesRoute, tripPlaces } from './trip-places';

export const ANNOUNCEMENT_SORTS = ['departureDate', 'pricePerKg', 'createdAt'] as const;
export type AnnouncementSort = (typeof ANNOUNCEMENT_SORTS)[number];

type TransportMode = AnnouncementRow['transportMode'];
type AnnouncementStatus = AnnouncementRow['status'];

export interface AnnouncementInput {
  departureCity: string;
  departureCountry: string;
  arrivalCity: string;
  arrivalCountry: string;
  departureDate: string;
  arrivalDate: string;
  /** kg */
  totalWeight: number;
  pricePerKg: number;
  pickupPoint?: string | null;
  deliveryPoint?: string | null;
  description?: string | null;
  transportMode: TransportMode;
  /** CONTRACT section 22; MODERATE when left out at publishing. */
  cancellationPolicy?: CancellationPolicy;
  acceptedCategoryIds?: number[];
  /** Agency staff: the branch publishing the trip. */
  branchId?: number | null;
  /** ISO 4217; default the departure country's (trip-currency.ts). */
  currency?: string;
}

export interface SearchFilters {
  departureCity?: string;
  arrivalCity?: string;
  departureCountry?: string;
  arrivalCountry?: string;
  dateFrom?: string;
  dateTo?: string;
  minWeight?: number;
  currency?: string;
  maxPricePerKg?: number;
  minPricePerKg?: number;
  categoryId?: number;
  transportMode?: TransportMode;
  /** Only trips whose proof of travel an operator approved (true), or only the others (false). */
  travelVerified?: boolean;
}


function bodyInvalid(fieldErrors: FieldError[]): AppError {
  return validationError('announcement.validationFailedFields', { fieldErrors: fieldErrors.map((f) => f.field).join(', ') }, {
    fieldErrors,
    suggestions: ['validation.correctFields'],
  });
}

async function assertValid(deps: Deps, dates: { departureDate: string; arrivalDate: string } | null, categoryIds?: number[]) {
  const errors = dates ? tripDateErrors(dates.departureDate, dates.arrivalDate, todayUtc()) : [];
  if (categoryIds?.length) {
    const bad = await unusableCategoryIds(deps, categoryIds);
    if (bad.length) {
      errors.push({ field: 'acceptedCategoryIds', message: msg('announcement.unknownProhibitedCategories', { bad: bad.join(', ') }), rejectedValue: categoryIds });
    }
  }
  if (errors.length) throw bodyInvalid(errors);
}

async function loadWithCarrier(db: Db, id: number) {
  const [hit] = await db
    .select({ announcement: announcements, carrier: carrierColumns, carrierEnabled: users.enabled })
    .from(announcements)
    .innerJoin(users, eq(users.id, announcements.carrierId))
    .leftJoin(userRatings, eq(userRatings.userId, announcements.carrierId))
    .leftJoin(carrierCancellationCounts, eq(carrierCancellationCounts.carrierId, announcements.carrierId))
    .where(eq(announcements.id, id));
  if (!hit) throw notFound('Announcement', id);
  return hit;
}

export async function getAnnouncement(deps: Deps, id: number) {
  const { db } = deps;
  const { announcement, carrier } = await loadWithCarrier(db, id);
  return toAnnouncement(announcement, carrier);
}

/**
 * The public read: a suspended agency's trips are hidden as if they did not exist. A suspended
 * carrier's trips too, except to those who have a reservation on it (or carry it) and to admins:
 * `viewer` is the caller of an optional bearer token, asked only for such a trip.
 */
export async function getVisibleAnnouncement(deps: Deps, id: number, viewer: () => Promise<AuthUser | null> = async () => null) {
  const { db } = deps;
  const { announcement, carrier, carrierEnabled } = await loadWithCarrier(db, id);
  if (!(await isAgencyVisible(deps, announcement.agencyId))) throw notFound('Announcement', id);
  if (!isCarrierAvailable(announcement, carrierEnabled) && !(await mayReadWithdrawnTrip(deps, await viewer(), announcement))) {
    throw notFound('Announcement', id);
  }
  return toAnnouncement(announcement, carrier);
}

/** A withdrawn trip (its carrier suspended) stays readable to its carrier, admins and its bookers. */
async function mayReadWithdrawnTrip(deps: Deps, viewer: AuthUser | null, a: AnnouncementRow): Promise<boolean> {
  if (!viewer) return false;
  if (hasRole(viewer, 'ROLE_ADMIN') || (await actsForTrip(deps, viewer, a))) return true;
  const [booked] = await deps.db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(eq(reservations.announcementId, a.id), eq(reservations.senderId, viewer.id)))
    .limit(1);
  return booked !== undefined;
}

export async function createAnnouncement(deps: Deps, auth: AuthUser, input: AnnouncementInput) {
  const { db } = deps;
  const acceptedCategoryIds = [...new Set(input.acceptedCategoryIds ?? [])];
  const currency = tripCurrency(input.currency, input.departureCountry, appConfig(deps.env).currencies);
  const pricePerKgCents = pricePerKgMinor(input.pricePerKg, currency);
  await assertValid(deps, input, acceptedCategoryIds);
  const placement = await publisherPlacement(deps, auth, input.branchId);
  const placed = await tripPlaces(db, input);
  const [row] = await db
    .insert(announcements)
    .values({
      carrierId: auth.id,
      agencyId: placement.agencyId,
      branchId: placement.branchId,
      departureCity: input.departureCity,
      departureCountry: input.departureCountry,
      arrivalCity: input.arrivalCity,
      arrivalCountry: input.arrivalCountry,
      departureCityKey: cityKey(input.departureCity),
      arrivalCityKey: cityKey(input.arrivalCity),
      departureDate: input.departureDate,
      arrivalDate: input.arrivalDate,
      totalWeightG: toGrams(input.totalWeight),
      pricePerKgCents,
      currency,
      pickupPoint: input.pickupPoint ?? null,
      deliveryPoint: input.deliveryPoint ?? null,
      description: input.description ?? null,
      transportMode: input.transportMode,
      cancellationPolicy: input.cancellationPolicy ?? 'MODERATE',
      acceptedCategoryIds,
      ...placed,
    })
    .returning();
  await notifyMatchingAlerts(db, row);
  return getAnnouncement(deps, row.id);
}

/**
 * Agency staff publish for their agency (and branch) under its rules: a suspended agency or a
 * deactivated branch cannot publish. Anyone else publishes as an individual carrier, which needs
 * a verified identity.
 */
async function publisherPlacement(deps: Deps, auth: AuthUser, branchId: number | null | undefined) {
  const scope = await staffScope(deps, auth.id);
  if (scope) return assertStaffCanPublish(deps, scope, branchId);
  if (branchId != null) throw accessDenied('announcement.onlyAgencyStaffPublish');
  if (!hasRole(auth, 'ROLE_VERIFIED_USER')) throw accessDenied('announcement.publishingTripRequiresVerified');
  return { agencyId: null, branchId: null };
}

/**
 * An edit or cancellation of an agency's trip is audited with who made it (CONTRACT 25), in the
 * change's batch just after the trip's UPDATE, and only if that UPDATE applied.
 */
const staffAudit = (db: Db, auth: AuthUser, a: AnnouncementRow, action: string, ip: string | null, details: Record<string, unknown> = {}) =>
  a.agencyId === null
    ? []
    : [auditInsertIfChanged(db, { actorId: auth.id, action, targetType: 'ANNOUNCEMENT', targetId: a.id, ip, details: { agencyId: a.agencyId, branchId: a.branchId, ...details } })];

const sortColumns = {
  departureDate: announcements.departureDate,
  pricePerKg: announcements.pricePerKgCents,
  createdAt: announcements.createdAt,
};

/** The search's parameters as the WHERE binds them (units converted); undefined when not filtered on. */
export function searchValues(filters: SearchFilters, today: string, currencies: CurrencySettings = NO_CURRENCIES, sortField?: AnnouncementSort) {
  const priced = filters.maxPricePerKg !== undefined || filters.minPricePerKg !== undefined || sortField === 'pricePerKg';
  // A price compares within one currency (CONTRACT section 20): a price filter or a sort by price
  // fixes the currency (9 EUR is not cheaper than 5000 XOF as numbers).
  const currency = priced ? priceFilterCurrency(filters, currencies.enabled, currencies.main) : filters.currency;
  const bound = (value: number | undefined, side: 'max' | 'min') =>
    value !== undefined && currency !== undefined ? priceBoundMinor(value, currency as CurrencyCode, side) : undefined;
  return {
    from: filters.dateFrom && filters.dateFrom > today ? filters.dateFrom : today,
    dateTo: filters.dateTo,
    departureCity: filters.departureCity ? cityKey(filters.departureCity) : undefined,
    arrivalCity: filters.arrivalCity ? cityKey(filters.arrivalCity) : undefined,
    departureCountry: filters.departureCountry,
    arrivalCountry: filters.arrivalCountry,
    minWeightG: filters.minWeight !== undefined ? toGrams(filters.minWeight) : undefined,
    currency,
    maxPriceCents: bound(filters.maxPricePerKg, 'max'),
    minPriceCents: bound(filters.minPricePerKg, 'min'),
    transportMode: filters.transportMode,
    categoryId: filters.categoryId,
    travelVerified: filters.travelVerified,
  };
}
export type SearchKey = keyof ReturnType<typeof searchValues>;

const SEARCH_KEYS = Object.keys(searchValues({}, '')) as SearchKey[];

/** The WHERE over `has` filters, each bound to `v[key]` (a value, or a placeholder when compiled). */
export function searchWhere(has: ReadonlySet<SearchKey>, v: Record<SearchKey, unknown>): SQL | undefined {
  const a = announcements;
  const when = (key: SearchKey, condition: () => SQL) => (has.has(key) ? condition() : undefined);
  return and(
    eq(a.status, 'ACTIVE'),
    gte(a.departureDate, v.from as string),
    publisherListedCondition(),
    when('dateTo', () => lte(a.departureDate, v.dateTo as string)),
    when('departureCity', () => eq(a.departureCityKey, v.departureCity as string)),
    when('arrivalCity', () => eq(a.arrivalCityKey, v.arrivalCity as string)),
    when('departureCountry', () => eq(a.departureCountry, v.departureCountry as string)),
    when('arrivalCountry', () => eq(a.arrivalCountry, v.arrivalCountry as string)),
    when('minWeightG', () => sql`${remainingCapacitySql()} >= ${v.minWeightG}`),
    when('currency', () => eq(a.currency, v.currency as string)),
    when('maxPriceCents', () => lte(a.pricePerKgCents, v.maxPriceCents as number)),
    when('minPriceCents', () => gte(a.pricePerKgCents, v.minPriceCents as number)),
    when('transportMode', () => eq(a.transportMode, v.transportMode as TransportMode)),
    when('travelVerified', () => eq(a.travelVerified, v.travelVerified as boolean)),
    when(
      'categoryId',
      () => sql`(json_array_length(${a.acceptedCategoryIds}) = 0 OR ${jsonArrayIncludes(a.acceptedCategoryIds, v.categoryId)})`,
    ),
  );
}

export const presentKeys = (values: Record<SearchKey, unknown>) => new Set(SEARCH_KEYS.filter((k) => values[k] !== undefined));

/** WHERE of the public search: only ACTIVE trips departing today or later, then each filter. */
export function searchConditions(filters: SearchFilters, today: string): SQL | undefined {
  const values = searchValues(filters, today);
  return searchWhere(presentKeys(values), values);
}

/** The page (with its total, withTotal()) and the count alone of a listing (exported so a test can EXPLAIN them). */
export function pageStatements(
  db: Db,
  where: SQL | undefined,
  p: PageParams<AnnouncementSort>,
  window: { limit: number | Placeholder; offset: number | Placeholder } = { limit: p.size, offset: offsetOf(p) },
  cap?: number,
  routeTotal?: ReturnType<typeof routeTotalOf>,
) {
  // The search counts cap + 1 matches at most (CONTRACT section 30): its cost stops growing there.
  const matching = cap === undefined ? undefined : db.select({ one: sql`1` }).from(announcements).where(where).limit(cap + 1).as('matching');
  const total = routeTotal ?? (matching ? db.select({ total: count() }).from(matching) : db.select({ total: count() }).from(announcements).where(where));
  const page = db
    .select(withTotal({ announcement: listedColumns, carrier: listedCarrierColumns }, total))
    .from(announcements)
    .innerJoin(users, eq(users.id, announcements.carrierId))
    .leftJoin(userRatings, eq(userRatings.userId, announcements.carrierId))
    .leftJoin(carrierCancellationCounts, eq(carrierCancellationCounts.carrierId, announcements.carrierId))
    .where(where)
    .orderBy(...orderBy(p.sort, sortColumns, announcements.id))
    .limit(window.limit)
    .offset(window.offset);
  return { page, total };
}

async function runPage(db: Db, where: SQL | undefined, p: PageParams<AnnouncementSort>) {
  return runStatements(db, pageStatements(db, where, p), p);
}

async function runStatements(db: Db, { page, total }: ReturnType<typeof pageStatements>, p: PageParams<AnnouncementSort>, cap = Infinity) {
  // One statement: the page carries its total (withTotal); the count alone only past the last page.
  const rows = await runAlone(page);
  const n = await pageTotal(db, rows, offsetOf(p), () => total);
  const content = rows.map((r) => toAnnouncement(r.announcement, r.carrier));
  return toCappedPage(content, Math.min(n, cap), p, n > cap);
}

/** The filters a route's day totals can answer: both cities, and the dates. */
const ROUTE_TOTAL_KEYS: ReadonlySet<SearchKey> = new Set(['from', 'dateTo', 'departureCity', 'arrivalCity']);

/**
 * A search by both cities (and dates only) totals its route's listed trips without reading one
 * entry per trip (CONTRACT section 30, flat cost; kept by triggers, migrations 0078 and 0080).
 * Without an end date: the route's total (route_trips, one row) less its days before the first day
 * asked (departed trips the cron has not closed yet, or the days before dateFrom). With one: the
 * sum of its days in the range (route_day_trips: one row per day with trips). Any other filter
 * counts the matches themselves (at most cap + 1).
 */
export function routeTotalOf(db: Db, has: ReadonlySet<SearchKey>, v: Record<SearchKey, unknown>) {
  if (!has.has('departureCity') || !has.has('arrivalCity') || [...has].some((k) => !ROUTE_TOTAL_KEYS.has(k))) return undefined;
  const r = routeDayTrips;
  const route = and(eq(r.departureCityKey, v.departureCity as string), eq(r.arrivalCityKey, v.arrivalCity as string));
  const daysSum = sql<number>`coalesce(sum(${r.trips}), 0)`;
  if (has.has('dateTo')) {
    return db
      .select({ total: daysSum.mapWith(Number) })
      .from(r)
      .where(and(route, gte(r.departureDate, v.from as string), lte(r.departureDate, v.dateTo as string)));
  }
  const before = db.select({ n: daysSum }).from(r).where(and(route, lt(r.departureDate, v.from as string)));
  return db
    .select({ total: sql<number>`coalesce(max(${routeTrips.trips}), 0) - (${before})`.mapWith(Number) })
    .from(routeTrips)
    .where(and(eq(routeTrips.departureCityKey, v.departureCity as string), eq(routeTrips.arrivalCityKey, v.arrivalCity as string)));
}

/** The search's page and count for one shape: which filters are present, and the sort. */
const searchShape = compiledShapes((shape: { filters: string; field: AnnouncementSort; direction: 'asc' | 'desc' }) => {
  type Keys = SearchKey | 'limit' | 'offset';
  const has = new Set(shape.filters.split(',').filter(Boolean)) as ReadonlySet<SearchKey>;
  const sorted = { page: 0, size: 0, sort: { field: shape.field, direction: shape.direction } };
  const statements = (d: Db, ph: Record<Keys, Placeholder>) =>
    pageStatements(d, searchWhere(has, ph), sorted, { limit: ph.limit, offset: ph.offset }, SEARCH_TOTAL_CAP, routeTotalOf(d, has, ph));
  return {
    page: compiled((d, ph: Record<Keys, Placeholder>) => statements(d, ph).page),
    total: compiled((d, ph: Record<Keys, Placeholder>) => statements(d, ph).total),
  };
});

/**
 * The public search, its two statements compiled once per shape (which filters are present, and
 * the sort): it is the busiest listing, and building its SQL cost more CPU than running it.
 */
export async function searchAnnouncements(deps: Deps, filters: SearchFilters, p: PageParams<AnnouncementSort>) {
  const { db } = deps;
  const config = appConfig(deps.env);
  const values = searchValues(filters, todayUtc(), { enabled: config.currencies, main: mainCurrency(config) }, p.sort.field);
  const has = presentKeys(values);
  const shape = searchShape({ filters: [...has].join(','), field: p.sort.field, direction: p.sort.direction });
  const bound = { ...values, limit: p.size, offset: offsetOf(p) };
  return runStatements(db, { page: shape.page(db, bound), total: shape.total(db, bound) }, p, SEARCH_TOTAL_CAP);
}

export const listMyAnnouncements = (
  deps: Deps,
  auth: AuthUser,
  p: PageParams<AnnouncementSort>,
  status?: AnnouncementStatus,
) => runPage(deps.db, and(publishedAndActingCondition(deps.db, auth.id), status ? eq(announcements.status, status) : undefined), p);

const OPEN_STATUSES = ['ACTIVE', 'FULL'] as const;

export async function updateAnnouncement(deps: Deps, auth: AuthUser, id: number, input: Partial<AnnouncementInput>, ip: string | null = null) {
  const { db } = deps;
  const { announcement: current } = await loadWithCarrier(db, id);
  await assertCanManageTrip(deps, auth, current, false);
  if (!(OPEN_STATUSES as readonly string[]).includes(current.status)) throw invalidState('announcement.notChangeable', { status: current.status });
  const price = updatedPrice(current, input, appConfig(deps.env).currencies);
  const currencyChanged = price.currency !== current.currency;
  const datesChanged = input.departureDate !== undefined || input.arrivalDate !== undefined;
  const acceptedCategoryIds = input.acceptedCategoryIds ? [...new Set(input.acceptedCategoryIds)] : undefined;
  await assertValid(
    deps,
    datesChanged
      ? { departureDate: input.departureDate ?? current.departureDate, arrivalDate: input.arrivalDate ?? current.arrivalDate }
      : null,
    acceptedCategoryIds,
  );
  const totalWeightG = input.totalWeight !== undefined ? toGrams(input.totalWeight) : current.totalWeightG;
  if (totalWeightG < current.reservedWeightG) throw belowReserved(current.reservedWeightG);
  const set: Partial<typeof announcements.$inferInsert> = {};
  if (input.departureCity !== undefined) Object.assign(set, { departureCity: input.departureCity, departureCityKey: cityKey(input.departureCity) });
  if (input.arrivalCity !== undefined) Object.assign(set, { arrivalCity: input.arrivalCity, arrivalCityKey: cityKey(input.arrivalCity) });
  for (const key of ['departureCountry', 'arrivalCountry', 'departureDate', 'arrivalDate', 'pickupPoint', 'deliveryPoint', 'description', 'transportMode', 'cancellationPolicy'] as const) {
    if (input[key] !== undefined) Object.assign(set, { [key]: input[key] });
  }
  if (input.pricePerKg !== undefined || currencyChanged) Object.assign(set, { pricePerKgCents: price.pricePerKgCents, currency: price.currency });
  if (acceptedCategoryIds) set.acceptedCategoryIds = acceptedCategoryIds;
  if (movesRoute(input)) Object.assign(set, await tripPlaces(db, { ...current, ...set }));

  // CONTRACT section 19: the route and the price are frozen while a reservation is paid and live;
  // dates and points reach the reservations not yet deposited.
  const changed = changedTerms(current, input);
  const routeOrPrice =
    changed.some((k) => (ROUTE_FIELDS as readonly string[]).includes(k)) || (set.pricePerKgCents !== undefined && set.pricePerKgCents !== current.pricePerKgCents);
  const newTerms = termsOf({ ...current, ...set } as AnnouncementRow);

  // A booking written meanwhile (a reservation newer than those read) refuses the edit, which is
  // then made again over the reservations as they are: each one is told, none is missed.
  for (let attempt = 0; ; attempt++) {
    const live = changed.length ? await liveReservations(db, id) : [];
    const now = new Date().toISOString();
    const newest = live.reduce((max, r) => Math.max(max, r.id), 0);
    const tripEdited = rowExists(db, announcements, and(eq(announcements.id, id), eq(announcements.updatedAt, now)));
    // Bookings change reserved_weight_g concurrently: the capacity check and the FULL/ACTIVE status
    // are computed inside the UPDATE from the row's current reserved weight.
    const [updated] = await db.batch([
      db
        .update(announcements)
        .set({
          ...set,
          updatedAt: now,
          totalWeightG,
          status: sql`CASE WHEN ${totalWeightG} - ${announcements.reservedWeightG} <= 0 THEN 'FULL' ELSE 'ACTIVE' END`,
        })
        .where(
          and(
            eq(announcements.id, id),
            inArray(announcements.status, [...OPEN_STATUSES]),
            lte(announcements.reservedWeightG, totalWeightG),
            routeOrPrice ? notExists(paidInProgress(db, id)) : undefined,
            currencyChanged ? notExists(anyReservation(db, id)) : undefined,
            changed.length ? notExists(newerLiveReservations(db, id, newest)) : undefined,
          ),
        )
        .returning({ id: announcements.id }),
      ...staffAudit(db, auth, current, 'ANNOUNCEMENT_UPDATED', ip, { fields: Object.keys(input).sort() }),
      ...(changed.length ? retermStatements(db, id, live, newTerms, now, tripEdited) : []),
    ]);
    if (updated.length) break;
    const { announcement: found } = await loadWithCarrier(db, id);
    if (found.reservedWeightG > totalWeightG) throw belowReserved(found.reservedWeightG);
    if (!(OPEN_STATUSES as readonly string[]).includes(found.status)) throw invalidState('announcement.notChangeable', { status: found.status });
    if (routeOrPrice && (await paidInProgress(db, id).limit(1)).length) {
      throw invalidState('announcement.routePriceTripPaid');
    }
    if (currencyChanged && (await hasReservations(db, id))) throw currencyFixed(current.currency);
    if (attempt === 2) throw invalidState('announcement.announcementChangedMeanwhileReload');
  }
  return getAnnouncement(deps, id);
}

/**
 * The new terms written into the trip's reservations not yet deposited, and each sender's
 * TRIP_CHANGED, in the edit's batch and only if the trip's UPDATE applied (`tripEdited`). A paid or
 * confirmed one records when (its sender may cancel for free until departure); an unpaid one is
 * only told, and pays for the terms it now shows.
 */
function retermStatements(db: Db, id: number, live: { id: number; senderId: number; reservationNumber: string; status: string }[], terms: TripTerms, now: string, tripEdited: SQL) {
  const stillLive = (r: { id: number }) => rowExists(db, reservations, and(eq(reservations.id, r.id), inArray(reservations.status, [...RETERMED_STATUSES])));
  const where = { from: terms.departureCity, to: terms.arrivalCity, departure: textDay(terms.departureDate), arrival: textDay(terms.arrivalDate) };
  const notes = live.map((r) => ({
    note: {
      userId: r.senderId,
      type: 'TRIP_CHANGED' as const,
      text: msg(r.status === 'PENDING_PAYMENT' ? 'notice.tripChangedUnpaid' : 'notice.tripChangedPaid', { ...where, number: r.reservationNumber }),
      data: { ...reservationRef(r), announcementId: id, ...terms },
      createdAt: now,
    },
    guard: and(stillLive(r), tripEdited)!,
  }));
  return [
    ...notes.flatMap(({ note, guard }) => notify(db, note, guard)),
    db
      .update(reservations)
      .set({
        ...terms,
        tripChangedAt: sql`CASE WHEN ${reservations.status} IN ('PAID', 'CONFIRMED') THEN ${now} ELSE ${reservations.tripChangedAt} END`,
        updatedAt: now,
      })
      .where(and(eq(reservations.announcementId, id), inArray(reservations.status, [...RETERMED_STATUSES]), tripEdited)),
  ];
}

const belowReserved = (reservedG: number) =>
  businessRule('announcement.totalWeightCannotLowerWeight', { reservedG: fromGrams(reservedG) });

/**
 * Cancels the trip (status CANCELLED; the row stays because reservations refer to it). Refused
 * while a reservation is PAID or later and not finished. Unpaid reservations are cancelled through
 * the lifecycle in the same batch, each with its sender's notification, and only if the trip's
 * cancellation applied (a booking or a payment meanwhile refuses it all).
 */
export async function deleteAnnouncement(deps: Deps, auth: AuthUser, id: number, ip: string | null = null) {
  const { db } = deps;
  const { announcement: current } = await loadWithCarrier(db, id);
  await assertCanManageTrip(deps, auth, current, true);
  if (!(OPEN_STATUSES as readonly string[]).includes(current.status)) {
    throw invalidState('announcement.notDeletable', { status: current.status });
  }
  for (let attempt = 0; ; attempt++) {
    const unpaid = await db.select().from(reservations).where(and(eq(reservations.announcementId, id), eq(reservations.status, 'PENDING_PAYMENT')));
    const newest = unpaid.reduce((max, r) => Math.max(max, r.id), 0);
    const now = new Date().toISOString();
    const tripCancelled = rowExists(db, announcements, and(eq(announcements.id, id), eq(announcements.status, 'CANCELLED'), eq(announcements.updatedAt, now)));
    const newerUnpaid = db
      .select({ one: sql`1` })
      .from(reservations)
      .where(and(eq(reservations.announcementId, id), eq(reservations.status, 'PENDING_PAYMENT'), gt(reservations.id, newest)));
    const plans: TransitionPlan[] = unpaid.map((r) => ({
      id: r.id,
      from: 'PENDING_PAYMENT',
      action: 'CANCEL',
      condition: tripCancelled,
      // Its open checkout ends with it (closed with the provider after the commit).
      set: { cancelledAt: now, cancelledBy: auth.id, cancellationReason: 'ANNOUNCEMENT_CANCELLED', ...(r.paymentStatus === PAYMENT_STATUS.PENDING ? { paymentStatus: PAYMENT_STATUS.EXPIRED } : {}) },
      effects: (guard) =>
        notify(
          db,
          {
            userId: r.senderId,
            type: 'RESERVATION_CANCELLED',
            text: msg('notice.tripCancelledUnpaid', { number: r.reservationNumber }),
            data: { ...reservationRef(r), announcementId: id },
          },
          guard,
        ),
    }));
    const { before } = await commitTransitions(db, plans, {
      before: [
        db
          .update(announcements)
          .set({ status: 'CANCELLED', updatedAt: now })
          .where(and(eq(announcements.id, id), inArray(announcements.status, [...OPEN_STATUSES]), notExists(paidInProgress(db, id)), notExists(newerUnpaid)))
          .returning({ id: announcements.id }),
        ...staffAudit(db, auth, current, 'ANNOUNCEMENT_CANCELLED', ip),
      ],
    });
    if ((before[0] as unknown[]).length > 0) {
      for (const r of unpaid) await closeCheckout(deps, r);
      return;
    }
    const [{ n }] = await db.select({ n: count() }).from(reservations).where(and(eq(reservations.announcementId, id), inArray(reservations.status, [...IN_PROGRESS_PAID_STATUSES])));
    if (n > 0) throw invalidState('announcement.paidReservationsInProgress', { n });
    const { announcement: found } = await loadWithCarrier(db, id);
    if (!(OPEN_STATUSES as readonly string[]).includes(found.status) || attempt === 2) throw invalidState('announcement.noLongerDeletable');
  }
}

/** Cron: trips whose departure date has passed are CLOSED. Returns how many were closed. */
export async function closeDepartedAnnouncements(deps: Deps, today: string = todayUtc()): Promise<number> {
  const { db } = deps;
  const closed = await db
    .update(announcements)
    .set({ status: 'CLOSED', updatedAt: new Date().toISOString() })
    .where(and(inArray(announcements.status, [...OPEN_STATUSES]), lt(announcements.departureDate, today)))
    .returning({ id: announcements.id });
  return closed.length;
}

