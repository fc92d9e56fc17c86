// GET /superadmin/metrics (CONTRACT section 24, seeing trouble): error rate, latency percentiles
// and the business events operators are alerted on, for the last hour and the last day.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, bearerSecurity, jsonContent } from '../../lib/openapi';
import { METRIC_WINDOWS } from '../../providers/metrics';
import { superadminOrMonitoring } from '../watchdog/monitoring';
import { metricsReport } from './metrics.service';

const count = (description: string) => z.number().int().min(0).openapi({ format: 'int64', description });
const ms = (description: string) => z.number().nullable().openapi({ format: 'double', description });

const WindowSchema = z
  .object({
    window: z.enum(METRIC_WINDOWS).openapi({ description: 'The window: the last hour or the last 24 hours' }),
    from: z.string().openapi({ format: 'date-time', description: 'Start of the window (excluded)' }),
    to: z.string().openapi({ format: 'date-time', description: 'End of the window (included): when the figures were read' }),
    requests: count('Requests answered'),
    serverErrors: count('Answers with a 5xx status'),
    clientErrors: count('Answers with a 4xx status'),
    errorRate: z.number().min(0).max(1).openapi({ format: 'double', description: 'serverErrors / requests (0 without requests)' }),
    latencyMs: z
      .object({ p50: ms('Median, in milliseconds'), p95: ms('95th percentile'), p99: ms('99th percentile') })
      .openapi({ description: 'Latency percentiles; null without requests' }),
    paymentsFailed: count('Payments refused by the provider (card or Wave)'),
    payoutsFailed: count('Withdrawals the provider refused (transfer or mobile payout)'),
    deliveriesDead: count('E-mails, pushes and SMS given up after their last attempt'),
    webhooksRefused: count('Provider webhooks refused for their signature (Stripe, Wave, KYC)'),
  })
  .openapi('MetricsWindow');

const MetricsSchema = z
  .object({
    source: z.enum(['ANALYTICS_ENGINE', 'LOCAL']).openapi({
      description: "ANALYTICS_ENGINE: the whole platform (production); LOCAL: what the answering isolate recorded since it started (local runs, tests)",
    }),
    generatedAt: z.string().openapi({ format: 'date-time' }),
    windows: z.array(WindowSchema),
  })
  .openapi('Metrics');

const WindowQuery = z.object({
  window: z
    .enum(METRIC_WINDOWS)
    .optional()
    .openapi({ param: { name: 'window', in: 'query' }, description: 'One window only (1h or 24h); both when absent' }),
});

export const metricsRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'getMetrics',
    path: '/superadmin/metrics',
    tags: ['Administration'],
    summary: 'Error rate, latency and failed payments, payouts, deliveries and webhooks of the last hour and day',
    description:
      'Super-administrators only. Summarises the per-request metrics (status, duration) and the business events ' +
      '(payment failed, payout failed, delivery dead, webhook refused) written to Workers Analytics Engine, for the ' +
      'last hour and the last 24 hours, or the one `window` asked for. The alert rules an operator sets on these ' +
      'figures are in docs/OPERATIONS.md. 500 (INTERNAL_ERROR) when Analytics Engine cannot be read. ' +
      'Super-administrators, or a monitoring token (`Authorization: Bearer mon_...`, POST /superadmin/monitoring-tokens).',
    security: bearerSecurity,
    middleware: [superadminOrMonitoring] as const,
    request: { query: WindowQuery },
    responses: { 200: jsonContent(MetricsSchema, 'The summary of each window'), ...authErrorResponses() },
  }),
  async (c) => c.json(await metricsReport(c.get('deps'), c.req.valid('query').window), 200),
);
