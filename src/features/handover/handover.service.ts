// Handover rules (CONTRACT sections 7 and 8): deposit and delivery by dynamic QR or by manual code,
// the recipient's public view. Status changes go through transitionReservation; QR and code state
// through the reservation's QR Durable Object; money through the escrow service.
import { and, eq, sql } from 'drizzle-orm';
import { renderSVG } from 'uqr';
import { reservations, users, type ReservationRow } from '../../db/schema';
import { compiled, type Placeholders } from '../../db/statements';
import type { IssuedQr } from '../../durable-objects/reservation-qr';
import type { AuthUser, Deps } from '../../env';
import { invalidArgument, invalidState, tooManyRequests, accessDenied, msg } from '../../errors';
import { verifyQrPayload, type QrPurpose } from '../../lib/qr-payload';
import { assertCanAccess } from '../../access/ownership';
import { captureLoaded, releaseEffects } from '../money';
import { recipientLinks } from '../deliveries/recipient';
import { compiledNotify, notify, reservationRef, textReadBy, toEach, type Notification } from '../deliveries/notify';
import { allEffects, commitTransition, loadReservation, stillAsPlanned } from '../reservations/lifecycle';
import { assertCarrierSide, carrierSideIds } from '../../access/reservation-access';
import { applyTransition, type ReservationAction, type ReservationStatus } from '../reservations/reservation-state';
import { dtoViewFromReads, reservationDtoViewStatements, type ReservationDtoView } from '../reservations/reservation-views';
import { lastPosition, type Position } from '../tracking/tracking.service';
import { publicName } from '../../lib/public-name';
import { appConfig } from '../../config';

export const qrObject = (env: Env, reservationId: number) =>
  env.RESERVATION_QR.get(env.RESERVATION_QR.idFromName(String(reservationId)));

export interface QrImage extends IssuedQr {
  svg: string;
}

const withSvg = (qr: IssuedQr): QrImage => ({ ...qr, svg: renderSVG(qr.payload, { border: 2 }) });

const ACTION_OF: Record<QrPurpose, ReservationAction> = { DEPOSIT: 'DEPOSIT', DELIVERY: 'DELIVER' };


/** The sender's current deposit QR. Only while CONFIRMED: earlier the parcel may not be handed over. */
export async function depositQr({ db, env }: Deps, auth: AuthUser, id: number): Promise<QrImage> {
  const row = await loadReservation(db, id);
  assertCanAccess(auth, [row.senderId], []);
  applyTransition(row.status, 'DEPOSIT');
  return withSvg(await qrObject(env, id).issue({ reservationId: id, carrierId: scannerInClaims(row) }, 'DEPOSIT'));
}

/**
 * Who the signed claims name as the scanner, checked without a read: a private trip's carrier. An
 * agency trip names nobody (0): its acting staff are read at the scan (CONTRACT 25: the publisher
 * may have moved or left since the code was issued).
 */
const scannerInClaims = (r: { carrierId: number; agencyId: number | null }) => (r.agencyId === null ? r.carrierId : 0);

const consumeErrors = {
  USED: () => invalidState('handover.qrCodeAlreadyUsed'),
  REPLACED: () => invalidArgument('handover.qrCodeReplacedNewer', { suggestions: ['handover.scanQrCodeCurrently'] }),
  EXPIRED: () => invalidArgument('handover.qrCodeExpired', { suggestions: ['handover.askFreshQrCode'] }),
  UNKNOWN: () => invalidArgument('handover.unknownQrCode', { suggestions: ['handover.askFreshQrCode'] }),
} as const;

/**
 * A scanned payload: signature, expiry, purpose and carrier (all in the signed claims, so no read
 * is needed and nobody else can spend the nonce), then one-time use, then the transition.
 */
export async function processQr(deps: Deps, auth: AuthUser, payload: string, purpose: QrPurpose): Promise<ReservationDtoView> {
  const { env } = deps;
  const claims = await verifyQrPayload(env.QR_SIGNING_SECRET, payload, purpose);
  // A private trip's carrier is in the signed claims (no read); an agency trip's acting staff are read.
  if (claims.car !== auth.id) await assertCarrierSide(deps, auth, await loadReservation(deps.db, claims.rid));
  const outcome = await qrObject(env, claims.rid).consume(claims.non, purpose);
  if (outcome !== 'OK') throw consumeErrors[outcome]();
  return purpose === 'DEPOSIT' ? deposit(deps, claims.rid) : deliver(deps, claims.rid);
}

