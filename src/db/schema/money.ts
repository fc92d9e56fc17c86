// Money: double-entry ledger (accounts, journal entries, lines), user-facing transactions,
// checkout sessions, provider webhook events, connected payout accounts, withdrawals.
import { sql } from 'drizzle-orm';
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { reservations } from './reservations';

/** Who owns a wallet or a payout account: a user, or (later) an agency. */
export const OWNER_TYPES = ['USER', 'AGENCY'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

/**
 * HELD: an owner's delivered shares still inside the dispute window (never withdrawable).
 * RECEIVABLE: what an owner owes after a chargeback their balance could not cover; its balance is
 * minus the debt (0 or below), recovered from their next released shares.
 * PROTECTION_PREMIUMS: premiums of protected bookings that may still go back (unearned); a premium
 * moves to PROTECTION_RESERVE only once earned, so payouts never spend a refundable premium.
 */
export const ACCOUNT_KINDS = ['WALLET', 'ESCROW', 'PLATFORM_REVENUE', 'PAYOUTS', 'PROVIDER_CLEARING', 'HELD', 'RECEIVABLE', 'PROTECTION_RESERVE', 'PROTECTION_FUNDING', 'PROTECTION_PREMIUMS'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const ledgerAccounts = sqliteTable(
  'ledger_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Stable name ending with the currency (migration 0028): `WALLET:USER:12:EUR`, `WALLET:AGENCY:3:XOF`, `ESCROW:EUR`, ... */
    key: text('key').notNull(),
    kind: text('kind', { enum: ACCOUNT_KINDS }).notNull(),
    ownerType: text('owner_type', { enum: OWNER_TYPES }),
    ownerId: integer('owner_id'),
    currency: text('currency').notNull(),
    /** Cached sum of this account's lines, updated in the same batch as the lines. */
    balanceCents: integer('balance_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_key_unique').on(t.key),
    index('ledger_accounts_owner_idx').on(t.ownerType, t.ownerId),
    // Defence in depth: the database itself refuses a negative wallet.
    check('ledger_accounts_wallet_non_negative', sql`${t.kind} <> 'WALLET' OR ${t.balanceCents} >= 0`),
  ],
);

export const LEDGER_ENTRY_TYPES = [
  'PAYMENT_ESCROWED',
  'ESCROW_RELEASED',
  'ESCROW_REFUNDED',
  'WITHDRAWAL',
  'WITHDRAWAL_REVERSED',
  'DISPUTE_FREEZE',
  'DISPUTE_SETTLED',
  'HELD_RELEASED',
  'PROTECTION_PAYOUT',
  /** A protected reservation's premium can no longer go back: unearned premiums -> reserve. */
  'PROTECTION_PREMIUM_EARNED',
  /** One-off (migration 0034): open premiums out of the reserve, and what the platform refilled. */
  'PROTECTION_PREMIUM_MOVED',
] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export const ledgerEntries = sqliteTable(
  'ledger_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** What makes the posting happen at most once (`escrow-in:12`, `escrow-out:12`, `withdrawal:5`). */
    key: text('key').notNull(),
    /** Random per attempt: the statements of one batch find their own entry by it. */
    token: text('token').notNull(),
    type: text('type', { enum: LEDGER_ENTRY_TYPES }).notNull(),
    reservationId: integer('reservation_id').references(() => reservations.id),
    withdrawalId: integer('withdrawal_id'),
    /** The line in English, as written when the money moved. */
    description: text('description').notNull(),
    /** The same line as a message key and its values (JSON, money/ledger/ledger-text.ts); null before migration 0035. */
    descriptionText: text('description_text'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_key_unique').on(t.key),
    uniqueIndex('ledger_entries_token_unique').on(t.token),
    index('ledger_entries_reservation_idx').on(t.reservationId),
    // Analytics: money figures of a period (gross volume, revenue, refunds) walk this range.
    index('ledger_entries_created_type_idx').on(t.createdAt, t.type),
  ],
);

export const ledgerLines = sqliteTable(
  'ledger_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    entryId: integer('entry_id')
      .notNull()
      .references(() => ledgerEntries.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Signed cents; the lines of one entry sum to zero. */
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [index('ledger_lines_entry_idx').on(t.entryId), index('ledger_lines_account_idx').on(t.accountId, t.amountCents)],
);

export const TRANSACTION_TYPES = [
  'PAYMENT',
  'REFUND',
  'HOLD_RELEASE',
  'EARNING',
  'WITHDRAWAL',
  'WITHDRAWAL_REVERSAL',
  'DISPUTE_HOLD',
  'DISPUTE_HOLD_RELEASE',
  'PROTECTION_PAYOUT',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
/**
 * Whether the money of a history line has moved: a refund after capture is PENDING from the
 * cancellation until the provider confirms it (CONTRACT 26); every other line is COMPLETED when written.
 */
export const TRANSACTION_STATUSES = ['PENDING', 'COMPLETED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/**
 * What goes back to a payer, by what the provider does: REFUND after capture (money returned to the
 * card), HOLD_RELEASE before it (the card hold released, in full by a void or, for the part not
 * captured, by a partial capture). The amount is what the payer gets back either way.
 */
export const MONEY_BACK_TYPES = ['REFUND', 'HOLD_RELEASE'] as const satisfies readonly TransactionType[];
export type MoneyBackType = (typeof MONEY_BACK_TYPES)[number];
/**
 * What a payee has earned, net: money released at delivery, minus what a dispute froze, plus what
 * its settlement gave back. Every "total earned" figure sums these types.
 */
export const EARNING_TYPES = ['EARNING', 'DISPUTE_HOLD', 'DISPUTE_HOLD_RELEASE'] as const satisfies readonly TransactionType[];

/** The history a user sees: one row per money movement that concerns them, written with the ledger entry. */
export const transactions = sqliteTable(
  'transactions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerType: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    type: text('type', { enum: TRANSACTION_TYPES }).notNull(),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull().default('COMPLETED'),
    /** Signed from the owner's point of view: a payment is negative, an earning positive. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    ledgerEntryId: integer('ledger_entry_id')
      .notNull()
      .references(() => ledgerEntries.id),
    reservationId: integer('reservation_id').references(() => reservations.id),
    withdrawalId: integer('withdrawal_id'),
    /** The line in English, as written when the money moved. */
    description: text('description').notNull(),
    /** The entry's line as a message key and its values (JSON, money/ledger/ledger-text.ts); null before migration 0035. */
    descriptionText: text('description_text'),
    /** R2 key of the generated PDF receipt (payments only), set on first download. */
    receiptKey: text('receipt_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('transactions_owner_idx').on(t.ownerType, t.ownerId, t.createdAt),
    index('transactions_reservation_idx').on(t.reservationId),
    // Analytics: is the money back of a ledger entry a refund (after capture) or a released hold?
    index('transactions_entry_idx').on(t.ledgerEntryId),
  ],
);

/**
 * Document numbers: one gap-free sequence per series (`F-<year>` invoices, `A-<year>` credit notes,
 * the calendar year in UTC). A number is taken in the batch that inserts its document, only if the
 * document is inserted (money/wallet/money-documents.ts).
 */
export const invoiceSequences = sqliteTable('invoice_sequences', {
  series: text('series').primaryKey(),
  lastNumber: integer('last_number').notNull().default(0),
});

export const MONEY_DOCUMENT_KINDS = ['INVOICE', 'CREDIT_NOTE'] as const;
export type MoneyDocumentKind = (typeof MONEY_DOCUMENT_KINDS)[number];

/**
 * The money documents of a reservation (CONTRACT section 19): the invoice issued at capture for
 * the amount captured, a credit note for each refund after capture. Amounts are what the document
 * states, positive; the lines are the carrier's transport and the platform's commission (VAT
 * included, `vatCents` of it at `vatRate`). Written once (unique `key`), never updated.
 */
export const moneyDocuments = sqliteTable(
  'money_documents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: MONEY_DOCUMENT_KINDS }).notNull(),
    /** `F-2026-000123` (invoice), `A-2026-000045` (credit note). */
    number: text('number').notNull(),
    /** What makes the document exist at most once: `invoice:<reservationId>`, `credit:<ledger entry key>`. */
    key: text('key').notNull(),
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => reservations.id),
    /** The sender's transaction whose receipt is this document (PAYMENT for the invoice, REFUND for a credit note). */
    transactionId: integer('transaction_id').references(() => transactions.id),
    /** A credit note's invoice. */
    invoiceDocumentId: integer('invoice_document_id'),
    currency: text('currency').notNull(),
    totalCents: integer('total_cents').notNull(),
    carrierCents: integer('carrier_cents').notNull(),
    commissionCents: integer('commission_cents').notNull(),
    vatCents: integer('vat_cents').notNull(),
    vatRate: real('vat_rate').notNull(),
    /** The protection premium captured (invoice) or refunded (credit note), beside the transport total (CONTRACT 21). */
    protectionCents: integer('protection_cents').notNull().default(0),
    /** Set with the number: the year of the number is the year of this date (UTC). */
    issuedAt: text('issued_at').notNull(),
  },
  (t) => [
    uniqueIndex('money_documents_number_unique').on(t.number),
    uniqueIndex('money_documents_key_unique').on(t.key),
    index('money_documents_transaction_idx').on(t.transactionId),
    index('money_documents_reservation_idx').on(t.reservationId),
    check('money_documents_lines_add_up', sql`${t.carrierCents} + ${t.commissionCents} = ${t.totalCents}`),
  ],
);

/** One row per hosted checkout session created for a reservation. */
export const paymentSessions = sqliteTable(
  'payment_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => reservations.id),
    provider: text('provider').notNull(),
    sessionId: text('session_id').notNull(),
    attempt: integer('attempt').notNull(),
    url: text('url').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    expiresAt: text('expires_at').notNull(),
    /** CARD (Stripe) or MOBILE_MONEY (Wave): where its refunds go (mobile-money.ts PAYMENT_METHODS). */
    method: text('method', { enum: ['CARD', 'MOBILE_MONEY'] }).notNull().default('CARD'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_sessions_session_unique').on(t.sessionId),
    uniqueIndex('payment_sessions_attempt_unique').on(t.reservationId, t.attempt),
  ],
);

/** Every provider event received, keyed by the provider's event id: applied once. */
export const paymentEvents = sqliteTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** Provider's creation time (seconds since epoch). */
  providerCreated: integer('provider_created').notNull(),
  payload: text('payload').notNull(),
  receivedAt: createdAt(),
  processedAt: text('processed_at'),
});

