// The watchdog's rules (CONTRACT section 27, docs/OPERATIONS.md "The watchdog"): what the 5-minute
// cron observes, and which observations breach which rule. Pure: watchdog.ts reads the figures and
// opens or resolves one incident per breach.
import type { Locale } from '../../db/schema';
import type { WindowSummary } from '../../providers/metrics';
import { renderText } from '../../lib/message-text';
import { msg, type Message } from '../../messages';
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
  /** In English (the incident's `summary`), and as its message for each reader's language. */
  summary: string;
  text: Message;
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

const breach = (rule: WatchdogRule, value: number, text: Message, subject = ''): Breach => ({
  rule,
  subject,
  severity: WATCHDOG_RULES[rule].severity,
  title: incidentTitle(rule, subject),
  summary: renderText(text, 'en'),
  text,
  value,
  threshold: WATCHDOG_RULES[rule].threshold,
});

/** A rule on a count: breached at its threshold, said by its message (count and threshold). */
const counted = (rule: WatchdogRule, value: number, key: CountKey): Breach[] =>
  value >= WATCHDOG_RULES[rule].threshold ? [breach(rule, value, msg(key, { count: value, threshold: WATCHDOG_RULES[rule].threshold }))] : [];
type CountKey = 'incident.paymentsFailed' | 'incident.payoutsFailed' | 'incident.deliveriesDead' | 'incident.deliveriesFailed' | 'incident.capturesPending' | 'incident.refundsPending' | 'incident.payoutsPending' | 'incident.webhooksRefused';

function metricBreaches(metrics: Observations['metrics']): Breach[] {
  if (!metrics.ok) return [breach('METRICS_UNAVAILABLE', 1, msg('incident.metricsUnavailable', { error: metrics.error.slice(0, 250) }))];
  const { hour } = metrics;
  const out: Breach[] = [];
  if (hour.requests >= MIN_REQUESTS_FOR_RATES && hour.errorRate >= WATCHDOG_RULES.SERVER_ERRORS.threshold) {
    const text = msg('incident.serverErrors', { errors: hour.serverErrors, requests: hour.requests, rate: Number((hour.errorRate * 100).toFixed(1)), threshold: WATCHDOG_RULES.SERVER_ERRORS.threshold * 100 });
    out.push(breach('SERVER_ERRORS', hour.errorRate, text));
  }
  out.push(...counted('PAYMENTS_FAILED', hour.paymentsFailed, 'incident.paymentsFailed'));
  return out;
}

/** A job whose last success is older than the rule's minutes (or that never succeeded since it first ran). */
function lateJobs(heartbeats: Heartbeat[], now: Date): Breach[] {
  const limit = WATCHDOG_RULES.CRON_LATE.threshold;
  return heartbeats.flatMap((h) => {
    const since = h.lastOkAt ?? null;
    const minutes = Math.floor(since ? (now.getTime() - Date.parse(since)) / 60_000 : (now.getTime() - Date.parse(h.lastRunAt)) / 60_000);
    if (minutes < limit) return [];
    const error = h.lastError?.slice(0, 180);
    const text = since
      ? error ? msg('incident.cronLateError', { job: h.job, minutes, error }) : msg('incident.cronLate', { job: h.job, minutes })
      : error ? msg('incident.cronNeverError', { job: h.job, error }) : msg('incident.cronNever', { job: h.job });
    return [breach('CRON_LATE', minutes, text, h.job)];
  });
}

/** Every rule the observations breach, one entry per incident to hold open. */
export function breaches(o: Observations, now: Date): Breach[] {
  const queued = o.oldestQueuedMinutes === null ? null : Math.floor(o.oldestQueuedMinutes);
  return [
    ...metricBreaches(o.metrics),
    ...counted('PAYOUTS_FAILED', o.payoutsFailed, 'incident.payoutsFailed'),
    ...counted('DELIVERIES_DEAD', o.deliveriesDead, 'incident.deliveriesDead'),
    ...counted('DELIVERIES_FAILED', o.deliveriesFailed, 'incident.deliveriesFailed'),
    ...(queued !== null && queued >= WATCHDOG_RULES.QUEUE_STALLED.threshold
      ? [breach('QUEUE_STALLED', queued, msg('incident.queueStalled', { minutes: queued, threshold: WATCHDOG_RULES.QUEUE_STALLED.threshold }))]
      : []),
    ...lateJobs(o.heartbeats, now),
    ...counted('CAPTURES_PENDING', o.capturesPending, 'incident.capturesPending'),
    ...counted('REFUNDS_PENDING', o.refundsPending, 'incident.refundsPending'),
    ...counted('PAYOUTS_PENDING', o.payoutsPending, 'incident.payoutsPending'),
    ...counted('WEBHOOKS_REFUSED', o.webhooksRefused, 'incident.webhooksRefused'),
  ];
}