/** A typed code: the carrier, the state, then the code through the object's lockout counter. */
export async function processCode(deps: Deps, auth: AuthUser, id: number, code: string, purpose: QrPurpose): Promise<ReservationDtoView> {
  const { db, env } = deps;
  const row = await loadReservation(db, id);
  await assertCarrierSide(deps, auth, row);
  applyTransition(row.status, ACTION_OF[purpose]); // wrong state: 409 without spending an attempt
  const expected = purpose === 'DEPOSIT' ? row.depositCode : row.deliveryCode;
  const check = await qrObject(env, id).checkCode(code, expected);
  if (check.result === 'LOCKED') {
    throw tooManyRequests('handover.tooManyWrongCodes', check.retryAfterSeconds, {
      suggestions: [msg('handover.retryMinutesScanQr', { retryAfterSeconds: Math.ceil(check.retryAfterSeconds / 60) })],
    });
  }
  if (check.result === 'WRONG') {
    const locked = check.remainingAttempts === 0;
    throw invalidArgument(locked ? 'handover.wrongCodeCodeEntry' : 'handover.wrongCode', {
      suggestions: [locked ? 'handover.scanQrCodeInstead' : msg('handover.attemptsLeftBeforeCode', { remainingAttempts: check.remainingAttempts })],
    });
  }
  return purpose === 'DEPOSIT' ? deposit(deps, id) : deliver(deps, id);
}


// The sender's deposit notice, compiled once (db/statements.ts): the sender and the number are
// read by the statement itself, guarded like every effect of the DEPOSIT plan. The recipient's
// link again (their page now shows the delivery code), by e-mail and SMS, goes in the same
// deliveries statement.
const depositNotice = compiledNotify((db, p: Placeholders<{ id: number }>) => ({
  item: {
    userId: reservations.senderId,
    type: 'RESERVATION_DEPOSITED',
    text: textReadBy('notice.parcelDeposited', { number: reservations.reservationNumber }),
    data: sql`json_object('reservationId', ${reservations.id}, 'reservationNumber', ${reservations.reservationNumber})`,
  },
  guard: and(eq(reservations.id, p.id), stillAsPlanned(db, { id: p.id, action: 'DEPOSIT' })),
  source: reservations,
  alsoDeliver: [recipientLinks('DEPOSITED')],
}));

/**
 * CONFIRMED to DEPOSITED in one batch (the sender's notification, the conditional update, the
 * reservation as the response shows it) with no read first (the carrier is in the signed
 * claims), then the capture: two D1 round trips. A failed capture is retried at delivery and by
 * the cron.
 */
async function deposit(deps: Deps, id: number): Promise<ReservationDtoView> {
  const { db } = deps;
  const { row, reads } = await commitTransition(
    db,
    { id, action: 'DEPOSIT', set: { depositedAt: new Date().toISOString() }, guardedEffects: depositNotice(db, { id }) },
    { reads: reservationDtoViewStatements(db, id) },
  );
  const view = dtoViewFromReads(id, reads);
  const captured = await captureLoaded(deps, row);
  return captured === row ? view : { ...view, r: captured };
}

/**
 * To DELIVERED: the status change, the escrow's release to the carrier's (or agency's) wallet and
 * the commission to revenue, and both parties' notifications are one batch, so a delivered parcel
 * is never left unpaid. A payment still only authorised is captured first.
 */
async function deliver(deps: Deps, id: number): Promise<ReservationDtoView> {
  const { db } = deps;
  const loaded = await loadReservation(db, id);
  applyTransition(loaded.status, 'DELIVER'); // 409 before any money moves
  const r = await captureLoaded(deps, loaded);
  // The carrier side made the delivery: told in the app only (FUNDS_HELD tells the money), each
  // member of an agency trip's acting staff (CONTRACT 25).
  const notes: Notification[] = [
    { userId: r.senderId, type: 'RESERVATION_DELIVERED', text: msg('notice.parcelDelivered', { number: r.reservationNumber }), data: reservationRef(r) },
    ...toEach(await carrierSideIds(deps, r), { type: 'RESERVATION_DELIVERED', text: msg('notice.deliveryConfirmed', { number: r.reservationNumber }), data: reservationRef(r), inAppOnly: true }),
  ];
  const { reads } = await commitTransition(
    db,
    {
      id,
      from: r.status,
      action: 'DELIVER',
      set: { deliveredAt: new Date().toISOString() },
      effects: allEffects(releaseEffects(db, r), (guard) => notify(db, notes, guard)),
    },
    { reads: reservationDtoViewStatements(db, id) },
  );
  return dtoViewFromReads(id, reads);
}

