// The corridor search (CONTRACT section 30): trips leaving within `radiusKm` of the asked departure
// city and arriving within it of the asked arrival city, departing up to `dateFlexDays` either side
// of `date`, best first (nearby-score.ts). Two statements, both on indexes: the candidates (each
// pair of 2-degree cells of the two discs through announcements_cells_idx, the exact box checked
// from the index, at most SEARCH_TOTAL_CAP + 1 of them, with their carrier's rating), then the
// page's trips by id with their carriers. Between them the exact great-circle distance drops what
// the box let in, and the score orders the rest.
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { compiled, compiledShapes, runAlone } from '../../db/statements';
import { announcements, carrierCancellationCounts, userRatings, users } from '../../db/schema';
import type { Deps } from '../../env';
import { boxAround, cellsOf, roundKm, type Box, type Point } from '../../lib/geo';
import { offsetOf, toCappedPage, type PageParams } from '../../lib/pagination';
import { mainCurrency } from '../../lib/main-currency';
import { appConfig } from '../../config';
import { locate } from '../reference/places';
import { SEARCH_TOTAL_CAP, todayUtc } from './announcement-rules';
import { listedCarrierColumns, listedColumns, toAnnouncement, type Announcement } from './announcement-view';
import { presentKeys, searchValues, searchWhere, type AnnouncementSort, type SearchFilters, type SearchKey } from './announcements.service';
import { rankNearby, type Candidate } from './nearby-score';

export const MAX_RADIUS_KM = 300;
export const MAX_DATE_FLEX_DAYS = 7;

export interface NearbyParams {
  /** 0: the cities' names only. */
  radiusKm: number;
  date?: string;
  dateFlexDays: number;
}

/** The rules between the parameters (the search's and a saved search's): a radius needs a city, a flexibility a date. */
export function nearbyIssues(v: { radiusKm?: number | null; date?: string | null; dateFlexDays?: number | null; departureCity?: string | null; arrivalCity?: string | null }) {
  const issues: { path: ['radiusKm' | 'dateFlexDays']; message: string }[] = [];
  if ((v.radiusKm ?? 0) > 0 && !v.departureCity && !v.arrivalCity) issues.push({ path: ['radiusKm'], message: 'announcement.radiusNeedsCity' });
  if ((v.dateFlexDays ?? 0) > 0 && !v.date) issues.push({ path: ['dateFlexDays'], message: 'announcement.dateFlexNeedsDate' });
  return issues;
}

/** A radius or a date asks for this search (else the plain one, announcements.service.ts). */
export const isNearby = (n: NearbyParams): boolean => n.radiusKm > 0 || n.date !== undefined;

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const later = (a: string | undefined, b: string) => (a !== undefined && a > b ? a : b);
const earlier = (a: string | undefined, b: string) => (a !== undefined && a < b ? a : b);

/** The filters with the date window of `date` ± dateFlexDays, within dateFrom and dateTo when given too. */
export function withDateWindow(filters: SearchFilters, n: NearbyParams): SearchFilters {
  if (n.date === undefined) return filters;
  return { ...filters, dateFrom: later(filters.dateFrom, addDays(n.date, -n.dateFlexDays)), dateTo: earlier(filters.dateTo, addDays(n.date, n.dateFlexDays)) };
}

/** One end of the route on the map: the asked city's point, its box and the cells of the box. */
interface Disc {
  point: Point;
  box: Box;
  cells: number[];
}

async function discOf(db: Db, radiusKm: number, city?: string, country?: string): Promise<Disc | null> {
  if (radiusKm <= 0 || !city) return null;
  const point = await locate(db, city, country);
  if (!point) return null; // not a known place: matched by its name, as without a radius
  const box = boxAround(point, radiusKm);
  return { point, box, cells: cellsOf(box) };
}

type Side = 'departure' | 'arrival';
type GeoKey = `${Side}${'Cells' | 'MinLat' | 'MaxLat' | 'MinLng' | 'MaxLng'}`;
type Keys = SearchKey | GeoKey | 'limit';

const a = announcements;
const columnsOf = (side: Side) =>
  side === 'departure'
    ? { cell: a.departureCell, latitude: a.departureLatitude, longitude: a.departureLongitude }
    : { cell: a.arrivalCell, latitude: a.arrivalLatitude, longitude: a.arrivalLongitude };

/** The trip's end within the disc's box: its cell among the box's cells (an index seek each), then the box. */
function inBox(side: Side, ph: Record<Keys, Placeholder>): SQL {
  const c = columnsOf(side);
  return sql`${c.cell} IN (SELECT value FROM json_each(${ph[`${side}Cells`]})) AND ${c.latitude} BETWEEN ${ph[`${side}MinLat`]} AND ${ph[`${side}MaxLat`]} AND ${c.longitude} BETWEEN ${ph[`${side}MinLng`]} AND ${ph[`${side}MaxLng`]}`;
}

