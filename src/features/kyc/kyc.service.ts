// KYC rules and queries: start a provider session, read the caller's status, apply a decision
// (provider callback or super-admin), and the super-admin queue.
import { desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { readPage } from '../../db/statements';
import { kycProviderEvents, kycRecords, users, type KycDocumentType, type KycRecordRow, type KycStatus } from '../../db/schema';
import type { Deps } from '../../env';
import { invalidState, notFound, unauthorized } from '../../errors';
import { orderBy, toPage, type PageParams } from '../../lib/pagination';
import { revokeUserTokensBefore } from '../../lib/token-revocation';
import { grantRoleStatement, removeRoleStatement } from '../../lib/user-roles';
import { notify } from '../deliveries/notify';
import { checkCallbackSignature, type KycEvent, type KycEventStatus } from '../../providers/kyc';
import { auditInsert } from '../audit/audit';
import { parseKycEvent } from './kyc.event';
import { providerEventIgnored, REVIEW_OUTCOMES, reviewRefusalText, STATUS_OF_EVENT, type ReviewDecision } from './kyc.rules';
import { msg } from '../../messages';

/** The record as its owner sees it: with the session token. */
export const ownerView = (r: KycRecordRow) => ({
  id: r.id,
  status: r.status,
  documentType: r.documentType,
  userId: r.userId,
  rejectionReason: r.rejectionReason,
  submittedAt: r.submittedAt,
  reviewedAt: r.reviewedAt,
  externalUserId: r.externalUserId,
  kycSessionUrl: r.kycSessionUrl,
  kycSessionToken: r.kycSessionToken,
  tokenExpiry: r.tokenExpiry,
});

/** Everyone else (super-admins): the session token is a credential of the user, so always null. */
export const adminView = (r: KycRecordRow) => ({ ...ownerView(r), kycSessionToken: null });

const externalUserIdOf = (userId: number) => `user-${userId}`;

async function latestRecord(db: Db, userId: number) {
  const [row] = await db.select().from(kycRecords).where(eq(kycRecords.userId, userId)).orderBy(desc(kycRecords.id)).limit(1);
  return row;
}

export async function startKycSession(deps: Deps, userId: number, documentType?: KycDocumentType) {
  const { db } = deps;
  const [user] = await db.select({ email: users.email, kycStatus: users.kycStatus }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User', userId);
  if (user.kycStatus === 'VERIFIED') throw invalidState('kyc.identityAlreadyVerified');
  const latest = await latestRecord(db, userId);
  if (latest?.status === 'PENDING' && latest.providerStatus === 'REVIEW') {
    throw invalidState('kyc.verificationUnderReviewWait');
  }
  // A session the user has not finished yet is handed back rather than opening a second one.
  if (
    latest?.status === 'PENDING' &&
    latest.providerStatus === null &&
    latest.kycSessionToken &&
    latest.tokenExpiry &&
    latest.tokenExpiry > new Date().toISOString()
  ) {
    return latest;
  }
  const externalUserId = externalUserIdOf(userId);
  const session = await deps.providers.kyc.startSession({ userId, externalUserId, email: user.email });
  const now = new Date().toISOString();
  const [inserted] = await db.batch([
    db
      .insert(kycRecords)
      .values({
        userId,
        status: 'PENDING',
        externalUserId,
        sessionId: session.sessionId,
        kycSessionUrl: session.sessionUrl,
        kycSessionToken: session.sessionToken,
        tokenExpiry: session.expiresAt,
        submittedAt: now,
        documentType: documentType ?? null,
      })
      .returning(),
    db.update(users).set({ kycStatus: 'PENDING', updatedAt: now }).where(eq(users.id, userId)),
  ]);
  return inserted[0];
}

/** The caller's current verification: the user's status and their newest record (if any). */
export async function kycStatusOf(deps: Deps, userId: number) {
  const { db } = deps;
  const [user] = await db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User', userId);
  const latest = await latestRecord(db, userId);
  const record = latest ? ownerView(latest) : null;
  return { status: user.kycStatus, record };
}

export async function getKycRecord(deps: Deps, id: number) {
  const { db } = deps;
  const [row] = await db.select().from(kycRecords).where(eq(kycRecords.id, id));
  if (!row) throw notFound('KYC record', id);
  return row;
}

export async function listKycRecords(deps: Deps, q: PageParams<'submittedAt' | 'reviewedAt'> & { status?: KycStatus }) {
  const { db } = deps;
  const where: SQL | undefined = q.status ? eq(kycRecords.status, q.status) : undefined;
  const order = orderBy(q.sort, { submittedAt: kycRecords.submittedAt, reviewedAt: kycRecords.reviewedAt }, kycRecords.id);
  const { rows, total } = await readPage(db, kycRecords, where, order, q);
  return toPage(rows.map(adminView), total, q);
}

export interface KycDecision {
  status: KycStatus;
  documentType?: KycDocumentType | null;
  reason?: string | null;
  providerStatus?: KycEventStatus | null;
  /** The super-admin deciding; null for the provider. */
  reviewedBy: number | null;
  /** The client IP of the super-admin's request (audit log); null for the provider. */
  ip: string | null;
  /** The provider event this decision comes from: recorded in the same batch so it applies once. */
  eventId?: string;
  /** When the provider produced that event. */
  eventAt?: string;
}

const NOTICES = {
  VERIFIED: { type: 'KYC_APPROVED', key: 'notice.kycApproved' },
  NOT_VERIFIED: { type: 'KYC_REJECTED', key: 'notice.kycRejected' },
  REVOKED: { type: 'KYC_REVOKED', key: 'notice.kycRevoked' },
} as const;

/**
 * Applies a decision to a record and to its user in one batch: record status, users.kyc_status,
 * ROLE_VERIFIED_USER granted or removed, the notification and (for a provider event) the event id.
 * Removing the role also revokes the user's tokens, so the old role stops working at once.
 * Returns false when the event was already applied.
 */
export async function applyKycDecision(deps: Deps, record: KycRecordRow, decision: KycDecision): Promise<boolean> {
  const { db, env } = deps;
  const [user] = await db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, record.userId));
  const wasVerified = user?.kycStatus === 'VERIFIED';
  const now = new Date().toISOString();
  const decided = decision.status !== 'PENDING';
  const statements = [];
  if (decision.eventId) statements.push(db.insert(kycProviderEvents).values({ eventId: decision.eventId, kycRecordId: record.id }));
  statements.push(
    db
      .update(kycRecords)
      .set({
        status: decision.status,
        documentType: decision.documentType ?? record.documentType,
        rejectionReason: decision.status === 'NOT_VERIFIED' ? (decision.reason ?? null) : null,
        providerStatus: decision.providerStatus ?? record.providerStatus,
        providerEventAt: decision.eventAt ?? record.providerEventAt,
        reviewedAt: decided ? now : record.reviewedAt,
        reviewedBy: decision.reviewedBy ?? record.reviewedBy,
        // The SDK token is spent once a verdict exists.
        kycSessionToken: decided ? null : record.kycSessionToken,
        updatedAt: now,
      })
      .where(eq(kycRecords.id, record.id)),
    db.update(users).set({ kycStatus: decision.status, updatedAt: now }).where(eq(users.id, record.userId)),
  );
  const revoking = wasVerified && decision.status !== 'VERIFIED';
  if (decision.status === 'VERIFIED') statements.push(grantRoleStatement(db, record.userId, 'ROLE_VERIFIED_USER'));
  if (revoking) statements.push(removeRoleStatement(db, record.userId, 'ROLE_VERIFIED_USER'));
  const notice = decision.status === 'VERIFIED' ? NOTICES.VERIFIED : revoking ? NOTICES.REVOKED : decided ? NOTICES.NOT_VERIFIED : null;
  if (notice) {
    const text = decision.reason && decision.status === 'NOT_VERIFIED' ? msg('notice.kycRejectedBecause', { reason: decision.reason }) : msg(notice.key);
    statements.push(...notify(db, { userId: record.userId, type: notice.type, text, data: { kycRecordId: record.id } }));
  }
  // The audit entry in the batch of the change it records.
  statements.push(
    auditInsert(db, {
      actorId: decision.reviewedBy,
      action: decision.reviewedBy ? `KYC_${decision.status === 'VERIFIED' ? 'APPROVED' : 'REJECTED'}_BY_ADMIN` : 'KYC_PROVIDER_RESULT',
      targetType: 'KYC_RECORD',
      targetId: record.id,
      ip: decision.ip,
      details: { userId: record.userId, from: record.status, to: decision.status, providerStatus: decision.providerStatus ?? null },
    }),
  );
  try {
    await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  } catch (err) {
    if (decision.eventId && isUniqueViolation(err)) return false;
    throw err;
  }
  if (revoking) await revokeUserTokensBefore(env.KV, record.userId);
  return true;
}

