// Who an agency invitation is for (CONTRACT 25): the account it names, or, while it waits for an
// account, whoever holds its address verified. Only a verified address answers an invitation.
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { agencyInvitations, users } from '../db/schema';
import type { AuthUser } from '../env';
import { accessDenied } from '../errors';

interface InvitationAddress {
  userId: number | null;
  email: string;
}

/** The caller's address if verified, as SQL (null otherwise): what an unmatched invitation is matched with. */
const verifiedAddressOf = (userId: number): SQL =>
  sql`(SELECT lower(${users.email}) FROM ${users} WHERE ${users.id} = ${userId} AND ${users.emailVerified} = 1)`;

/** addressedTo() as a statement's condition, for the caller's list of invitations. */
export const addressedToCondition = (auth: Pick<AuthUser, 'id'>): SQL =>
  or(eq(agencyInvitations.userId, auth.id), and(isNull(agencyInvitations.userId), eq(agencyInvitations.email, verifiedAddressOf(auth.id))))!;

/**
 * Is `row` addressed to the caller (`me`: their account's address and whether it is verified)? The
 * invitation names them, or waited for their verified address.
 */
export const addressedTo = (me: { id: number; email: string; emailVerified: boolean }, row: InvitationAddress): boolean =>
  row.userId === me.id || (row.userId === null && me.emailVerified && row.email === me.email.toLowerCase());

/** 403 unless the caller's address is verified: an unverified account does not join an agency. */
export function assertMayAnswerInvitation(me: { emailVerified: boolean }): void {
  if (!me.emailVerified) throw accessDenied('agency.verifyEmailToAnswerInvitation');
}

/** Already on this agency's side: its owner, or one of its staff (the owner knows them: no address revealed). */
export const alreadyOnAgencySide = (agency: { id: number; ownerId: number }, user: { id: number; agencyId: number | null }): boolean =>
  user.id === agency.ownerId || user.agencyId === agency.id;
