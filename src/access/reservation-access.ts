// Who may act on a reservation: its sender, its carrier side (the carrier, or staff of the agency
// that owns the trip: its owner, or an employee of the trip's branch), admins. Built on the one
// ownership check, assertCanAccess.
import { and, eq, isNull, or, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { reservations } from '../db/schema';
import type { AuthUser, Deps } from '../env';
import { accessDenied, type Text } from '../errors';
import { hasRole } from '../middleware/auth';
import { assertCanAccess } from './ownership';
import { actingStaffIds, actsForAgencyTrip, staffActsForTrip } from './agency-scope';

/** The two sides of a reservation, an offer, a conversation or a dispute. */
export type Side = 'SENDER' | 'CARRIER';

interface ReservationParties {
  senderId: number;
  carrierId: number;
  agencyId: number | null;
  /** The trip: an employee acts only for the trips of their own branch. */
  announcementId: number;
}

/**
 * The carrier of a private trip; for an agency's trip, the staff acting for its agency and branch
 * now (agency-scope.ts staffActsForTrip, read from D1: token roles may be stale).
 */
export const isCarrierSide = (deps: Deps, auth: AuthUser, r: Omit<ReservationParties, 'senderId'>) => userIsCarrierSide(deps, auth.id, r);

async function userIsCarrierSide(deps: Deps, userId: number, r: Omit<ReservationParties, 'senderId'>): Promise<boolean> {
  // An agency's trip belongs to the agency: whoever acts for it now, not the staff member who
  // published it (moved to another branch or gone from the agency, they act no more).
  if (r.agencyId !== null) return staffActsForTrip(deps, userId, r);
  return userId === r.carrierId;
}

/** The caller's side, or null for anyone else (admins included: they read elsewhere, never as a side). */
export async function sideOf(deps: Deps, auth: AuthUser, r: ReservationParties): Promise<Side | null> {
  if (auth.id === r.senderId) return 'SENDER';
  return (await isCarrierSide(deps, auth, r)) ? 'CARRIER' : null;
}

/** sideOf(), or 403 (with `refusal`'s text when given). */
export async function assertSide(deps: Deps, auth: AuthUser, r: ReservationParties, refusal?: Text): Promise<Side> {
  const side = await sideOf(deps, auth, r);
  if (!side) throw accessDenied(refusal);
  return side;
}

/**
 * Who is told for the carrier side (CONTRACT 25): the carrier of a private trip; every member of an
 * agency trip's acting staff now, never a former one (read from D1).
 */
export async function carrierSideIds(deps: Pick<Deps, 'db'>, r: Omit<ReservationParties, 'senderId'>): Promise<number[]> {
  return r.agencyId === null ? [r.carrierId] : actingStaffIds(deps, r);
}

/** carrierSideIds() from the acting staff already read in the request's batch (actingStaffOfTrip). */
export const carrierSideFrom = (r: { carrierId: number; agencyId: number | null }, staff: readonly { userId: number }[]): number[] =>
  r.agencyId === null ? [r.carrierId] : [...new Set(staff.map((s) => s.userId))];

/**
 * Who is told of what `authorId` did as `side`: the sender, or the carrier side but the author
 * (for an agency trip, `staff` is its acting staff, already read with the request's other rows).
 */
export function counterpartIds(side: Side, r: ReservationParties, staff: readonly number[], authorId: number): number[] {
  if (side === 'CARRIER') return [r.senderId];
  return [...new Set(r.agencyId === null ? [r.carrierId] : staff)].filter((userId) => userId !== authorId);
}

/**
 * The side of a caller already admitted to the reservation (a party, or an operator acting for the
 * carrier side): the sender is the sender, anyone else acts as the carrier.
 */
export const admittedSide = (userId: number, r: { senderId: number }): Side => (userId === r.senderId ? 'SENDER' : 'CARRIER');

/**
 * An operator's view of a reservation (the back office) shows its handover codes, except to an
 * operator who carries it themselves: a carrier never reads the codes they are to be given.
 */
export const operatorSeesCodes = (viewerId: number, r: { carrierId: number }): boolean => viewerId !== r.carrierId;

/** Everyone told about a reservation: the sender and the carrier side. */
export async function partyIds(deps: Deps, r: ReservationParties): Promise<number[]> {
  return [...new Set([r.senderId, ...(await carrierSideIds(deps, r))])];
}

/**
 * isCarrierSide() as a statement's condition, for listings: `userId` carries the row's private trip,
 * or acts for its agency trip now. The arguments are the row's columns.
 */
/**
 * `userId` carries the row's trip in their own name (a private trip): what is theirs personally. An
 * agency trip's rows are the agency's (CONTRACT 25: not in a staff member's export, never blocking
 * their erasure).
 */
export const carriesPrivately = (userId: SQL | Placeholder | number, row: { carrierId: AnySQLiteColumn; agencyId: AnySQLiteColumn } = reservations): SQL =>
  and(isNull(row.agencyId), eq(row.carrierId, userId))!;

export const carrierSideCondition = (
  db: Db,
  userId: SQL | Placeholder,
  row: { carrierId: AnySQLiteColumn; agencyId: AnySQLiteColumn; announcementId: AnySQLiteColumn } = reservations,
): SQL => or(and(isNull(row.agencyId), eq(row.carrierId, userId)), actsForAgencyTrip(db, userId, row.agencyId, row.announcementId))!;

export interface AccessRule {
  sender?: boolean;
  carrier?: boolean;
  /** Admins (and super-admins) pass too. */
  admins?: boolean;
}

export async function assertReservationAccess(deps: Deps, auth: AuthUser, r: ReservationParties, rule: AccessRule): Promise<void> {
  const owners: number[] = [];
  if (rule.sender) owners.push(r.senderId);
  if (rule.carrier && (await isCarrierSide(deps, auth, r))) owners.push(auth.id);
  assertCanAccess(auth, owners, rule.admins ? ['ROLE_ADMIN'] : []);
}

export const isAdmin = (auth: AuthUser) => hasRole(auth, 'ROLE_ADMIN');

/** What a viewer already admitted to a reservation sees of it (reservation.schemas.ts toReservationDto). */
export interface Disclosure {
  /** The deposit and delivery codes: the sender's only (CONTRACT section 7). */
  codes: boolean;
  /** The sender's e-mail and the recipient's phone and e-mail. */
  senderContact: boolean;
  /** The carrier side's contact (an agency trip's: the agency's). */
  carrierContact: boolean;
}

/**
 * Until a reservation is paid each party's contact details are hidden from the other, as the chat
 * hides them (CONTRACT 25); administrators see them.
 */
export function disclosureTo(viewer: AuthUser, r: { senderId: number; carrierId: number; paidAt: string | null }): Disclosure {
  const sender = viewer.id === r.senderId && viewer.id !== r.carrierId;
  const open = r.paidAt !== null || isAdmin(viewer);
  return { codes: sender, senderContact: open || sender, carrierContact: open || !sender };
}

/** Parties (the agency's staff included) and admins may read a reservation; everyone else gets 403. */
export const assertCanRead = (deps: Deps, auth: AuthUser, r: ReservationParties) =>
  assertReservationAccess(deps, auth, r, { sender: true, carrier: true, admins: true });

/**
 * The carrier side scans and types codes: the reservation's carrier, or on an agency trip its owner
 * and the trip's branch's employees (CONTRACT section 19). No admin override: it moves money.
 */
export async function assertCarrierSide(deps: Deps, auth: AuthUser, r: ReservationParties) {
  if (!(await isCarrierSide(deps, auth, r))) throw accessDenied('handover.onlyCarrierReservation');
}

/**
 * For an open socket (conversation, tracking), re-checked periodically: is `userId` still on `side`
 * of reservation `reservationId` (still sender; still its carrier side now)? A gone reservation: false.
 */
export async function stillOnSide(deps: Deps, userId: number, reservationId: number, side: Side | 'ADMIN'): Promise<boolean> {
  const r = await partiesOf(deps, reservationId);
  if (!r) return false;
  if (side === 'SENDER') return r.senderId === userId;
  if (side === 'CARRIER') return userIsCarrierSide(deps, userId, r);
  return true;
}

async function partiesOf(deps: Deps, reservationId: number) {
  const [r] = await deps.db
    .select({ senderId: reservations.senderId, carrierId: reservations.carrierId, agencyId: reservations.agencyId, announcementId: reservations.announcementId })
    .from(reservations)
    .where(eq(reservations.id, reservationId));
  return r;
}

/** Sender, carrier or staff of the carrying agency: true; a stranger: false; no such reservation: null. */
export async function isReservationParty(deps: Deps, auth: AuthUser, reservationId: number): Promise<boolean | null> {
  const r = await partiesOf(deps, reservationId);
  if (!r) return null;
  return r.senderId === auth.id || isCarrierSide(deps, auth, r);
}
