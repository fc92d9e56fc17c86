// Super-admin administration (CONTRACT section 14): GET /superadmin/audit-logs,
// GET /superadmin/cache/stats, DELETE /superadmin/cache/{name}, GET /superadmin/supervision.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { notFound } from '../../errors';
import { allCacheStats, findCache } from '../../lib/cache';
import { authErrorResponses, jsonContent, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery, toPage } from '../../lib/pagination';
import { audit, clientIp } from '../audit/audit';
import { addDays } from '../analytics/analytics.rules';
import { decimalInt, whenValid } from '../../validation';
import { AUDIT_SORT_FIELDS, bindingChecks, listAuditLogs, providerConfiguration } from './superadmin.service';

const q = (name: string, description: string) => ({ param: { name, in: 'query' as const }, description });
const INSTANT = z.union([z.iso.date(), z.iso.datetime()]);
const instant = (name: 'from' | 'to', description: string) =>
  INSTANT.optional()
    .openapi({ ...q(name, description), type: 'string' });

const AuditQuery = pageQuery({ sortable: AUDIT_SORT_FIELDS, defaultSort: 'createdAt,desc' })
  .extend({
    actorId: decimalInt(z.number().int().min(1).max(2_147_483_647)).optional().openapi({ ...q('actorId', 'Who acted'), type: 'integer' }),
    action: z.string().trim().min(1).max(100).optional().openapi(q('action', 'Exact action, e.g. USER_SUSPENDED')),
    targetType: z.string().trim().min(1).max(50).optional().openapi(q('targetType', 'e.g. USER, AGENCY, CACHE')),
    targetId: z.string().trim().min(1).max(100).optional().openapi(q('targetId', 'Exact target id')),
    from: instant('from', 'From this instant (or day, UTC), included'),
    to: instant('to', 'Up to this instant (or the end of this day, UTC), included'),
  })
  .superRefine((v, ctx) => {
    // Both bounds passed their own format (whenValid): Date.parse alone would accept '-1' as a year.
    if (v.from !== undefined && v.to !== undefined && normalise(v.from, 'from') > normalise(v.to, 'to')) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'analytics.fromAfterTo' });
    }
  }, whenValid('from', 'to'));

/** A day bound becomes its first instant (from) or the first instant of the next day (to, exclusive). */
const normalise = (value: string, side: 'from' | 'to') =>
  value.length === 10 ? (side === 'from' ? `${value}T00:00:00.000Z` : `${addDays(value, 1)}T00:00:00.000Z`) : new Date(value).toISOString();

