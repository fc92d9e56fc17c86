// Applies a state-machine transition to a stored reservation as one conditional UPDATE, so two
// concurrent transitions of one reservation never both succeed.
import { and, eq, inArray, type Placeholder } from 'drizzle-orm';
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { reservations, type ReservationRow } from '../../db/schema';
import { notFound } from '../../errors';
import { applyTransition, TRANSITIONS, type ReservationAction, type ReservationStatus } from '../reservations/reservation-state';

/** Columns set with the status: values, or SQL (a compiled query's placeholder, for instance). */
type ReservationSet = Omit<SQLiteUpdateSetSource<typeof reservations>, 'id' | 'status'>;

/**
 * The UPDATE ... WHERE id = ? AND status IN (allowed) statement, for use alone or in a batch
 * (or compiled: give `id` and an `updatedAt` as placeholders).
 * `expectedStatus` narrows the guard to the one status the caller decided on (a refund computed
 * for PAID must not apply to a reservation a concurrent accept has just CONFIRMED).
 */
export function transitionStatement(
  db: Db,
  id: number | Placeholder,
  action: ReservationAction,
  set: ReservationSet = {},
  expectedStatus?: ReservationStatus,
) {
  const { from, to } = TRANSITIONS[action];
  const allowed = (from as readonly ReservationStatus[]).filter((s) => expectedStatus === undefined || s === expectedStatus);
  return db
    .update(reservations)
    .set({ updatedAt: new Date().toISOString(), ...set, status: to })
    .where(and(eq(reservations.id, id), inArray(reservations.status, allowed)))
    .returning();
}

/** The stored reservation, or 404. */
export async function loadReservation(db: Db, id: number): Promise<ReservationRow> {
  const [row] = await db.select().from(reservations).where(eq(reservations.id, id));
  if (!row) throw notFound('Reservation', id);
  return row;
}

/**
 * Runs the transition; returns the updated row. When no row changed, reads the reservation to
 * answer 404 (missing) or 409 INVALID_STATE (another status, including a concurrent winner).
 */
export async function transitionReservation(
  db: Db,
  id: number,
  action: ReservationAction,
  set: ReservationSet = {},
): Promise<ReservationRow> {
  const [updated] = await transitionStatement(db, id, action, set);
  if (updated) return updated;
  const [current] = await db.select({ status: reservations.status }).from(reservations).where(eq(reservations.id, id));
  if (!current) throw notFound('Reservation', id);
  applyTransition(current.status, action); // throws INVALID_STATE with the current status
  throw new Error('unreachable: transition allowed but no row changed');
}
