// Agency invitations (CONTRACT section 19): the owner invites a registered user to a branch; the
// user becomes staff only by accepting within 7 days, or declines. Each step is one batch whose
// writes are conditional on the invitation's status, checked by the row it returns.
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors';
import { agencies, agencyEmployees, agencyInvitations, users, type AgencyInvitationRow } from '../../db/schema';
import { guardedInsert, rowExists, totalledPage, withTotal, type Statement } from '../../db/statements';
import type { AuthUser, Deps } from '../../env';
import { accessDenied, alreadyExists, invalidState, notFound } from '../../errors';
import { offsetOf, orderBy, toPage, type PageParams } from '../../lib/pagination';
import { grantRoleStatement } from '../../lib/user-roles';
import { auditInsert, auditInsertIfChanged } from '../audit/audit';
import { notify } from '../deliveries/notify';
import { transactionalMessage } from '../deliveries/outbox';
import { addressedTo, addressedToCondition, alreadyOnAgencySide, assertMayAnswerInvitation } from '../../access/invitations';
import { agencyForOwner } from '../../access/agency-scope';
import { getBranch } from './agencies.service';
import { msg } from '../../messages';

/** How long an invitation may be answered. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How long an invitation to an address without an account waits for one (CONTRACT 25). */
export const SIGN_UP_INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

const alreadyInAgency = (who: string) =>
  alreadyExists('agency.alreadyBelongsAgency', { who }, { suggestions: ['agency.oneAgencyOnly'] });

const answer = (i: Pick<AgencyInvitationRow, 'id' | 'email' | 'branchId' | 'status'>) => ({
  invitationId: i.id,
  email: i.email,
  branchId: i.branchId,
  status: i.status,
});

/**
 * POST /agencies/{id}/employees: invites this address to the branch. The answer is the same (201
 * with the invitation) whether or not the address has an account (CONTRACT 25): an account is told
 * in the app and by e-mail and has 7 days; an address without one gets an e-mail asking to sign up
 * with it, and the invitation waits 14 days for that account. Inviting again while an invitation of
 * this agency to the address is pending renews it: one pending invitation per agency and address.
 */
export async function inviteEmployee(deps: Deps, auth: AuthUser, agencyId: number, input: { email: string; branchId: number }, ip: string | null) {
  const { db } = deps;
  const agency = await agencyForOwner(deps, auth, agencyId);
  await getBranch(deps, agencyId, input.branchId);
  const typed = input.email.trim();
  const email = typed.toLowerCase();
  const [user] = await db
    .select({ id: users.id, agencyId: users.agencyId })
    .from(users)
    .where(sql`${users.email} IN (${typed}, ${email})`);
  // The owner's own staff (or themselves): they know them, so saying so reveals nothing.
  if (user && alreadyOnAgencySide(agency, user)) throw alreadyInAgency('This user');
  const stamp = new Date();
  const expiresAt = new Date(stamp.getTime() + (user ? INVITATION_TTL_MS : SIGN_UP_INVITATION_TTL_MS)).toISOString();
  const fields = { branchId: input.branchId, userId: user?.id ?? null, invitedBy: auth.id, createdAt: stamp.toISOString(), expiresAt };
  const pending = and(eq(agencyInvitations.agencyId, agencyId), eq(agencyInvitations.email, email), eq(agencyInvitations.status, 'INVITED'));
  // An account is told in the app and by e-mail; an address without one is asked to sign up.
  const tellThem: Statement[] = user
    ? notify(db, {
        userId: user.id,
        type: 'AGENCY_INVITATION',
        text: msg('notice.agencyInvitation', { agency: agency.name }),
        // The invitation's id, read back by the statement (the upsert before it wrote it).
        data: sql`json_object('invitationId', (${db.select({ id: agencyInvitations.id }).from(agencyInvitations).where(pending)}), 'agencyId', ${agencyId}, 'agencyName', ${agency.name}, 'branchId', ${input.branchId})`,
      })
    : [
        transactionalMessage(db, {
          to: email,
          template: 'AGENCY_INVITATION_SIGN_UP',
          // The address's language is unknown: the inviting owner's.
          locale: sql`(SELECT ${users.locale} FROM ${users} WHERE ${users.id} = ${auth.id})`,
          payload: { agencyName: agency.name, email, expiresOn: expiresAt.slice(0, 10) },
        }),
      ];
  const [[invitation]] = await db.batch([
    db
      .insert(agencyInvitations)
      .values({ agencyId, email, ...fields })
      .onConflictDoUpdate({ target: [agencyInvitations.agencyId, agencyInvitations.email], targetWhere: sql`status = 'INVITED'`, set: fields })
      .returning(),
    ...tellThem,
    auditInsert(db, { actorId: auth.id, action: 'AGENCY_EMPLOYEE_INVITED', targetType: 'USER', targetId: user?.id ?? null, ip, details: { agencyId, branchId: input.branchId, ...(user ? {} : { email }) } }),
  ]);
  return answer(invitation);
}