const AuditLogSchema = z
  .object({
    id: z.number().int(),
    actorId: z.number().int().nullable(),
    action: z.string(),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('AuditLog');

const CacheStatsSchema = z
  .object({ name: z.string(), hits: z.number().int(), misses: z.number().int(), size: z.number().int() })
  .openapi('CacheStats');

const CacheStatsListSchema = z
  .object({
    scope: z.literal('ISOLATE').openapi({ description: 'Caches live per worker isolate: figures are those of the isolate that answered' }),
    caches: z.array(CacheStatsSchema),
  })
  .openapi('CacheStatsList');

const CachePurgeSchema = z.object({ name: z.string(), purgedEntries: z.number().int() }).openapi('CachePurge');

const CheckSchema = z.object({
  name: z.string(),
  status: z.enum(['UP', 'DOWN']),
  latencyMs: z.number().int(),
  error: z.string().optional(),
});

const SupervisionSchema = z
  .object({
    status: z.enum(['UP', 'DEGRADED']),
    environment: z.string(),
    checkedAt: z.string().openapi({ format: 'date-time' }),
    checks: z.array(CheckSchema),
    providers: z.object({
      payment: z.object({ mode: z.enum(['SANDBOX', 'TEST', 'LIVE']), secretKeyConfigured: z.boolean(), webhookSecretConfigured: z.boolean() }),
      kyc: z.object({
        mode: z.enum(['SANDBOX', 'TEST', 'LIVE']),
        sandboxEnabled: z.boolean(),
        apiKeyConfigured: z.boolean(),
        webhookSecretConfigured: z.boolean(),
      }),
      socialLogin: z.object({ googleClientIds: z.number().int(), appleClientIds: z.number().int() }),
      jwt: z.object({ keyCount: z.number().int() }),
    }),
  })
  .openapi('Supervision');

const TAGS = ['Administration'];

export const superadminRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listAuditLogs',
      path: '/superadmin/audit-logs',
      tags: TAGS,
      summary: 'Browse the audit log (admin actions and security events)',
      description: 'A page of the audit log, newest first by default: administrative actions (suspensions, role changes, reviews, resolutions, cache purges...) and security events (logins, failed logins, password changes), each with its actor, target, client IP and details. Filters combine: actorId, exact action, targetType, targetId, and from/to as a day (UTC, whole) or an instant; from after to is 400 VALIDATION_ERROR. The log is only read here, never changed.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { query: AuditQuery },
      responses: { 200: jsonContent(PageSchema(AuditLogSchema, 'AuditLogPage'), 'Page of audit entries'), ...authErrorResponses() },
    }),
    async (c) => {
      const { page, size, sort, from, to, ...filters } = c.req.valid('query');
      const { rows, total } = await listAuditLogs(
        c.get('deps'),
        {
          ...filters,
          from: from ? normalise(from, 'from') : undefined,
          // A day is included whole; an instant is included as given.
          ...(to ? (to.length === 10 ? { toExclusive: normalise(to, 'to') } : { to: normalise(to, 'to') }) : {}),
        },
        { page, size, sort },
      );
      return c.json(toPage(rows.map((r) => ({ ...r, details: r.details ?? null })), total, { page, size }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getCacheStats',
      path: '/superadmin/cache/stats',
      tags: TAGS,
      summary: 'Hits, misses and size of each named cache',
      description: 'Hits, misses and entry count of each named in-memory cache (reference data, compiled statements...). Caches live per worker isolate, so the figures are those of the isolate that answered, not of the whole deployment.',
      ...withRole('ROLE_SUPERADMIN'),
      responses: { 200: jsonContent(CacheStatsListSchema, 'Cache statistics'), ...authErrorResponses() },
    }),
    (c) => c.json({ scope: 'ISOLATE' as const, caches: allCacheStats() }, 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'clearCache',
      path: '/superadmin/cache/{name}',
      tags: TAGS,
      summary: 'Empty a named cache (audited)',
      description: 'Empties the named in-memory cache of the isolate that answers (other isolates keep theirs until they refill or restart) and answers how many entries it held; audited as CACHE_PURGED. An unknown cache name is 404 RESOURCE_NOT_FOUND.',
      ...withRole('ROLE_SUPERADMIN'),
      request: {
        params: z.object({
          name: z.string().min(1).max(100).openapi({ param: { name: 'name', in: 'path' }, example: 'reference.cities' }),
        }),
      },
      responses: { 200: jsonContent(CachePurgeSchema, 'The cache was emptied'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const cache = findCache(name);
      if (!cache) throw notFound('Cache', name);
      const purgedEntries = cache.clear();
      await audit(c.get('deps'), {
        actorId: c.get('auth').id,
        action: 'CACHE_PURGED',
        targetType: 'CACHE',
        targetId: name,
        ip: clientIp(c),
        details: { purgedEntries },
      });
      return c.json({ name, purgedEntries }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getSupervision',
      path: '/superadmin/supervision',
      tags: TAGS,
      summary: "Health of D1, KV, R2, the Durable Objects and the providers' configuration (never secrets)",
      description: 'Probes D1, KV, R2 and the two Durable Object namespaces (QR codes, tracking) at once and answers UP, or DEGRADED when one fails, with each check\'s latency and error name, the environment, and how the providers are configured: payment and KYC modes and whether their keys and webhook secrets are set, how many Google and Apple client ids and JWT keys there are. Never a secret\'s value.',
      ...withRole('ROLE_SUPERADMIN'),
      responses: { 200: jsonContent(SupervisionSchema, 'Supervision report'), ...authErrorResponses() },
    }),
    async (c) => {
      const checks = await bindingChecks(c.get('deps'));
      return c.json(
        {
          status: checks.every((x) => x.status === 'UP') ? ('UP' as const) : ('DEGRADED' as const),
          environment: c.env.ENVIRONMENT,
          checkedAt: new Date().toISOString(),
          checks,
          providers: providerConfiguration(c.get('deps')),
        },
        200,
      );
    },
  );
