// The watchdog's rules (CONTRACT section 27, docs/OPERATIONS.md "The watchdog"): what the 5-minute
// cron observes, and which observations breach which rule. Pure: watchdog.ts reads the figures and
// opens or resolves one incident per breach.
import type { Locale } from '../../db/schema';
import type { WindowSummary } from '../../providers/metrics';
import { ALERT_RULES, MIN_REQUESTS_FOR_RATES } from './alert-rules';

export type Severity = 'PAGE' | 'TICKET';

/** Thresholds are "at or above"; durations in minutes. */
export const WATCHDOG_RULES = {
  SERVER_ERRORS: { severity: 'PAGE', threshold: thresholdOf('errorRate'), title: '5xx rate', titleFr: 'Taux de 5xx' },
  PAYMENTS_FAILED: { severity: 'PAGE', threshold: thresholdOf('paymentsFailed'), title: 'Payment failures', titleFr: 'Paiements refusés' },
  PAYOUTS_FAILED: { severity: 'PAGE', threshold: 1, title: 'Payout failures', titleFr: 'Versements refusés' },
  DELIVERIES_DEAD: { severity: 'PAGE', threshold: 1, title: 'Dead deliveries', titleFr: 'Messages abandonnés' },
  DELIVERIES_FAILED: { severity: 'TICKET', threshold: 10, title: 'Failed deliveries', titleFr: 'Messages refusés' },
  QUEUE_STALLED: { severity: 'PAGE', threshold: 15, title: 'Delivery queue stalled', titleFr: 'File des messages bloquée' },
  CRON_LATE: { severity: 'PAGE', threshold: 15, title: 'Cron job late', titleFr: 'Tâche planifiée en retard' },
  CAPTURES_PENDING: { severity: 'PAGE', threshold: 1, title: 'Captures pending too long', titleFr: 'Captures en attente trop longtemps' },
  REFUNDS_PENDING: { severity: 'PAGE', threshold: 1, title: 'Refunds pending too long', titleFr: 'Remboursements en attente trop longtemps' },
  PAYOUTS_PENDING: { severity: 'PAGE', threshold: 1, title: 'Payouts pending too long', titleFr: 'Versements en attente trop longtemps' },
  WEBHOOKS_REFUSED: { severity: 'PAGE', threshold: 11, title: 'Webhooks refused', titleFr: 'Webhooks refusés' },
  METRICS_UNAVAILABLE: { severity: 'PAGE', threshold: 1, title: 'Metrics query failing', titleFr: 'Lecture des métriques en échec' },
} as const satisfies Record<string, { severity: Severity; threshold: number; title: string; titleFr: string }>;

export type WatchdogRule = keyof typeof WATCHDOG_RULES;

/** A refund, void, partial capture or payout still pending after this long is stuck. */
export const PENDING_TOO_LONG_MS = 60 * 60 * 1000;
/** Windows of the counted rules. */
export const WINDOWS_MS = { payoutsFailed: 60 * 60 * 1000, deliveriesDead: 24 * 60 * 60 * 1000, deliveriesFailed: 60 * 60 * 1000, webhooksRefused: 5 * 60 * 1000 };

function thresholdOf(figure: 'errorRate' | 'paymentsFailed'): number {
  return ALERT_RULES.find((r) => r.figure === figure && r.window === '1h')!.threshold;
}

export interface Heartbeat {
  job: string;
  lastRunAt: string;
  lastOkAt: string | null;
  lastError: string | null;
}

/** What one run sees. */
export interface Observations {
  /** The last hour's metrics, or why they could not be read. */
  metrics: { ok: true; hour: WindowSummary } | { ok: false; error: string };
  payoutsFailed: number;
  deliveriesDead: number;
  deliveriesFailed: number;
  /** Age of the oldest QUEUED delivery, in minutes; null when none is queued. */
  oldestQueuedMinutes: number | null;
  heartbeats: Heartbeat[];
  capturesPending: number;
  refundsPending: number;
  payoutsPending: number;
  webhooksRefused: number;
}

export interface Breach {
  rule: WatchdogRule;
  subject: string;
  severity: Severity;
  title: string;
  summary: string;
  value: number;
  threshold: number;
}

/**
 * An incident's title: its rule's, with the subject when the rule watches several things. English
 * for the alerts and the API; the console shows its French readers the French one.
 */