/** GET /agency-invitations: the caller's invitations still open, newest first. */
export async function myInvitations(deps: Deps, auth: AuthUser, q: PageParams<'createdAt'>) {
  const { db } = deps;
  // Those naming the caller, and those that waited for their (verified) address.
  const where = and(addressedToCondition(auth), eq(agencyInvitations.status, 'INVITED'), gt(agencyInvitations.expiresAt, new Date().toISOString()));
  const countAll = db.select({ total: count() }).from(agencyInvitations).where(where);
  const offset = offsetOf(q);
  const found = await db
    .select(
      withTotal(
        {
          id: agencyInvitations.id,
          agencyId: agencyInvitations.agencyId,
          agencyName: agencies.name,
          branchId: agencyInvitations.branchId,
          createdAt: agencyInvitations.createdAt,
          expiresAt: agencyInvitations.expiresAt,
        },
        countAll,
      ),
    )
    .from(agencyInvitations)
    .innerJoin(agencies, eq(agencies.id, agencyInvitations.agencyId))
    .where(where)
    .orderBy(...orderBy(q.sort, { createdAt: agencyInvitations.createdAt }, agencyInvitations.id))
    .limit(q.size)
    .offset(offset);
  const { rows, total } = await totalledPage(db, found, offset, () => countAll);
  return toPage(rows, total, q);
}

/**
 * The caller's own invitation, still open, and the caller's account: 404 unknown, 403 someone else's
 * or the caller's address unverified, 409 answered or expired.
 */
async function openInvitation(deps: Deps, auth: AuthUser, id: number, at: string) {
  const [[row], [me]] = await deps.db.batch([
    deps.db.select().from(agencyInvitations).where(eq(agencyInvitations.id, id)),
    deps.db.select({ id: users.id, email: users.email, emailVerified: users.emailVerified, agencyId: users.agencyId }).from(users).where(eq(users.id, auth.id)),
  ]);
  if (!row) throw notFound('Agency invitation', id);
  if (!me || !addressedTo(me, row)) throw accessDenied('agency.invitationAddressedAnotherUser');
  assertMayAnswerInvitation(me);
  if (row.status === 'ACCEPTED') throw invalidState('agency.invitationAlreadyAccepted');
  if (row.status === 'DECLINED') throw invalidState('agency.invitationAlreadyDeclined');
  if (row.expiresAt <= at) throw invalidState('agency.invitationExpired', { suggestions: ['agency.askAgencyInviteAgain'] });
  return { invitation: row, me };
}

/** Still INVITED and unexpired when the batch reaches it, and the caller's. */
const stillOpen = (id: number, auth: AuthUser, at: string) =>
  and(eq(agencyInvitations.id, id), addressedToCondition(auth), eq(agencyInvitations.status, 'INVITED'), gt(agencyInvitations.expiresAt, at));

/**
 * POST /agency-invitations/{id}/accept: the caller becomes an employee of the branch (role, agency,
 * branch) in the batch that marks the invitation accepted, every write guarded on that mark. A user
 * who meanwhile joined another agency: 409 ALREADY_EXISTS (the employee row's key refuses it).
 */
export async function acceptInvitation(deps: Deps, auth: AuthUser, id: number, ip: string | null) {
  const { db } = deps;
  const at = new Date().toISOString();
  const { invitation, me } = await openInvitation(deps, auth, id, at);
  if (me.agencyId != null) throw alreadyInAgency('You');
  const accepted = and(eq(agencyInvitations.id, id), eq(agencyInvitations.status, 'ACCEPTED'), eq(agencyInvitations.respondedAt, at));
  const wasAccepted = rowExists(db, agencyInvitations, accepted);
  try {
    const [[row]] = await db.batch([
      // An invitation that waited for the caller's address becomes theirs as they answer it.
      db.update(agencyInvitations).set({ status: 'ACCEPTED', respondedAt: at, userId: auth.id }).where(stillOpen(id, auth, at)).returning(),
      auditInsertIfChanged(db, { actorId: auth.id, action: 'AGENCY_EMPLOYEE_ADDED', targetType: 'USER', targetId: auth.id, ip, details: { agencyId: invitation.agencyId, branchId: invitation.branchId, invitationId: id } }),
      guardedInsert(
        db,
        agencyEmployees,
        { userId: agencyInvitations.userId, agencyId: agencyInvitations.agencyId, branchId: agencyInvitations.branchId },
        agencyInvitations,
        accepted,
      ),
      db
        .update(users)
        .set({ agencyId: invitation.agencyId, updatedAt: at })
        .where(and(eq(users.id, auth.id), isNull(users.agencyId), wasAccepted)),
      grantRoleStatement(db, auth.id, 'ROLE_AGENCY_EMPLOYEE', wasAccepted),
    ]);
    if (!row) {
      await openInvitation(deps, auth, id, new Date().toISOString());
      invalidStateRace();
    }
    return answer(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyInAgency('You');
    throw err;
  }
}

/** A concurrent answer won between the read and the batch (openInvitation re-read found it open). */
function invalidStateRace(): never {
  throw invalidState('agency.invitationAlreadyAnswered');
}

/** POST /agency-invitations/{id}/decline: a conditional update; nothing else changes. */
export async function declineInvitation(deps: Deps, auth: AuthUser, id: number, ip: string | null) {
  const { db } = deps;
  const at = new Date().toISOString();
  const { invitation } = await openInvitation(deps, auth, id, at);
  const [[row]] = await db.batch([
    db.update(agencyInvitations).set({ status: 'DECLINED', respondedAt: at, userId: auth.id }).where(stillOpen(id, auth, at)).returning(),
    auditInsertIfChanged(db, { actorId: auth.id, action: 'AGENCY_INVITATION_DECLINED', targetType: 'USER', targetId: auth.id, ip, details: { agencyId: invitation.agencyId, invitationId: id } }),
  ]);
  if (!row) {
    await openInvitation(deps, auth, id, new Date().toISOString());
    invalidStateRace();
  }
  return answer(row);
}
