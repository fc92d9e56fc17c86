// Operations switches (CONTRACT 27): a super-admin pauses new checkouts or new payouts of one
// provider during its outage. A row is a pause in force; resuming deletes it (the audit log keeps
// both).
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { isoNow } from './columns';
import { users } from './users';

export const PAUSE_OPERATIONS = ['CHECKOUT', 'PAYOUT'] as const;
export type PauseOperation = (typeof PAUSE_OPERATIONS)[number];

export const providerPauses = sqliteTable(
  'provider_pauses',
  {
    /** The provider as the payment methods name it (STRIPE, WAVE, ...). */
    provider: text('provider').notNull(),
    operation: text('operation', { enum: PAUSE_OPERATIONS }).notNull(),
    reason: text('reason'),
    pausedBy: integer('paused_by').references(() => users.id),
    pausedAt: text('paused_at').notNull().default(isoNow),
  },
  (t) => [primaryKey({ columns: [t.provider, t.operation] })],
);
