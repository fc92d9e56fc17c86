// Search alerts (features/alerts) meet a trip when it is published: the alerts of other users whose
// every set criterion the trip meets, and one ALERT_MATCH notification per alert owner.
import { and, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { runBatch } from '../../db/statements';
import { searchAlerts, type AnnouncementRow } from '../../db/schema';
import { notify, type Notification } from '../deliveries/notify';
import { remainingCapacityG } from './capacity';
import { distanceKm, EARTH_RADIUS_KM, type Point } from '../../lib/geo';
import { inEachLanguage, msg, render } from '../../messages';
import { textAmount, textDay } from '../../lib/message-text';

/**
 * One end of the route: the alert names no city there, or the trip's city by name, or (with a
 * radius) its point lies within the radius's band of latitude; the exact distance is checked in
 * code (withinRadius).
 */
function placeMatches(side: 'departure' | 'arrival', row: AnnouncementRow) {
  const a = searchAlerts;
  const [key, latitude, tripKey, tripLatitude] =
    side === 'departure'
      ? [a.departureCityKey, a.departureLatitude, row.departureCityKey, row.departureLatitude]
      : [a.arrivalCityKey, a.arrivalLatitude, row.arrivalCityKey, row.arrivalLatitude];
  const near = tripLatitude === null ? undefined : sql`(${a.radiusKm} > 0 AND abs(${latitude} - ${tripLatitude}) * ${KM_PER_DEGREE} <= ${a.radiusKm})`;
  return or(isNull(key), eq(key, tripKey), near);
}

// A degree of latitude on the mean sphere (lib/geo.ts): no point further than radius / this in latitude is within the radius.
const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;

/** Active alerts of other users whose every set criterion the new trip meets. */
export function matchingAlertsQuery(db: Db, row: AnnouncementRow) {
  const a = searchAlerts;
  const remaining = remainingCapacityG(row);
  const accepted = row.acceptedCategoryIds;
  return db
    .select({
      id: a.id,
      userId: a.userId,
      name: a.name,
      radiusKm: a.radiusKm,
      departureCity: a.departureCity,
      arrivalCity: a.arrivalCity,
      departureCityKey: a.departureCityKey,
      arrivalCityKey: a.arrivalCityKey,
      departureLatitude: a.departureLatitude,
      departureLongitude: a.departureLongitude,
      arrivalLatitude: a.arrivalLatitude,
      arrivalLongitude: a.arrivalLongitude,
    })
    .from(a)
    .where(
      and(
        eq(a.active, true),
        sql`${a.userId} <> ${row.carrierId}`,
        placeMatches('departure', row),
        placeMatches('arrival', row),
        // The day wanted, give or take dateFlexDays (CONTRACT section 30).
        or(
          isNull(a.date),
          sql`${row.departureDate} BETWEEN date(${a.date}, '-' || ${a.dateFlexDays} || ' days') AND date(${a.date}, '+' || ${a.dateFlexDays} || ' days')`,
        ),
        or(isNull(a.departureCountry), eq(a.departureCountry, row.departureCountry)),
        or(isNull(a.arrivalCountry), eq(a.arrivalCountry, row.arrivalCountry)),
        or(isNull(a.dateFrom), lte(a.dateFrom, row.departureDate)),
        or(isNull(a.dateTo), gte(a.dateTo, row.departureDate)),
        or(isNull(a.minWeightG), lte(a.minWeightG, remaining)),
        // A price limit is of one currency: it matches trips priced in it only (CONTRACT section 20).
        or(isNull(a.maxPricePerKgCents), and(eq(a.currency, row.currency), gte(a.maxPricePerKgCents, row.pricePerKgCents))),
        or(isNull(a.transportMode), eq(a.transportMode, row.transportMode)),
        // An empty acceptedCategoryIds accepts every allowed category.
        accepted.length ? or(isNull(a.categoryId), inArray(a.categoryId, accepted)) : undefined,
      ),
    )
    .orderBy(a.id);
}

/** One ALERT_MATCH notification per alert owner (several matching alerts of one user make one). */
export async function notifyMatchingAlerts(db: Db, row: AnnouncementRow) {
  const alerts = (await matchingAlertsQuery(db, row)).filter((alert) => withinRadius(alert, row));
  const byUser = new Map<number, (typeof alerts)[number]>();
  for (const alert of alerts) if (!byUser.has(alert.userId)) byUser.set(alert.userId, alert);
  const trip = { from: row.departureCity, to: row.arrivalCity, date: textDay(row.departureDate), kg: remainingCapacityG(row) / 1000, price: textAmount(row.pricePerKgCents, row.currency) };
  const items: Notification[] = [...byUser.values()].map((alert) => {
    const near = nearbyEnds(alert, row);
    return {
      userId: alert.userId,
      type: 'ALERT_MATCH',
      text: near.length ? msg('notice.alertMatchNearby', { ...trip, near: inEachLanguage((locale) => near.map((n) => render(msg('place.kmFrom', n), locale)).join(', ')) }) : msg('notice.alertMatch', trip),
      data: { announcementId: row.id, alertId: alert.id },
    };
  });
  await insertNotifications(db, items);
}

/** The ends the radius matched (another city than the alert's), each with its distance in whole km from the alert's city. */
function nearbyEnds(alert: MatchedAlert, row: AnnouncementRow): { km: number; city: string }[] {
  const ends = [
    [alert.departureCity, alert.departureCityKey, pointOf(alert.departureLatitude, alert.departureLongitude), row.departureCityKey, pointOf(row.departureLatitude, row.departureLongitude)],
    [alert.arrivalCity, alert.arrivalCityKey, pointOf(alert.arrivalLatitude, alert.arrivalLongitude), row.arrivalCityKey, pointOf(row.arrivalLatitude, row.arrivalLongitude)],
  ] as const;
  return ends.flatMap(([city, key, at, tripKey, trip]) => (city && key !== tripKey && at && trip ? [{ km: Math.max(1, Math.round(distanceKm(at, trip))), city }] : []));
}

type MatchedAlert = Awaited<ReturnType<typeof matchingAlertsQuery>>[number];

/** Each end the alert names is the trip's city by name, or within the alert's radius (great-circle). */
function withinRadius(alert: MatchedAlert, row: AnnouncementRow): boolean {
  const end = (key: string | null, at: Point | null, tripKey: string, trip: Point | null) =>
    key === null || key === tripKey || (alert.radiusKm > 0 && at !== null && trip !== null && distanceKm(at, trip) <= alert.radiusKm);
  return (
    end(alert.departureCityKey, pointOf(alert.departureLatitude, alert.departureLongitude), row.departureCityKey, pointOf(row.departureLatitude, row.departureLongitude)) &&
    end(alert.arrivalCityKey, pointOf(alert.arrivalLatitude, alert.arrivalLongitude), row.arrivalCityKey, pointOf(row.arrivalLatitude, row.arrivalLongitude))
  );
}

const pointOf = (latitude: number | null, longitude: number | null): Point | null => (latitude === null || longitude === null ? null : { latitude, longitude });

/** One batch; notify() chunks the rows under D1's 100 parameters per statement. */
async function insertNotifications(db: Db, items: Notification[]) {
  await runBatch(db, notify(db, items));
}
