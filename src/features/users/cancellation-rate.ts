// The carrier's public cancellationRate (CONTRACT section 22): reservations the carrier side
// cancelled after payment, over the carrier's reservations that were confirmed or were so
// cancelled; a fraction with 2 decimals (0.33), 0 without any. Read from the reservations
// themselves (reservations_carrier_idx), so it can never drift from what happened.
import { and, count, eq, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { reservations } from '../../db/schema';
import type { Deps } from '../../env';

/**
 * Cancelled by the carrier side (the carrier or its agency's staff: anyone but the sender) once
 * paid. Unpaid bookings dropped with a cancelled trip, and a sender's own cancellations, are not.
 */
const carrierCancelled = and(
  eq(reservations.status, 'CANCELLED'),
  isNotNull(reservations.paidAt),
  isNotNull(reservations.cancelledBy),
  ne(reservations.cancelledBy, reservations.senderId),
)!;

/** The reservations the rate is over: confirmed (whatever became of them), or cancelled by the carrier side after payment. */
const counted = or(isNotNull(reservations.confirmedAt), carrierCancelled)!;

/** The rate from the two counts: 2 decimals, half up; 0 when nothing counts. */
export const cancellationRate = (cancelled: number, total: number): number => (total > 0 ? Math.round((cancelled / total) * 100) / 100 : 0);

/**
 * The rate's two counts for one carrier column (the announcement's carrier) as ONE scalar
 * subquery, `[cancelled, counted]` as JSON (one index search per listed trip): cancellationRateOf reads it.
 */
export function cancellationCountsColumn(carrierId: AnySQLiteColumn) {
  const counts = new QueryBuilder()
    .select({ counts: sql`json_array(coalesce(sum(CASE WHEN ${carrierCancelled} THEN 1 ELSE 0 END), 0), ${count()})` })
    .from(reservations)
    .where(and(eq(reservations.carrierId, carrierId), counted));
  return sql<string | null>`(${counts})`.as('carrier_cancellation_counts');
}

/** The rate from cancellationCountsColumn's value. */
export function cancellationRateOf(counts: string | null): number {
  const [cancelled, total] = counts ? (JSON.parse(counts) as [number, number]) : [0, 0];
  return cancellationRate(cancelled, total);
}

/** Rates of several users, keyed by id (users without reservations: 0). */
export async function cancellationRates(deps: Deps, userIds: readonly number[]): Promise<Map<number, number>> {
  const result = new Map<number, number>(userIds.map((id) => [id, 0]));
  for (const id of new Set(userIds)) {
    const [row] = await deps.db
      .select({ total: count(), cancelled: sql<number>`coalesce(sum(CASE WHEN ${carrierCancelled} THEN 1 ELSE 0 END), 0)` })
      .from(reservations)
      .where(and(eq(reservations.carrierId, id), counted));
    result.set(id, cancellationRate(Number(row?.cancelled ?? 0), Number(row?.total ?? 0)));
  }
  return result;
}
