// Mobile wallets a carrier or an agency is paid out to (CONTRACT section 20), beside the Stripe
// connected accounts of money.ts. One default per owner and currency (a partial unique index).
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { OWNER_TYPES, withdrawals } from './money';
import { reservations } from './reservations';

/**
 * The operators a payout account may name today (the port's operator codes). Stored as text: a new
 * rail's operators need no migration, the service checks the code against the rails configured.
 */
export const MOBILE_MONEY_OPERATORS = ['WAVE', 'MTN_MOMO_CMR', 'ORANGE_CMR', 'MTN_MOMO_CIV', 'ORANGE_CIV', 'ORANGE_SEN'] as const;

/** How a checkout is paid (payment_sessions.method). */
export const PAYMENT_METHODS = ['CARD', 'MOBILE_MONEY'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const mobilePayoutAccounts = sqliteTable(
  'mobile_payout_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerType: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    type: text('type', { enum: ['MOBILE_MONEY'] }).notNull().default('MOBILE_MONEY'),
    /** The operator (WAVE, MTN_MOMO_CMR, ...): the rail that pays it out follows from it. */
    provider: text('provider').notNull(),
    currency: text('currency').notNull(),
    /** E.164 (+221...). */
    phone: text('phone').notNull(),
    /** The holder's name as the wallet knows it (Wave checks it on payout). */
    name: text('name').notNull(),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('mobile_payout_accounts_owner_idx').on(t.ownerType, t.ownerId),
    uniqueIndex('mobile_payout_accounts_default_unique').on(t.ownerType, t.ownerId, t.currency).where(sql`${t.isDefault} = 1`),
    uniqueIndex('mobile_payout_accounts_phone_unique').on(t.ownerType, t.ownerId, t.provider, t.phone),
  ],
);

export type MobilePayoutAccountRow = typeof mobilePayoutAccounts.$inferSelect;

export const OPERATION_KINDS = ['PAYIN', 'PAYOUT', 'REFUND'] as const;
/** NEW: recorded, not sent yet; UNKNOWN: sent, outcome not known (resolved by a status check). */
export const OPERATION_STATUSES = ['NEW', 'PENDING', 'UNKNOWN', 'COMPLETED', 'FAILED'] as const;
export type OperationRowStatus = (typeof OPERATION_STATUSES)[number];

/** Every mobile-money operation, recorded before it is sent (migration 0070, docs/decisions-mobile-money.md). */
export const mobileMoneyOperations = sqliteTable(
  'mobile_money_operations',
  {
    /** Our UUID: the provider's id for it (pawaPay's depositId/payoutId/refundId, Wave's Idempotency-Key). */
    id: text('id').primaryKey(),
    /** What it is for, one operation each: payin:<reservation>:<attempt>, refund:<reservation>, payout:<withdrawal>. */
    subject: text('subject').notNull(),
    kind: text('kind', { enum: OPERATION_KINDS }).notNull(),
    rail: text('rail').notNull(),
    operator: text('operator'),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    phone: text('phone'),
    reservationId: integer('reservation_id').references(() => reservations.id),
    withdrawalId: integer('withdrawal_id').references(() => withdrawals.id),
    status: text('status', { enum: OPERATION_STATUSES }).notNull().default('NEW'),
    /** The rail's reference for status calls (Wave's checkout or payout id; pawaPay: the id itself). */
    ref: text('ref'),
    /** The reference sent with it (Wave's client_reference): how a line of the rail's statement names it (migration 0090). */
    reference: text('reference'),
    providerTransactionId: text('provider_transaction_id'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mobile_money_operations_subject_unique').on(t.subject),
    index('mobile_money_operations_ref_idx').on(t.ref),
    index('mobile_money_operations_reference_idx').on(t.rail, t.reference),
    index('mobile_money_operations_open_idx').on(t.kind, t.updatedAt).where(sql`${t.status} IN ('NEW', 'PENDING', 'UNKNOWN')`),
  ],
);

export type MobileMoneyOperationRow = typeof mobileMoneyOperations.$inferSelect;
