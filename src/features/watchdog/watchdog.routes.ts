// GET /superadmin/incidents (the watchdog's incidents, open and recent) and the monitoring tokens
// (POST, GET, DELETE /superadmin/monitoring-tokens): CONTRACT section 27.
import { languageHeaders, readerLocale } from '../../lib/locale';
import { createRoute, z } from '@hono/zod-openapi';
import { DELIVERY_CHANNELS, DELIVERY_STATUSES, INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, bearerSecurity, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery, toPage } from '../../lib/pagination';
import { IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import { ALERT_EVENTS, INCIDENT_SORT_FIELDS, listIncidents } from './incidents';
import { createMonitoringToken, listMonitoringTokens, MONITORING_TOKEN_SORT_FIELDS, revokeMonitoringToken, superadminOrMonitoring } from './monitoring';

const TAGS = ['Administration'];
const q = (name: string, description: string) => ({ param: { name, in: 'query' as const }, description });
const dateTime = (description: string) => z.string().openapi({ format: 'date-time', description });

const IncidentAlertSchema = z
  .object({
    event: z.enum(ALERT_EVENTS).openapi({ description: 'OPENED: the alert of its opening; RESOLVED: of its resolution' }),
    channel: z.enum(DELIVERY_CHANNELS).openapi({ description: 'EMAIL (ALERT_EMAIL), SMS (ALERT_SMS) or WEBHOOK (ALERT_WEBHOOK_URL)' }),
    status: z.enum(DELIVERY_STATUSES).openapi({ description: 'SENT: the provider accepted it; QUEUED: not sent yet; FAILED: being retried; DEAD: given up' }),
    sentAt: z.string().nullable().openapi({ format: 'date-time', description: 'When the provider accepted it; null until then' }),
    lastError: z.string().nullable().openapi({ description: "The provider's last refusal, if any" }),
  })
  .openapi('IncidentAlert');

const IncidentSchema = z
  .object({
    id: z.number().int(),
    rule: z.string().openapi({ description: 'The rule breached (docs/OPERATIONS.md, "The watchdog")', example: 'PAYOUTS_FAILED' }),
    subject: z.string().nullable().openapi({ description: 'What the rule is about when it watches several things (a cron job)', example: null }),
    title: z.string().openapi({ example: 'Payout failures' }),
    severity: z.enum(INCIDENT_SEVERITIES).openapi({ description: 'PAGE: someone is woken; TICKET: the next working day' }),
    status: z.enum(INCIDENT_STATUSES),
    summary: z.string().openapi({ description: 'The breach as it was when it opened, in the language of Accept-Language (French when preferred, else English)' }),
    value: z.number().nullable().openapi({ format: 'double', description: 'The figure when it opened (a count, a rate, minutes)' }),
    threshold: z.number().nullable().openapi({ format: 'double', description: "The rule's threshold (at or above)" }),
    openedAt: dateTime('When the watchdog opened it (and alerted)'),
    lastSeenAt: dateTime('The last watchdog run that still saw the breach'),
    resolvedAt: z.string().nullable().openapi({ format: 'date-time', description: 'When a run no longer saw it (and alerted); null while open' }),
    alerts: z.array(IncidentAlertSchema).openapi({ description: 'The alerts it caused, oldest first: one per configured channel on opening and on resolution (none when no alert address is set)' }),
  })
  .openapi('Incident');

const IncidentQuery = pageQuery({ sortable: INCIDENT_SORT_FIELDS, defaultSort: 'openedAt,desc' }).extend({
  status: z.enum(INCIDENT_STATUSES).optional().openapi(q('status', 'OPEN: the incidents still open; RESOLVED: the past ones; both when absent')),
});

const MonitoringTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    createdBy: z.number().int().openapi({ description: 'The super-admin who created it' }),
    createdAt: dateTime('Created'),
    lastUsedAt: z.string().nullable().openapi({ format: 'date-time', description: 'Its last accepted use' }),
    revokedAt: z.string().nullable().openapi({ format: 'date-time', description: 'When it was revoked; null while it works' }),
  })
  .openapi('MonitoringToken');

