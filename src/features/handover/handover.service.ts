// Handover rules (CONTRACT sections 7 and 8): deposit and delivery by dynamic QR or by manual code,
// the recipient's public view. Status changes go through transitionReservation; QR and code state
// through the reservation's QR Durable Object; money through the escrow service.
import { and, eq, sql, type Placeholder } from 'drizzle-orm';
import { publicName } from '../users/public-name';
import { captureLoaded, releaseOnDelivery } from '../payments/escrow.service';
import { renderSVG } from 'uqr';
import { getDb } from '../../db/client';
import { announcements, reservations, users, type ReservationRow } from '../../db/schema';
import { compiledQuery } from '../../db/compiled-query';
import type { IssuedQr } from '../../durable-objects/reservation-qr';
import type { AuthUser } from '../../env';
import { AppError, accessDenied, invalidState, notFound } from '../../errors';
import { qrTtlMs, verifyQrPayload, type QrPurpose } from '../../lib/qr-payload';
import { assertCanAccess } from '../../middleware/auth';
import { applyTransition, TRANSITIONS, type ReservationAction, type ReservationStatus } from '../bookings/reservation-state';
import { loadReservation, transitionStatement } from '../bookings/reservation-transition';
import { getReservationView, reservationViewOf, reservationViewStatements, type ReservationView } from '../bookings/bookings.service';
import { guardedNotificationInsert, notificationInsert } from '../notifications/notify';
import { lastPosition, type Position } from '../tracking/tracking.service';

export const qrObject = (env: Env, reservationId: number) =>
  env.RESERVATION_QR.get(env.RESERVATION_QR.idFromName(String(reservationId)));

export interface QrImage extends IssuedQr {
  svg: string;
}

const withSvg = (qr: IssuedQr): QrImage => ({ ...qr, svg: renderSVG(qr.payload, { border: 2 }) });

const ACTION_OF: Record<QrPurpose, ReservationAction> = { DEPOSIT: 'DEPOSIT', DELIVERY: 'DELIVER' };


/** Only the reservation's own carrier scans and types codes (no admin override: it moves money). */
function assertCarrier(auth: AuthUser, row: ReservationRow) {
  if (auth.id !== row.carrierId) throw accessDenied('Only the carrier of this reservation can do this');
}

/** The sender's current deposit QR. Only while CONFIRMED: earlier the parcel may not be handed over. */
export async function depositQr(env: Env, auth: AuthUser, id: number): Promise<QrImage> {
  const row = await loadReservation(getDb(env), id);
  assertCanAccess(auth, [row.senderId], []);
  applyTransition(row.status, 'DEPOSIT');
  return withSvg(await qrObject(env, id).issue({ reservationId: id, carrierId: row.carrierId }, 'DEPOSIT'));
}

const consumeErrors = {
  USED: () => invalidState('This QR code has already been used'),
  REPLACED: () =>
    new AppError('INVALID_ARGUMENT', 'This QR code was replaced by a newer one', {
      suggestions: ['Scan the QR code currently displayed'],
    }),
  EXPIRED: () => new AppError('INVALID_ARGUMENT', 'QR code has expired', { suggestions: ['Ask for a fresh QR code'] }),
  UNKNOWN: () => new AppError('INVALID_ARGUMENT', 'Unknown QR code', { suggestions: ['Ask for a fresh QR code'] }),
} as const;

/**
 * A scanned payload: signature, expiry, purpose and carrier (all in the signed claims, so no read
 * is needed and nobody else can spend the nonce), then one-time use, then the transition.
 */
export async function processQr(env: Env, auth: AuthUser, payload: string, purpose: QrPurpose): Promise<ReservationView> {
  const claims = await verifyQrPayload(env.QR_SIGNING_SECRET, payload, purpose);
  if (claims.car !== auth.id) throw accessDenied('Only the carrier of this reservation can do this');
  const outcome = await qrObject(env, claims.rid).consume(claims.non, purpose);
  if (outcome !== 'OK') throw consumeErrors[outcome]();
  return purpose === 'DEPOSIT' ? deposit(env, claims.rid) : deliver(env, claims.rid);
}

