// The reservations of one trip that decide what an edit of the trip may change (CONTRACT sections 19
// and 20): any at all fixes its currency, paid ones in progress freeze its route and price, and the
// live ones not yet deposited receive its new terms.
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reservations } from '../../db/schema';
import { IN_PROGRESS_PAID_STATUSES } from '../reservations/reservation-state';
import { RETERMED_STATUSES } from '../reservations/reservation-terms';

/** Any reservation of the trip, whatever its status: its amounts are in the trip's currency, which then stays. */
export const anyReservation = (db: Db, id: number) => db.select({ one: sql`1` }).from(reservations).where(eq(reservations.announcementId, id));
export const hasReservations = async (db: Db, id: number) => (await anyReservation(db, id).limit(1)).length > 0;

/** Reservations of the trip PAID or later and not finished: they freeze its route and price. */
export const paidInProgress = (db: Db, id: number) =>
  db
    .select({ one: sql`1` })
    .from(reservations)
    .where(and(eq(reservations.announcementId, id), inArray(reservations.status, [...IN_PROGRESS_PAID_STATUSES])));

export const liveReservations = (db: Db, id: number) =>
  db
    .select({ id: reservations.id, senderId: reservations.senderId, reservationNumber: reservations.reservationNumber, status: reservations.status })
    .from(reservations)
    .where(and(eq(reservations.announcementId, id), inArray(reservations.status, [...RETERMED_STATUSES])));

export const newerLiveReservations = (db: Db, id: number, newest: number) =>
  db
    .select({ one: sql`1` })
    .from(reservations)
    .where(and(eq(reservations.announcementId, id), inArray(reservations.status, [...RETERMED_STATUSES]), gt(reservations.id, newest)));
