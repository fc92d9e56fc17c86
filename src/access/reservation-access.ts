// Who may act on a reservation: its sender, its carrier side (the carrier, or staff of the agency
// that owns the trip: its owner, or an employee of the trip's branch), admins. Built on the one
// ownership check, assertCanAccess.
import { eq } from 'drizzle-orm';
import { reservations } from '../db/schema';
import type { AuthUser, Deps } from '../env';
import { accessDenied } from '../errors';
import { hasRole } from '../middleware/auth';
import { assertCanAccess } from './ownership';
import { staffActsForTrip } from './agency-scope';

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
export async function isCarrierSide(deps: Deps, auth: AuthUser, r: ReservationParties): Promise<boolean> {
  // An agency's trip belongs to the agency: whoever acts for it now, not the staff member who
  // published it (moved to another branch or gone from the agency, they act no more).
  if (r.agencyId !== null) return staffActsForTrip(deps, auth.id, r);
  return auth.id === r.carrierId;
}

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

/** Sender, carrier or staff of the carrying agency: true; a stranger: false; no such reservation: null. */
export async function isReservationParty(deps: Deps, auth: AuthUser, reservationId: number): Promise<boolean | null> {
  const [r] = await deps.db
    .select({ senderId: reservations.senderId, carrierId: reservations.carrierId, agencyId: reservations.agencyId, announcementId: reservations.announcementId })
    .from(reservations)
    .where(eq(reservations.id, reservationId));
  if (!r) return null;
  return r.senderId === auth.id || isCarrierSide(deps, auth, r);
}
