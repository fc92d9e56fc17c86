// The identity-verification provider port: start a session for a user, and the shape of the
// status callback every adapter turns into one event type.
import type { KycDocumentType } from '../../db/schema';

export interface KycSession {
  sessionId: string;
  /** Where the user completes the verification (provider page or the local sandbox). */
  sessionUrl: string;
  /** Short-lived credential for the provider's mobile SDK; only ever shown to the user. */
  sessionToken: string;
  expiresAt: string;
}

export interface StartSessionInput {
  userId: number;
  externalUserId: string;
  email: string;
}

export interface KycProvider {
  readonly name: string;
  startSession(input: StartSessionInput): Promise<KycSession>;
}

/** Provider verdicts: APPROVED and REJECTED decide, REVIEW leaves it to a super-admin, REVOKED withdraws a past approval. */
export const KYC_EVENT_STATUSES = ['APPROVED', 'REJECTED', 'REVIEW', 'REVOKED'] as const;
export type KycEventStatus = (typeof KYC_EVENT_STATUSES)[number];

/** The status callback, once its signature is checked and its body parsed. */
export interface KycEvent {
  eventId: string;
  sessionId: string;
  status: KycEventStatus;
  documentType?: KycDocumentType;
  reason?: string;
  occurredAt?: string;
}
