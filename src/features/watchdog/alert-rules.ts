// The alert rules an operator sets on the metrics (docs/OPERATIONS.md, "Alertes / Alerts"): the one
// table the console's Métriques page marks breached figures with, and the documentation lists.
import type { MetricWindow, WindowSummary } from '../../providers/metrics';

export type AlertedFigure = 'errorRate' | 'p95' | 'p99' | 'paymentsFailed' | 'payoutsFailed' | 'deliveriesDead' | 'webhooksRefused';

export interface AlertRule {
  figure: AlertedFigure;
  window: MetricWindow;
  /** Breached when the figure is at or above this value (a rate in [0, 1], milliseconds, or a count). */
  threshold: number;
  /** PAGE: the on-call operator is woken; TICKET: looked at the next working day. */
  severity: 'PAGE' | 'TICKET';
}

export const ALERT_RULES: readonly AlertRule[] = [
  { figure: 'errorRate', window: '1h', threshold: 0.02, severity: 'PAGE' },
  { figure: 'errorRate', window: '24h', threshold: 0.005, severity: 'TICKET' },
  { figure: 'p95', window: '1h', threshold: 1500, severity: 'PAGE' },
  { figure: 'p99', window: '24h', threshold: 4000, severity: 'TICKET' },
  { figure: 'paymentsFailed', window: '1h', threshold: 10, severity: 'PAGE' },
  { figure: 'payoutsFailed', window: '1h', threshold: 1, severity: 'PAGE' },
  { figure: 'deliveriesDead', window: '1h', threshold: 5, severity: 'PAGE' },
  { figure: 'deliveriesDead', window: '24h', threshold: 1, severity: 'TICKET' },
  { figure: 'webhooksRefused', window: '1h', threshold: 5, severity: 'PAGE' },
];

const valueOf = (s: WindowSummary, figure: AlertedFigure): number | null =>
  figure === 'p95' ? s.latencyMs.p95 : figure === 'p99' ? s.latencyMs.p99 : s[figure];

/** Below this many requests in the window a rate or a percentile says little: no alert on them. */
export const MIN_REQUESTS_FOR_RATES = 50;
const RATES: ReadonlySet<AlertedFigure> = new Set(['errorRate', 'p95', 'p99']);

/** The rules a window's figures breach. */
export function breachedRules(summary: WindowSummary): AlertRule[] {
  return ALERT_RULES.filter((rule) => {
    if (rule.window !== summary.window) return false;
    if (RATES.has(rule.figure) && summary.requests < MIN_REQUESTS_FOR_RATES) return false;
    const value = valueOf(summary, rule.figure);
    return value !== null && value >= rule.threshold;
  });
}
