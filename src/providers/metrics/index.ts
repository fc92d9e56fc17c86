// The metrics provider in use, chosen by config.ts like every provider: Analytics Engine in
// production (its binding, account and token required there), this isolate's memory elsewhere.
import { appConfig, checkConfig } from '../../config';
import { analyticsEngineMetrics } from './analytics-engine';
import { localMetrics } from './local-metrics';
import type { MetricsProvider, MetricsWriter } from './metrics';

export type { MetricEvent, MetricsProvider, MetricsWriter, MetricWindow, WindowSummary } from './metrics';
export { METRIC_WINDOWS } from './metrics';

const chosen = new WeakMap<object, MetricsProvider>();

export function metricsProvider(env: Env): MetricsProvider {
  let provider = chosen.get(env);
  if (!provider) {
    const choice = appConfig(env).metrics;
    provider = choice.mode === 'LIVE' && env.METRICS ? analyticsEngineMetrics(env.METRICS, choice) : localMetrics;
    chosen.set(env, provider);
  }
  return provider;
}

const nowhere: MetricsWriter = { request() {}, event() {} };

/**
 * The writer of the request middleware, which also sees the requests a configuration gate refuses:
 * a misconfigured production still writes to its dataset when the binding exists.
 */
export function requestMetrics(env: Env): MetricsWriter {
  const cached = chosen.get(env);
  if (cached) return cached;
  if (checkConfig(env).ok) return metricsProvider(env);
  return env.METRICS ? analyticsEngineMetrics(env.METRICS, { accountId: '', apiToken: '' }) : nowhere;
}
