// Withdrawals of the caller's wallet: request, history, automatic withdrawal setting.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../../env';
import { jsonBody, jsonContent, signedIn } from '../../../lib/openapi';
import { pageQuery, PageSchema } from '../../../lib/pagination';
import { toCents } from '../../../lib/money';
import { WITHDRAWAL_STATUSES } from '../../../db/schema';
import { idempotent, idempotencyKeyOf } from '../../../middleware/idempotency';
import { CALLER_SCOPE, scopeDescription, scopeErrors, whoseTitle, type OwnerScope } from '../wallet/owner-scope';
import { walletCurrency, getAutoWithdrawal, listWithdrawals, requestWithdrawal, setAutoWithdrawal, toWithdrawal, withdrawalAmount } from './withdrawals.service';
import { currencyCodeSchema } from '../../../lib/amount';

/** A positive amount with at most two decimals; its currency's own decimals are checked once the currency is known. */
const amount = () =>
  z
    .number()
    .positive()
    .max(1_000_000)
    .refine((v) => Math.abs(toCents(v) / 100 - v) < 1e-9, { message: 'money.atMost2Decimals' });

export const WithdrawalSchema = z
  .object({
    id: z.number().int(),
    amount: z.number(),
    currency: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES),
    automatic: z.boolean(),
    transferId: z.string().nullable(),
    failureReason: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    completedAt: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('Withdrawal');

const AutoSchema = z
  .object({
    enabled: z.boolean(),
    threshold: z.number().nullable().openapi({ format: 'double', description: "In `currency`, with its decimals; null when never set" }),
    currency: z.string().openapi({ description: 'The wallet currency this setting pays out (one setting per currency)' }),
  })
  .openapi('AutoWithdrawal');
const AutoQuery = z.object({
  currency: currencyCodeSchema()
    .optional()
    .openapi({ param: { name: 'currency', in: 'query' }, description: "The wallet currency whose setting to read (an enabled ISO code; default the main one)" }),
});
const AutoBody = z
  .object({
    enabled: z.boolean(),
    threshold: amount().optional(),
    currency: currencyCodeSchema().optional().openapi({ description: 'The wallet currency this setting pays out; default the main one. The threshold has its decimals (whole francs for XOF)' }),
  })
  .superRefine((v, ctx) => {
    if (v.enabled && v.threshold === undefined) {
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'money.thresholdRequiredEnableAutomatic' });
    }
  })
  .openapi('AutoWithdrawalRequest');

const SET_AUTO_DOC =
  "Sets the automatic withdrawal of one wallet currency (`currency`, default the main one): the cron pays that wallet out in full once it reaches the threshold, in that currency's decimals, through its rail (XOF to the default mobile wallet, a Stripe currency through Connect).";

/** The summary and description of a withdrawal, for one owner scope. */
const withdrawDoc = (scope: OwnerScope) => ({
  summary: `Withdraw from ${scope.whose} wallet to ${scope.whose} connected payout account`,
  description: scopeDescription(
    scope,
    'manage',
    `Takes the amount out of ${scope.whose} available balance in one currency (default the main one; held shares are not withdrawable) and pays it out: XOF to the default mobile wallet (POST ${scope.prefix}/payout-accounts), other currencies to the connected account (Connect onboarding). The ledger posting and the withdrawal are written together, so the balance never goes below zero: more than available is 422 INSUFFICIENT_FUNDS; no account able to receive the currency is 422 STRIPE_CONNECT_NOT_CONFIGURED. Answers COMPLETED, or PENDING while the provider is retried; a refusal by the provider puts the money back (FAILED) and answers 502 PAYMENT_PROCESSING_ERROR. The same Idempotency-Key with another amount is 409 INVALID_STATE. While the operators have paused the provider's payouts (an incident), 503 PAYMENT_PROCESSING_ERROR with Retry-After, the wallet untouched.`,
  ),
});

/** The summary and description of the withdrawal history, for one owner scope. */
const historyDoc = (scope: OwnerScope) => ({
  summary: `Withdrawals of ${scope.whose} wallet (page)`,
  description: scopeDescription(
    scope,
    'read',
    `A page of ${scope.whose} withdrawals, newest first by default (sortable by createdAt and amount), by hand and automatic, each with its amount and currency, status (PENDING, COMPLETED, FAILED), the provider's transfer id and the failure reason of a refused one.`,
  ),
});

