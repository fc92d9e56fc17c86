// GET /superadmin/reconciliation (the providers' daily reconciliation and the pending money), a
// re-run of one day, and the retries of a refused refund or payout (CONTRACT section 27;
// docs/OPERATIONS.md "Reconciliation"). Super-administrators only; the retries and runs audited.
import { createRoute, z } from '@hono/zod-openapi';
import { DIFFERENCE_KINDS, RECONCILED_OBJECTS, RECONCILIATION_STATUSES, WITHDRAWAL_STATUSES, type ReconciliationDifferenceRow } from '../../db/schema';
import { PAYMENT_STATUS, type PaymentStatusValue } from '../../db/schema/reservations';
import { createRouter } from '../../env';
import { invalidArgument } from '../../errors';
import { amountOf } from '../../lib/money';
import { authErrorResponses, errorResponses, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { IdParams } from '../../validation';
import { clientIp, audit } from '../audit/audit';
import { languageHeaders, readerLocale } from '../../lib/locale';
import { dayOf, OUR_STATES, PROVIDER_STATES, PENDING_SORT_FIELDS, pendingCaptures, pendingPayouts, pendingRefunds, reportsOf, retryPayout, retryRefund, runReconciliation, WithdrawalSchema } from '../money';

const TAGS = ['Administration'];
const PAYMENT_STATUSES = Object.values(PAYMENT_STATUS) as [PaymentStatusValue, ...PaymentStatusValue[]];
const dateTime = (description: string) => z.string().openapi({ format: 'date-time', description });
const amount = (description: string) => z.number().nullable().openapi({ format: 'double', description: `${description}, in the currency's units; null when that side has none` });
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d))
  .openapi({ format: 'date', description: 'A UTC day (YYYY-MM-DD)', example: '2026-12-06' });

const DifferenceSchema = z
  .object({
    kind: z.enum(DIFFERENCE_KINDS).openapi({ description: 'MISSING_IN_BOOKS: at the provider, not in our books; MISSING_AT_PROVIDER: in our books, not at the provider; AMOUNT_MISMATCH, STATUS_MISMATCH: both have it and disagree' }),
    object: z.enum(RECONCILED_OBJECTS).openapi({ description: 'CHARGE, REFUND, TRANSFER (Stripe); PAYIN, REFUND, PAYOUT (mobile money)' }),
    providerRef: z.string().nullable().openapi({ description: "The provider's id (charge, refund, transfer; the operation's reference or our UUID for mobile money)" }),
    reservationId: z.number().int().nullable(),
    withdrawalId: z.number().int().nullable(),
    currency: z.string().openapi({ example: 'EUR' }),
    providerAmount: amount('What the provider says'),
    ourAmount: amount('What our books say'),
    providerStatus: z.enum(PROVIDER_STATES).nullable().openapi({ description: "The provider's: a charge's state (authorized, captured, refunded, ...), a refund's or a transfer's status, a rail's (PENDING, COMPLETED, FAILED)" }),
    ourStatus: z.enum(OUR_STATES).nullable().openapi({ description: "Ours: the reservation's payment status, the withdrawal's or the operation's status" }),
  })
  .openapi('ReconciliationDifference');

const ReportSchema = z
  .object({
    day: z.string().openapi({ format: 'date' }),
    provider: z.string().openapi({ description: 'STRIPE, or a mobile-money rail (WAVE, PAWAPAY)', example: 'STRIPE' }),
    status: z.enum(RECONCILIATION_STATUSES).openapi({ description: 'MATCHED: nothing differs; DIFFERENCES: see `differences`; FAILED: the provider could not be read (`error`)' }),
    providerRecords: z.number().int().openapi({ description: "The provider's records of the day compared" }),
    ourRecords: z.number().int().openapi({ description: 'Our records of the day compared' }),
    note: z.string().nullable().openapi({ description: "How the provider was read (listed, our operations checked one by one, the rail's statement) and any cap reached, in the reader's language (Accept-Language)" }),
    error: z.string().nullable(),
    runs: z.number().int().openapi({ description: 'How many times the day was reconciled (each run replaces the report)' }),
    runAt: dateTime('The last run'),
    differences: z.array(DifferenceSchema),
  })
  .openapi('ReconciliationReport');

const since = { since: dateTime('Waiting since (authorised, last change, requested)'), ageMinutes: z.number().int().openapi({ description: 'Minutes waited so far' }) };
const PendingCaptureSchema = z
  .object({
    reservationId: z.number().int(),
    reservationNumber: z.string(),
    provider: z.string().openapi({ example: 'STRIPE' }),
    amount: z.number().openapi({ format: 'double' }),
    currency: z.string(),
    paymentStatus: z.enum(PAYMENT_STATUSES).nullable().openapi({ example: 'AUTHORIZED' }),
    captureBefore: z.string().nullable().openapi({ format: 'date-time', description: 'The cron captures before this (card holds lapse after about 7 days)' }),
    ...since,
  })
  .openapi('PendingCapture');
