// Payment-provider connection (Connect Express) of the caller: onboarding, status, eligibility,
// and the browser redirect targets of the onboarding flow.
import { createRoute, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { users } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, bearerSecurity, errorResponses, jsonContent } from '../../lib/openapi';
import { requireAuth } from '../../middleware/auth';
import { htmlPage } from '../payments/html';
import { accountStatus, canReceive, canReceivePayments, newOnboardingLink, refreshFromProvider, startOnboarding } from './pay-connect.service';

const OnboardingSchema = z
  .object({ connectedAccountId: z.string(), onboardingUrl: z.string(), expiresAt: z.string() })
  .openapi('PayConnectOnboarding');
const StatusSchema = z
  .object({
    connectedAccountId: z.string().nullable(),
    status: z.enum(['NOT_CONNECTED', 'ONBOARDING', 'RESTRICTED', 'ACTIVE']),
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    detailsSubmitted: z.boolean(),
    requirements: z.array(z.string()),
  })
  .openapi('PayConnectAccountStatus');
const CanReceiveSchema = z
  .object({ canReceivePayments: z.boolean(), chargesEnabled: z.boolean(), payoutsEnabled: z.boolean(), reason: z.string().nullable() })
  .openapi('PayConnectEligibility');
const AccountQuery = z.object({ account: z.string().min(1).openapi({ param: { name: 'account', in: 'query' } }) });

const me = (id: number) => ({ type: 'USER' as const, id });

export const payConnectRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/pay-connect/onboarding',
      tags: ['Pay connect'],
      summary: 'Create (once) the caller’s Express account and return a fresh onboarding link',
      security: bearerSecurity,
      middleware: [requireAuth] as const,
      responses: { 200: jsonContent(OnboardingSchema, 'Onboarding link'), ...authErrorResponses(502) },
    }),
    async (c) => {
      const id = c.get('auth').id;
      const [user] = await getDb(c.env).select({ email: users.email }).from(users).where(eq(users.id, id));
      return c.json(await startOnboarding(c.env, me(id), user?.email), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pay-connect/account-status',
      tags: ['Pay connect'],
      summary: 'State of the caller’s connected account, read afresh from the provider',
      security: bearerSecurity,
      middleware: [requireAuth] as const,
      responses: { 200: jsonContent(StatusSchema, 'Account status'), ...authErrorResponses(502) },
    }),
    async (c) => c.json(await accountStatus(c.env, me(c.get('auth').id)), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pay-connect/can-receive-payments',
      tags: ['Pay connect'],
      summary: 'Whether the caller’s connected account can receive payments, and why not',
      security: bearerSecurity,
      middleware: [requireAuth] as const,
      responses: { 200: jsonContent(CanReceiveSchema, 'Eligibility'), ...authErrorResponses() },
    }),
    async (c) => c.json(await canReceivePayments(c.env, me(c.get('auth').id)), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pay-connect/return',
      tags: ['Pay connect'],
      summary: 'Browser return target of the onboarding; re-reads the account from the provider',
      security: [],
      request: { query: AccountQuery },
      responses: { 200: { description: 'Result page', content: { 'text/html': { schema: z.string() } } }, ...errorResponses(404, 502) },
    }),
    async (c) => {
      const account = await refreshFromProvider(c.env, c.req.valid('query').account);
      const ok = canReceive(account).canReceivePayments;
      return c.html(
        htmlPage(
          ok ? 'Payout account ready' : 'Onboarding not finished',
          ok ? 'You can now receive payouts. Return to the app.' : 'Some details are still missing. Return to the app to continue.',
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pay-connect/refresh',
      tags: ['Pay connect'],
      summary: 'Browser target when an onboarding link expired; redirects to a fresh link',
      security: [],
      request: { query: AccountQuery },
      responses: { 302: { description: 'Redirect to a new onboarding link' }, ...errorResponses(404, 502) },
    }),
    async (c) => c.redirect((await newOnboardingLink(c.env, c.req.valid('query').account)).url, 302),
  );
