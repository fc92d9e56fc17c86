// Reading and probing stored state (no fixtures here: those are in factories.ts): rows by id,
// the Durable Object stubs of a reservation, the cron, and a D1 round-trip counter.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { database } from '../../src/db/client';
import { announcements, reservations, type ReservationRow } from '../../src/db/schema';
import type { ReservationStatus } from '../../src/features/reservations/reservation-state';
import worker from '../../src/index';

export const db = () => database(env.DB);

export async function reservationRow(id: number) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row;
}

export async function tripRow(id: number) {
  const [row] = await db().select().from(announcements).where(eq(announcements.id, id));
  return row;
}

export async function reservationStatus(id: number): Promise<ReservationStatus | undefined> {
  return (await reservationRow(id))?.status;
}

/** Moves a reservation straight to a status (or any columns), as another feature would. */
export async function setReservation(id: number, set: Partial<ReservationRow>) {
  await db().update(reservations).set(set).where(eq(reservations.id, id));
}

export const qrStub = (id: number) => env.RESERVATION_QR.get(env.RESERVATION_QR.idFromName(String(id)));
export const trackingStub = (id: number) => env.RESERVATION_TRACKING.get(env.RESERVATION_TRACKING.idFromName(String(id)));

/** Runs the worker's cron once, as the platform would at `time`. */
export async function runCron(time = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: time, cron: '*/5 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/**
 * An env whose D1 binding counts round trips: each batch() is one, and each statement run
 * outside a batch (all, run, first, raw) is one. `statements` lists the SQL it prepared.
 */
export function countingEnv(base: Env = env): { env: Env; trips: () => number; statements: string[] } {
  let trips = 0;
  const statements: string[] = [];
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement => {
    for (const method of ['all', 'run', 'first', 'raw'] as const) {
      const original = stmt[method].bind(stmt) as (...args: unknown[]) => unknown;
      Object.defineProperty(stmt, method, {
        configurable: true, // the app's own counting proxy (src/db/session.ts) wraps these again
        value: (...args: unknown[]) => {
          trips += 1;
          return original(...args);
        },
      });
    }
    const bind = stmt.bind.bind(stmt);
    Object.defineProperty(stmt, 'bind', { configurable: true, value: (...values: unknown[]) => wrapStatement(bind(...values)) });
    return stmt;
  };
  const realDb = base.DB;
  const DB: D1Database = {
    prepare: (query: string) => {
      statements.push(query);
      return wrapStatement(realDb.prepare(query));
    },
    batch: (statements: D1PreparedStatement[]) => {
      trips += 1;
      return realDb.batch(statements);
    },
    exec: (query: string) => {
      trips += 1;
      return realDb.exec(query);
    },
    dump: () => realDb.dump(),
    // The app opens a session per request (src/db/session.ts): it counts through the same wrapper.
    withSession: () => ({ prepare: DB.prepare, batch: DB.batch, getBookmark: () => null }) as unknown as D1DatabaseSession,
  } as unknown as D1Database;
  return { env: { ...base, DB }, trips: () => trips, statements };
}