const PendingRefundSchema = z
  .object({
    reservationId: z.number().int(),
    reservationNumber: z.string(),
    provider: z.string(),
    amount: z.number().openapi({ format: 'double', description: 'What goes back to the payer' }),
    currency: z.string(),
    paymentStatus: z.enum(PAYMENT_STATUSES).nullable().openapi({ description: 'REFUND_PENDING, VOID_PENDING or PARTIAL_CAPTURE_PENDING' }),
    attempt: z.number().int().openapi({ description: 'The refund attempt (0: the first; each retry adds one)' }),
    failure: z.string().nullable().openapi({ description: "The provider's refusal of the last attempt" }),
    retryable: z.boolean().openapi({ description: 'A refused refund: POST /superadmin/reconciliation/refunds/{id}/retry' }),
    ...since,
  })
  .openapi('PendingRefund');
const PendingPayoutSchema = z
  .object({
    withdrawalId: z.number().int(),
    ownerType: z.enum(['USER', 'AGENCY']),
    ownerId: z.number().int(),
    provider: z.string().openapi({ description: 'STRIPE, or the mobile wallet operator (WAVE, MTN_MOMO_CMR, ...)' }),
    amount: z.number().openapi({ format: 'double' }),
    currency: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES),
    failure: z.string().nullable(),
    retryable: z.boolean().openapi({ description: 'FAILED and not retried: POST /superadmin/reconciliation/payouts/{id}/retry' }),
    ...since,
  })
  .openapi('PendingPayout');

const ReconciliationSchema = z
  .object({
    day: z.string().nullable().openapi({ format: 'date', description: 'The day of the reports (the latest reconciled when none is asked); null before any run' }),
    reports: z.array(ReportSchema),
    pending: z.object({
      captures: PageSchema(PendingCaptureSchema, 'PendingCapturePage'),
      refunds: PageSchema(PendingRefundSchema, 'PendingRefundPage'),
      payouts: PageSchema(PendingPayoutSchema, 'PendingPayoutPage'),
    }),
  })
  .openapi('Reconciliation');

const Query = pageQuery({ sortable: PENDING_SORT_FIELDS, defaultSort: 'since,asc' }).extend({
  day: Day.optional().openapi({ param: { name: 'day', in: 'query' }, description: 'The reports of this UTC day; the latest reconciled by default' }),
});

const toDifference = ({ id: _, reportId: __, providerAmountMinor, ourAmountMinor, ...d }: ReconciliationDifferenceRow) => ({
  ...d,
  // Written from these lists only (reconciliation.rules.ts).
  providerStatus: d.providerStatus as (typeof PROVIDER_STATES)[number] | null,
  ourStatus: d.ourStatus,
  providerAmount: providerAmountMinor === null ? null : amountOf(providerAmountMinor, d.currency),
  ourAmount: ourAmountMinor === null ? null : amountOf(ourAmountMinor, d.currency),
});

type Reports = Awaited<ReturnType<typeof reportsOf>>['reports'];
const toReports = (reports: Reports) => reports.map(({ id: _, items, differences: __, ...r }) => ({ ...r, differences: items.map(toDifference) }));
const withAmount = <T extends { amountMinor: number; currency: string; paymentStatus?: string | null }>({ amountMinor, ...x }: T) => ({
  ...x,
  // The reservation's column holds only PAYMENT_STATUS values.
  ...('paymentStatus' in x ? { paymentStatus: x.paymentStatus as PaymentStatusValue | null } : {}),
  amount: amountOf(amountMinor, x.currency),
});
const pageOf = <T extends { amountMinor: number; currency: string }>(p: { content: T[]; page: object }) => ({ ...p, content: p.content.map(withAmount) });

const RunBody = z.object({ day: Day.optional().openapi({ description: 'The UTC day to reconcile (today or earlier); the previous day by default' }) }).openapi('ReconciliationRun');
const RunResult = z.object({ day: z.string().openapi({ format: 'date' }), reports: z.array(ReportSchema) }).openapi('ReconciliationRunResult');
const RefundRetrySchema = z
  .object({
    reservationId: z.number().int(),
    paymentStatus: z.enum(PAYMENT_STATUSES).nullable().openapi({ description: 'REFUNDED or PARTIALLY_REFUNDED when the provider took it; REFUND_PENDING with `failure` when refused again' }),
    refundId: z.string().nullable(),
    attempt: z.number().int(),
    failure: z.string().nullable(),
  })
  .openapi('RefundRetry');
