// Withdrawals of the caller's wallet: request, history, automatic withdrawal setting.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../../env';
import { jsonBody, jsonContent, signedIn } from '../../../lib/openapi';
import { pageQuery, PageSchema } from '../../../lib/pagination';
import { toCents } from '../../../lib/money';
import { WITHDRAWAL_STATUSES } from '../../../db/schema';
import { idempotent, idempotencyKeyOf } from '../../../middleware/idempotency';
import { CALLER_SCOPE, scopeErrors, type OwnerScope } from '../wallet/owner-scope';
import { getAutoWithdrawal, listWithdrawals, requestWithdrawal, setAutoWithdrawal, toWithdrawal, withdrawalAmount } from './withdrawals.service';
import { currencyCodeSchema } from '../../../lib/amount';

/** A positive amount in the platform currency with at most two decimals. */
const amount = () =>
  z
    .number()
    .positive()
    .max(1_000_000)
    .refine((v) => Math.abs(toCents(v) / 100 - v) < 1e-9, { message: 'money.atMost2Decimals' });

const WithdrawalSchema = z
  .object({
    id: z.number().int(),
    amount: z.number(),
    currency: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES),
    automatic: z.boolean(),
    transferId: z.string().nullable(),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi('Withdrawal');

const AutoSchema = z.object({ enabled: z.boolean(), threshold: z.number().nullable() }).openapi('AutoWithdrawal');
const AutoBody = z
  .object({ enabled: z.boolean(), threshold: amount().optional() })
  .superRefine((v, ctx) => {
    if (v.enabled && v.threshold === undefined) {
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'money.thresholdRequiredEnableAutomatic' });
    }
  })
  .openapi('AutoWithdrawalRequest');

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
          summary: `Withdraw from ${scope.whose} wallet to ${scope.whose} connected payout account`,
          ...signedIn(),
          request: { params: scope.params, body: jsonBody(WithdrawalRequest) },
          responses: {
            201: jsonContent(WithdrawalSchema, 'Withdrawal (COMPLETED, or PENDING while the provider retries)'),
            ...scopeErrors(scope, 409, 422, 502),
          },
        }),
      ),
      async (c) => {
        const owner = await scope.resolve(c, 'manage');
        const { minor, currency } = withdrawalAmount(c.env, c.req.valid('json'));
        const w = await requestWithdrawal(c.var.deps, owner, minor, false, idempotencyKeyOf(c), currency);
        return c.json(toWithdrawal(w), 201);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `list${scope.operationOwner}Withdrawals`,
        path,
        tags,
        summary: `Withdrawals of ${scope.whose} wallet (page)`,
        ...signedIn(),
        request: { params: scope.params, query: pageQuery({ sortable: ['createdAt', 'amount'], defaultSort: 'createdAt,desc' }) },
        responses: { 200: jsonContent(WithdrawalPage, 'Page of withdrawals'), ...scopeErrors(scope) },
      }),
      async (c) => c.json(await listWithdrawals(c.var.deps, await scope.resolve(c, 'read'), c.req.valid('query')), 200),
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `get${scope.operationOwner}AutoWithdrawal`,
        path: `${path}/auto`,
        tags,
        summary: `Automatic withdrawal setting of ${scope.whose} wallet`,
        ...signedIn(),
        request: { params: scope.params },
        responses: { 200: jsonContent(AutoSchema, 'Setting'), ...scopeErrors(scope) },
      }),
      async (c) => c.json(await getAutoWithdrawal(c.var.deps, await scope.resolve(c, 'read')), 200),
    )
    .openapi(
      createRoute({
        method: 'put',
        operationId: `set${scope.operationOwner}AutoWithdrawal`,
        path: `${path}/auto`,
        tags,
        summary: 'Enable or disable automatic withdrawals; the cron pays out wallets at or above the threshold',
        ...signedIn(),
        request: { params: scope.params, body: jsonBody(AutoBody) },
        responses: { 200: jsonContent(AutoSchema, 'Setting'), ...scopeErrors(scope) },
      }),
      async (c) => {
        const owner = await scope.resolve(c, 'manage');
        const body = c.req.valid('json');
        const current = await getAutoWithdrawal(c.var.deps, owner);
        const threshold = body.threshold ?? current.threshold ?? 0;
        return c.json(await setAutoWithdrawal(c.var.deps, owner, body.enabled, toCents(threshold)), 200);
      },
    );
};

export const withdrawalsRouter = withdrawalRoutes(CALLER_SCOPE);
