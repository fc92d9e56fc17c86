// Disputes on a reservation (one open at a time), their evidence files and their messages.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { RESERVATION_STATUSES, reservations } from './reservations';
import { files } from './trust';
import { users } from './users';

export const DISPUTE_STATUSES = ['OPEN', 'RESOLVED'] as const;
export const DISPUTE_RESOLUTIONS = ['REFUND_SENDER', 'RELEASE_TO_CARRIER', 'PARTIAL_REFUND', 'PROTECTION_PAYOUT'] as const;
export const DISPUTE_REASONS = ['DAMAGED', 'LOST', 'NOT_DELIVERED', 'LATE', 'CONTENT_MISMATCH', 'OTHER'] as const;
export const DISPUTE_OPENER_ROLES = ['SENDER', 'CARRIER'] as const;

export const disputes = sqliteTable(
  'disputes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => reservations.id),
    openedBy: integer('opened_by')
      .notNull()
      .references(() => users.id),
    openerRole: text('opener_role', { enum: DISPUTE_OPENER_ROLES }).notNull(),
    reason: text('reason', { enum: DISPUTE_REASONS }).notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: DISPUTE_STATUSES }).notNull().default('OPEN'),
    /** The reservation status when the dispute was opened (DEPOSITED, IN_TRANSIT or DELIVERED). */
    previousStatus: text('previous_status', { enum: RESERVATION_STATUSES }).notNull(),
    /**
     * Opened after delivery: the part of the carrier's released amount moved back from the payee's
     * wallet into escrow (`frozenCents`) and what was already withdrawn (`shortfallCents`).
     */
    frozenCents: integer('frozen_cents').notNull().default(0),
    shortfallCents: integer('shortfall_cents').notNull().default(0),
    resolution: text('resolution', { enum: DISPUTE_RESOLUTIONS }),
    refundCents: integer('refund_cents'),
    /** PROTECTION_PAYOUT: what the sender received from the protection reserve (CONTRACT 21). */
    protectionPayoutCents: integer('protection_payout_cents'),
    resolutionNote: text('resolution_note'),
    resolvedBy: integer('resolved_by'),
    resolvedAt: text('resolved_at'),
    /** Random per opening attempt: the freeze posting of the same batch finds its dispute by it. */
    token: text('token').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('disputes_token_unique').on(t.token),
    // One dispute per reservation, ever (so at most one open), even under concurrent openings:
    // a resolution is final, and a reservation is DISPUTED exactly while its dispute is OPEN.
    uniqueIndex('disputes_reservation_unique').on(t.reservationId),
    index('disputes_status_idx').on(t.status, t.createdAt),
    index('disputes_opened_by_idx').on(t.openedBy, t.createdAt),
  ],
);

export const disputeEvidence = sqliteTable(
  'dispute_evidence',
  {
    disputeId: integer('dispute_id')
      .notNull()
      .references(() => disputes.id),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [primaryKey({ columns: [t.disputeId, t.fileId] })],
);

export const disputeMessages = sqliteTable(
  'dispute_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    disputeId: integer('dispute_id')
      .notNull()
      .references(() => disputes.id),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('dispute_messages_dispute_idx').on(t.disputeId, t.id)],
);

export type DisputeRow = typeof disputes.$inferSelect;
export type DisputeMessageRow = typeof disputeMessages.$inferSelect;
