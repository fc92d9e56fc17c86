// The cron's expiry: unpaid bookings expire, paid ones the carrier left unanswered are rejected.
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { reservations, type ReservationRow } from '../../db/schema';
import { carrierSideIds } from '../../access/reservation-access';
import type { Deps } from '../../env';
import { closeCheckout, needsSettlement, settleWithProvider } from '../money';
import { commitTransitions, type TransitionPlan } from '../reservations/lifecycle';
import { TRANSITIONS } from '../reservations/reservation-state';
import { CARRIER_ANSWER_WINDOW_MS } from './booking-rules';
import { checkoutEnded, endingEffects, endingNotices, endingOutcome } from './booking-ending';

/**
 * Candidates handled per run and kind; each kind is one batch, and every statement counts
 * against the per-invocation D1 query limit. The cron runs every 5 minutes: a backlog still
 * drains quickly.
 */
const EXPIRY_BATCH = 25;

/**
 * Unpaid after 30 minutes: EXPIRED, capacity released, sender told. Paid and unanswered for
 * 24 hours: REJECTED, capacity released, both parties told, payment released in full (ledger in
 * the same batch, the provider's void right after).
 */
export async function expireReservations(deps: Deps, now = new Date()): Promise<{ expired: number; rejected: number }> {
  const { db } = deps;
  const [unpaid, unanswered] = await db.batch([
    db
      .select()
      .from(reservations)
      .where(and(inArray(reservations.status, [...TRANSITIONS.EXPIRE.from]), lte(reservations.paymentDeadline, now.toISOString())))
      .orderBy(asc(reservations.paymentDeadline))
      .limit(EXPIRY_BATCH),
    db
      .select()
      .from(reservations)
      .where(and(eq(reservations.status, 'PAID'), lte(reservations.paidAt, new Date(now.getTime() - CARRIER_ANSWER_WINDOW_MS).toISOString())))
      .orderBy(asc(reservations.paidAt))
      .limit(EXPIRY_BATCH),
  ]);
  // Who is told on the carrier side: a read per agency trip only (its acting staff now).
  const sides = new Map(await Promise.all([...unpaid, ...unanswered].map(async (r) => [r.id, await carrierSideIds(deps, r)] as const)));
  const ending = (r: ReservationRow, way: 'EXPIRED' | 'UNANSWERED') => {
    const o = endingOutcome(r, 'CARRIER', now);
    return endingEffects(db, r, endingNotices(r, way, o, sides.get(r.id) ?? []), o, now);
  };
  const expiring: TransitionPlan[] = unpaid.map((r) => ({ id: r.id, from: r.status, action: 'EXPIRE', set: checkoutEnded(r), effects: ending(r, 'EXPIRED') }));
  const rejecting: TransitionPlan[] = unanswered.map((r) => ({ id: r.id, from: r.status, action: 'REJECT', effects: ending(r, 'UNANSWERED') }));
  const expiredRows = (await commitTransitions(db, expiring)).rows;
  for (const [i, row] of expiredRows.entries()) if (row) await closeCheckout(deps, unpaid[i]);
  const expired = expiredRows.filter(Boolean).length;
  const rejectedRows = (await commitTransitions(db, rejecting)).rows;
  for (const row of rejectedRows) if (row && needsSettlement(row)) await settleWithProvider(deps, row.id);
  return { expired, rejected: rejectedRows.filter(Boolean).length };
}
