// Identity: refresh-token sessions (one row per token family), single-use tokens for email
// verification and password reset (stored hashed), provider ID tokens already exchanged, the audit log.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { users } from './users';

/**
 * A login session = one refresh-token family. Only the latest refresh token of the family
 * (`refreshJti`) is usable; presenting an older one revokes the family. `accessJti`/`accessExp`
 * name the one live access token of the session so revoking a session can blacklist it.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** How the session was opened. */
    method: text('method', { enum: ['PASSWORD', 'GOOGLE', 'APPLE', 'REGISTER'] }).notNull(),
    refreshJti: text('refresh_jti').notNull(),
    refreshExp: integer('refresh_exp').notNull(),
    accessJti: text('access_jti').notNull(),
    accessExp: integer('access_exp').notNull(),
    /**
     * The current pair's `iat` and the access token's roles: with the jtis above they re-sign the
     * very same pair (HS256 is deterministic) for the refresh token it replaced, presented again
     * within the grace period (parallel refreshes of a phone app). Null before the first rotation.
     */
    issuedAt: integer('issued_at'),
    issuedRoles: text('issued_roles', { mode: 'json' }).$type<string[]>(),
    /** The refresh token the current pair replaced (spent, but honoured for the grace period). */
    previousRefreshJti: text('previous_refresh_jti'),
    revokedAt: text('revoked_at'),
    /** LOGOUT, REUSE_DETECTED, PASSWORD_CHANGED, PASSWORD_RESET, SUSPENDED, ROLES_CHANGED, ACCOUNT_DELETED. */
    revokedReason: text('revoked_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId, t.revokedAt)],
);

/** Email verification and password reset tokens. Only the SHA-256 of the token is stored. */
export const oneTimeTokens = sqliteTable(
  'one_time_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['EMAIL_VERIFICATION', 'PASSWORD_RESET'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('one_time_tokens_hash_unique').on(t.tokenHash), index('one_time_tokens_user_idx').on(t.userId, t.purpose)],
);

/** Security events and administrative actions. `details` never holds secrets. */
export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Who acted (null for anonymous events such as a failed login with an unknown email). */
    actorId: integer('actor_id').references(() => users.id),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    ip: text('ip'),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_created_idx').on(t.createdAt),
    index('audit_logs_actor_idx').on(t.actorId, t.createdAt),
    index('audit_logs_action_idx').on(t.action, t.createdAt),
    // Audit browsing by target (GET /superadmin/audit-logs?targetType&targetId).
    index('audit_logs_target_idx').on(t.targetType, t.targetId, t.createdAt),
    // The retention job's IP erasure (a year on) reads only rows still holding one.
    index('audit_logs_ip_created_idx').on(t.createdAt).where(sql`${t.ip} IS NOT NULL`),
  ],
);

/**
 * Provider ID tokens already exchanged for a session (CONTRACT 25: each is accepted once): the
 * token's `jti`, or the SHA-256 of the token where it has none, kept until it expires (`exp`, seconds).
 */
export const spentIdTokens = sqliteTable(
  'spent_id_tokens',
  {
    tokenKey: text('token_key').primaryKey(),
    expiresAt: integer('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('spent_id_tokens_expires_idx').on(t.expiresAt)],
);

export type SessionRow = typeof sessions.$inferSelect;
export type AuditLogRow = typeof auditLogs.$inferSelect;
