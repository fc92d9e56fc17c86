// Staff two-factor authentication (CONTRACT 27): an administrator's TOTP authenticator and its
// single-use recovery codes. A row without confirmedAt is an enrolment begun (QR shown) and not yet
// proved with a first code: it does not guard sign-in.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { users } from './users';

export const staffTotp = sqliteTable('staff_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  /** The shared secret, base32 (what the authenticator app holds). */
  secret: text('secret').notNull(),
  confirmedAt: text('confirmed_at'),
  /** The last time step a code was accepted for: a code of that step or before is a replay. */
  lastStep: integer('last_step'),
  createdAt: createdAt(),
});

export const staffRecoveryCodes = sqliteTable(
  'staff_recovery_codes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** SHA-256 (hex) of the normalised code (80 random bits): the code itself is shown once. */
    codeHash: text('code_hash').notNull(),
    usedAt: text('used_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] }), index('staff_recovery_codes_user_idx').on(t.userId, t.usedAt)],
);

export type StaffTotpRow = typeof staffTotp.$inferSelect;
