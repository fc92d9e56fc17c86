// The metrics port (CONTRACT section 24, seeing trouble): what the request middleware and the
// business events write, and the summary GET /superadmin/metrics reads back. Writing never waits
// and never throws: a metric lost is better than a request slowed or failed by it.

/** The business events operators are alerted on (docs/OPERATIONS.md, "Alertes / Alerts"). */
export const METRIC_EVENTS = ['PAYMENT_FAILED', 'PAYOUT_FAILED', 'DELIVERY_DEAD', 'WEBHOOK_REFUSED'] as const;
export type MetricEvent = (typeof METRIC_EVENTS)[number];

/** One answered request: the route's pattern (never the raw path: ids and tokens stay out), its status and time. */
export interface RequestMetric {
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

export interface MetricsWriter {
  request(point: RequestMetric): void;
  /** `detail`: what the event concerns, without personal data (a provider, a channel, an endpoint). */
  event(kind: MetricEvent, detail: string): void;
}

export const METRIC_WINDOWS = ['1h', '24h'] as const;
export type MetricWindow = (typeof METRIC_WINDOWS)[number];
export const WINDOW_MS: Record<MetricWindow, number> = { '1h': 3_600_000, '24h': 86_400_000 };

export interface WindowSummary {
  window: MetricWindow;
  from: string;
  to: string;
  requests: number;
  /** Answers with a 5xx status: the platform's own failures. */
  serverErrors: number;
  /** Answers with a 4xx status: refused requests (bad input, no access, conflicts). */
  clientErrors: number;
  /** serverErrors / requests, 0 without requests. */
  errorRate: number;
  /** Latency percentiles in milliseconds, null without requests. */
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
  paymentsFailed: number;
  payoutsFailed: number;
  deliveriesDead: number;
  webhooksRefused: number;
}

export interface MetricsReader {
  /** Where the figures come from: Workers Analytics Engine, or this isolate's memory (local runs, tests). */
  readonly source: 'ANALYTICS_ENGINE' | 'LOCAL';
  summary(window: MetricWindow, now: Date): Promise<WindowSummary>;
}

export type MetricsProvider = MetricsWriter & MetricsReader;

/** The counts of a window from its raw figures: the one place the error rate is computed. */
export function windowSummary(
  window: MetricWindow,
  now: Date,
  figures: Omit<WindowSummary, 'window' | 'from' | 'to' | 'errorRate'>,
): WindowSummary {
  const { requests, serverErrors, clientErrors, latencyMs, ...events } = figures;
  return {
    window,
    from: new Date(now.getTime() - WINDOW_MS[window]).toISOString(),
    to: now.toISOString(),
    requests,
    serverErrors,
    clientErrors,
    errorRate: requests > 0 ? Math.round((serverErrors / requests) * 10_000) / 10_000 : 0,
    latencyMs,
    ...events,
  };
}

/** The event's field in the summary. */
export const EVENT_FIELD: Record<MetricEvent, 'paymentsFailed' | 'payoutsFailed' | 'deliveriesDead' | 'webhooksRefused'> = {
  PAYMENT_FAILED: 'paymentsFailed',
  PAYOUT_FAILED: 'payoutsFailed',
  DELIVERY_DEAD: 'deliveriesDead',
  WEBHOOK_REFUSED: 'webhooksRefused',
};
