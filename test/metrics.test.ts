// Seeing trouble (CONTRACT section 24, issue 33): every answered request is a metric point (route
// pattern, status, duration) and the business events (payment failed, payout failed, delivery dead,
// webhook refused) are counted; GET /superadmin/metrics summarises the last hour and day, from this
// isolate's memory locally and from Workers Analytics Engine's SQL API in production.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../src/index';
import { localMetrics, percentile } from '../src/providers/metrics/local-metrics';
import { analyticsEngineMetrics, summaryQuery } from '../src/providers/metrics/analytics-engine';
import { consume } from './helpers/deliveries';
import { db } from './helpers/db';
import { aReservation, aSuperAdmin, aUser, anAdmin } from './helpers/factories';
import { BASE, call, errorBody, get } from './helpers/http';
import { sendPaymentEvent, sendWebhookRaw } from './helpers/money';
import { PRODUCTION_ENV } from './helpers/production';
import { deliveries } from '../src/db/schema';
import { ALERT_RULES, breachedRules } from '../src/features/watchdog/alert-rules';
import type { WindowSummary } from '../src/providers/metrics';
import operationsDoc from '../docs/OPERATIONS.md?raw';

afterEach(() => {
  vi.restoreAllMocks();
});

type Window = Record<string, any>;

async function report(token: string, query = '') {
  const res = await get(`/v1/api/superadmin/metrics${query}`, { token });
  expect(res.status).toBe(200);
  return res.body as { source: string; generatedAt: string; windows: Window[] };
}

const hourOf = async (token: string) => (await report(token, '?window=1h')).windows[0];

describe('GET /superadmin/metrics (local: what this isolate recorded)', () => {
  it('counts each request once, its status class and latency, for the hour and the day', async () => {
    const root = await aSuperAdmin();
    const before = await report(root.token);
    expect(before.source).toBe('LOCAL');
    expect(before.windows.map((w) => w.window)).toEqual(['1h', '24h']);
    const [hour, day] = before.windows;
    expect(Date.parse(hour.to) - Date.parse(hour.from)).toBe(3_600_000);
    expect(Date.parse(day.to) - Date.parse(day.from)).toBe(86_400_000);
    expect(day.requests).toBeGreaterThanOrEqual(hour.requests);

    const start = await hourOf(root.token);
    expect((await get('/v1/api/health')).status).toBe(200);
    expect((await get('/v1/api/no-such-endpoint')).status).toBe(404);
    // Two 5xx recorded by the local adapter as the middleware records them (a 500 cannot be provoked on purpose).
    localMetrics.request({ method: 'GET', route: '/v1/api/test', status: 500, durationMs: 40 });
    localMetrics.request({ method: 'GET', route: '/v1/api/test', status: 503, durationMs: 60 });
    const after = await hourOf(root.token);
    // The first metrics request itself, health, the 404, the two points.
    expect(after.requests - start.requests).toBe(5);
    expect(after.clientErrors - start.clientErrors).toBe(1);
    expect(after.serverErrors - start.serverErrors).toBe(2);
    expect(after.errorRate).toBeCloseTo(after.serverErrors / after.requests, 4);
    expect(after.latencyMs.p50).toBeGreaterThanOrEqual(0);
    expect(after.latencyMs.p99).toBeGreaterThanOrEqual(after.latencyMs.p95);
    expect(after.latencyMs.p95).toBeGreaterThanOrEqual(after.latencyMs.p50);
  });

  it('counts refused webhooks, failed payments and dead deliveries as they happen', async () => {
    const root = await aSuperAdmin();
    const start = await hourOf(root.token);

    expect((await sendWebhookRaw('{"id":"evt_forged"}', 't=1,v1=deadbeef')).status).toBe(401);
    const wave = await call('POST', '/v1/api/webhooks/wave', { raw: '{"id":"AE_forged"}', headers: { 'Content-Type': 'application/json', 'Wave-Signature': 't=1,v1=00' } });
    expect(wave.status).toBe(401);
    const { reservation } = await aReservation({ status: 'PENDING_PAYMENT' });
    const failed = {
      id: `evt_${crypto.randomUUID()}`,
      object: 'event',
      type: 'payment_intent.payment_failed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { id: 'pi_metrics_failed', object: 'payment_intent', metadata: { reservationId: String(reservation.id) } } },
    };
    expect((await sendPaymentEvent(failed)).status).toBe(200);
    // The same event again changes nothing and counts nothing.
    expect((await sendPaymentEvent(failed)).status).toBe(200);
    const user = await aUser();
    const [row] = await db()
      .insert(deliveries)
      .values({ userId: user.id, channel: 'EMAIL', to: 'dead@example.test', template: 'EMAIL_VERIFICATION', locale: 'fr', payload: { firstName: 'A', path: '/x' } })
      .returning();
    expect((await consume(row.id, { queue: 'deliveries-dlq' })).acked).toBe(true);
    expect((await consume(row.id, { queue: 'deliveries-dlq' })).acked).toBe(true);

    const after = await hourOf(root.token);
    expect({
      webhooksRefused: after.webhooksRefused - start.webhooksRefused,
      paymentsFailed: after.paymentsFailed - start.paymentsFailed,
      deliveriesDead: after.deliveriesDead - start.deliveriesDead,
      payoutsFailed: after.payoutsFailed - start.payoutsFailed,
    }).toEqual({ webhooksRefused: 2, paymentsFailed: 1, deliveriesDead: 1, payoutsFailed: 0 });
  });

  it('is for super-administrators only, and refuses an unknown window with the validation body', async () => {
    const admin = await anAdmin();
    const user = await aUser();
    const anonymous = await get('/v1/api/superadmin/metrics');
    expect(anonymous.status).toBe(401);
    expect(errorBody(anonymous).errorCode).toBe('UNAUTHORIZED');
    for (const token of [admin.token, user.token]) {
      const res = await get('/v1/api/superadmin/metrics', { token });
      expect(res.status).toBe(403);
      expect(errorBody(res).errorCode).toBe('ACCESS_DENIED');
    }
    const root = await aSuperAdmin();
    const bad = await get('/v1/api/superadmin/metrics?window=7d', { token: root.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).errorCode).toBe('VALIDATION_ERROR');
    expect(bad.body.fieldErrors[0]).toMatchObject({ field: 'window', rejectedValue: '7d' });
  });

  it('percentiles are nearest-rank', () => {
    const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 95), percentile(values, 99)]).toEqual([50, 95, 99]);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });
});

