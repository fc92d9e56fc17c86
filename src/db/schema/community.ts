// Reviews between the parties of a delivered reservation, cached rating aggregates, and reports.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { reservations } from './reservations';
import { users } from './users';

export const REVIEWER_ROLES = ['SENDER', 'CARRIER'] as const;

export const reviews = sqliteTable(
  'reviews',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => reservations.id),
    reviewerId: integer('reviewer_id')
      .notNull()
      .references(() => users.id),
    revieweeId: integer('reviewee_id')
      .notNull()
      .references(() => users.id),
    /** The reviewer's side: SENDER reviews are the public "customer reviews". */
    reviewerRole: text('reviewer_role', { enum: REVIEWER_ROLES }).notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    // One review per party per reservation; the database refuses the second even under a race.
    uniqueIndex('reviews_reservation_reviewer_unique').on(t.reservationId, t.reviewerId),
    index('reviews_reviewee_idx').on(t.revieweeId, t.hidden, t.createdAt),
    index('reviews_role_idx').on(t.reviewerRole, t.hidden, t.createdAt),
  ],
);

/** Visible-review aggregates per user, kept in the same batch as review writes (cheap reads on hot paths). */
export const userRatings = sqliteTable('user_ratings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  reviewCount: integer('review_count').notNull().default(0),
  ratingSum: integer('rating_sum').notNull().default(0),
});

/**
 * The two counts of a carrier's public cancellationRate (users/cancellation-rate.ts), kept by
 * triggers on reservations in the statement that confirms or cancels one (migration 0079): a
 * listed trip reads one row per carrier instead of the carrier's reservations. WITHOUT ROWID in SQL.
 */
export const carrierCancellationCounts = sqliteTable('carrier_cancellation_counts', {
  carrierId: integer('carrier_id').primaryKey(),
  /** Reservations cancelled by the carrier side (anyone but the sender) once paid. */
  cancelled: integer('cancelled').notNull().default(0),
  /** Reservations confirmed (whatever became of them) or so cancelled. */
  counted: integer('counted').notNull().default(0),
});

/**
 * Visible reviews per reviewer role, kept in the same batch as review writes: the public page of
 * customer reviews reads its total here instead of counting every review on every request.
 */
export const reviewTotals = sqliteTable('review_totals', {
  reviewerRole: text('reviewer_role', { enum: REVIEWER_ROLES }).primaryKey(),
  visibleCount: integer('visible_count').notNull().default(0),
});

export const REPORT_TARGET_TYPES = ['USER', 'ANNOUNCEMENT', 'REVIEW'] as const;
export const REPORT_STATUSES = ['OPEN', 'CLOSED'] as const;
export const REPORT_ACTIONS = ['NONE', 'HIDE_ANNOUNCEMENT', 'HIDE_REVIEW', 'SUSPEND_USER'] as const;

export const reports = sqliteTable(
  'reports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id),
    targetType: text('target_type', { enum: REPORT_TARGET_TYPES }).notNull(),
    targetId: integer('target_id').notNull(),
    reason: text('reason').notNull(),
    description: text('description'),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('OPEN'),
    action: text('action', { enum: REPORT_ACTIONS }),
    resolutionNote: text('resolution_note'),
    closedBy: integer('closed_by'),
    closedAt: text('closed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('reports_status_idx').on(t.status, t.createdAt),
    index('reports_reporter_idx').on(t.reporterId, t.createdAt),
    // At most one open report per reporter and target.
    uniqueIndex('reports_open_unique')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`status = 'OPEN'`),
  ],
);

export type ReviewRow = typeof reviews.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;