export const payoutAccounts = sqliteTable(
  'payout_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerType: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    chargesEnabled: integer('charges_enabled', { mode: 'boolean' }).notNull().default(false),
    payoutsEnabled: integer('payouts_enabled', { mode: 'boolean' }).notNull().default(false),
    detailsSubmitted: integer('details_submitted', { mode: 'boolean' }).notNull().default(false),
    requirements: text('requirements', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payout_accounts_owner_unique').on(t.ownerType, t.ownerId),
    uniqueIndex('payout_accounts_provider_unique').on(t.providerAccountId),
  ],
);

export const WITHDRAWAL_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const withdrawals = sqliteTable(
  'withdrawals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerType: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: WITHDRAWAL_STATUSES }).notNull().default('PENDING'),
    automatic: integer('automatic', { mode: 'boolean' }).notNull().default(false),
    destinationAccountId: text('destination_account_id').notNull(),
    transferId: text('transfer_id'),
    failureReason: text('failure_reason'),
    /** Matches the ledger entry written in the same batch. */
    token: text('token').notNull(),
    /** The client's Idempotency-Key: a retried request never withdraws twice. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    completedAt: text('completed_at'),
    /** The FAILED withdrawal an operator retried with this one (at most one retry each: the unique index). */
    retryOf: integer('retry_of'),
  },
  (t) => [
    uniqueIndex('withdrawals_token_unique').on(t.token),
    uniqueIndex('withdrawals_owner_idempotency_unique').on(t.ownerType, t.ownerId, t.idempotencyKey),
    index('withdrawals_owner_idx').on(t.ownerType, t.ownerId, t.createdAt),
    index('withdrawals_status_idx').on(t.status, t.createdAt),
    uniqueIndex('withdrawals_retry_of_unique').on(t.retryOf).where(sql`${t.retryOf} IS NOT NULL`),
  ],
);

