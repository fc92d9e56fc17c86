// Métriques (/console/metrics, super-admins): the last hour and day of GET /superadmin/metrics,
// figures past an alert rule marked (features/watchdog/alert-rules.ts, docs/OPERATIONS.md).
import { Hono } from 'hono';
import type { WindowSummary } from '../../../providers/metrics';
import { breachedRules, type AlertedFigure, type AlertRule } from '../../watchdog/alert-rules';
import { metricsReport } from '../../superadmin/metrics.service';
import { assertSuperAdmin, page, view, type ConsoleEnv } from '../console.http';
import { shortDate, Table, type View } from '../console.layout';
import type { WordKey } from '../console.i18n';

export const metricsRoutes = new Hono<ConsoleEnv>();

const number = (v: View, n: number, digits = 0) => new Intl.NumberFormat(v.locale, { maximumFractionDigits: digits }).format(n);
const percent = (v: View, rate: number) => new Intl.NumberFormat(v.locale, { style: 'percent', maximumFractionDigits: 2 }).format(rate);
const millis = (v: View, ms: number | null) => (ms === null ? '—' : `${number(v, ms, 1)} ms`);

/** The rows of the table: a word, how a window shows the figure, and the alert figure it is checked as. */
const ROWS: [WordKey, (v: View, s: WindowSummary) => string, AlertedFigure | null][] = [
  ['requestsCount', (v, s) => number(v, s.requests), null],
  ['errorRate', (v, s) => percent(v, s.errorRate), 'errorRate'],
  ['serverErrors', (v, s) => number(v, s.serverErrors), null],
  ['clientErrors', (v, s) => number(v, s.clientErrors), null],
  ['latencyP50', (v, s) => millis(v, s.latencyMs.p50), null],
  ['latencyP95', (v, s) => millis(v, s.latencyMs.p95), 'p95'],
  ['latencyP99', (v, s) => millis(v, s.latencyMs.p99), 'p99'],
  ['paymentsFailed', (v, s) => number(v, s.paymentsFailed), 'paymentsFailed'],
  ['payoutsFailed', (v, s) => number(v, s.payoutsFailed), 'payoutsFailed'],
  ['deliveriesDead', (v, s) => number(v, s.deliveriesDead), 'deliveriesDead'],
  ['webhooksRefused', (v, s) => number(v, s.webhooksRefused), 'webhooksRefused'],
];

function cell(v: View, text: string, figure: AlertedFigure | null, breached: AlertRule[]) {
  const rule = figure && breached.find((r) => r.figure === figure);
  if (!rule) return text;
  return (
    <span class="badge err" title={v.t('alertBreached', { severity: v.t(rule.severity === 'PAGE' ? 'alertPage' : 'alertTicket') })}>
      {text}
    </span>
  );
}

metricsRoutes.get('/metrics', async (c) => {
  assertSuperAdmin(c.get('operator'));
  const v = await view(c);
  const report = await metricsReport(c.get('deps'));
  const [hour, day] = report.windows;
  const breached = [breachedRules(hour), breachedRules(day)];
  const alerts = breached.flat().length;
  return page(
    c,
    v,
    v.t('metrics'),
    '/console/metrics',
    <section class="card" aria-labelledby="metrics-title">
      <h2 id="metrics-title">
        {v.t('metrics')} <span class="muted">({shortDate(report.generatedAt)} UTC)</span>
      </h2>
      <p class="help" id="metrics-source">
        {v.t(report.source === 'LOCAL' ? 'metricsLocal' : 'metricsLive')}
      </p>
      <p id="metrics-alerts">{alerts === 0 ? v.t('noAlert') : <span class="badge err">{v.t('alertsBreached', { n: alerts })}</span>}</p>
      <Table
        v={v}
        id="metrics"
        columns={[[v.t('figure')], [v.t('lastHour'), 'num'], [v.t('lastDay'), 'num']]}
        rows={ROWS.map(([word, show, figure]) => [v.t(word), cell(v, show(v, hour), figure, breached[0]), cell(v, show(v, day), figure, breached[1])])}
      />
      <p class="help">{v.t('metricsRules')}</p>
    </section>,
  );
});