const CreatedTokenSchema = MonitoringTokenSchema.extend({
  token: z.string().openapi({ description: 'The token, shown this once (only its hash is kept): `Authorization: Bearer mon_...`', example: 'mon_3q2-7wEvJ...' }),
}).openapi('CreatedMonitoringToken');

const CreateTokenBody = z.object({ name: z.string().trim().min(1).max(100).openapi({ description: 'What uses it, e.g. "uptime monitor"', example: 'uptime monitor' }) }).openapi('CreateMonitoringToken');

export const watchdogRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listIncidents',
      path: '/superadmin/incidents',
      tags: TAGS,
      summary: "The watchdog's incidents, open and recent, newest first",
      description:
        'Every incident the watchdog (the 5-minute cron) opened: one per rule breach, alerted once when opened and once when resolved. ' +
        '`status=OPEN` keeps those still open. Super-administrators, or a monitoring token (`Authorization: Bearer mon_...`, POST /superadmin/monitoring-tokens).',
      security: bearerSecurity,
      middleware: [superadminOrMonitoring] as const,
      request: { query: IncidentQuery },
      responses: { 200: jsonContent(PageSchema(IncidentSchema, 'IncidentPage'), 'Page of incidents'), ...authErrorResponses() },
    }),
    async (c) => {
      const { page, size, sort, status } = c.req.valid('query');
      const locale = readerLocale(c.req.header('Accept-Language'));
      const { content, total } = await listIncidents(c.get('deps'), status, { page, size, sort }, locale);
      return c.json(toPage(content, total, { page, size }), 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'createMonitoringToken',
      path: '/superadmin/monitoring-tokens',
      tags: TAGS,
      summary: 'Create a monitoring token (shown once) that reads the metrics and the incidents only',
      description:
        'For an outside monitor: the token reads GET /superadmin/metrics and GET /superadmin/incidents and nothing else, never expires, and is revoked with DELETE. ' +
        'It is in the answer this once; only its SHA-256 is kept. Audited (MONITORING_TOKEN_CREATED).',
      ...withRole('ROLE_SUPERADMIN'),
      request: { body: jsonBody(CreateTokenBody) },
      responses: { 201: jsonContent(CreatedTokenSchema, 'The token, shown once'), ...authErrorResponses(400) },
    }),
    async (c) => c.json(await createMonitoringToken(c.get('deps'), c.get('auth'), c.req.valid('json').name, clientIp(c)), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listMonitoringTokens',
      path: '/superadmin/monitoring-tokens',
      tags: TAGS,
      summary: 'The monitoring tokens, newest first (never the tokens themselves)',
      description: 'Each token with its name, who created it, its last accepted use and whether it was revoked; the token itself was shown once, at creation, and is not kept.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { query: pageQuery({ sortable: MONITORING_TOKEN_SORT_FIELDS, defaultSort: 'createdAt,desc' }) },
      responses: { 200: jsonContent(PageSchema(MonitoringTokenSchema, 'MonitoringTokenPage'), 'Page of monitoring tokens'), ...authErrorResponses() },
    }),
    async (c) => {
      const { page, size, sort } = c.req.valid('query');
      const { content, total } = await listMonitoringTokens(c.get('deps'), { page, size, sort });
      return c.json(toPage(content, total, { page, size }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'revokeMonitoringToken',
      path: '/superadmin/monitoring-tokens/{id}',
      tags: TAGS,
      summary: 'Revoke a monitoring token: it stops working at once (audited)',
      description: 'Revoking a token already revoked changes nothing. Audited (MONITORING_TOKEN_REVOKED). 404 for an unknown id.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: IdParams },
      responses: { 200: jsonContent(MonitoringTokenSchema, 'The token, revoked'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await revokeMonitoringToken(c.get('deps'), c.get('auth'), c.req.valid('param').id, clientIp(c)), 200),
  );