/**
 * A delivered share held until the dispute window closes (CONTRACT section 19): written with the
 * ESCROW_RELEASED entry; the cron releases it to the wallet once `releaseAfter` has passed with no
 * open dispute; a dispute's settlement takes what it needs from it first. `amountCents` is what is
 * still held; `releasedAt` is set once nothing is (released or taken back).
 */
export const payoutHolds = sqliteTable(
  'payout_holds',
  {
    reservationId: integer('reservation_id')
      .primaryKey()
      .references(() => reservations.id),
    ownerType: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    releaseAfter: text('release_after').notNull(),
    releasedAt: text('released_at'),
    createdAt: createdAt(),
  },
  (t) => [index('payout_holds_due_idx').on(t.releasedAt, t.releaseAfter), check('payout_holds_amount_non_negative', sql`${t.amountCents} >= 0`)],
);

export const withdrawalSettings = sqliteTable(
  'withdrawal_settings',
  {
    ownerType: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
    thresholdCents: integer('threshold_cents').notNull(),
    /** The wallet currency this setting pays out, its threshold in its minor units (migration 0033). */
    currency: text('currency').notNull().default('EUR'),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('withdrawal_settings_owner_currency_unique').on(t.ownerType, t.ownerId, t.currency)],
);

export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;
export type TransactionRow = typeof transactions.$inferSelect;
export type MoneyDocumentRow = typeof moneyDocuments.$inferSelect;
export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type PayoutHoldRow = typeof payoutHolds.$inferSelect;
export type PayoutAccountRow = typeof payoutAccounts.$inferSelect;
