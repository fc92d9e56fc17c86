// The one place the trust features (KYC, agencies, files) write audit-log entries. Until the shared
// audit-log helper lands, entries go to the structured log; the lead points recordAudit at that
// helper at merge. Never put tokens or document contents in `details`.
import type { Db } from '../../db/client';

export interface AuditEntry {
  /** Acting user; null for a provider callback. */
  actorId: number | null;
  action: string;
  targetType: string;
  targetId: number | string;
  details?: Record<string, unknown>;
}

export async function recordAudit(_db: Db, entry: AuditEntry): Promise<void> {
  console.log(JSON.stringify({ level: 'audit', at: new Date().toISOString(), ...entry }));
}