// ---------------------------------------------------------------------------------------------
// Recipient view
// ---------------------------------------------------------------------------------------------

/** Reservations in these statuses never reach the recipient: their link is treated as revoked. */
const HIDDEN_FROM_RECIPIENT: readonly ReservationStatus[] = ['CANCELLED', 'EXPIRED', 'REJECTED'];
/** The recipient's link stops working this long after the reservation finishes (CONTRACT section 19). */
export const RECIPIENT_LINK_AFTER_FINISH_MS = 30 * 24 * 60 * 60 * 1000;

/** When a reservation the recipient can see finished: delivered, or refunded after a dispute; null while it runs. */
function finishedAt(r: ReservationRow): string | null {
  if (r.status === 'DELIVERED') return r.deliveredAt ?? r.updatedAt;
  if (r.status === 'REFUNDED') return r.updatedAt;
  return null;
}
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

export async function findByRecipientToken({ db }: Deps, token: string) {
  // Tokens are long random secrets; anything too short to be one is not looked up.
  if (token.length < 20 || token.length > 200) return null;
  const [found] = await db
    .select({
      reservation: reservations,
      // The reservation's own terms (CONTRACT section 19), not the trip's current ones.
      departureCity: reservations.departureCity,
      arrivalCity: reservations.arrivalCity,
      arrivalDate: reservations.arrivalDate,
      carrierFirstName: users.firstName,
      carrierLastName: users.lastName,
      departureCountry: reservations.departureCountry,
      arrivalCountry: reservations.arrivalCountry,
      senderLocale: sql<string | null>`(SELECT ${users.locale} FROM ${users} WHERE ${users.id} = ${reservations.senderId})`,
    })
    .from(reservations)
    .innerJoin(users, eq(users.id, reservations.carrierId))
    .where(eq(reservations.recipientToken, token));
  if (!found || HIDDEN_FROM_RECIPIENT.includes(found.reservation.status)) return null;
  const finished = finishedAt(found.reservation);
  if (finished && Date.now() - Date.parse(finished) > RECIPIENT_LINK_AFTER_FINISH_MS) return null;
  return found;
}

/** What the recipient may see: no emails, phones, codes or sender details. */
export async function recipientView(deps: Deps, token: string): Promise<RecipientView | null> {
  return (await recipientPageData(deps, token))?.view ?? null;
}

/** The recipient's view, with what the page needs to speak their language and name places: the route's countries and the sender's locale. */
export async function recipientPageData(
  deps: Deps,
  token: string,
): Promise<{ view: RecipientView; departureCountry: string; arrivalCountry: string; senderLocale: string | null } | null> {
  const { env } = deps;
  const found = await findByRecipientToken(deps, token);
  if (!found) return null;
  const r = found.reservation;
  // Polling viewers share the current payload until a third of its life is left, then get a new one.
  const deliveryQr = DELIVERABLE.includes(r.status)
    ? withSvg(await qrObject(env, r.id).issue({ reservationId: r.id, carrierId: scannerInClaims(r) }, 'DELIVERY', Math.floor(appConfig(env).qrTtlMs / 3)))
    : null;
  const view: RecipientView = {
    reservationNumber: r.reservationNumber,
    status: r.status,
    departureCity: found.departureCity,
    arrivalCity: found.arrivalCity,
    arrivalDate: found.arrivalDate,
    carrierName: publicName({ firstName: found.carrierFirstName, lastName: found.carrierLastName }),
    // Only while the parcel travels: once delivered, where the carrier goes next is not the recipient's business.
    lastPosition: DELIVERABLE.includes(r.status) ? await lastPosition(env, r.id) : null,
    deliveryQr,
  };
  return { view, departureCountry: found.departureCountry, arrivalCountry: found.arrivalCountry, senderLocale: found.senderLocale };
}
