// Trust and organisations: KYC records and provider events, uploaded files, agencies with their
// branches and employees.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { reservations } from './reservations';
import { users } from './users';

export const KYC_STATUSES = ['VERIFIED', 'PENDING', 'NOT_VERIFIED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export const KYC_DOCUMENT_TYPES = ['PASSPORT', 'RESIDENCE_PERMIT', 'ID_CARD', 'DRIVER_LICENSE'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number];

/** One row per verification session a user starts; the newest one is the user's current record. */
export const kycRecords = sqliteTable(
  'kyc_records',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: KYC_STATUSES }).notNull().default('PENDING'),
    documentType: text('document_type', { enum: KYC_DOCUMENT_TYPES }),
    rejectionReason: text('rejection_reason'),
    /** The provider's own verdict (e.g. REVIEW) so the super-admin queue can show what it left open. */
    providerStatus: text('provider_status'),
    /** When the provider says its last applied event happened: older events arriving late are ignored. */
    providerEventAt: text('provider_event_at'),
    /** Provider side ids: the applicant and this session. */
    externalUserId: text('external_user_id').notNull(),
    sessionId: text('session_id').notNull(),
    kycSessionUrl: text('kyc_session_url').notNull(),
    /** A credential: only ever returned to the record's owner. */
    kycSessionToken: text('kyc_session_token'),
    tokenExpiry: text('token_expiry'),
    submittedAt: text('submitted_at').notNull(),
    reviewedAt: text('reviewed_at'),
    reviewedBy: integer('reviewed_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('kyc_records_session_unique').on(t.sessionId),
    index('kyc_records_user_idx').on(t.userId, t.id),
    index('kyc_records_status_idx').on(t.status, t.submittedAt),
  ],
);

/** Provider callbacks already applied: the primary key makes each event apply once. */
export const kycProviderEvents = sqliteTable('kyc_provider_events', {
  eventId: text('event_id').primaryKey(),
  kycRecordId: integer('kyc_record_id'),
  receivedAt: createdAt(),
});

export const FILE_PURPOSES = ['AVATAR', 'PARCEL_IMAGE', 'KYC_DOCUMENT', 'AGENCY_DOCUMENT', 'DISPUTE_EVIDENCE', 'TRAVEL_PROOF'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

export const AGENCY_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;

export const agencies = sqliteTable(
  'agencies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    legalName: text('legal_name'),
    registrationNumber: text('registration_number'),
    email: text('email'),
    phoneNumber: text('phone_number'),
    address: text('address'),
    city: text('city'),
    country: text('country'),
    description: text('description'),
    status: text('status', { enum: AGENCY_STATUSES }).notNull().default('ACTIVE'),
    suspensionReason: text('suspension_reason'),
    suspendedAt: text('suspended_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('agencies_owner_unique').on(t.ownerId), index('agencies_status_idx').on(t.status, t.createdAt)],
);

export const agencyBranches = sqliteTable(
  'agency_branches',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    name: text('name').notNull(),
    address: text('address'),
    city: text('city'),
    country: text('country'),
    phoneNumber: text('phone_number'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('agency_branches_agency_idx').on(t.agencyId, t.id)],
);

/** A user works for at most one agency, in one branch (the primary key says so). */
export const agencyEmployees = sqliteTable(
  'agency_employees',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    branchId: integer('branch_id')
      .notNull()
      .references(() => agencyBranches.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('agency_employees_agency_idx').on(t.agencyId, t.userId), index('agency_employees_branch_idx').on(t.branchId)],
);

export const AGENCY_INVITATION_STATUSES = ['INVITED', 'ACCEPTED', 'DECLINED'] as const;
export type AgencyInvitationStatus = (typeof AGENCY_INVITATION_STATUSES)[number];

/**
 * An owner's invitation of a registered user to work in a branch (CONTRACT section 19): the user
 * becomes staff only by accepting it within 7 days. One pending invitation per agency and user.
 */
export const agencyInvitations = sqliteTable(
  'agency_invitations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    // A deleted branch takes its invitations with it.
    branchId: integer('branch_id')
      .notNull()
      .references(() => agencyBranches.id, { onDelete: 'cascade' }),
    /** Null while the address has no account: the invitation waits for one (CONTRACT 25). */
    userId: integer('user_id').references(() => users.id),
    /** The address the owner typed, lower-cased. */
    email: text('email').notNull(),
    invitedBy: integer('invited_by')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: AGENCY_INVITATION_STATUSES }).notNull().default('INVITED'),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
    respondedAt: text('responded_at'),
  },
  (t) => [
    uniqueIndex('agency_invitations_pending_unique')
      .on(t.agencyId, t.userId)
      .where(sql`status = 'INVITED'`),
    index('agency_invitations_user_idx').on(t.userId, t.status, t.expiresAt),
    uniqueIndex('agency_invitations_pending_address_unique')
      .on(t.agencyId, t.email)
      .where(sql`status = 'INVITED'`),
    index('agency_invitations_email_idx').on(t.email, t.status),
  ],
);

export type AgencyInvitationRow = typeof agencyInvitations.$inferSelect;

export const files = sqliteTable(
  'files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: FILE_PURPOSES }).notNull(),
    /** Detected from the bytes, never the client's claim. */
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Random R2 object key. */
    storageKey: text('storage_key').notNull(),
    originalName: text('original_name'),
    /** Parcel images and dispute evidence belong to a reservation: its parties may read them. */
    reservationId: integer('reservation_id').references(() => reservations.id),
    /** Agency documents belong to an agency. */
    agencyId: integer('agency_id').references(() => agencies.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('files_storage_key_unique').on(t.storageKey),
    index('files_owner_idx').on(t.ownerId, t.createdAt),
    index('files_reservation_idx').on(t.reservationId),
    index('files_agency_idx').on(t.agencyId, t.purpose),
  ],
);

/** What an agency document proves. Documents uploaded before types existed are OTHER (migration 0013). */
export const AGENCY_DOCUMENT_TYPES = [
  'BUSINESS_REGISTRATION',
  'TAX_REGISTRATION',
  'OWNER_IDENTITY',
  'PROOF_OF_ADDRESS',
  'INSURANCE',
  'TRANSPORT_LICENSE',
  'OTHER',
] as const;
export type AgencyDocumentType = (typeof AGENCY_DOCUMENT_TYPES)[number];

/**
 * An agency document's type and review. Its bytes, owner and agency are its `files` row (purpose
 * AGENCY_DOCUMENT), whose id it shares. The statuses are the KYC ones: user KYC records and agency
 * documents follow one review rule (features/kyc/kyc.rules.ts).
 */
export const agencyDocuments = sqliteTable(
  'agency_documents',
  {
    fileId: integer('file_id')
      .primaryKey()
      .references(() => files.id),
    documentType: text('document_type', { enum: AGENCY_DOCUMENT_TYPES }).notNull(),
    status: text('status', { enum: KYC_STATUSES }).notNull().default('PENDING'),
    rejectionReason: text('rejection_reason'),
    reviewedAt: text('reviewed_at'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('agency_documents_status_idx').on(t.status, t.createdAt)],
);

export type KycRecordRow = typeof kycRecords.$inferSelect;
export type AgencyRow = typeof agencies.$inferSelect;
export type AgencyBranchRow = typeof agencyBranches.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type AgencyDocumentRow = typeof agencyDocuments.$inferSelect;