/** A typed code: the carrier, the state, then the code through the object's lockout counter. */
export async function processCode(env: Env, auth: AuthUser, id: number, code: string, purpose: QrPurpose): Promise<ReservationView> {
  const row = await loadReservation(getDb(env), id);
  assertCarrier(auth, row);
  applyTransition(row.status, ACTION_OF[purpose]); // wrong state: 409 without spending an attempt
  const expected = purpose === 'DEPOSIT' ? row.depositCode : row.deliveryCode;
  const check = await qrObject(env, id).checkCode(code, expected);
  if (check.result === 'LOCKED') {
    throw new AppError('BUSINESS_RULE_VIOLATION', 'Too many wrong codes: code entry is locked', {
      status: 429,
      headers: { 'Retry-After': String(check.retryAfterSeconds) },
      suggestions: [`Retry in ${Math.ceil(check.retryAfterSeconds / 60)} minutes, or scan the QR code instead`],
    });
  }
  if (check.result === 'WRONG') {
    const locked = check.remainingAttempts === 0;
    throw new AppError('INVALID_ARGUMENT', locked ? 'Wrong code: code entry is now locked for 15 minutes' : 'Wrong code', {
      suggestions: [locked ? 'Scan the QR code instead, or retry later' : `${check.remainingAttempts} attempts left before code entry is locked`],
    });
  }
  return purpose === 'DEPOSIT' ? deposit(env, id) : deliver(env, id);
}

const NOTICES: Record<QrPurpose, { type: string; title: string; message: (n: string) => string }> = {
  DEPOSIT: {
    type: 'RESERVATION_DEPOSITED',
    title: 'Parcel handed over',
    message: (n) => `Your parcel for reservation ${n} was handed over to the carrier.`,
  },
  DELIVERY: {
    type: 'RESERVATION_DELIVERED',
    title: 'Parcel delivered',
    message: (n) => `Your parcel for reservation ${n} was delivered to its recipient.`,
  },
};

/** A notice's message with the reservation number read by the statement itself. */
function messageSql(message: (n: string) => string) {
  const [before, after] = message('\u0000').split('\u0000');
  return sql`${before} || ${reservations.reservationNumber} || ${after}`;
}

// The deposit's writes, compiled once (see db/compiled-query.ts): the conditional status change,
// and the sender's notification only if that change is the one this request made.
const depositWrites = {
  transition: compiledQuery((db, p: Record<'id' | 'now', Placeholder>) =>
    transitionStatement(db, p.id, 'DEPOSIT', { depositedAt: sql`${p.now}`, updatedAt: sql`${p.now}` }),
  ),
  notice: compiledQuery((db, p: Record<'id' | 'now', Placeholder>) =>
    guardedNotificationInsert(
      db,
      {
        userId: reservations.senderId,
        type: NOTICES.DEPOSIT.type,
        title: NOTICES.DEPOSIT.title,
        message: messageSql(NOTICES.DEPOSIT.message),
        data: sql`json_object('reservationId', ${reservations.id})`,
        createdAt: p.now,
      },
      and(eq(reservations.id, p.id), eq(reservations.status, TRANSITIONS.DEPOSIT.to), eq(reservations.depositedAt, p.now)),
      reservations,
    ),
  ),
};

/**
 * CONFIRMED to DEPOSITED in one batch (the conditional update, the sender's notification if that
 * update won, the reservation as the response shows it), then the capture: two D1 round trips.
 */
