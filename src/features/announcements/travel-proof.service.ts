// Proof of travel (CONTRACT 21): the carrier (or the branch's staff for an agency trip) attaches a
// ticket or boarding pass (a TRAVEL_PROOF file of their own) to a trip; operators approve it, and
// the trip shows travelVerified, or reject it with a reason. The owner is notified either way.
import { and, asc, count, eq } from 'drizzle-orm';
import { announcements, files, travelProofs, users, type TravelProofStatus } from '../../db/schema';
import { rowExists } from '../../db/statements';
import type { AuthUser, Deps } from '../../env';
import { invalidState, notFound, validationError } from '../../errors';
import { offsetOf, toPage, type PageParams } from '../../lib/pagination';
import { auditInsertIfChanged } from '../audit/audit';
import { notify, toEach } from '../deliveries/notify';
import { carrierSideIds } from '../../access/reservation-access';
import { assertCanManageTrip } from '../../access/trip-access';
import { isOwnUpload } from '../../access/uploads';
import { msg } from '../../messages';

/** A trip that has left or was withdrawn takes no proof any more. */
const OPEN_TRIP = ['ACTIVE', 'FULL'] as const;

export async function submitTravelProof(deps: Deps, auth: AuthUser, announcementId: number, fileId: number) {
  const { db } = deps;
  const [a] = await db.select().from(announcements).where(eq(announcements.id, announcementId));
  if (!a) throw notFound('Announcement', announcementId);
  await assertCanManageTrip(deps, auth, a, false);
  const [file] = await db.select({ ownerId: files.ownerId, purpose: files.purpose }).from(files).where(eq(files.id, fileId));
  // Another's file, or one uploaded for something else, is not this carrier's ticket.
  if (!isOwnUpload(auth.id, file, 'TRAVEL_PROOF')) {
    throw validationError('travel.validationFailed', {
      fieldErrors: [{ field: 'fileId', message: 'travel.notOwnTravelProofUpload', rejectedValue: fileId }],
      suggestions: ['travel.uploadWithPurpose'],
    });
  }
  if (!(OPEN_TRIP as readonly string[]).includes(a.status)) throw invalidState('travel.tripNotOpen', { status: a.status });
  if (a.travelVerified) throw invalidState('travel.alreadyVerified');
  const [, [proof]] = await db.batch([
    db
      .update(travelProofs)
      .set({ status: 'SUPERSEDED' })
      .where(and(eq(travelProofs.announcementId, announcementId), eq(travelProofs.status, 'PENDING'))),
    db.insert(travelProofs).values({ announcementId, fileId, submittedBy: auth.id }).returning(),
  ]);
  return proof;
}

export type TravelProofDecision = 'APPROVE' | 'REJECT';

/**
 * An operator's decision on a pending proof, in one batch: the proof's status (only if still
 * PENDING), the trip's travelVerified, the audit entry and the owner's notification, each only if
 * the decision was the one applied.
 */
export async function reviewTravelProof(deps: Deps, proofId: number, reviewerId: number, decision: TravelProofDecision, ip: string | null, reason?: string) {
  const { db } = deps;
  const [proof] = await db.select().from(travelProofs).where(eq(travelProofs.id, proofId));
  if (!proof) throw notFound('Travel proof', proofId);
  if (proof.status !== 'PENDING') throw invalidState('travel.notPending', { status: proof.status });
  const [trip] = await db.select({ carrierId: announcements.carrierId, agencyId: announcements.agencyId }).from(announcements).where(eq(announcements.id, proof.announcementId));
  // The trip's side now: its carrier, or an agency trip's acting staff (CONTRACT 25).
  const tripSide = await carrierSideIds(deps, { ...trip, announcementId: proof.announcementId });
  const status: TravelProofStatus = decision === 'APPROVE' ? 'APPROVED' : 'REJECTED';
  const now = new Date().toISOString();
  const decided = rowExists(db, travelProofs, and(eq(travelProofs.id, proofId), eq(travelProofs.status, status), eq(travelProofs.reviewedAt, now)));
  const approved = decision === 'APPROVE';
  const results = await db.batch([
    db
      .update(travelProofs)
      .set({ status, rejectionReason: approved ? null : (reason ?? null), reviewedBy: reviewerId, reviewedAt: now })
      .where(and(eq(travelProofs.id, proofId), eq(travelProofs.status, 'PENDING'))),
    auditInsertIfChanged(db, {
      actorId: reviewerId,
      action: approved ? 'TRAVEL_PROOF_APPROVED' : 'TRAVEL_PROOF_REJECTED',
      targetType: 'TRAVEL_PROOF',
      targetId: proofId,
      ip,
      details: { announcementId: proof.announcementId, ...(approved ? {} : { reason }) },
    }),
    ...(approved ? [db.update(announcements).set({ travelVerified: true, updatedAt: now }).where(and(eq(announcements.id, proof.announcementId), decided))] : []),
    ...notify(
      db,
      toEach(tripSide, {
        type: approved ? 'TRAVEL_PROOF_APPROVED' : 'TRAVEL_PROOF_REJECTED',
        text: approved ? msg('notice.travelProofApproved') : reason ? msg('notice.travelProofRejected', { reason }) : msg('notice.travelProofRejectedNoReason'),
        data: { announcementId: proof.announcementId, travelProofId: proofId },
      }),
      decided,
    ),
  ]);
  if ((results[0] as D1Result).meta.changes !== 1) throw invalidState('travel.notPending', { status: 'decided' });
}

/** The review queue: proofs of a status (PENDING by default), oldest first, with their trip and owner. */
export async function listTravelProofs(deps: Deps, status: TravelProofStatus | undefined, p: PageParams<'createdAt'>) {
  const { db } = deps;
  const where = status ? eq(travelProofs.status, status) : undefined;
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({
        proof: travelProofs,
        departureCity: announcements.departureCity,
        arrivalCity: announcements.arrivalCity,
        departureDate: announcements.departureDate,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(travelProofs)
      .innerJoin(announcements, eq(announcements.id, travelProofs.announcementId))
      .innerJoin(users, eq(users.id, travelProofs.submittedBy))
      .where(where)
      .orderBy(asc(travelProofs.createdAt), asc(travelProofs.id))
      .limit(p.size)
      .offset(offsetOf(p)),
    db.select({ n: count() }).from(travelProofs).where(where),
  ]);
  return toPage(rows, n, p);
}

export async function getTravelProof(deps: Deps, id: number) {
  const [proof] = await deps.db.select().from(travelProofs).where(eq(travelProofs.id, id));
  if (!proof) throw notFound('Travel proof', id);
  const [trip] = await deps.db.select().from(announcements).where(eq(announcements.id, proof.announcementId));
  const [file] = await deps.db.select({ id: files.id, contentType: files.contentType, createdAt: files.createdAt }).from(files).where(eq(files.id, proof.fileId));
  return { proof, trip, file };
}
