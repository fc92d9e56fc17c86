// Personal data (CONTRACT section 24): the archives users asked for, and what the retention job
// already erased on each finished reservation (tracking points and message bodies live in Durable
// Objects, so the job records here what it did rather than asking every object again).
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { reservations } from './reservations';
import { users } from './users';

export const DATA_EXPORT_STATUSES = ['PENDING', 'READY', 'FAILED'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

export const dataExports = sqliteTable(
  'data_exports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: DATA_EXPORT_STATUSES }).notNull().default('PENDING'),
    /** The archive's R2 key once READY. */
    storageKey: text('storage_key'),
    sizeBytes: integer('size_bytes'),
    error: text('error'),
    /** The operator who ran it for a request received by mail (console); null when the user asked. */
    requestedBy: integer('requested_by').references(() => users.id),
    readyAt: text('ready_at'),
    /** The archive is served until then (7 days after it is ready), then deleted. */
    expiresAt: text('expires_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('data_exports_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('data_exports_one_pending').on(t.userId).where(sql`${t.status} = 'PENDING'`),
    index('data_exports_status_idx').on(t.status, t.createdAt),
  ],
);

export const reservationErasures = sqliteTable('reservation_erasures', {
  reservationId: integer('reservation_id')
    .primaryKey()
    .references(() => reservations.id, { onDelete: 'cascade' }),
  /** When the tracking points were deleted (30 days after the reservation finished). */
  trackingAt: text('tracking_at'),
  /** When the recipient's details and the message bodies were erased (a year after, no open dispute). */
  personalAt: text('personal_at'),
});

export type DataExportRow = typeof dataExports.$inferSelect;

/** One run of the daily retention job: when, what each rule did (counts by rule), or why it stopped. */
export const retentionRuns = sqliteTable(
  'retention_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
    counts: text('counts', { mode: 'json' }).$type<Record<string, number>>(),
    error: text('error'),
  },
  (t) => [index('retention_runs_started_idx').on(t.startedAt)],
);

export type RetentionRunRow = typeof retentionRuns.$inferSelect;