const PayoutRetrySchema = z
  .object({
    retriedWithdrawalId: z.number().int().openapi({ description: 'The FAILED withdrawal retried' }),
    withdrawal: WithdrawalSchema,
  })
  .openapi('PayoutRetry');

export const reconciliationRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getReconciliation',
      path: '/superadmin/reconciliation',
      tags: TAGS,
      summary: "The providers' daily reconciliation and the money still pending",
      description:
        "Super-administrators only (a monitoring token is refused). `reports`: one per provider for the day (the latest reconciled, or `day`), each difference with both amounts and statuses. `pending`: card payments authorised and not captured, money going back the provider has not confirmed (a refused refund is `retryable`), payouts pending or failed and not retried; each a page (`page`, `size` apply to each; `sort=since,asc`: the oldest first).",
      ...withRole('ROLE_SUPERADMIN'),
      request: { query: Query },
      responses: { 200: jsonContent(ReconciliationSchema, 'The reports and the pending views'), ...authErrorResponses(400) },
    }),
    async (c) => {
      const { db } = c.get('deps');
      const q = c.req.valid('query');
      const now = new Date();
      const locale = readerLocale(c.req.header('Accept-Language'));
      const [reports, captures, refunds, payouts] = await Promise.all([reportsOf(db, q.day, locale), pendingCaptures(db, now, q), pendingRefunds(db, now, q), pendingPayouts(db, now, q)]);
      const pending = { captures: pageOf(captures), refunds: pageOf(refunds), payouts: pageOf(payouts) };
      return c.json({ day: reports.day, reports: toReports(reports.reports), pending }, 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'runReconciliation',
      path: '/superadmin/reconciliation/runs',
      tags: TAGS,
      summary: 'Reconcile one day now (audited)',
      description: "Super-administrators only. Runs the daily job for `day` (default: the previous UTC day) and answers its reports; a day already reconciled is replaced. A day after today is 400. Audited as RECONCILIATION_RUN.",
      ...withRole('ROLE_SUPERADMIN'),
      request: { body: jsonBody(RunBody) },
      responses: { 200: jsonContent(RunResult, "The day's reports"), ...authErrorResponses(400) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const today = dayOf(new Date());
      const day = c.req.valid('json').day ?? dayOf(new Date(Date.now() - 24 * 60 * 60 * 1000));
      if (day > today) throw invalidArgument('reconciliation.dayNotPast');
      await runReconciliation(deps, day);
      await audit(deps, { actorId: c.get('auth').id, action: 'RECONCILIATION_RUN', targetType: 'RECONCILIATION', targetId: day, ip: clientIp(c) });
      const locale = readerLocale(c.req.header('Accept-Language'));
      return c.json({ day, reports: toReports((await reportsOf(deps.db, day, locale)).reports) }, 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'retryRefund',
      path: '/superadmin/reconciliation/refunds/{id}/retry',
      tags: TAGS,
      summary: "Retry a reservation's refused refund (audited, once)",
      description:
        "Super-administrators only. `id` is the reservation's. Sends the refund again as a new attempt (a new idempotency key at Stripe, a new operation for mobile money); only a REFUND_PENDING refund the provider refused is retried (else 409 INVALID_STATE), and two retries at once send one (the other 409). Audited as REFUND_RETRIED.",
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: IdParams },
      responses: { 200: jsonContent(RefundRetrySchema, 'The refund as it now is'), ...authErrorResponses(400, 404, 409) },
    }),
    async (c) => c.json(await retryRefund(c.get('deps'), c.get('auth').id, c.req.valid('param').id, clientIp(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'retryPayout',
      path: '/superadmin/reconciliation/payouts/{id}/retry',
      tags: TAGS,
      summary: 'Retry a failed payout (audited, once)',
      description:
        "Super-administrators only. `id` is the FAILED withdrawal's. Pays the same amount out again from the owner's wallet (its failure put the money back) to their payout account as it is now, as a new withdrawal naming the failed one; a withdrawal is retried once (409 INVALID_STATE after, or for one not FAILED), and two retries at once pay one. 422 INSUFFICIENT_FUNDS when the wallet no longer holds the amount; 503 with Retry-After while the provider's payouts are paused. Refused again: 201 with the new withdrawal FAILED and its reason. Audited as PAYOUT_RETRIED.",
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: IdParams },
      responses: { 201: jsonContent(PayoutRetrySchema, 'The new withdrawal'), ...authErrorResponses(400, 404, 409, 422), ...errorResponses(503) },
    }),
    async (c) => c.json(await retryPayout(c.get('deps'), c.get('auth').id, c.req.valid('param').id, clientIp(c)), 201),
  );
