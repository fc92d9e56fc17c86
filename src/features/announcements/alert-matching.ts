// Search alerts (features/alerts) meet a trip when it is published: the alerts of other users whose
// every set criterion the trip meets, and one ALERT_MATCH notification per alert owner.
import { and, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { runBatch } from '../../db/statements';
import { searchAlerts, type AnnouncementRow } from '../../db/schema';
import { notify, type Notification } from '../deliveries/notify';
import { remainingCapacityG } from './capacity';

/** Active alerts of other users whose every set criterion the new trip meets. */
export function matchingAlertsQuery(db: Db, row: AnnouncementRow) {
  const a = searchAlerts;
  const remaining = remainingCapacityG(row);
  const accepted = row.acceptedCategoryIds;
  return db
    .select({ id: a.id, userId: a.userId, name: a.name })
    .from(a)
    .where(
      and(
        eq(a.active, true),
        sql`${a.userId} <> ${row.carrierId}`,
        or(isNull(a.departureCityKey), eq(a.departureCityKey, row.departureCityKey)),
        or(isNull(a.arrivalCityKey), eq(a.arrivalCityKey, row.arrivalCityKey)),
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
  const alerts = await matchingAlertsQuery(db, row);
  const byUser = new Map<number, (typeof alerts)[number]>();
  for (const alert of alerts) if (!byUser.has(alert.userId)) byUser.set(alert.userId, alert);
  const items: Notification[] = [...byUser.values()].map((alert) => ({
    userId: alert.userId,
    type: 'ALERT_MATCH',
    title: 'New trip matching your alert',
    message: `${row.departureCity} → ${row.arrivalCity} on ${row.departureDate}`,
    data: { announcementId: row.id, alertId: alert.id },
  }));
  await insertNotifications(db, items);
}

/** One batch; notify() chunks the rows under D1's 100 parameters per statement. */
async function insertNotifications(db: Db, items: Notification[]) {
  await runBatch(db, notify(db, items));
}
