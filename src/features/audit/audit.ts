// The audit log: security events and administrative actions. `auditInsert` returns the INSERT so
// callers put it in the same db.batch() as the change it records; `audit` writes one on its own.
import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { guardedInsert } from '../../db/statements';
import type { Db } from '../../db/client';
import { auditLogs } from '../../db/schema';
import type { Deps } from '../../env';

export type AuditAction =
  | 'USER_REGISTERED'
  | 'LOGIN_SUCCESS'
  | 'LOGIN_FAILURE'
  | 'SOCIAL_LOGIN'
  | 'LOGOUT'
  | 'REFRESH_TOKEN_REUSE'
  | 'EMAIL_VERIFIED'
  | 'PASSWORD_RESET_REQUESTED'
  | 'PASSWORD_RESET'
  | 'PASSWORD_CHANGED'
  | 'PASSWORD_CHANGE_FAILED'
  | 'PROFILE_UPDATED'
  | 'ACCOUNT_DELETED'
  | 'USER_SUSPENDED'
  | 'USER_ACTIVATED'
  | 'ROLES_CHANGED'
  // Other features add their admin actions here (e.g. 'CATEGORY_CREATED', 'DISPUTE_RESOLVED').
  | (string & {});

export interface AuditEntry {
  /** Who acted; null when nobody is identified (a failed login with an unknown email). */
  actorId: number | null;
  action: AuditAction;
  targetType?: string;
  targetId?: string | number;
  /**
   * Client IP (CF-Connecting-IP), see `clientIp`. Required: every entry written on behalf of a
   * request carries the caller's IP; null only where no request exists (provider callbacks, cron).
   */
  ip: string | null;
  /** Small JSON context. Never a password, hash, token or other secret. */
  details?: Record<string, unknown>;
}

const auditRow = (e: AuditEntry) => ({
  actorId: e.actorId,
  action: e.action,
  targetType: e.targetType ?? null,
  targetId: e.targetId === undefined ? null : String(e.targetId),
  ip: e.ip,
  // Undefined, not null: a JSON column would store null as the text 'null' in guardedInsert.
  details: e.details,
  createdAt: new Date().toISOString(),
});

export function auditInsert(db: Db, entries: AuditEntry | AuditEntry[]) {
  const rows = Array.isArray(entries) ? entries : [entries];
  return db.insert(auditLogs).values(rows.map(auditRow));
}

/**
 * The INSERT of one entry that takes effect only if the statement just before it in the same
 * db.batch() changed exactly one row (SQLite `changes()`): a conditional UPDATE that matched
 * nothing leaves no audit entry behind.
 */
export function auditInsertIfChanged(db: Db, e: AuditEntry) {
  return guardedInsert(db, auditLogs, auditRow(e), undefined, sql`changes() = 1`);
}

export async function audit(deps: Deps, entries: AuditEntry | AuditEntry[]) {
  const { db } = deps;
  await auditInsert(db, entries).run();
}

/** The caller's IP as Cloudflare reports it; null when the request did not come through the edge. */
export const clientIp = (c: Context): string | null => c.req.header('CF-Connecting-IP') ?? null;
