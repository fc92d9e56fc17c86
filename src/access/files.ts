// Who may read an uploaded file, by purpose: the one file-read rule (the KYC document rule among them).
import { eq } from 'drizzle-orm';
import { agencies, type FileRow } from '../db/schema';
import type { AuthUser, Deps } from '../env';
import { accessDenied } from '../errors';
import { hasRole, type Role } from '../middleware/auth';
import { assertCanAccess, canAccess } from './ownership';
import { isReservationParty } from './reservation-access';

const ADMINS: Role[] = ['ROLE_ADMIN'];
/** Identity documents (a person's or an agency's) are reviewed by super-administrators only (CONTRACT 19). */
const KYC_REVIEWERS: Role[] = ['ROLE_SUPERADMIN'];

/**
 * Who may read a file: its owner; any signed-in user for avatars (shown on public profiles);
 * super-administrators, who review KYC, for identity and agency documents (plus the agency's owner
 * for its documents), administrators not included; the reservation's parties (sender, carrier,
 * staff of the carrying agency) and admins for parcel images and dispute evidence.
 */
export async function assertCanReadFile(deps: Deps, auth: AuthUser, row: FileRow) {
  const { db } = deps;
  if (canAccess(auth, [row.ownerId], [])) return;
  switch (row.purpose) {
    case 'AVATAR':
      return;
    case 'KYC_DOCUMENT':
      return assertCanAccess(auth, [], KYC_REVIEWERS);
    case 'AGENCY_DOCUMENT': {
      if (hasRole(auth, ...KYC_REVIEWERS)) return;
      if (row.agencyId === null) throw accessDenied();
      const [agency] = await db.select({ ownerId: agencies.ownerId }).from(agencies).where(eq(agencies.id, row.agencyId));
      return assertCanAccess(auth, [agency?.ownerId], KYC_REVIEWERS);
    }
    // A ticket names its traveller: the owner and the operators who review it.
    case 'TRAVEL_PROOF':
      return assertCanAccess(auth, [], ADMINS);
    case 'PARCEL_IMAGE':
    case 'DISPUTE_EVIDENCE': {
      if (hasRole(auth, ...ADMINS)) return;
      if (row.reservationId === null || !(await isReservationParty(deps, auth, row.reservationId))) throw accessDenied();
      return;
    }
  }
}
