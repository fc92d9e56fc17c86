// Money reconciliation (CONTRACT section 27, features/money/reconciliation): one report per UTC day
// and provider (re-run in place), and the differences it found, each with its amounts.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const RECONCILIATION_STATUSES = ['MATCHED', 'DIFFERENCES', 'FAILED'] as const;
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number];
/**
 * MISSING_IN_BOOKS: at the provider, not in our books; MISSING_AT_PROVIDER: in our books, not at
 * the provider; AMOUNT_MISMATCH and STATUS_MISMATCH: both have it, and disagree.
 */
export const DIFFERENCE_KINDS = ['MISSING_IN_BOOKS', 'MISSING_AT_PROVIDER', 'AMOUNT_MISMATCH', 'STATUS_MISMATCH'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];
/** What was compared: a card charge, refund or transfer (Stripe), a mobile-money pay-in, refund or payout. */
export const RECONCILED_OBJECTS = ['CHARGE', 'REFUND', 'TRANSFER', 'PAYIN', 'PAYOUT'] as const;
export type ReconciledObject = (typeof RECONCILED_OBJECTS)[number];

export const reconciliationReports = sqliteTable(
  'reconciliation_reports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The UTC day compared (YYYY-MM-DD). */
    day: text('day').notNull(),
    /** STRIPE, or a mobile-money rail (WAVE, PAWAPAY). */
    provider: text('provider').notNull(),
    status: text('status', { enum: RECONCILIATION_STATUSES }).notNull(),
    providerRecords: integer('provider_records').notNull().default(0),
    ourRecords: integer('our_records').notNull().default(0),
    differences: integer('differences').notNull().default(0),
    /** How the provider was read (a listing, or our rows checked one by one), and any cap reached. */
    note: text('note'),
    /** The note as message keys and values (migration 0092): said in the reader's language. */
    noteText: text('note_text', { mode: 'json' }).$type<{ key: string; params?: Record<string, unknown> }[]>(),
    /** Why the run failed (status FAILED). */
    error: text('error'),
    runs: integer('runs').notNull().default(1),
    runAt: text('run_at').notNull(),
  },
  (t) => [uniqueIndex('reconciliation_reports_day_provider_unique').on(t.day, t.provider)],
);
export type ReconciliationReportRow = typeof reconciliationReports.$inferSelect;

export const reconciliationDifferences = sqliteTable(
  'reconciliation_differences',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reportId: integer('report_id')
      .notNull()
      .references(() => reconciliationReports.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: DIFFERENCE_KINDS }).notNull(),
    object: text('object', { enum: RECONCILED_OBJECTS }).notNull(),
    /** The provider's id (charge, refund, transfer; the operation's UUID or reference for mobile money). */
    providerRef: text('provider_ref'),
    reservationId: integer('reservation_id'),
    withdrawalId: integer('withdrawal_id'),
    currency: text('currency').notNull(),
    providerAmountMinor: integer('provider_amount_minor'),
    ourAmountMinor: integer('our_amount_minor'),
    providerStatus: text('provider_status'),
    ourStatus: text('our_status'),
  },
  (t) => [index('reconciliation_differences_report_idx').on(t.reportId)],
);
export type ReconciliationDifferenceRow = typeof reconciliationDifferences.$inferSelect;
