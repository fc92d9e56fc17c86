// The operator console's sign-in sessions (a cookie, not a token pair) and the one-time form
// tokens it has spent. The cookie holds a random secret; only its SHA-256 is stored.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { users } from './users';

export const consoleSessions = sqliteTable(
  'console_sessions',
  {
    /** SHA-256 (hex) of the cookie's secret. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Key of the session's CSRF tokens (HMAC); never leaves the server. */
    csrfKey: text('csrf_key').notNull(),
    /** Last request seen: the idle timeout runs from here. */
    lastSeenAt: text('last_seen_at').notNull(),
    revokedAt: text('revoked_at'),
    /** LOGOUT, IDLE, or the reason the user's tokens were revoked (SUSPENDED, ROLES_CHANGED, ...). */
    revokedReason: text('revoked_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('console_sessions_user_idx').on(t.userId, t.revokedAt)],
);

/** A form token spent by an action: the same form submitted twice is applied once. */
export const consoleFormTokens = sqliteTable(
  'console_form_tokens',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => consoleSessions.id),
    nonce: text('nonce').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.nonce] })],
);

export type ConsoleSessionRow = typeof consoleSessions.$inferSelect;
