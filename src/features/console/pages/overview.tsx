// The overview (/console): the platform's figures and the daily chart over a period of days.
import { Hono } from 'hono';
import { overview, timeseries } from '../../analytics/analytics.service';
import { MAX_RANGE_DAYS, period, rangeDays } from '../../analytics/analytics.rules';
import { DailyChart } from '../console.chart';
import { page, view, type ConsoleEnv } from '../console.http';
import { Badge, Field, money, type FormState, type View } from '../console.layout';
import { appConfig } from '../../../config';
import { mainCurrency } from '../../../lib/main-currency';

export const overviewRoutes = new Hono<ConsoleEnv>();

const isoDate = (raw: string | undefined) => (raw && /^\d{4}-\d{2}-\d{2}$/.test(raw) && !Number.isNaN(Date.parse(raw)) ? raw : undefined);

/** The period asked for in the query, or the default one with the field errors saying why. */
function periodOf(v: View, q: Record<string, string>) {
  let p = period(isoDate(q.from), isoDate(q.to));
  const errors: Record<string, string> = {};
  if (q.from && !isoDate(q.from)) errors.from = v.t('dateFormat');
  if (q.to && !isoDate(q.to)) errors.to = v.t('dateFormat');
  if (p.from > p.to || rangeDays(p.from, p.to) > MAX_RANGE_DAYS.day) {
    errors.to = v.t('periodRange', { n: MAX_RANGE_DAYS.day });
    p = period(undefined, undefined);
  }
  return { p, errors };
}

type Overview = Awaited<ReturnType<typeof overview>>;

/** The counts, then each currency's money figures (main first): never a sum across currencies. */
const figuresOf = (v: View, o: Overview): [string, string][] => [
  [v.t('reservationsCount'), String(o.reservations.total)],
  ...o.money.flatMap((f): [string, string][] => [
    [`${v.t('grossVolume')} · ${f.currency}`, money(v, f.grossVolumeCents, f.currency)],
    [`${v.t('platformRevenue')} · ${f.currency}`, money(v, f.platformRevenueCents, f.currency)],
    [`${v.t('refunds')} · ${f.currency}`, `${money(v, f.refunds.amountCents, f.currency)} (${f.refunds.count})`],
  ]),
  [v.t('openDisputes'), String(o.openDisputes)],
  [v.t('newUsers'), String(o.users.new)],
  [v.t('totalUsers'), String(o.users.total)],
  [v.t('verifiedUsers'), String(o.users.verified)],
  [v.t('newAnnouncements'), String(o.announcements)],
];

overviewRoutes.get('/', async (c) => {
  const v = await view(c);
  const q = c.req.query();
  const { p, errors } = periodOf(v, q);
  const deps = c.get('deps');
  // The chart's volume is of one currency (`?currency=`, an enabled one, else the main one).
  const config = appConfig(c.env);
  const currency = config.currencies.find((code) => code === q.currency) ?? mainCurrency(config);
  const [o, reservations, volume] = await Promise.all([
    overview(deps, p, mainCurrency(config)),
    timeseries(deps, 'reservations', p, 'day', currency),
    timeseries(deps, 'grossVolume', p, 'day', currency),
  ]);
  const points = reservations.map((r, i) => ({ day: r.periodStart, reservations: r.value, volumeCents: volume[i]?.value ?? 0 }));
  const figures = figuresOf(v, o);
  const state: FormState = { values: { from: q.from ?? p.from, to: q.to ?? p.to }, errors };
  return page(
    c,
    v,
    v.t('overview'),
    '/console',
    <>
      <form class="filters" method="get" action="/console">
        <Field name="from" type="date" label={v.t('from')} state={state} idPrefix="q" />
        <Field name="to" type="date" label={v.t('to')} state={state} idPrefix="q" />
        <label>
          {v.t('currency')}
          <select name="currency">
            {config.currencies.map((code) => (
              <option value={code} selected={code === currency}>
                {code}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="secondary">
          {v.t('apply')}
        </button>
      </form>
      <div class="grid" id="figures">
        {figures.map(([label, value]) => (
          <div class="figure">
            <div class="label">{label}</div>
            <div class="value">{value}</div>
          </div>
        ))}
      </div>
      <div class="two">
        <section class="card chart" aria-labelledby="chart-title">
          <h2 id="chart-title">
            {v.t('chartTitle')} <span class="muted">({p.from} → {p.to} · {currency})</span>
          </h2>
          <DailyChart points={points} title={v.t('chartTitle')} currency={currency} locale={v.locale} />
          <div class="legend">
            <span style="--c:#8fb0ff">{v.t('chartReservations')}</span>
            <span style="--c:#e0701b">{v.t('chartVolume')}</span>
          </div>
        </section>
        <section class="card" aria-labelledby="status-title">
          <h2 id="status-title">{v.t('byStatus')}</h2>
          <div class="table-wrap">
            <table>
              <tbody>
                {Object.entries(o.reservations.byStatus).map(([status, n]) => (
                  <tr>
                    <td>
                      <Badge v={v} kind="reservation" text={status} />
                    </td>
                    <td class="num">{n}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </>,
    Object.keys(errors).length ? 400 : 200,
  );
});