/** A super-admin's decision on a record: which decisions apply is the review rule of kyc.rules. */
export async function reviewKyc(deps: Deps, id: number, adminId: number, decision: ReviewDecision, ip: string | null, reason?: string) {
  const record = await getKycRecord(deps, id);
  const refusal = reviewRefusalText('This KYC record', record.status, decision);
  if (refusal) throw invalidState(refusal);
  await applyKycDecision(deps, record, { status: REVIEW_OUTCOMES[decision], reason, reviewedBy: adminId, ip });
  return getKycRecord(deps, id);
}

export type CallbackOutcome = 'APPLIED' | 'ALREADY_PROCESSED' | 'IGNORED';

/**
 * The provider callback: signature and timestamp checked on the raw bytes first (401 otherwise),
 * then the body parsed (400 if malformed), then the event applied once unless kyc.rules says it
 * no longer applies (admin decision, late older event, review after a verdict).
 */
export async function handleKycCallback(
  deps: Deps,
  raw: Uint8Array,
  headers: { signature?: string | null; timestamp?: string | null },
): Promise<CallbackOutcome> {
  const { db, env } = deps;
  const failure = await checkCallbackSignature(env.KYC_WEBHOOK_SECRET, headers, raw);
  if (failure) {
    deps.providers.metrics.event('WEBHOOK_REFUSED', 'kyc');
    throw unauthorized(
      failure === 'missing' ? 'kyc.missingCallbackSignature' : failure === 'stale' ? 'kyc.callbackTimestampOutsideTolerance' : 'kyc.invalidCallbackSignature',
    );
  }
  const event: KycEvent = parseKycEvent(raw);
  const [seen] = await db.select({ id: kycProviderEvents.eventId }).from(kycProviderEvents).where(eq(kycProviderEvents.eventId, event.eventId));
  if (seen) return 'ALREADY_PROCESSED';
  const [record] = await db.select().from(kycRecords).where(eq(kycRecords.sessionId, event.sessionId));
  if (!record) return 'IGNORED';
  if (providerEventIgnored(record, event)) {
    await db.insert(kycProviderEvents).values({ eventId: event.eventId, kycRecordId: record.id }).onConflictDoNothing();
    return 'IGNORED';
  }
  const applied = await applyKycDecision(deps, record, {
    status: STATUS_OF_EVENT[event.status],
    documentType: event.documentType,
    reason: event.reason,
    providerStatus: event.status,
    reviewedBy: null,
    ip: null,
    eventId: event.eventId,
    eventAt: event.occurredAt ? new Date(event.occurredAt).toISOString() : new Date().toISOString(),
  });
  return applied ? 'APPLIED' : 'ALREADY_PROCESSED';
}

export const findRecordBySession = async (deps: Deps, sessionId: string) =>
  (await deps.db.select().from(kycRecords).where(eq(kycRecords.sessionId, sessionId)))[0];
