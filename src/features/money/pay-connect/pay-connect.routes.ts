// Payment-provider connection (Connect Express) of the caller: onboarding, status, eligibility,
// and the browser redirect targets of the onboarding flow.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../../env';
import { errorResponses, jsonContent, signedIn } from '../../../lib/openapi';
import { idempotent } from '../../../middleware/idempotency';
import { returnPage } from '../payments/html';
import { CALLER_SCOPE, scopeDescription, scopeErrors, whoseTitle, type OwnerScope } from '../wallet/owner-scope';
import { accountStatus, canReceive, canReceivePayments, newOnboardingLink, refreshFromProvider, startOnboarding } from './pay-connect.service';

const OnboardingSchema = z
  .object({ connectedAccountId: z.string(), onboardingUrl: z.string(), expiresAt: z.string().openapi({ format: 'date-time' }) })
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
  .object({
    canReceivePayments: z.boolean(),
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    reason: z.string().nullable(),
    currencies: z
      .array(z.object({ currency: z.string(), canReceive: z.boolean(), reason: z.string().nullable() }))
      .openapi({ description: 'Per enabled currency: XOF needs a default mobile wallet (/payout-accounts), the others the Stripe connected account' }),
  })
  .openapi('PayConnectEligibility');
const AccountQuery = z.object({ account: z.string().min(1).openapi({ param: { name: 'account', in: 'query' } }) });

/**
 * Onboarding, status and eligibility of one owner scope: the caller's (/pay-connect/**) or an
 * agency's (/agencies/{id}/pay-connect/**). The browser return/refresh targets below are keyed by
 * the connected account, so users and agencies share them.
 */
export const payConnectRoutes = (scope: OwnerScope) => {
  const tags = ['Pay connect', ...scope.extraTags];
  return createRouter()
    .openapi(
      createRoute(
        idempotent({
          method: 'post',
          operationId: `start${scope.operationOwner}PayConnectOnboarding`,
          path: `${scope.prefix}/pay-connect/onboarding`,
          tags,
          summary: `Create (once) ${scope.whose} Express account and return a fresh onboarding link`,
          description: scopeDescription(
            scope,
            'manage',
            `Creates ${scope.whose} Stripe Connect Express account the first time (one per owner, with its contact e-mail), then answers a new single-use onboarding link and its expiry. The browser comes back to GET /pay-connect/return when done, or to GET /pay-connect/refresh for a new link once it expired. The provider failing is 502 PAYMENT_PROCESSING_ERROR.`,
          ),
          ...signedIn(),
          request: { params: scope.params },
          responses: { 200: jsonContent(OnboardingSchema, 'Onboarding link'), ...scopeErrors(scope, 409, 502) },
        }),
      ),
      async (c) => {
        const owner = await scope.resolve(c, 'manage');
        return c.json(await startOnboarding(c.get('deps'), owner, await scope.contactEmail(c, owner)), 200);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `get${scope.operationOwner}PayConnectAccountStatus`,
        path: `${scope.prefix}/pay-connect/account-status`,
        tags,
        summary: `State of ${scope.whose} connected account, read afresh from the provider`,
        description: scopeDescription(
          scope,
          'read',
          `Reads ${scope.whose} connected account from the provider, stores what it says, and answers its status: NOT_CONNECTED (no account yet), ONBOARDING (details not submitted), RESTRICTED (submitted, payments or payouts not enabled) or ACTIVE, with the provider's outstanding requirements. When the provider cannot be reached the stored state is answered; a refusal by the provider is 502 PAYMENT_PROCESSING_ERROR.`,
        ),
        ...signedIn(),
        request: { params: scope.params },
        responses: { 200: jsonContent(StatusSchema, 'Account status'), ...scopeErrors(scope, 502) },
      }),
      async (c) => c.json(await accountStatus(c.get('deps'), await scope.resolve(c, 'read')), 200),
    )
    .openapi(
      createRoute({
        method: 'get',
        operationId: `check${scope.operationOwner}CanReceivePayments`,
        path: `${scope.prefix}/pay-connect/can-receive-payments`,
        tags,
        summary: `Whether ${scope.whose} connected account can receive payments, and why not`,
        description: scopeDescription(
          scope,
          'read',
          `From the stored state, without calling the provider: whether ${scope.whose} connected account has payments and payouts enabled, the reason when not (no account, onboarding unfinished, not yet enabled), and per enabled currency whether a withdrawal in it can be paid out (XOF needs a default mobile wallet, the others the connected account).`,
        ),
        ...signedIn(),
        request: { params: scope.params },
        responses: { 200: jsonContent(CanReceiveSchema, 'Eligibility'), ...scopeErrors(scope) },
      }),
      async (c) => c.json(await canReceivePayments(c.get('deps'), await scope.resolve(c, 'read')), 200),
    );
};

export const payConnectRouter = payConnectRoutes(CALLER_SCOPE)
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'payConnectReturnPage',
      path: '/pay-connect/return',
      tags: ['Pay connect'],
      summary: 'Browser return target of the onboarding; re-reads the account from the provider',
      description: 'Where Stripe sends the browser back at the end of a Connect onboarding (the account id in the query, for a user\'s or an agency\'s account alike). The account is read again from the provider and stored, and the page says whether payouts can now be received or details are still missing. Only accounts this service created are looked up: another id is 404 RESOURCE_NOT_FOUND; the provider failing is 502 PAYMENT_PROCESSING_ERROR. Public, HTML.',
      security: [],
      request: { query: AccountQuery },
      responses: { 200: { description: 'Result page', content: { 'text/html': { schema: z.string() } } }, ...errorResponses(404, 502) },
    }),
    async (c) => {
      const account = await refreshFromProvider(c.get('deps'), c.req.valid('query').account);
      const ok = canReceive(account).canReceivePayments;
      return ok ? returnPage(c, 'page.payoutReady', 'page.payoutReadyText') : returnPage(c, 'page.onboardingUnfinished', 'page.onboardingUnfinishedText');
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'payConnectRefreshPage',
      path: '/pay-connect/refresh',
      tags: ['Pay connect'],
      summary: 'Browser target when an onboarding link expired; redirects to a fresh link',
      description: 'Where Stripe sends the browser when an onboarding link expired or was already used: a new link is made for the same account and the browser redirected (302) to it. Only accounts this service created: another id is 404 RESOURCE_NOT_FOUND; the provider failing is 502 PAYMENT_PROCESSING_ERROR. Public.',
      security: [],
      request: { query: AccountQuery },
      responses: { 302: { description: 'Redirect to a new onboarding link' }, ...errorResponses(404, 502) },
    }),
    async (c) => c.redirect((await newOnboardingLink(c.get('deps'), c.req.valid('query').account)).url, 302),
  );
