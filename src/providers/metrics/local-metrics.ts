// The local metrics adapter (development, tests, the bench): the last points kept in this isolate's
// memory, in fixed typed arrays (a write is four stores, no allocation), summarised on demand the
// way the Analytics Engine query summarises its dataset. A restarted worker starts from zero.
import { EVENT_FIELD, METRIC_EVENTS, WINDOW_MS, windowSummary, type MetricEvent, type MetricsProvider, type MetricWindow, type RequestMetric } from './metrics';

/** About a day of a busy local run; the oldest points are overwritten first. */
const CAPACITY = 65_536;
const REQUEST = 0;
const EVENT_CODE = new Map<MetricEvent, number>(METRIC_EVENTS.map((kind, i) => [kind, i + 1]));

// About 1.2 MB, allocated on the first write: a production isolate (Analytics Engine) never pays for it.
let buffers: { at: Float64Array; kinds: Uint8Array; statuses: Uint16Array; durations: Float64Array } | undefined;
let next = 0;
let size = 0;

function push(kind: number, status: number, durationMs: number, now: number) {
  const { at, kinds, statuses, durations } = (buffers ??= {
    at: new Float64Array(CAPACITY),
    kinds: new Uint8Array(CAPACITY),
    statuses: new Uint16Array(CAPACITY),
    durations: new Float64Array(CAPACITY),
  });
  at[next] = now;
  kinds[next] = kind;
  statuses[next] = status;
  durations[next] = durationMs;
  next = (next + 1) % CAPACITY;
  if (size < CAPACITY) size++;
}

/** The nearest-rank percentile of sorted values (p in (0, 100]), null for none. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const localMetrics: MetricsProvider = {
  source: 'LOCAL',
  request(point: RequestMetric) {
    push(REQUEST, point.status, point.durationMs, Date.now());
  },
  event(kind: MetricEvent) {
    push(EVENT_CODE.get(kind) ?? REQUEST, 0, 0, Date.now());
  },
  async summary(window: MetricWindow, now: Date) {
    const to = now.getTime();
    const from = to - WINDOW_MS[window];
    const latencies: number[] = [];
    const events = { paymentsFailed: 0, payoutsFailed: 0, deliveriesDead: 0, webhooksRefused: 0 };
    let serverErrors = 0;
    let clientErrors = 0;
    const { at, kinds, statuses, durations } = buffers ?? { at: [], kinds: [], statuses: [], durations: [] };
    for (let i = 0; i < size; i++) {
      if (at[i] <= from || at[i] > to) continue;
      if (kinds[i] === REQUEST) {
        latencies.push(durations[i]);
        if (statuses[i] >= 500) serverErrors++;
        else if (statuses[i] >= 400) clientErrors++;
      } else {
        events[EVENT_FIELD[METRIC_EVENTS[kinds[i] - 1]]]++;
      }
    }
    const sorted = Float64Array.from(latencies).sort();
    return windowSummary(window, now, {
      requests: latencies.length,
      serverErrors,
      clientErrors,
      latencyMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) },
      ...events,
    });
  },
};
