// THE way a reservation's status changes (bookings, payments, handover, tracking, disputes, cron).
// A plan names the transition and its side effects; commitTransitions() writes them in ONE D1
// batch: each plan's effects guarded on the reservation still being in the status the plan was
// made for, then the conditional UPDATE with the same guard. A plan whose reservation moved
// meanwhile changes nothing at all, effects included; the changed-row count tells which applied.
// Each applied change is published to the reservation's status feed when the unit of work ends.
import { and, eq, inArray, type Placeholder, type SQL } from 'drizzle-orm';
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { reservations, type ReservationRow } from '../../db/schema';
import { compiled, compiledShapes, rowExists, runBatch, type Statement } from '../../db/statements';
import { invalidState, notFound } from '../../errors';
import { statusChangedOnCommit } from './status-feed';
import { applyTransition, TRANSITIONS, type ReservationAction, type ReservationStatus } from './reservation-state';

/** Columns set with the status (plain values; `updatedAt` is set to now unless given). */
export type ReservationSet = Omit<SQLiteUpdateSetSource<typeof reservations>, 'id' | 'status'>;

export interface TransitionPlan {
  id: number;
  action: ReservationAction;
  /**
   * The status the caller read and decided on. Without it (a signed QR, no read first) the plan
   * applies from any status the action allows.
   */
  from?: ReservationStatus;
  set?: ReservationSet;
  /**
   * The plan's other writes (notifications, capacity, ledger postings, payment status), run just
   * before the status change in the same batch. Each must carry `guard`: true only while the
   * reservation is still where the plan found it, i.e. only if the transition applies.
   */
  effects?: (guard: SQL) => Statement[];
  /**
   * Effects compiled once with that same guard inside (stillAsPlanned() over a placeholder id,
   * like the deposit's notice): run like `effects`, without building a guard for them per request.
   */
  guardedEffects?: Statement[];
  /**
   * A further condition of the plan, on another row the same batch changes (the trip cancelled
   * with its reservations): the effects' guard and the UPDATE both require it too.
   */
  condition?: SQL;
}

/** A plan's effects made of several parts (its own, the money's), in order. */
export const allEffects =
  (...parts: (((guard: SQL) => Statement[]) | undefined)[]) =>
  (guard: SQL): Statement[] =>
    parts.flatMap((part) => (part ? part(guard) : []));

/** The statuses a plan may start from: the one it read, or every one its action allows. */
const startingStatuses = (plan: Pick<TransitionPlan, 'action' | 'from'>): ReservationStatus[] =>
  (TRANSITIONS[plan.action].from as readonly ReservationStatus[]).filter((s) => plan.from === undefined || s === plan.from);

/**
 * True while the reservation is in one of the plan's starting statuses: the guard every effect
 * carries. `id` may be a placeholder, for an effect compiled once (the deposit's notification).
 */
export const stillAsPlanned = (db: Db, plan: { id: number | Placeholder } & Pick<TransitionPlan, 'action' | 'from'>): SQL =>
  rowExists(db, reservations, and(eq(reservations.id, plan.id), inArray(reservations.status, startingStatuses(plan))));

// The conditional UPDATE ... RETURNING, compiled once per (action, starting status, columns set):
// the hot transitions (deposit, first tracking point) then only bind values.
const transitionUpdate = compiledShapes((shape: { action: ReservationAction; from: ReservationStatus | null; columns: string }) => {
  const statuses = startingStatuses({ action: shape.action, from: shape.from ?? undefined });
  return compiled((db, p: Record<string, Placeholder>) =>
    db
      .update(reservations)
      .set({ ...Object.fromEntries(shape.columns.split(',').map((c) => [c, p[c]])), status: TRANSITIONS[shape.action].to })
      .where(and(eq(reservations.id, p.id), inArray(reservations.status, statuses)))
      .returning(),
  );
});

