// Wave (mobile money, CONTRACT section 20): the signed webhook, the pages Wave sends the payer back
// to, and (outside production, without WAVE_API_KEY) the sandbox checkout page that stands in for
// Wave's: its buttons sign the event as Wave would and hand it to the same webhook handler.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, type Deps } from '../../../env';
import { endpointNotFound, notFound } from '../../../errors';
import { errorResponses, jsonContent } from '../../../lib/openapi';
import { textAmount } from '../../../lib/message-text';
import { msg } from '../../../messages';
import { amountMinor, SandboxMobileMoneyProvider, WaveRail } from '../../../providers/mobile-money';
import { returnPage, sandboxPage } from './html';
import { handleRailCallback } from '../mobile-money/callbacks';

const WebhookAckSchema = z.object({ received: z.boolean(), duplicate: z.boolean() });
const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const RETURN_TEXT = {
  success: ['page.waveSent', 'page.waveSentText'],
  error: ['page.paymentNotCompleted', 'page.waveErrorText'],
} as const;

export const waveRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'receiveWaveEvent',
      path: '/webhooks/wave',
      tags: ['Webhooks'],
      summary: 'Wave events (checkout.session.completed, checkout.session.payment_failed), authenticated by the Wave-Signature header on the raw body',
      description: 'Wave\'s events, verified by the Wave-Signature HMAC over the raw body with a 5-minute timestamp tolerance (missing, wrong or stale: 401 UNAUTHORIZED; a signed body that is no event 400 INVALID_ARGUMENT). Each event id is applied once (a repeat answers duplicate true). checkout.session.completed for a session this service opened, with the same amount and currency, moves the reservation from PENDING_PAYMENT to PAID (money into escrow, both parties notified); paid after the booking ended, the payment is refunded at once; payment_failed marks the payment FAILED and tells the sender. Other events and sessions not ours are acknowledged and ignored; an amount mismatch is reported, not applied.',
      security: [],
      request: { headers: z.object({ 'wave-signature': z.string().optional().openapi({ description: 't=<unix seconds>,v1=<HMAC-SHA256 hex>' }) }) },
      responses: { 200: jsonContent(WebhookAckSchema, 'Event accepted (applied now or before)'), ...errorResponses(401) },
    }),
    async (c) => c.json(await handleRailCallback(c.get('deps'), 'WAVE', await c.req.text(), c.req.raw.headers), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'waveReturnPage',
      path: '/payments/callback/wave/{outcome}',
      tags: ['Payments'],
      summary: "Browser page Wave sends the payer back to (success_url, error_url); the webhook, not this page, records the payment",
      description: 'The static page Wave sends the payer\'s browser back to: success says the payment is being confirmed, error that it did not go through and may be tried again before the reservation expires. It records nothing: the signed webhook alone moves the reservation to PAID. Public, HTML.',
      security: [],
      request: { params: z.object({ outcome: z.enum(['success', 'error']).openapi({ param: { name: 'outcome', in: 'path' } }) }) },
      responses: { 200: html('Result page'), ...errorResponses() },
    }),
    (c) => {
      const [title, text] = RETURN_TEXT[c.req.valid('param').outcome];
      return returnPage(c, title, text);
    },
  );

/** The request's mobile-money provider when the configuration chose the sandbox; 404 otherwise. */
function sandbox(deps: Deps) {
  const rail = deps.providers.mobileMoney.rail('WAVE');
  if (!(rail instanceof WaveRail) || !(rail.api instanceof SandboxMobileMoneyProvider)) throw endpointNotFound('money.sandboxProviderNotActive');
  return rail.api;
}

async function sandboxSession(deps: Deps, id: string) {
  return sandbox(deps)
    .session(id)
    .catch(() => {
      throw notFound('Checkout session');
    });
}

const SessionParams = z.object({ id: z.string().min(1).openapi({ param: { name: 'id', in: 'path' } }) });
const redirect = { description: 'Back to the success_url or error_url of the session' };

const sandboxRoute = <M extends 'get' | 'post', P extends string>(
  operationId: string,
  method: M,
  path: P,
  summary: string,
  ok: { 200: ReturnType<typeof html> } | { 303: typeof redirect },
  description: string,
) => createRoute({ method, operationId, path, tags: ['Sandbox'], summary, description, security: [], request: { params: SessionParams }, responses: { ...ok, ...errorResponses(404) } });

/** The sandbox's "Pay" or "Fail": the event Wave would send, signed, through the webhook handler. */
async function complete(deps: Deps, id: string, outcome: 'succeeded' | 'failed') {
  const session = await sandboxSession(deps, id);
  if (session.checkout_status === 'open') {
    const delivery = await sandbox(deps).completeCheckout(id, outcome);
    await handleRailCallback(deps, 'WAVE', delivery.rawBody, delivery.headers);
  }
  return outcome === 'succeeded' && session.checkout_status !== 'expired' ? session.success_url : session.error_url;
}

export const waveSandboxRouter = createRouter()
  .openapi(
    sandboxRoute('sandboxWaveCheckoutPage', 'get', '/sandbox/wave/checkout/{id}', 'Sandbox Wave checkout page (local runs without WAVE_API_KEY)', { 200: html('HTML page') }, "The page a sandbox Wave checkout's launch URL opens, standing in for Wave's: the reservation's reference and amount, and while the session is open the \"Pay with Wave\" and \"Fail\" buttons. 404 ENDPOINT_NOT_FOUND unless the Wave sandbox is the configured provider (never in production); an unknown session is 404 RESOURCE_NOT_FOUND."),
    async (c) => {
      const session = await sandboxSession(c.get('deps'), c.req.valid('param').id);
      const id = encodeURIComponent(session.id);
      const text = msg('sandbox.waveText', { reference: session.client_reference ?? session.id, amount: textAmount(amountMinor(session.amount, session.currency), session.currency) });
      return sandboxPage(
        c,
        'sandbox.waveTitle',
        text,
        session.checkout_status === 'open'
          ? [
              { action: `/sandbox/wave/checkout/${id}/pay`, label: msg('sandbox.payWithWave') },
              { action: `/sandbox/wave/checkout/${id}/fail`, label: msg('sandbox.fail') },
            ]
          : { status: session.checkout_status },
      );
    },
  )
  .openapi(
    sandboxRoute('sandboxWaveCheckoutPay', 'post', '/sandbox/wave/checkout/{id}/pay', 'Sandbox "Pay with Wave": a signed checkout.session.completed through the Wave webhook handler', { 303: redirect }, 'Completes an open sandbox session as paid and hands the event, signed with the webhook secret as Wave signs it, to the Wave webhook handler: the reservation becomes PAID exactly as with Wave. Then redirects (303) to the session\'s success_url (its error_url when the session had expired). A session no longer open is only redirected. 404 unless the Wave sandbox is active.'),
    async (c) => c.redirect(await complete(c.get('deps'), c.req.valid('param').id, 'succeeded'), 303),
  )
  .openapi(
    sandboxRoute('sandboxWaveCheckoutFail', 'post', '/sandbox/wave/checkout/{id}/fail', 'Sandbox "Fail": a signed checkout.session.payment_failed through the Wave webhook handler', { 303: redirect }, 'Fails an open sandbox session and hands the signed checkout.session.payment_failed event to the Wave webhook handler: the reservation stays PENDING_PAYMENT with its payment FAILED, and the sender may try again before it expires. Then redirects (303) to the session\'s error_url. 404 unless the Wave sandbox is active.'),
    async (c) => c.redirect(await complete(c.get('deps'), c.req.valid('param').id, 'failed'), 303),
  );
