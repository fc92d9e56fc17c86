// The carrier's public cancellationRate (CONTRACT section 22): reservations the carrier side
// cancelled after payment, over the carrier's reservations that were confirmed or were so
// cancelled; a fraction with 2 decimals (0.33), 0 without any. The two counts are kept per carrier
// in carrier_cancellation_counts by triggers on reservations (migration 0079, where the
// per-reservation rule is written), in the statement that confirms or cancels: a listing reads one
// row per carrier, not the carrier's history, and the figure cannot drift from the reservations
// (test/cancellation-counts.test.ts recounts after every path).
import { inArray, sql } from 'drizzle-orm';
import { carrierCancellationCounts } from '../../db/schema';
import { inSlices } from '../../db/statements';
import type { Deps } from '../../env';

/** The rate from the two counts: 2 decimals, half up; 0 when nothing counts. */
export const cancellationRate = (cancelled: number, total: number): number => (total > 0 ? Math.round((cancelled / total) * 100) / 100 : 0);

/**
 * The two counts as columns of a listing that left-joins carrier_cancellation_counts on its
 * carrier (null without a row): cancellationRateOf reads them.
 */
export const cancellationCountColumns = {
  cancelledCount: sql<number | null>`${carrierCancellationCounts.cancelled}`.as('carrier_cancelled_count'),
  countedCount: sql<number | null>`${carrierCancellationCounts.counted}`.as('carrier_counted_count'),
};

/** The rate from cancellationCountColumns' values. */
export const cancellationRateOf = (row: { cancelledCount: number | null; countedCount: number | null }): number =>
  cancellationRate(row.cancelledCount ?? 0, row.countedCount ?? 0);

/** Rates of several users, keyed by id (users without a counted reservation: 0); one read per 90 ids. */
export async function cancellationRates(deps: Deps, userIds: readonly number[]): Promise<Map<number, number>> {
  const result = new Map<number, number>(userIds.map((id) => [id, 0]));
  const rows = await inSlices(userIds, (ids) => deps.db.select().from(carrierCancellationCounts).where(inArray(carrierCancellationCounts.carrierId, ids)));
  for (const row of rows) result.set(row.carrierId, cancellationRate(row.cancelled, row.counted));
  return result;
}
