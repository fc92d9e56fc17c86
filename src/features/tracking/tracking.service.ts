// Tracking rules (CONTRACT section 9): who may post and read positions, when, and which points are
// acceptable. The history and the live feed live in the reservation's tracking Durable Object.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reservations, type ReservationRow } from '../../db/schema';
import { aliasedColumns, compiled, runAlone, type Placeholders } from '../../db/statements';
import type { Position, PositionInput } from '../../durable-objects/reservation-tracking';
import type { AuthUser, Deps } from '../../env';
import { accessDenied, invalidState, notFound, unauthorized, validationError, type FieldError } from '../../errors';
import { timingSafeEqual } from '../../lib/timing-safe';
import { notify, reservationRef } from '../deliveries/notify';
import { commitTransitions } from '../reservations/lifecycle';
import { assertReservationAccess, isCarrierSide, sideOf } from '../../access/reservation-access';
import { VIEWER_HEADER, type TrackingViewer } from '../../durable-objects/reservation-tracking';
import type { ReservationStatus } from '../reservations/reservation-state';
import { msg } from '../../messages';

export type { Position, PositionInput };

/** Points may be recorded offline and sent later, but not from the future (beyond clock skew). */
export const MAX_CLOCK_SKEW_MS = 60_000;
export const MAX_POINT_AGE_MS = 24 * 60 * 60 * 1000;
export const MAX_BATCH_SIZE = 100;

const TRACKABLE: readonly ReservationStatus[] = ['DEPOSITED', 'IN_TRANSIT'];

export const trackingObject = (env: Env, reservationId: number) =>
  env.RESERVATION_TRACKING.get(env.RESERVATION_TRACKING.idFromName(String(reservationId)));

export async function lastPosition(env: Env, reservationId: number): Promise<Position | null> {
  return trackingObject(env, reservationId).lastPosition();
}

/** Read on every position post (every few seconds per parcel in transit): compiled once. */
// Only the columns the tracking rules read: the parties, the status, the recipient's token.
const TRACKING_FIELDS = ['id', 'senderId', 'carrierId', 'agencyId', 'announcementId', 'status', 'reservationNumber', 'recipientToken'] as const;
type TrackedReservation = Pick<ReservationRow, (typeof TRACKING_FIELDS)[number]>;
const reservationById = compiled((db, p: Placeholders<{ id: number }>) =>
  db.select(aliasedColumns(reservations, 'r', TRACKING_FIELDS)).from(reservations).where(eq(reservations.id, p.id)),
);

async function load(db: Db, id: number): Promise<TrackedReservation> {
  const [row] = await runAlone(reservationById(db, { id }));
  if (!row) throw notFound('Reservation', id);
  return row;
}

/** Time checks zod cannot make statically; every failing point is listed, like any body error. */
export function checkTimestamps(points: PositionInput[], field: (i: number) => string, now = Date.now()): void {
  const fieldErrors: FieldError[] = [];
  points.forEach((p, i) => {
    const t = Date.parse(p.recordedAt);
    if (t > now + MAX_CLOCK_SKEW_MS) {
      fieldErrors.push({ field: field(i), message: 'tracking.recordedAtFuture', rejectedValue: p.recordedAt });
    } else if (t < now - MAX_POINT_AGE_MS) {
      fieldErrors.push({ field: field(i), message: 'tracking.recordedAtOlder24Hours', rejectedValue: p.recordedAt });
    }
  });
  if (fieldErrors.length > 0) {
    throw validationError('tracking.validationFailedBodyRecordedAt', {
      fieldErrors,
      suggestions: ['tracking.sendPointsRecordedWithin'],
    });
  }
}

/** The carrier posts points while the parcel is with them; the first point starts the transit. */
export async function postPositions(deps: Deps, auth: AuthUser, id: number, points: PositionInput[], field: (i: number) => string) {
  const { db, env } = deps;
  const row = await load(db, id);
  // The carrier side posts: the carrier, or an agency trip's acting staff, its owner included (CONTRACT 25).
  if (!(await isCarrierSide(deps, auth, row))) throw accessDenied('tracking.onlyCarrierReservationPost');
  if (!TRACKABLE.includes(row.status)) {
    throw invalidState('tracking.positionsAcceptedOnlyWhile', { status: row.status });
  }
  checkTimestamps(points, field);
  let status = row.status;
  if (status === 'DEPOSITED') {
    // The first point starts the transit; the sender's notice is in the same batch, guarded on it.
    const note = {
      userId: row.senderId,
      type: 'RESERVATION_IN_TRANSIT' as const,
      text: msg('notice.parcelInTransit', { number: row.reservationNumber }),
      data: reservationRef({ id, reservationNumber: row.reservationNumber }),
    };
    const {
      rows: [started],
    } = await commitTransitions(db, [{ id, from: 'DEPOSITED', action: 'START_TRANSIT', effects: (guard) => notify(db, note, guard) }]);
    // Not applied: a concurrent first point already started the transit (carry on), or the
    // reservation left DEPOSITED/IN_TRANSIT meanwhile (refused like any other status).
    status = started?.status ?? (await load(db, id)).status;
    if (!TRACKABLE.includes(status)) {
      throw invalidState('tracking.positionsAcceptedOnlyWhile', { status });
    }
  }
  const result = await trackingObject(env, id).append(points);
  return { reservationId: id, status, accepted: result.accepted, lastPosition: result.lastPosition };
}

/** Sender, carrier and admins read the history. */
export async function trackingView(deps: Deps, auth: AuthUser, id: number) {
  const { db, env } = deps;
  const row = await load(db, id);
  await assertReservationAccess(deps, auth, row, { sender: true, carrier: true, admins: true });
  const { lastPosition, positions } = await trackingObject(env, id).history();
  return { reservationId: id, status: row.status, lastPosition, positions };
}

/**
 * Who may open the live feed: a party with a bearer token, or the holder of the recipient token.
 * Answers who the viewer is, for the object to re-check a party's side while the socket is open.
 */
export async function assertLiveAccess(deps: Deps, id: number, who: { auth?: AuthUser; recipientToken?: string }): Promise<TrackingViewer> {
  const row = await load(deps.db, id);
  if (who.recipientToken !== undefined) {
    if (!timingSafeEqual(who.recipientToken, row.recipientToken)) throw accessDenied('tracking.invalidRecipientTokenReservation');
    if (['CANCELLED', 'EXPIRED', 'REJECTED'].includes(row.status)) throw accessDenied('tracking.recipientLinkNoLonger');
    return { reservationId: id, side: 'RECIPIENT' };
  }
  if (!who.auth) throw unauthorized('error.authenticationRequired');
  const side = await sideOf(deps, who.auth, row);
  if (side) return { reservationId: id, userId: who.auth.id, side };
  await assertReservationAccess(deps, who.auth, row, { admins: true });
  return { reservationId: id, userId: who.auth.id, side: 'ADMIN' };
}

/** The live feed's handshake, handed to the object with who the viewer is (never the client's header). */
export function liveRequest(request: Request, viewer: TrackingViewer): Request {
  const headers = new Headers(request.headers);
  headers.set(VIEWER_HEADER, JSON.stringify(viewer));
  return new Request(request.url, { headers });
}

