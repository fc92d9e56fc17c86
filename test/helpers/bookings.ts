// Test factories for the bookings feature: categories and announcements inserted straight into
// D1 (their routes belong to another feature), a valid booking body, and a D1 round-trip counter.
import { insertAnnouncement } from './reservations';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { getDb } from '../../src/db/client';
import { announcements, categories, reservations, type AnnouncementRow, type ReservationRow } from '../../src/db/schema';
import { post } from './http';
import type { TestUser } from './users';

let counter = 0;
export const db = () => getDb(env);

/** A date `days` from today, YYYY-MM-DD. */
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function createCategory(options: { prohibited?: boolean; name?: string } = {}) {
  counter += 1;
  const code = `CAT_${counter}_${crypto.randomUUID().slice(0, 6)}`;
  const [row] = await db()
    .insert(categories)
    .values({ code, name: options.name ?? `Category ${counter}`, prohibited: options.prohibited ?? false })
    .returning();
  return row;
}

export interface AnnouncementOptions {
  totalWeightKg?: number;
  reservedWeightKg?: number;
  pricePerKg?: number;
  departureDate?: string;
  arrivalDate?: string;
  status?: AnnouncementRow['status'];
  acceptedCategoryIds?: number[];
}

export async function createAnnouncement(carrier: TestUser, options: AnnouncementOptions = {}): Promise<AnnouncementRow> {
  return insertAnnouncement(carrier.id, {
    departureDate: options.departureDate ?? inDays(10),
    arrivalDate: options.arrivalDate ?? inDays(11),
    totalWeightG: Math.round((options.totalWeightKg ?? 20) * 1000),
    reservedWeightG: Math.round((options.reservedWeightKg ?? 0) * 1000),
    pricePerKgCents: Math.round((options.pricePerKg ?? 10) * 100),
    pickupPoint: 'Gare de Lyon',
    deliveryPoint: 'Place de l’Indépendance',
    description: 'Two suitcases of spare room',
    acceptedCategoryIds: options.acceptedCategoryIds ?? [],
    status: options.status ?? 'ACTIVE',
  });
}

export function bookingBody(announcementId: number, categoryId: number, reservedWeight = 2, extra: Record<string, unknown> = {}) {
  return {
    announcementId,
    reservedWeight,
    contentInfo: 'Clothes and books',
    items: [{ categoryId, name: 'Books', reservedQuantity: 3, weight: 1.5, isFragile: false }],
    recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67', city: 'Dakar' },
    ...extra,
  };
}

/** Books through the API and returns the created reservation body (asserts 201). */
export async function book(sender: TestUser, announcementId: number, categoryId: number, reservedWeight = 2) {
  const res = await post('/v1/api/bookings', bookingBody(announcementId, categoryId, reservedWeight), { token: sender.token });
  if (res.status !== 201) throw new Error(`booking failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function getAnnouncement(id: number) {
  const [row] = await db().select().from(announcements).where(eq(announcements.id, id));
  return row;
}

export async function getReservation(id: number) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row;
}

/** Moves a reservation straight to a status, as the payment or handover features would. */
export async function setReservation(id: number, set: Partial<ReservationRow>) {
  await db().update(reservations).set(set).where(eq(reservations.id, id));
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
