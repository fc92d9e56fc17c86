// GET /superadmin/metrics and the console's Métriques page: the last hour and day as the metrics
// provider summarises them (Analytics Engine in production, this isolate's memory elsewhere).
import type { Deps } from '../../env';
import { METRIC_WINDOWS, type MetricWindow, type WindowSummary } from '../../providers/metrics';

export interface MetricsReport {
  source: 'ANALYTICS_ENGINE' | 'LOCAL';
  generatedAt: string;
  windows: WindowSummary[];
}

/** One window, or both (the hour, then the day), read at the same instant. */
export async function metricsReport(deps: Deps, window?: MetricWindow, now = new Date()): Promise<MetricsReport> {
  const provider = deps.providers.metrics;
  const windows = await Promise.all((window ? [window] : METRIC_WINDOWS).map((w) => provider.summary(w, now)));
  return { source: provider.source, generatedAt: now.toISOString(), windows };
}