/** The plan's UPDATE statement: values bound to the compiled text (encoded by their columns). */
function transitionStatement(db: Db, plan: TransitionPlan, now: string) {
  const set: Record<string, unknown> = { updatedAt: now, ...plan.set };
  if (plan.condition) {
    // A conditional plan is rare (a trip's cancellation): built as it comes, not compiled.
    return db
      .update(reservations)
      .set({ ...(set as ReservationSet), status: TRANSITIONS[plan.action].to })
      .where(and(eq(reservations.id, plan.id), inArray(reservations.status, startingStatuses(plan)), plan.condition))
      .returning();
  }
  const columns = Object.keys(set).sort();
  const update = transitionUpdate({ action: plan.action, from: plan.from ?? null, columns: columns.join(',') });
  const values: Record<string, unknown> = { id: plan.id };
  for (const c of columns) values[c] = encode(c, set[c]);
  return update(db, values);
}

/** A value as D1 stores it (compiled statements bind driver values). */
function encode(column: string, value: unknown): unknown {
  const col = (reservations as unknown as Record<string, { mapToDriverValue(v: unknown): unknown }>)[column];
  return value === null || value === undefined ? null : col.mapToDriverValue(value);
}

export interface CommitOptions {
  /** Statements read after the transitions in the same batch (the response's view). */
  reads?: Statement[];
  /** Statements run before the transitions in the same batch (the change the plans' `condition` reads). */
  before?: Statement[];
}

/**
 * Commits every plan in ONE atomic batch. Returns, per plan, the row as written or null when the
 * reservation was not (or no longer) in a starting status; then the results of `reads`.
 */
export async function commitTransitions(
  db: Db,
  plans: readonly TransitionPlan[],
  options: CommitOptions = {},
): Promise<{ rows: (ReservationRow | null)[]; reads: unknown[]; before: unknown[] }> {
  if (plans.length === 0 && !options.reads?.length && !options.before?.length) return { rows: [], reads: [], before: [] };
  const now = new Date().toISOString();
  const statements: Statement[] = [...(options.before ?? [])];
  const beforeCount = statements.length;
  const updateIndex: number[] = [];
  for (const plan of plans) {
    if (plan.effects) statements.push(...plan.effects(plan.condition ? and(stillAsPlanned(db, plan), plan.condition)! : stillAsPlanned(db, plan)));
    if (plan.guardedEffects) {
      // Compiled with their own guard: they could not carry the plan's condition.
      if (plan.condition) throw new Error('a conditional plan takes effects, not guardedEffects');
      statements.push(...plan.guardedEffects);
    }
    updateIndex.push(statements.length);
    // THE place a status change is published: the reservation's status feed, once the batch commits.
    statements.push(statusChangedOnCommit(transitionStatement(db, plan, now)));
  }
  const readsFrom = statements.length;
  statements.push(...(options.reads ?? []));
  const results = await runBatch(db, statements);
  return {
    rows: updateIndex.map((i) => (results[i] as ReservationRow[])[0] ?? null),
    reads: results.slice(readsFrom),
    before: results.slice(0, beforeCount),
  };
}

/**
 * One transition for a request: the row as written, or 404 / 409 INVALID_STATE (with the status
 * found) when it did not apply, including when a concurrent change won.
 */
export async function commitTransition(db: Db, plan: TransitionPlan, options: CommitOptions = {}): Promise<{ row: ReservationRow; reads: unknown[] }> {
  if (plan.from !== undefined) applyTransition(plan.from, plan.action);
  const { rows, reads } = await commitTransitions(db, [plan], options);
  const row = rows[0];
  if (row) return { row, reads };
  throw await refusal(db, plan);
}

/** Why a plan did not apply, from the status the reservation has now. */
async function refusal(db: Db, plan: TransitionPlan): Promise<Error> {
  const [current] = await db.select({ status: reservations.status }).from(reservations).where(eq(reservations.id, plan.id));
  if (!current) return notFound('Reservation', plan.id);
  applyTransition(current.status, plan.action); // throws 409 INVALID_STATE naming the status found
  return invalidState('reservation.reservationChangedMeanwhileReload', { status: current.status });
}

/** The stored reservation, or 404. */
export async function loadReservation(db: Db, id: number): Promise<ReservationRow> {
  const [row] = await db.select().from(reservations).where(eq(reservations.id, id));
  if (!row) throw notFound('Reservation', id);
  return row;
}
