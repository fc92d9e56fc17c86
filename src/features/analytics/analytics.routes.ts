// Admin analytics (CONTRACT section 14): GET /admin/analytics/overview and /admin/analytics/timeseries.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonContent, withRole } from '../../lib/openapi';
import { amountOf } from '../../lib/money';
import { currencyCodeSchema } from '../../lib/amount';
import { currencyOrMain, mainCurrency } from '../../lib/main-currency';
import { appConfig } from '../../config';
import { msg } from '../../errors';
import { issueCode, issueOf, whenValid } from '../../validation';
import { RESERVATION_STATUSES } from '../reservations/reservation-state';
import { INTERVALS, MAX_OVERVIEW_DAYS, MAX_RANGE_DAYS, METRICS, period, rangeDays, type Interval, type Metric } from './analytics.rules';
import { MONEY_METRICS, overview, timeseries, type CurrencyFigures } from './analytics.service';

const dateParam = (name: 'from' | 'to', description: string) =>
  z.iso
    .date()
    .optional()
    .openapi({ param: { name, in: 'query' }, type: 'string', format: 'date', description });

/**
 * Adds the range checks (from <= to, at most `maxDays`) to a query with optional from/to.
 * Registered with whenValid('from', 'to'): both dates passed their own format check.
 */
function checkRange(q: { from?: string; to?: string }, maxDays: number, ctx: z.RefinementCtx) {
  const p = period(q.from, q.to);
  if (p.from > p.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'analytics.fromAfterTo' });
  } else if (rangeDays(p.from, p.to) > maxDays) {
    ctx.addIssue({ code: 'custom', path: ['to'], ...issueOf(msg('analytics.rangeTooLong', { maxDays })) });
  }
}

const FROM_DOC = 'First day included (YYYY-MM-DD, UTC); default: 29 days before `to`';
const TO_DOC = 'Last day included (YYYY-MM-DD, UTC); default: today';

const OverviewQuery = z
  .object({ from: dateParam('from', FROM_DOC), to: dateParam('to', TO_DOC) })
  .superRefine((q, ctx) => checkRange(q, MAX_OVERVIEW_DAYS, ctx), whenValid('from', 'to'));

const TimeseriesQuery = z
  .object({
    metric: z
      .string()
      .transform((value, ctx): Metric => {
        if ((METRICS as readonly string[]).includes(value)) return value as Metric;
        ctx.addIssue({ code: 'custom', ...issueOf(msg('analytics.unknownMetric', { metrics: METRICS.join(', ') }), issueCode('INVALID_ARGUMENT')) });
        return z.NEVER;
      })
      .openapi({ param: { name: 'metric', in: 'query' }, type: 'string', enum: [...METRICS], description: 'What to count or sum' }),
    from: dateParam('from', FROM_DOC),
    to: dateParam('to', TO_DOC),
    currency: currencyCodeSchema()
      .optional()
      .openapi({
        param: { name: 'currency', in: 'query' },
        description: "The currency of a money metric's amounts (an enabled ISO code; default the main one); ignored by counts",
      }),
    interval: z
      .enum(INTERVALS)
      .default('day')
      .openapi({ param: { name: 'interval', in: 'query' }, description: 'Bucket size; weeks start on Monday (default day)' }),
  })
  .superRefine((q, ctx) => checkRange(q, MAX_RANGE_DAYS[q.interval as Interval] ?? MAX_RANGE_DAYS.day, ctx), whenValid('from', 'to', 'interval'));

const Money = z.number().openapi({ format: 'double', description: "Amount with the currency's decimals (2 for EUR, none for XOF)" });

const CurrencyFiguresSchema = z
  .object({
    currency: z.string().openapi({ description: 'ISO 4217 code' }),
    grossVolume: Money.openapi({ description: 'Payments taken in the period in this currency (ledger)' }),
    platformRevenue: Money.openapi({ description: 'Platform revenue posted in the period in this currency (ledger)' }),
    refunds: z.object({ count: z.number().int().openapi({ format: 'int32' }), amount: Money }),
  })
  .openapi('AnalyticsCurrencyFigures');

/** One currency's figures with its own decimals. */
const toFigures = (f: CurrencyFigures) => ({
  currency: f.currency,
  grossVolume: amountOf(f.grossVolumeCents, f.currency),
  platformRevenue: amountOf(f.platformRevenueCents, f.currency),
  refunds: { count: f.refunds.count, amount: amountOf(f.refunds.amountCents, f.currency) },
});

