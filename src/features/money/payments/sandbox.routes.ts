// The local sandbox provider's pages (root paths, only without STRIPE_SECRET_KEY): a checkout page
// with "Pay" and "Cancel", and a Connect onboarding page. "Pay" signs a provider event with
// STRIPE_WEBHOOK_SECRET and hands it to the same webhook handler a real event goes through.
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../../env';
import { createRouter } from '../../../env';
import { endpointNotFound, notFound } from '../../../errors';
import { errorResponses } from '../../../lib/openapi';
import { textAmount } from '../../../lib/message-text';
import { msg } from '../../../messages';
import { SandboxPaymentProvider } from '../../../providers/payment';
import { signPayload, webhookSecrets } from '../../../providers/payment/webhook-signature';
import { sandboxPage } from './html';
import { handlePaymentWebhook } from './payments.webhook';

const notAvailable = () => endpointNotFound('money.sandboxProviderNotActive');

/** The request's payment provider when the configuration chose the sandbox; 404 otherwise. */
function sandbox(deps: Deps) {
  const provider = deps.providers.payment;
  if (!(provider instanceof SandboxPaymentProvider)) throw notAvailable();
  return provider;
}

/** The sandbox's checkout session, or 404. */
async function checkoutSession(provider: SandboxPaymentProvider, id: string) {
  const session = await provider.getSession(id);
  if (!session) throw notFound('Checkout session');
  return session;
}

