// The watchdog (CONTRACT section 27): incidents, cron heartbeats, refused webhooks, monitoring tokens.
import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { users } from './users';

export const INCIDENT_STATUSES = ['OPEN', 'RESOLVED'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_SEVERITIES = ['PAGE', 'TICKET'] as const;

/** One breach of a watchdog rule: opened once, resolved once (features/superadmin/watchdog.ts). */
export const incidents = sqliteTable(
  'incidents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The rule breached (watchdog.rules.ts WATCHDOG_RULES). */
    rule: text('rule').notNull(),
    /** What the rule is about when it watches several things (a cron job's name); '' otherwise. */
    subject: text('subject').notNull().default(''),
    severity: text('severity', { enum: INCIDENT_SEVERITIES }).notNull(),
    status: text('status', { enum: INCIDENT_STATUSES }).notNull().default('OPEN'),
    /** The breach in words, as alerted on opening. */
    summary: text('summary').notNull(),
    /** The same as a message key and its values (JSON), for each reader's language; null before migration 0064. */
    summaryText: text('summary_text', { mode: 'json' }).$type<{ key: string; params?: Record<string, unknown> }>(),
    /** The figure when opened (a count, a rate, minutes) and the rule's threshold. */
    value: real('value'),
    threshold: real('threshold'),
    openedAt: text('opened_at').notNull(),
    /** The last run that still saw the breach. */
    lastSeenAt: text('last_seen_at').notNull(),
    resolvedAt: text('resolved_at'),
  },
  (t) => [
    uniqueIndex('incidents_open_unique').on(t.rule, t.subject).where(sql`${t.status} = 'OPEN'`),
    index('incidents_opened_idx').on(t.openedAt),
  ],
);
export type IncidentRow = typeof incidents.$inferSelect;

/** Each cron job's last run and last success: a job late or failing is an incident. */
export const cronHeartbeats = sqliteTable('cron_heartbeats', {
  job: text('job').primaryKey(),
  lastRunAt: text('last_run_at').notNull(),
  lastOkAt: text('last_ok_at'),
  lastError: text('last_error'),
});

/** A provider webhook refused for its signature (Stripe, Wave, KYC): counted per 5 minutes. */
export const webhookRefusals = sqliteTable(
  'webhook_refusals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    provider: text('provider').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_refusals_created_idx').on(t.createdAt)],
);

/** A named, revocable token that reads GET /superadmin/metrics and /superadmin/incidents only; its SHA-256 is stored. */
export const monitoringTokens = sqliteTable(
  'monitoring_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('monitoring_tokens_hash_unique').on(t.tokenHash)],
);
export type MonitoringTokenRow = typeof monitoringTokens.$inferSelect;
