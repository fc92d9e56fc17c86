// Withdrawals of the caller's wallet: request, history, automatic withdrawal setting.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, bearerSecurity, jsonBody, jsonContent } from '../../lib/openapi';
import { pageQuery, PageSchema } from '../../lib/pagination';
import { toCents } from '../../lib/money';
import { requireAuth } from '../../middleware/auth';
import { WITHDRAWAL_STATUSES } from '../../db/schema';
import { getAutoWithdrawal, listWithdrawals, requestWithdrawal, setAutoWithdrawal, toWithdrawal } from './withdrawals.service';

/** A positive amount in the platform currency with at most two decimals. */
const amount = () =>
  z
    .number()
    .positive()
    .max(1_000_000)
    .refine((v) => Math.abs(toCents(v) / 100 - v) < 1e-9, { message: 'At most two decimals' });

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
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'threshold is required to enable automatic withdrawals' });
    }
  })
  .openapi('AutoWithdrawalRequest');

const me = (id: number) => ({ type: 'USER' as const, id });

export const withdrawalsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/withdrawals',
      tags: ['Withdrawals'],
      summary: 'Withdraw from the wallet to the connected payout account',
      security: bearerSecurity,
      middleware: [requireAuth] as const,
      request: {
        body: jsonBody(z.object({ amount: amount() }).openapi('WithdrawalRequest')),
        headers: z.object({
          'idempotency-key': z.string().min(1).max(255).optional().openapi({
            description: 'Same key again returns the first withdrawal instead of making a second one',
          }),
        }),
      },
      responses: { 201: jsonContent(WithdrawalSchema, 'Withdrawal (COMPLETED, or PENDING while the provider retries)'), ...authErrorResponses(422, 502) },
    }),
    async (c) => {
      const key = c.req.valid('header')['idempotency-key'] ?? null;
      const w = await requestWithdrawal(c.env, me(c.get('auth').id), toCents(c.req.valid('json').amount), false, key);
      return c.json(toWithdrawal(w), 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/withdrawals',
      tags: ['Withdrawals'],
      summary: 'The caller’s withdrawals (page)',
      security: bearerSecurity,
      middleware: [requireAuth] as const,
      request: { query: pageQuery({ sortable: ['createdAt', 'amount'], defaultSort: 'createdAt,desc' }) },
      responses: { 200: jsonContent(PageSchema(WithdrawalSchema, 'WithdrawalPage'), 'Page of withdrawals'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listWithdrawals(c.env, me(c.get('auth').id), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/withdrawals/auto',
      tags: ['Withdrawals'],
      summary: 'Automatic withdrawal setting',
      security: bearerSecurity,
      middleware: [requireAuth] as const,
      responses: { 200: jsonContent(AutoSchema, 'Setting'), ...authErrorResponses() },
    }),
    async (c) => c.json(await getAutoWithdrawal(c.env, me(c.get('auth').id)), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/withdrawals/auto',
      tags: ['Withdrawals'],
      summary: 'Enable or disable automatic withdrawals; the cron pays out wallets at or above the threshold',
      security: bearerSecurity,
      middleware: [requireAuth] as const,
      request: { body: jsonBody(AutoBody) },
      responses: { 200: jsonContent(AutoSchema, 'Setting'), ...authErrorResponses() },
    }),
    async (c) => {
      const owner = me(c.get('auth').id);
      const body = c.req.valid('json');
      const current = await getAutoWithdrawal(c.env, owner);
      const threshold = body.threshold ?? current.threshold ?? 0;
      return c.json(await setAutoWithdrawal(c.env, owner, body.enabled, toCents(threshold)), 200);
    },
  );