export function incidentTitle(rule: string, subject: string, locale: Locale = 'en'): string {
  const known = rule in WATCHDOG_RULES ? WATCHDOG_RULES[rule as WatchdogRule] : null;
  const base = known ? (locale === 'fr' ? known.titleFr : known.title) : rule;
  return subject ? `${base}${locale === 'fr' ? ' : ' : ': '}${subject}` : base;
}

const breach = (rule: WatchdogRule, value: number, summary: string, subject = ''): Breach => ({
  rule,
  subject,
  severity: WATCHDOG_RULES[rule].severity,
  title: incidentTitle(rule, subject),
  summary,
  value,
  threshold: WATCHDOG_RULES[rule].threshold,
});

const counted = (rule: WatchdogRule, value: number, what: string): Breach[] =>
  value >= WATCHDOG_RULES[rule].threshold ? [breach(rule, value, `${what} (threshold ${WATCHDOG_RULES[rule].threshold})`)] : [];

function metricBreaches(metrics: Observations['metrics']): Breach[] {
  if (!metrics.ok) return [breach('METRICS_UNAVAILABLE', 1, `the metrics could not be read: ${metrics.error}`.slice(0, 300))];
  const { hour } = metrics;
  const out: Breach[] = [];
  if (hour.requests >= MIN_REQUESTS_FOR_RATES && hour.errorRate >= WATCHDOG_RULES.SERVER_ERRORS.threshold) {
    out.push(breach('SERVER_ERRORS', hour.errorRate, `${hour.serverErrors} of ${hour.requests} answers were 5xx in the last hour (${(hour.errorRate * 100).toFixed(1)} %, threshold ${WATCHDOG_RULES.SERVER_ERRORS.threshold * 100} %)`));
  }
  out.push(...counted('PAYMENTS_FAILED', hour.paymentsFailed, `${hour.paymentsFailed} payments refused in the last hour`));
  return out;
}

/** A job whose last success is older than the rule's minutes (or that never succeeded since it first ran). */
function lateJobs(heartbeats: Heartbeat[], now: Date): Breach[] {
  const limit = WATCHDOG_RULES.CRON_LATE.threshold;
  return heartbeats.flatMap((h) => {
    const since = h.lastOkAt ?? null;
    const minutes = since ? (now.getTime() - Date.parse(since)) / 60_000 : (now.getTime() - Date.parse(h.lastRunAt)) / 60_000;
    if (minutes < limit) return [];
    const why = h.lastError ? `; last error: ${h.lastError}`.slice(0, 200) : '';
    const summary = since ? `the cron job ${h.job} has not completed for ${Math.floor(minutes)} minutes${why}` : `the cron job ${h.job} has never completed${why}`;
    return [breach('CRON_LATE', Math.floor(minutes), summary, h.job)];
  });
}

/** Every rule the observations breach, one entry per incident to hold open. */
export function breaches(o: Observations, now: Date): Breach[] {
  const queued = o.oldestQueuedMinutes;
  return [
    ...metricBreaches(o.metrics),
    ...counted('PAYOUTS_FAILED', o.payoutsFailed, `${o.payoutsFailed} payouts refused by the provider in the last hour`),
    ...counted('DELIVERIES_DEAD', o.deliveriesDead, `${o.deliveriesDead} e-mails, pushes or SMS given up in the last 24 hours, not retried`),
    ...counted('DELIVERIES_FAILED', o.deliveriesFailed, `${o.deliveriesFailed} e-mails, pushes or SMS refused in the last hour`),
    ...(queued !== null && queued >= WATCHDOG_RULES.QUEUE_STALLED.threshold
      ? [breach('QUEUE_STALLED', Math.floor(queued), `the oldest queued delivery has waited ${Math.floor(queued)} minutes (threshold ${WATCHDOG_RULES.QUEUE_STALLED.threshold})`)]
      : []),
    ...lateJobs(o.heartbeats, now),
    ...counted('CAPTURES_PENDING', o.capturesPending, `${o.capturesPending} card payments not captured in time (authorised past the capture deadline, or a partial capture pending over an hour)`),
    ...counted('REFUNDS_PENDING', o.refundsPending, `${o.refundsPending} refunds or voids pending with the provider for over an hour`),
    ...counted('PAYOUTS_PENDING', o.payoutsPending, `${o.payoutsPending} payouts pending for over an hour`),
    ...(o.webhooksRefused >= WATCHDOG_RULES.WEBHOOKS_REFUSED.threshold
      ? [breach('WEBHOOKS_REFUSED', o.webhooksRefused, `${o.webhooksRefused} provider webhooks refused for their signature in 5 minutes (more than 10)`)]
      : []),
  ];
}
