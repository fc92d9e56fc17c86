// Protecting what is sent (CONTRACT 21): phone verification codes, proof of travel, the admins'
// additions to the prohibited and restricted items per corridor.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { announcements } from './catalog';
import { files } from './trust';
import { users } from './users';

/** One row per SMS code sent; only the salted SHA-256 of the code is stored. */
export const phoneVerificationCodes = sqliteTable(
  'phone_verification_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The E.164 number the code was sent to: the one that becomes the account's when verified. */
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    salt: text('salt').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: text('expires_at').notNull(),
    /** Set when a newer code replaced this one. */
    supersededAt: text('superseded_at'),
    verifiedAt: text('verified_at'),
    createdAt: createdAt(),
  },
  (t) => [index('phone_verification_codes_user_idx').on(t.userId, t.createdAt), index('phone_verification_codes_created_idx').on(t.createdAt)],
);

/** Prohibited and restricted items admins added to the maintained list (a null country is every country). */
export const prohibitedItemRules = sqliteTable(
  'prohibited_item_rules',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    code: text('code').notNull(),
    level: text('level', { enum: ['PROHIBITED', 'RESTRICTED'] }).notNull(),
    categoryCode: text('category_code'),
    fromCountry: text('from_country'),
    toCountry: text('to_country'),
    nameEn: text('name_en').notNull(),
    nameFr: text('name_fr').notNull(),
    reasonEn: text('reason_en').notNull(),
    reasonFr: text('reason_fr').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('prohibited_item_rules_code_unique').on(t.code)],
);

export const TRAVEL_PROOF_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'SUPERSEDED'] as const;
export type TravelProofStatus = (typeof TRAVEL_PROOF_STATUSES)[number];

/** A ticket or boarding pass attached to a trip (a TRAVEL_PROOF file), reviewed by operators. */
export const travelProofs = sqliteTable(
  'travel_proofs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
    submittedBy: integer('submitted_by')
      .notNull()
      .references(() => users.id),
    /** A newer proof of the same trip supersedes a pending one. */
    status: text('status', { enum: TRAVEL_PROOF_STATUSES }).notNull().default('PENDING'),
    rejectionReason: text('rejection_reason'),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: text('reviewed_at'),
    createdAt: createdAt(),
  },
  (t) => [index('travel_proofs_status_idx').on(t.status, t.createdAt), index('travel_proofs_announcement_idx').on(t.announcementId)],
);
