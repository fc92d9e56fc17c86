// Mobile wallets a carrier or an agency is paid out to (CONTRACT section 20), beside the Stripe
// connected accounts of money.ts. One default per owner and currency (a partial unique index).
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { OWNER_TYPES } from './money';

export const MOBILE_MONEY_PROVIDERS = ['WAVE'] as const;
export type MobileMoneyProviderName = (typeof MOBILE_MONEY_PROVIDERS)[number];

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
    provider: text('provider', { enum: MOBILE_MONEY_PROVIDERS }).notNull(),
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
