// Agency documents: the owner uploads them with a type; super-admins review them under the rule
// user KYC records follow (kyc.rules: one review state machine for both kinds of document).
import { and, count, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agencies, agencyDocuments, files, type AgencyDocumentType, type KycStatus } from '../../db/schema';
import { rowExists, totalledPage, withTotal } from '../../db/statements';
import type { AuthUser, Deps } from '../../env';
import { invalidState, notFound } from '../../errors';
import { offsetOf, orderBy, toPage, type PageParams } from '../../lib/pagination';
import { assertCanAccess } from '../../access/ownership';
import { auditInsertIfChanged } from '../audit/audit';
import { fileView, storeFile } from '../files/files.service';
import { REVIEW_OUTCOMES, reviewRefusalText, type ReviewDecision } from '../kyc/kyc.rules';
import { notify } from '../deliveries/notify';
import { getAgency } from '../../access/agency-scope';
import { AGENCY_DOCUMENT_NAMES } from '../../messages/agency-documents';
import { msg } from '../../messages';

/** The file row and its review, read together (no column name repeats: D1 batches key rows by name). */
const documentColumns = {
  ...getTableColumns(files),
  documentType: agencyDocuments.documentType,
  status: agencyDocuments.status,
  rejectionReason: agencyDocuments.rejectionReason,
  reviewedAt: agencyDocuments.reviewedAt,
};

type DocumentRow = Awaited<ReturnType<typeof getAgencyDocument>>;

export const agencyDocumentView = (d: DocumentRow) => ({
  ...fileView(d),
  documentType: d.documentType,
  status: d.status,
  rejectionReason: d.rejectionReason,
  reviewedAt: d.reviewedAt,
});

const documents = <F extends typeof documentColumns>(db: Db, fields: F = documentColumns as F) =>
  db.select(fields).from(agencyDocuments).innerJoin(files, eq(files.id, agencyDocuments.fileId));

export async function getAgencyDocument(deps: Deps, id: number) {
  const [row] = await documents(deps.db).where(eq(agencyDocuments.fileId, id));
  if (!row) throw notFound('Agency document', id);
  return row;
}

/** The owner uploads; the file and its review row (PENDING) are written in one batch. */
export async function uploadAgencyDocument(deps: Deps, auth: AuthUser, agencyId: number, file: File, documentType: AgencyDocumentType) {
  const row = await storeFile(deps, auth, {
    ownerId: auth.id,
    purpose: 'AGENCY_DOCUMENT',
    file,
    agencyId,
    alongside: (db, fileId) => [db.insert(agencyDocuments).values({ fileId, documentType })],
  });
  return getAgencyDocument(deps, row.id);
}

export type DocumentQuery = PageParams<'createdAt' | 'reviewedAt'> & { status?: KycStatus };

async function documentPage(db: Db, where: SQL | undefined, q: DocumentQuery) {
  const condition = and(where, q.status ? eq(agencyDocuments.status, q.status) : undefined);
  const countAll = db.select({ total: count() }).from(agencyDocuments).innerJoin(files, eq(files.id, agencyDocuments.fileId)).where(condition);
  const offset = offsetOf(q);
  const found = await documents(db, withTotal(documentColumns, countAll))
    .where(condition)
    .orderBy(...orderBy(q.sort, { createdAt: agencyDocuments.createdAt, reviewedAt: agencyDocuments.reviewedAt }, agencyDocuments.fileId))
    .limit(q.size)
    .offset(offset);
  const { rows, total } = await totalledPage(db, found, offset, () => countAll);
  return toPage(rows.map(agencyDocumentView), total, q);
}

/** The owner and admins (who review agency documents) list them. */
export async function listAgencyDocuments(deps: Deps, auth: AuthUser, agencyId: number, q: DocumentQuery) {
  const agency = await getAgency(deps, agencyId);
  assertCanAccess(auth, [agency.ownerId], ['ROLE_ADMIN']);
  return documentPage(deps.db, eq(files.agencyId, agencyId), q);
}

/** The super-admin queue: every agency's documents, by status. */
export const listAllAgencyDocuments = (deps: Deps, q: DocumentQuery) => documentPage(deps.db, undefined, q);

/**
 * A super-admin's decision: one batch of the conditional update (guarded on the document still
 * being in the status the decision was checked against), its audit entry and the owner's
 * notification; a concurrent review that got there first leaves this one with nothing changed and
 * a 409.
 */
export async function reviewAgencyDocument(
  deps: Deps,
  admin: { id: number; ip: string | null },
  id: number,
  decision: ReviewDecision,
  reason?: string,
) {
  const { db } = deps;
  const document = await getAgencyDocument(deps, id);
  const refuse = (status: KycStatus) => {
    const refusal = reviewRefusalText('This document', status, decision);
    if (refusal) throw invalidState(refusal);
  };
  refuse(document.status);
  // Every agency document has its agency (the upload sets it; migration 0013 took only those).
  const agency = await getAgency(deps, document.agencyId!);
  const status = REVIEW_OUTCOMES[decision];
  const stamp = new Date().toISOString();
  const rejectionReason = decision === 'REJECT' ? (reason ?? null) : null;
  const decided = and(eq(agencyDocuments.fileId, id), eq(agencyDocuments.reviewedAt, stamp), eq(agencyDocuments.reviewedBy, admin.id));
  const approved = decision === 'APPROVE';
  const [updated] = await db.batch([
    db
      .update(agencyDocuments)
      .set({ status, rejectionReason, reviewedAt: stamp, reviewedBy: admin.id, updatedAt: stamp })
      .where(and(eq(agencyDocuments.fileId, id), eq(agencyDocuments.status, document.status)))
      .returning({ fileId: agencyDocuments.fileId }),
    auditInsertIfChanged(db, {
      actorId: admin.id,
      action: approved ? 'AGENCY_DOCUMENT_APPROVED' : 'AGENCY_DOCUMENT_REJECTED',
      targetType: 'AGENCY_DOCUMENT',
      targetId: id,
      ip: admin.ip,
      details: { agencyId: agency.id, documentType: document.documentType, from: document.status, to: status, ...(reason ? { reason } : {}) },
    }),
    ...notify(
      db,
      {
        userId: agency.ownerId,
        type: approved ? 'AGENCY_DOCUMENT_APPROVED' : 'AGENCY_DOCUMENT_REJECTED',
        text: approved
          ? msg('notice.agencyDocumentApproved', { document: document.originalName ?? `#${id}`, kind: AGENCY_DOCUMENT_NAMES[document.documentType] })
          : msg('notice.agencyDocumentRejected', { document: document.originalName ?? `#${id}`, kind: AGENCY_DOCUMENT_NAMES[document.documentType], reason: reason ?? '' }),
        data: { agencyId: agency.id, documentId: id, documentType: document.documentType, status },
      },
      rowExists(db, agencyDocuments, decided),
    ),
  ]);
  const after = await getAgencyDocument(deps, id);
  if (updated.length === 0) {
    refuse(after.status);
    throw invalidState('agency.documentReviewedSameTime');
  }
  return after;
}
