// Super-admin administration: audit-log browsing, the per-isolate caches, and supervision of the
// bindings (D1, KV, R2, both Durable Object namespaces) and of the providers' configuration.
// Supervision reports whether things are configured, never their values.
import { and, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import { readPage } from '../../db/statements';
import { auditLogs } from '../../db/schema';
import type { Deps } from '../../env';
import { orderBy, type PageParams } from '../../lib/pagination';
import { appConfig, type OptionalSettings } from '../../config';

export const AUDIT_SORT_FIELDS = ['createdAt', 'id'] as const;
export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];

export interface AuditFilters {
  actorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  /** Inclusive ISO bounds on created_at (a date `to` is widened to the end of its day by the route). */
  from?: string;
  to?: string;
  toExclusive?: string;
}

export async function listAuditLogs(deps: Deps, f: AuditFilters, page: PageParams<AuditSortField>) {
  const { db } = deps;
  const conditions: (SQL | undefined)[] = [
    f.actorId !== undefined ? eq(auditLogs.actorId, f.actorId) : undefined,
    f.action ? eq(auditLogs.action, f.action) : undefined,
    f.targetType ? eq(auditLogs.targetType, f.targetType) : undefined,
    f.targetId ? eq(auditLogs.targetId, f.targetId) : undefined,
    f.from ? gte(auditLogs.createdAt, f.from) : undefined,
    f.to ? lte(auditLogs.createdAt, f.to) : undefined,
    f.toExclusive ? lt(auditLogs.createdAt, f.toExclusive) : undefined,
  ];
  const where = and(...conditions);
  const order = orderBy(page.sort, { createdAt: auditLogs.createdAt, id: auditLogs.id }, auditLogs.id);
  const { rows, total } = await readPage(db, auditLogs, where, order, page);
  return { rows, total };
}

export type CheckStatus = 'UP' | 'DOWN';
export interface Check {
  name: string;
  status: CheckStatus;
  latencyMs: number;
  /** The error's class name when DOWN; never a message that could carry configuration. */
  error?: string;
}

async function check(name: string, probe: () => Promise<unknown>): Promise<Check> {
  const started = Date.now();
  try {
    await probe();
    return { name, status: 'UP', latencyMs: Date.now() - started };
  } catch (err) {
    console.error(JSON.stringify({ msg: 'supervision check failed', check: name, error: err instanceof Error ? err.name : 'unknown' }));
    return { name, status: 'DOWN', latencyMs: Date.now() - started, error: err instanceof Error ? err.name : 'Error' };
  }
}

/** A fixed object per namespace, touched through a read-only RPC method. */
const SUPERVISION_OBJECT = 'supervision-probe';

export async function bindingChecks(deps: Deps): Promise<Check[]> {
  const { env } = deps;
  return Promise.all([
    check('D1', () => env.DB.prepare('SELECT 1').first()),
    check('KV', () => env.KV.get('supervision:probe')),
    check('R2', () => env.UPLOADS.head('supervision/probe')),
    check('RESERVATION_QR', () => env.RESERVATION_QR.get(env.RESERVATION_QR.idFromName(SUPERVISION_OBJECT)).codeAttempts()),
    check('RESERVATION_TRACKING', () => env.RESERVATION_TRACKING.get(env.RESERVATION_TRACKING.idFromName(SUPERVISION_OBJECT)).lastPosition()),
  ]);
}

const listSize = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean).length;

function jwtKeyCount(value: string | undefined): number {
  try {
    const keys = JSON.parse(value ?? '[]') as unknown;
    return Array.isArray(keys) ? keys.length : 0;
  } catch {
    return 0;
  }
}

/** What is configured, as booleans and counts only. */
export function providerConfiguration(deps: Deps) {
  const env: Env & OptionalSettings = deps.env;
  const config = appConfig(env);
  return {
    payment: {
      mode: config.payment.mode,
      secretKeyConfigured: Boolean(env.STRIPE_SECRET_KEY),
      webhookSecretConfigured: Boolean(env.STRIPE_WEBHOOK_SECRET),
    },
    kyc: {
      mode: config.kyc.mode,
      sandboxEnabled: config.kyc.mode === 'SANDBOX',
      apiKeyConfigured: Boolean(env.KYC_PROVIDER_API_KEY),
      webhookSecretConfigured: Boolean(env.KYC_WEBHOOK_SECRET),
    },
    socialLogin: {
      googleClientIds: listSize(env.GOOGLE_CLIENT_IDS),
      appleClientIds: listSize(env.APPLE_CLIENT_IDS),
    },
    jwt: { keyCount: jwtKeyCount(env.JWT_KEYS) },
  };
}
