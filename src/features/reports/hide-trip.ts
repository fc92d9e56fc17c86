// A report closed with HIDE_ANNOUNCEMENT (docs/decisions-moderation.md): in the close's batch the
// trip becomes CANCELLED (out of the search, no booking or offer accepted from then on), with its
// audit entry and the carrier's TRIP_REMOVED notice; after the commit, its reservations not yet
// handed over are cancelled and refunded in full (bookings/trip-removal.ts) and its open offers
// closed. Parcels already handed over keep their delivery: the trip stays readable to its parties.
import { and, eq, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { announcements } from '../../db/schema';
import { rowExists, type Statement } from '../../db/statements';
import type { Deps } from '../../env';
import { auditInsertIfChanged } from '../audit/audit';
import { cancelOnRemovedTrip } from '../bookings/trip-removal';
import { notify, toEach } from '../deliveries/notify';
import { carrierSideIds } from '../../access/reservation-access';
import { expireOffersOfRemovedTrip } from '../offers/offers.service';
import { msg } from '../../messages';
import { textDay } from '../../lib/message-text';

export interface TripHiding {
  reportId: number;
  announcementId: number;
  actorId: number;
  note: string | null;
  closedAt: string;
  /** True only in the batch that closed the report (a concurrent close hides nothing). */
  closedByMe: SQL;
  ip: string | null;
}

/** The close's statements: the trip CANCELLED unless it already was, its audit entry, the carrier side told (an agency trip's acting staff). */
export async function hideTripStatements(db: Db, h: TripHiding): Promise<Statement[]> {
  const [trip] = await db.select().from(announcements).where(eq(announcements.id, h.announcementId));
  if (!trip) return [];
  // This close hid it: the only write stamping the trip CANCELLED at this instant.
  const hiddenNow = rowExists(db, announcements, and(eq(announcements.id, trip.id), eq(announcements.status, 'CANCELLED'), eq(announcements.updatedAt, h.closedAt)));
  const where = { from: trip.departureCity, to: trip.arrivalCity, date: textDay(trip.departureDate), report: h.reportId };
  return [
    db
      .update(announcements)
      .set({ status: 'CANCELLED', updatedAt: h.closedAt })
      .where(and(eq(announcements.id, trip.id), ne(announcements.status, 'CANCELLED'), h.closedByMe)),
    auditInsertIfChanged(db, {
      actorId: h.actorId,
      action: 'ANNOUNCEMENT_HIDDEN',
      targetType: 'ANNOUNCEMENT',
      targetId: trip.id,
      ip: h.ip,
      details: { reportId: h.reportId, previousStatus: trip.status },
    }),
    ...notify(
      db,
      toEach(await carrierSideIds({ db }, { ...trip, announcementId: trip.id }), {
        type: 'TRIP_REMOVED',
        text: h.note ? msg('notice.tripRemovedBecause', { ...where, note: h.note }) : msg('notice.tripRemoved', where),
        data: { announcementId: trip.id, reportId: h.reportId, note: h.note },
      }),
      and(h.closedByMe, hiddenNow),
    ),
  ];
}

/**
 * After the close committed: the trip's reservations before deposit cancelled and refunded, its
 * open offers closed. A failure here is logged: the trip is already hidden, and the cron's sweep
 * (bookings.jobs.ts) finishes the reservations.
 */
export async function afterTripHidden(deps: Deps, announcementId: number, actorId: number): Promise<void> {
  try {
    await cancelOnRemovedTrip(deps, announcementId, actorId);
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'hidden trip sweep failed', announcementId, error: String(err) }));
  }
  try {
    await expireOffersOfRemovedTrip(deps, announcementId);
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'hidden trip offers not closed', announcementId, error: String(err) }));
  }
}
