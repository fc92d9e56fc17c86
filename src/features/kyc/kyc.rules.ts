// Which provider verdicts still apply to a record: the pure rule behind the callback handler.
import type { KycRecordRow, KycStatus } from '../../db/schema';
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