describe('production: Workers Analytics Engine', () => {
  function dataset() {
    const points: AnalyticsEngineDataPoint[] = [];
    return { points, binding: { writeDataPoint: (p?: AnalyticsEngineDataPoint) => void points.push(p ?? {}) } as AnalyticsEngineDataset };
  }

  async function send(variant: Env, path: string, token?: string) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${BASE}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} }), variant, ctx);
    await waitOnExecutionContext(ctx);
    return { status: res.status, body: (await res.json()) as any };
  }

  it('writes a point per request (the route pattern, never the path) and reads the summary with the SQL API', async () => {
    const { points, binding } = dataset();
    const production = { ...PRODUCTION_ENV, METRICS: binding } as Env;
    const root = await aSuperAdmin();
    const sql: { url: string; auth: string | null; body: string }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const body = await request.text();
      sql.push({ url: request.url, auth: request.headers.get('Authorization'), body });
      const hour = body.includes("INTERVAL '1' HOUR");
      return Response.json({
        meta: [],
        data: [
          { kind: 'REQUEST', n: hour ? '200' : '4800', server_errors: hour ? '3' : '12', client_errors: '20', p50: 12.34, p95: 80, p99: 240.06 },
          { kind: 'PAYMENT_FAILED', n: '2', server_errors: '0', client_errors: '0', p50: 0, p95: 0, p99: 0 },
          { kind: 'WEBHOOK_REFUSED', n: '1', server_errors: '0', client_errors: '0', p50: 0, p95: 0, p99: 0 },
        ],
        rows: 3,
      });
    });
    const res = await send(production, `/v1/api/users/${root.id}`, root.token);
    expect(res.status).toBe(200);
    expect(points.at(-1)).toEqual({ indexes: ['REQUEST'], blobs: ['REQUEST', '/v1/api/users/:id', 'GET'], doubles: [expect.any(Number), 200] });
    // A path no route matches is counted too, under a pattern: what it carried (here a token) stays out.
    expect((await send(production, '/v1/api/no-such-endpoint/rcpt_secret0123456789')).status).toBe(404);
    const unmatched = points.at(-1)!;
    expect(unmatched.doubles).toEqual([expect.any(Number), 404]);
    expect(JSON.stringify(unmatched.blobs)).not.toContain('rcpt_secret');

    const metrics = await send(production, '/v1/api/superadmin/metrics', root.token);
    expect(metrics.status).toBe(200);
    expect(metrics.body.source).toBe('ANALYTICS_ENGINE');
    expect(sql.map((q) => [q.url, q.auth])).toEqual([
      ['https://api.cloudflare.com/client/v4/accounts/0123456789abcdef0123456789abcdef/analytics_engine/sql', 'Bearer metrics-api-token-production'],
      ['https://api.cloudflare.com/client/v4/accounts/0123456789abcdef0123456789abcdef/analytics_engine/sql', 'Bearer metrics-api-token-production'],
    ]);
    expect(sql[0].body).toBe(summaryQuery('1h'));
    expect(sql[0].body).toContain('FROM parcel_metrics');
    expect(sql[0].body).toContain('_sample_interval');
    const [hour, day] = metrics.body.windows;
    expect(hour).toMatchObject({
      window: '1h',
      requests: 200,
      serverErrors: 3,
      clientErrors: 20,
      errorRate: 0.015,
      latencyMs: { p50: 12.3, p95: 80, p99: 240.1 },
      paymentsFailed: 2,
      payoutsFailed: 0,
      deliveriesDead: 0,
      webhooksRefused: 1,
    });
    expect(day).toMatchObject({ window: '24h', requests: 4800, serverErrors: 12, errorRate: 0.0025 });
  });

  it('answers the error body when Analytics Engine cannot be read', async () => {
    const { binding } = dataset();
    const production = { ...PRODUCTION_ENV, METRICS: binding } as Env;
    const root = await aSuperAdmin();
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('{"errors":[{"message":"Authentication error"}]}', { status: 403 }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await send(production, '/v1/api/superadmin/metrics?window=24h', root.token);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ errorCode: 'INTERNAL_ERROR', message: 'The metrics could not be read from Workers Analytics Engine' });
  });

  it('a business event is a point of its own kind', () => {
    const { points, binding } = dataset();
    const metrics = analyticsEngineMetrics(binding, { accountId: 'a', apiToken: 't' });
    metrics.event('PAYOUT_FAILED', 'mobile XOF');
    expect(points).toEqual([{ indexes: ['PAYOUT_FAILED'], blobs: ['PAYOUT_FAILED', 'mobile XOF', ''], doubles: [0, 0] }]);
  });
});