/** The candidates' statement per shape (the filters present, which ends are discs), compiled once. */
const candidatesOf = compiledShapes((shape: { filters: string; departure: boolean; arrival: boolean }) => {
  const has = new Set(shape.filters.split(',').filter(Boolean)) as ReadonlySet<SearchKey>;
  return compiled((d: Db, ph: Record<Keys, Placeholder>) =>
    d
      .select({
        id: a.id,
        departureDate: a.departureDate,
        pricePerKgCents: a.pricePerKgCents,
        currency: a.currency,
        departureLatitude: a.departureLatitude,
        departureLongitude: a.departureLongitude,
        arrivalLatitude: a.arrivalLatitude,
        arrivalLongitude: a.arrivalLongitude,
        ratingCount: userRatings.reviewCount,
        ratingSum: userRatings.ratingSum,
      })
      .from(a)
      .leftJoin(userRatings, eq(userRatings.userId, a.carrierId))
      .where(and(searchWhere(has, ph), shape.departure ? inBox('departure', ph) : undefined, shape.arrival ? inBox('arrival', ph) : undefined))
      .limit(ph.limit),
  );
});

/** What the page reads of the carrier: the rating is the candidate's (read once, for the score and the card alike). */
const { ratingCount: _count, ratingSum: _sum, ...pageCarrierColumns } = listedCarrierColumns;

/** The page's trips with their carriers, by id (their order is the ranking's, restored in code). */
const pageById = compiled((d: Db, ph: Record<'ids', Placeholder>) =>
  d
    .select({ announcement: listedColumns, carrier: pageCarrierColumns })
    .from(a)
    .innerJoin(users, eq(users.id, a.carrierId))
    .leftJoin(carrierCancellationCounts, eq(carrierCancellationCounts.carrierId, a.carrierId))
    .where(sql`${a.id} IN (SELECT value FROM json_each(${ph.ids}))`),
);

const boxValues = (side: Side, disc: Disc | null) =>
  disc
    ? {
        [`${side}Cells`]: JSON.stringify(disc.cells),
        [`${side}MinLat`]: disc.box.minLatitude,
        [`${side}MaxLat`]: disc.box.maxLatitude,
        [`${side}MinLng`]: disc.box.minLongitude,
        [`${side}MaxLng`]: disc.box.maxLongitude,
      }
    : {};

export type NearbyAnnouncement = Announcement & { departureDistanceKm?: number | null; arrivalDistanceKm?: number | null };

/** GET /annonces with a radius or a date: the page of the best matches, then by departure date. */
export async function searchNearby(deps: Deps, filters: SearchFilters, n: NearbyParams, p: PageParams<AnnouncementSort>) {
  const { db } = deps;
  const config = appConfig(deps.env);
  const [departure, arrival] = await Promise.all([
    discOf(db, n.radiusKm, filters.departureCity, filters.departureCountry),
    discOf(db, n.radiusKm, filters.arrivalCity, filters.arrivalCountry),
  ]);
  // An end on the map is matched by its disc instead of its city's name.
  const named: SearchFilters = { ...withDateWindow(filters, n), ...(departure ? { departureCity: undefined } : {}), ...(arrival ? { arrivalCity: undefined } : {}) };
  const values = searchValues(named, todayUtc(), { enabled: config.currencies, main: mainCurrency(config) });
  const has = presentKeys(values);
  const statement = candidatesOf({ filters: [...has].join(','), departure: departure !== null, arrival: arrival !== null });
  const bound = { ...values, ...boxValues('departure', departure), ...boxValues('arrival', arrival), limit: SEARCH_TOTAL_CAP + 1 } as Record<Keys, unknown>;
  const candidates = (await runAlone(statement(db, bound))) as Candidate[];
  const capped = candidates.length > SEARCH_TOTAL_CAP;
  const ranked = rankNearby(candidates.slice(0, SEARCH_TOTAL_CAP), { departure: departure?.point ?? null, arrival: arrival?.point ?? null, radiusKm: n.radiusKm, date: n.date });
  const start = offsetOf(p);
  const slice = ranked.slice(start, start + p.size);
  const rows = slice.length ? await runAlone(pageById(db, { ids: JSON.stringify(slice.map((r) => r.id)) })) : [];
  const byId = new Map(rows.map((r) => [r.announcement.id, r]));
  const distances = n.radiusKm > 0;
  const content: NearbyAnnouncement[] = slice.flatMap((r) => {
    const row = byId.get(r.id);
    if (!row) return []; // gone between the two statements
    const trip = toAnnouncement(row.announcement, { ...row.carrier, ratingCount: r.ratingCount, ratingSum: r.ratingSum });
    if (!distances) return [trip];
    return [{ ...trip, departureDistanceKm: distanceOf(filters.departureCity, r.departureKm), arrivalDistanceKm: distanceOf(filters.arrivalCity, r.arrivalKm) }];
  });
  return toCappedPage(content, ranked.length, p, capped);
}

/** A distance shown: null without an asked city on that end; 0 for a city matched by its name. */
const distanceOf = (asked: string | undefined, km: number | null) => (asked ? roundKm(km ?? 0) : null);