// Built once: the factory below runs once per scope and a named schema must be one object.
const WithdrawalRequest = z
  .object({
    amount: amount(),
    currency: currencyCodeSchema().optional().openapi({ description: 'The wallet currency to withdraw from; default the main one. The amount has its decimals; XOF is paid out to the default mobile wallet' }),
  })
  .openapi('WithdrawalRequest');
const WithdrawalPage = PageSchema(WithdrawalSchema, 'WithdrawalPage');

/**
 * The withdrawal routes of one owner scope: the caller's (/withdrawals) or an agency's
 * (/agencies/{id}/withdrawals), always to that owner's own connected account.
 */
export const withdrawalRoutes = (scope: OwnerScope) => {
  const path = `${scope.prefix}/withdrawals`;
  const tags = ['Withdrawals', ...scope.extraTags];
  return createRouter()
    .openapi(
      createRoute(
        idempotent({
          method: 'post',
          operationId: `create${scope.operationOwner}Withdrawal`,
          path,
          tags,
          ...withdrawDoc(scope),
          ...signedIn(),
          request: { params: scope.params, body: jsonBody(WithdrawalRequest) },
          responses: {
            201: jsonContent(WithdrawalSchema, 'Withdrawal (COMPLETED, or PENDING while the provider retries)'),
            ...scopeErrors(scope, 409, 422, 502, 503),
          },
        }),
      ),
      async (c) => {
        const owner = await scope.resolve(c, 'manage');
        const { minor, currency } = withdrawalAmount(c.env, c.req.valid('json'));
        const w = await requestWithdrawal(c.get('deps'), owner, minor, false, idempotencyKeyOf(c), currency);
        return c.json(toWithdrawal(w), 201);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `list${scope.operationOwner}Withdrawals`,
        path,
        tags,
        ...historyDoc(scope),
        ...signedIn(),
        request: { params: scope.params, query: pageQuery({ sortable: ['createdAt', 'amount'], defaultSort: 'createdAt,desc' }) },
        responses: { 200: jsonContent(WithdrawalPage, 'Page of withdrawals'), ...scopeErrors(scope) },
      }),
      async (c) => c.json(await listWithdrawals(c.get('deps'), await scope.resolve(c, 'read'), c.req.valid('query')), 200),
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `get${scope.operationOwner}AutoWithdrawal`,
        path: `${path}/auto`,
        tags,
        summary: `Automatic withdrawal setting of ${scope.whose} wallet`,
        description: scopeDescription(scope, 'read', `The automatic withdrawal of ${scope.whose} wallet in one currency (\`currency\`, default the main one); each currency has its own.`),
        ...signedIn(),
        request: { params: scope.params, query: AutoQuery },
        responses: { 200: jsonContent(AutoSchema, 'Setting'), ...scopeErrors(scope) },
      }),
      async (c) => {
        const owner = await scope.resolve(c, 'read');
        return c.json(await getAutoWithdrawal(c.get('deps'), owner, walletCurrency(c.env, c.req.valid('query').currency)), 200);
      },
    )
    .openapi(
      createRoute({
        method: 'put',
        operationId: `set${scope.operationOwner}AutoWithdrawal`,
        path: `${path}/auto`,
        tags,
        summary: 'Enable or disable automatic withdrawals; the cron pays out wallets at or above the threshold',
        description: scopeDescription(scope, 'manage', SET_AUTO_DOC),
        ...signedIn(),
        request: { params: scope.params, body: jsonBody(AutoBody) },
        responses: { 200: jsonContent(AutoSchema, 'Setting'), ...scopeErrors(scope) },
      }),
      async (c) => {
        const owner = await scope.resolve(c, 'manage');
        const body = c.req.valid('json');
        const currency = walletCurrency(c.env, body.currency);
        const current = await getAutoWithdrawal(c.get('deps'), owner, currency);
        const threshold = body.threshold ?? current.threshold ?? 0;
        const { minor } = withdrawalAmount(c.env, { amount: threshold, currency }, 'threshold');
        return c.json(await setAutoWithdrawal(c.get('deps'), owner, body.enabled, minor, currency), 200);
      },
    );
};

export const withdrawalsRouter = withdrawalRoutes(CALLER_SCOPE);