describe('the alert rules', () => {
  it('docs/OPERATIONS.md lists exactly the rules the console marks', () => {
    const rows = operationsDoc
      .split('\n')
      .filter((line) => /^\| `\w+` \| (1h|24h) \|/.test(line))
      .map((line) => {
        const [figure, window, threshold, severity] = line.split('|').slice(1, 5).map((cell) => cell.trim());
        return { figure: figure.replaceAll('`', ''), window, threshold: Number(threshold.split(' ')[0]), severity };
      });
    expect(rows).toEqual(ALERT_RULES.map(({ figure, window, threshold, severity }) => ({ figure, window, threshold, severity })));
  });

  it('a window breaches a rule at its threshold, rates and latency only from 50 requests', () => {
    const hour = { ...windowSummaryFixture('1h'), requests: 100, serverErrors: 2, errorRate: 0.02, payoutsFailed: 1 };
    expect(breachedRules(hour).map((r) => r.figure)).toEqual(['errorRate', 'payoutsFailed']);
    expect(breachedRules({ ...hour, requests: 49 }).map((r) => r.figure)).toEqual(['payoutsFailed']);
    expect(breachedRules({ ...windowSummaryFixture('24h'), deliveriesDead: 1 }).map((r) => [r.figure, r.severity])).toEqual([['deliveriesDead', 'TICKET']]);
    expect(breachedRules(windowSummaryFixture('1h'))).toEqual([]);
  });
});

function windowSummaryFixture(window: '1h' | '24h'): WindowSummary {
  return {
    window,
    from: '2026-01-01T00:00:00.000Z',
    to: '2026-01-01T01:00:00.000Z',
    requests: 0,
    serverErrors: 0,
    clientErrors: 0,
    errorRate: 0,
    latencyMs: { p50: null, p95: null, p99: null },
    paymentsFailed: 0,
    payoutsFailed: 0,
    deliveriesDead: 0,
    webhooksRefused: 0,
  };
}
