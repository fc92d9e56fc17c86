// The pure rules of KYC review: which provider verdicts still apply to a record (the callback
// handler), and which super-admin decisions apply to a reviewed document (user KYC and agency
// documents alike).
import type { KycRecordRow, KycStatus } from '../../db/schema';
import { msg, type Text } from '../../errors';
import type { KycEventStatus } from '../../providers/kyc';

export const STATUS_OF_EVENT: Record<KycEventStatus, KycStatus> = {
  APPROVED: 'VERIFIED',
  REJECTED: 'NOT_VERIFIED',
  REVIEW: 'PENDING',
  REVOKED: 'NOT_VERIFIED',
};

export type IgnoreReason = 'DECIDED_BY_ADMIN' | 'STALE' | 'ALREADY_DECIDED';

/**
 * Null when the provider's event applies; otherwise why it is ignored:
 * - a super-admin's decision is final: the provider does not override a human;
 * - an event older than the last one applied (delivered out of order) changes nothing;
 * - "under review" cannot reopen a record the provider already decided.
 */
export function providerEventIgnored(
  record: Pick<KycRecordRow, 'status' | 'reviewedBy' | 'providerEventAt'>,
  event: { status: KycEventStatus; occurredAt?: string },
): IgnoreReason | null {
  if (record.reviewedBy !== null) return 'DECIDED_BY_ADMIN';
  if (event.occurredAt && record.providerEventAt && Date.parse(event.occurredAt) <= Date.parse(record.providerEventAt)) return 'STALE';
  if (event.status === 'REVIEW' && record.status !== 'PENDING') return 'ALREADY_DECIDED';
  return null;
}

/**
 * A super-admin's review, the one rule for every reviewed document (a user's KYC record, an
 * agency document): APPROVE makes it VERIFIED, REJECT (with a reason) NOT_VERIFIED. A decision may
 * overturn an earlier verdict (rejecting a verified record revokes it) but never repeat it.
 */
export const REVIEW_OUTCOMES = { APPROVE: 'VERIFIED', REJECT: 'NOT_VERIFIED' } as const satisfies Record<string, KycStatus>;
export type ReviewDecision = keyof typeof REVIEW_OUTCOMES;

/** Null when `decision` applies to a document in `status`; otherwise the 409 message naming `what`. */
export function reviewRefusalText(what: string, status: KycStatus, decision: ReviewDecision): Text | null {
  if (status !== REVIEW_OUTCOMES[decision]) return null;
  return msg(decision === 'APPROVE' ? 'kyc.alreadyVerified' : 'kyc.alreadyRejected', { what });
}
