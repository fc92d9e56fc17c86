// The production metrics adapter: Workers Analytics Engine. Writes are the binding's
// writeDataPoint (fire and forget, no I/O on the request's path); reads are one SQL API query per
// window (https://developers.cloudflare.com/analytics/analytics-engine/sql-api/), counts and
// percentiles weighted by `_sample_interval` since Analytics Engine samples large volumes.
//
// A point: index1 and blob1 the kind (REQUEST or a business event), blob2 the route pattern or the
// event's detail, blob3 the method; double1 the duration in ms, double2 the status.
import { internalError } from '../../errors';
import { METRIC_EVENTS, EVENT_FIELD, windowSummary, type MetricEvent, type MetricsProvider, type MetricWindow, type RequestMetric } from './metrics';

/** The dataset of wrangler.toml's [[env.production.analytics_engine_datasets]]: its SQL table. */
export const METRICS_DATASET = 'parcel_metrics';
const SQL_INTERVAL: Record<MetricWindow, string> = { '1h': "INTERVAL '1' HOUR", '24h': "INTERVAL '24' HOUR" };

/** The query of one window: a row per kind (the percentiles mean something on the REQUEST row only). */
export function summaryQuery(window: MetricWindow): string {
  return [
    'SELECT blob1 AS kind, SUM(_sample_interval) AS n,',
    'SUM(IF(double2 >= 500, _sample_interval, 0)) AS server_errors,',
    'SUM(IF(double2 >= 400 AND double2 < 500, _sample_interval, 0)) AS client_errors,',
    'quantileWeighted(0.5)(double1, _sample_interval) AS p50,',
    'quantileWeighted(0.95)(double1, _sample_interval) AS p95,',
    'quantileWeighted(0.99)(double1, _sample_interval) AS p99',
    `FROM ${METRICS_DATASET}`,
    `WHERE timestamp > NOW() - ${SQL_INTERVAL[window]}`,
    'GROUP BY kind',
    'FORMAT JSON',
  ].join(' ');
}

interface Row {
  kind: string;
  n: number | string;
  server_errors: number | string;
  client_errors: number | string;
  p50: number | string | null;
  p95: number | string | null;
  p99: number | string | null;
}

const count = (v: unknown) => (Number.isFinite(Number(v)) ? Math.round(Number(v)) : 0);
const ms = (v: unknown) => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Math.round(Number(v) * 10) / 10);

const unavailable = (cause: unknown) => internalError('metrics.analyticsUnavailable', { suggestions: ['metrics.retryLater'], cause });

export function analyticsEngineMetrics(dataset: AnalyticsEngineDataset, account: { accountId: string; apiToken: string }): MetricsProvider {
  return {
    source: 'ANALYTICS_ENGINE',
    request(point: RequestMetric) {
      dataset.writeDataPoint({ indexes: ['REQUEST'], blobs: ['REQUEST', point.route, point.method], doubles: [point.durationMs, point.status] });
    },
    event(kind: MetricEvent, detail: string) {
      dataset.writeDataPoint({ indexes: [kind], blobs: [kind, detail, ''], doubles: [0, 0] });
    },
    async summary(window: MetricWindow, now: Date) {
      let rows: Row[];
      try {
        const res = await fetch(`https://api.cloudflare.com/client/v4/accounts/${account.accountId}/analytics_engine/sql`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${account.apiToken}` },
          body: summaryQuery(window),
        });
        if (!res.ok) throw new Error(`Analytics Engine SQL API answered ${res.status}`);
        rows = ((await res.json()) as { data?: Row[] }).data ?? [];
      } catch (err) {
        throw unavailable(err);
      }
      const byKind = new Map(rows.map((r) => [r.kind, r]));
      const requests = byKind.get('REQUEST');
      const events = Object.fromEntries(METRIC_EVENTS.map((kind) => [EVENT_FIELD[kind], count(byKind.get(kind)?.n)])) as Record<
        (typeof EVENT_FIELD)[MetricEvent],
        number
      >;
      return windowSummary(window, now, {
        requests: count(requests?.n),
        serverErrors: count(requests?.server_errors),
        clientErrors: count(requests?.client_errors),
        latencyMs: requests ? { p50: ms(requests.p50), p95: ms(requests.p95), p99: ms(requests.p99) } : { p50: null, p95: null, p99: null },
        ...events,
      });
    },
  };
}