const OverviewSchema = z
  .object({
    from: z.string().openapi({ format: 'date' }),
    to: z.string().openapi({ format: 'date' }),
    currency: z.string().openapi({ description: 'The main currency: grossVolume, platformRevenue and refunds are in it' }),
    users: z.object({
      total: z.number().int().openapi({ description: 'Accounts created up to the end of the period' }),
      new: z.number().int().openapi({ description: 'Accounts created in the period' }),
      verified: z.number().int().openapi({ description: 'Of the total, accounts whose KYC is VERIFIED now' }),
    }),
    announcements: z.number().int().openapi({ description: 'Announcements published in the period' }),
    reservations: z.object({
      total: z.number().int().openapi({ description: 'Reservations made in the period' }),
      byStatus: z.record(z.enum(RESERVATION_STATUSES), z.number().int()).openapi({ description: 'Their current status' }),
    }),
    grossVolume: Money.openapi({ description: 'Payments taken in the period (ledger)' }),
    platformRevenue: Money.openapi({ description: 'Platform revenue posted in the period (ledger)' }),
    refunds: z.object({ count: z.number().int(), amount: Money }),
    openDisputes: z.number().int().openapi({ description: 'Disputes open now' }),
    byCurrency: z.array(CurrencyFiguresSchema).openapi({
      description: 'The money figures per currency, never summed across currencies: the main currency first, then every other one money moved in',
    }),
  })
  .openapi('AnalyticsOverview');

const TimeseriesSchema = z
  .object({
    metric: z.enum(METRICS),
    interval: z.enum(INTERVALS),
    from: z.string().openapi({ format: 'date' }),
    to: z.string().openapi({ format: 'date' }),
    currency: z.string().nullable().openapi({ description: 'The currency of a money metric\'s values; null for counts' }),
    points: z.array(
      z.object({
        periodStart: z.string().openapi({ format: 'date', description: 'First day of the bucket' }),
        value: z.number().openapi({ description: "A count, or for money metrics an amount of `currency` with its decimals" }),
      }),
    ),
  })
  .openapi('AnalyticsTimeseries');

const TAGS = ['Analytics'];

export const analyticsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getAnalyticsOverview',
      path: '/admin/analytics/overview',
      tags: TAGS,
      summary: 'Platform figures for a period',
      description: 'Users, announcements, reservations and the money figures of a period, the money per currency (admins).',
      ...withRole('ROLE_ADMIN'),
      request: { query: OverviewQuery },
      responses: { 200: jsonContent(OverviewSchema, 'Figures of the period'), ...authErrorResponses() },
    }),
    async (c) => {
      const { from, to } = c.req.valid('query');
      const p = period(from, to);
      const o = await overview(c.get('deps'), p, mainCurrency(appConfig(c.env)));
      const [main, ...others] = o.money.map(toFigures);
      const { currency, grossVolume, platformRevenue, refunds } = main;
      return c.json(
        {
          from: p.from,
          to: p.to,
          currency,
          users: o.users,
          announcements: o.announcements,
          reservations: o.reservations,
          grossVolume,
          platformRevenue,
          refunds,
          openDisputes: o.openDisputes,
          byCurrency: [main, ...others],
        },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getAnalyticsTimeseries',
      path: '/admin/analytics/timeseries',
      tags: TAGS,
      summary: 'One metric per day, week or month of a period',
      description: 'A count or a money metric per bucket; money metrics are of one currency (`currency`, default the main one). Admins.',
      ...withRole('ROLE_ADMIN'),
      request: { query: TimeseriesQuery },
      responses: { 200: jsonContent(TimeseriesSchema, 'The series, one point per bucket'), ...authErrorResponses() },
    }),
    async (c) => {
      const { metric, from, to, interval, currency: asked } = c.req.valid('query');
      const currency = currencyOrMain(appConfig(c.env), asked);
      const p = period(from, to);
      const points = await timeseries(c.get('deps'), metric, p, interval, currency);
      const money = MONEY_METRICS.has(metric);
      const scale = money ? (n: number) => amountOf(n, currency) : (n: number) => n;
      return c.json(
        { metric, interval, from: p.from, to: p.to, currency: money ? currency : null, points: points.map((pt) => ({ ...pt, value: scale(pt.value) })) },
        200,
      );
    },
  );