async function deposit(env: Env, id: number): Promise<ReservationView> {
  const db = getDb(env);
  const values = { id, now: new Date().toISOString() };
  const [updated, , viewRows, items] = await db.batch([
    depositWrites.transition(db, values),
    depositWrites.notice(db, values),
    ...reservationViewStatements(db, id),
  ]);
  const view = reservationViewOf(viewRows, items);
  if (!view) throw notFound('Reservation', id);
  if (updated.length === 0) {
    applyTransition(view.r.status, 'DEPOSIT'); // throws 409 INVALID_STATE with the current status
    throw new Error('unreachable: transition allowed but no row changed');
  }
  // Money: capture now; a failed capture is retried at delivery and by the cron.
  const captured = await captureLoaded(env, updated[0]);
  return captured === updated[0] ? view : { ...view, r: captured };
}

/**
 * To DELIVERED: the status change and the escrow's release to the carrier's (or agency's) wallet
 * and the commission to revenue are one batch, so a delivered parcel is never left unpaid.
 */
async function deliver(env: Env, id: number): Promise<ReservationView> {
  const db = getDb(env);
  const row = await releaseOnDelivery(env, id, { action: 'DELIVER', set: { deliveredAt: new Date().toISOString() } });
  // After the conditional update won: a notification never reports a change that did not happen.
  const notice = NOTICES.DELIVERY;
  await notificationInsert(db, [
    { userId: row.senderId, type: notice.type, title: notice.title, message: notice.message(row.reservationNumber), data: { reservationId: id } },
    {
      userId: row.carrierId,
      type: notice.type,
      title: notice.title,
      message: `Delivery of reservation ${row.reservationNumber} is confirmed.`,
      data: { reservationId: id },
    },
  ]);
  return getReservationView(db, id);
}

// ---------------------------------------------------------------------------------------------
// Recipient view
// ---------------------------------------------------------------------------------------------

/** Reservations in these statuses never reach the recipient: their link is treated as revoked. */
const HIDDEN_FROM_RECIPIENT: readonly ReservationStatus[] = ['CANCELLED', 'EXPIRED', 'REJECTED'];
/** The delivery QR exists only while the parcel is with the carrier. */
const DELIVERABLE: readonly ReservationStatus[] = ['DEPOSITED', 'IN_TRANSIT'];

export interface RecipientView {
  reservationNumber: string;
  status: ReservationStatus;
  departureCity: string;
  arrivalCity: string;
  arrivalDate: string;
  carrierName: string;
  lastPosition: Position | null;
  deliveryQr: QrImage | null;
}

export async function findByRecipientToken(env: Env, token: string) {
  // Tokens are long random secrets; anything too short to be one is not looked up.
  if (token.length < 20 || token.length > 200) return null;
  const db = getDb(env);
  const [found] = await db
    .select({
      reservation: reservations,
      departureCity: announcements.departureCity,
      arrivalCity: announcements.arrivalCity,
      arrivalDate: announcements.arrivalDate,
      carrierFirstName: users.firstName,
      carrierLastName: users.lastName,
    })
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .innerJoin(users, eq(users.id, reservations.carrierId))
    .where(eq(reservations.recipientToken, token));
  if (!found || HIDDEN_FROM_RECIPIENT.includes(found.reservation.status)) return null;
  return found;
}

/** What the recipient may see: no emails, phones, codes or sender details. */
export async function recipientView(env: Env, token: string): Promise<RecipientView | null> {
  const found = await findByRecipientToken(env, token);
  if (!found) return null;
  const r = found.reservation;
  // Polling viewers share the current payload until a third of its life is left, then get a new one.
  const deliveryQr = DELIVERABLE.includes(r.status)
    ? withSvg(await qrObject(env, r.id).issue({ reservationId: r.id, carrierId: r.carrierId }, 'DELIVERY', Math.floor(qrTtlMs(env) / 3)))
    : null;
  return {
    reservationNumber: r.reservationNumber,
    status: r.status,
    departureCity: found.departureCity,
    arrivalCity: found.arrivalCity,
    arrivalDate: found.arrivalDate,
    carrierName: publicName({ firstName: found.carrierFirstName, lastName: found.carrierLastName }),
    lastPosition: await lastPosition(env, r.id),
    deliveryQr,
  };
}