async function sendSignedEvent(deps: Deps, type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_sandbox_${crypto.randomUUID().replace(/-/g, '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  });
  return handlePaymentWebhook(deps, payload, await signPayload(payload, webhookSecrets(deps.env.STRIPE_WEBHOOK_SECRET)[0] ?? ''));
}

/** Completes a sandbox checkout session as a card authorisation would. Used by the page and the seed. */
export async function paySandboxSession(deps: Deps, sessionId: string) {
  const provider = sandbox(deps);
  const session = await checkoutSession(provider, sessionId);
  // A closed session (its booking ended) cannot be paid: no event, the return page says why.
  if (session.status === 'expired') return session;
  if (session.status === 'open') await provider.authorize(session);
  await sendSignedEvent(deps, 'checkout.session.completed', {
    id: session.id,
    object: 'checkout.session',
    status: 'complete',
    payment_status: 'unpaid',
    payment_intent: session.paymentIntentId,
    amount_total: session.amountCents,
    currency: session.currency.toLowerCase(),
    metadata: { reservationId: String(session.reservationId) },
  });
  return session;
}

/** The refusal every sandbox route shares, for its description. */
const NA_TEXT = ' 404 ENDPOINT_NOT_FOUND unless the sandbox payment provider is the configured one (no STRIPE_SECRET_KEY; never in production)';

const SessionParams = z.object({ id: z.string().min(1).openapi({ param: { name: 'id', in: 'path' } }) });
const html = { description: 'HTML page', content: { 'text/html': { schema: z.string() } } };
const redirect = { description: 'Back to the service’s callback page' };

/** A public sandbox page or form target, keyed by the session's or the account's id (404 when unknown). */
const sandboxRoute = <M extends 'get' | 'post', P extends string>(
  operationId: string,
  method: M,
  path: P,
  summary: string,
  responses: { 200: typeof html } | { 303: typeof redirect },
  description: string,
) =>
  createRoute({
    method,
    operationId,
    path,
    tags: ['Sandbox'],
    summary,
    description,
    security: [],
    request: { params: SessionParams },
    responses: { ...responses, ...errorResponses(404) },
  });

export const sandboxRouter = createRouter()
  .openapi(
    sandboxRoute('sandboxCheckoutPage', 'get', '/sandbox/checkout/{id}', 'Sandbox checkout page (local runs without provider keys)', { 200: html }, "The page a sandbox checkout session's URL opens, standing in for Stripe's hosted checkout: the booking's description and amount in its currency's minor units, and while the session is open the Pay and Cancel buttons. 404 ENDPOINT_NOT_FOUND unless the sandbox payment provider is the configured one (no STRIPE_SECRET_KEY; never in production); an unknown session is 404 RESOURCE_NOT_FOUND."),
    async (c) => {
      const session = await checkoutSession(sandbox(c.get('deps')), c.req.valid('param').id);
      const id = encodeURIComponent(session.id);
      const text = msg('sandbox.cardText', { description: session.description, amount: textAmount(session.amountCents, session.currency) });
      return sandboxPage(
        c,
        'sandbox.cardTitle',
        text,
        session.status === 'open'
          ? [
              { action: `/sandbox/checkout/${id}/pay`, label: msg('sandbox.pay') },
              { action: `/sandbox/checkout/${id}/cancel`, label: msg('sandbox.cancel') },
            ]
          : { status: session.status },
      );
    },
  )
  .openapi(
    sandboxRoute('sandboxCheckoutPay', 'post', '/sandbox/checkout/{id}/pay', 'Sandbox "Pay": authorises the payment through the signed webhook path', { 303: redirect }, 'Marks the open session complete with a new payment intent, then sends checkout.session.completed, signed with STRIPE_WEBHOOK_SECRET, through the real webhook handler: the reservation becomes PAID exactly as with Stripe. An expired session (its booking ended) sends nothing. Then redirects (303) to the success return page, which says what happened. 404 ENDPOINT_NOT_FOUND unless the sandbox payment provider is the configured one (no STRIPE_SECRET_KEY; never in production).'),
    async (c) => {
      const session = await paySandboxSession(c.get('deps'), c.req.valid('param').id);
      return c.redirect(session.successUrl.replace('{CHECKOUT_SESSION_ID}', session.id), 303);
    },
  )
  .openapi(
    sandboxRoute('sandboxCheckoutCancel', 'post', '/sandbox/checkout/{id}/cancel', 'Sandbox "Cancel": leaves without paying', { 303: redirect }, 'Leaves the checkout without paying: nothing is sent and the reservation stays PENDING_PAYMENT until it is paid or expires. Redirects (303) to the cancel return page.' + NA_TEXT + '.'),
    async (c) => {
      const session = await checkoutSession(sandbox(c.get('deps')), c.req.valid('param').id);
      return c.redirect(session.cancelUrl.replace('{CHECKOUT_SESSION_ID}', session.id), 303);
    },
  )
  .openapi(
    sandboxRoute('sandboxConnectPage', 'get', '/sandbox/connect/{id}', 'Sandbox Connect onboarding page', { 200: html }, 'The page a sandbox onboarding link opens, standing in for Stripe Connect\'s: the connected account and a Complete button.' + NA_TEXT + '; an unknown account is 404 RESOURCE_NOT_FOUND.'),
    async (c) => {
      const account = await sandbox(c.get('deps')).retrieveAccount(c.req.valid('param').id).catch(() => null);
      if (!account) throw notFound('Connected account');
      return sandboxPage(c, 'sandbox.onboardingTitle', msg('sandbox.onboardingText', { id: account.id }), [
        { action: `/sandbox/connect/${encodeURIComponent(account.id)}/complete`, label: msg('sandbox.complete') },
      ]);
    },
  )
  .openapi(
    sandboxRoute('sandboxConnectComplete', 'post', '/sandbox/connect/{id}/complete', 'Sandbox "Complete": enables the account and sends account.updated through the webhook', { 303: redirect }, 'Enables payments and payouts on the sandbox connected account and sends the signed account.updated event through the real webhook handler, which stores the new state; withdrawals to it then work. Redirects (303) to GET /v1/api/pay-connect/return for that account.' + NA_TEXT + '; an unknown account is 404 RESOURCE_NOT_FOUND.'),
    async (c) => {
      const provider = sandbox(c.get('deps'));
      const id = c.req.valid('param').id;
      await provider.retrieveAccount(id).catch(() => {
        throw notFound('Connected account');
      });
      const account = await provider.completeOnboarding(id);
      await sendSignedEvent(c.get('deps'), 'account.updated', {
        id: account.id,
        object: 'account',
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        requirements: { currently_due: [] },
      });
      return c.redirect(`/v1/api/pay-connect/return?account=${encodeURIComponent(account.id)}`, 303);
    },
  );
