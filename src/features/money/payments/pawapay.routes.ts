// pawaPay (mobile money, CONTRACT section 29): the callback pawaPay POSTs when a deposit, payout or
// refund is final, and (outside production, without PAWAPAY_API_TOKEN) the local sandbox's approval
// page that stands in for the payer's phone: approve or refuse the PIN prompt.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createRouter, type AppEnv, type Deps } from '../../../env';
import { endpointNotFound, notFound } from '../../../errors';
import { errorResponses, jsonContent } from '../../../lib/openapi';
import { textAmount } from '../../../lib/message-text';
import { msg } from '../../../messages';
import { amountMinor, PawapaySandbox } from '../../../providers/mobile-money';
import { handleRailCallback } from '../mobile-money/callbacks';
import { sandboxPage } from './html';

const WebhookAckSchema = z.object({ received: z.boolean(), duplicate: z.boolean() });
const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

export const pawapayRouter = createRouter().openapi(
  createRoute({
    method: 'post',
    operationId: 'receivePawapayCallback',
    path: '/webhooks/pawapay',
    tags: ['Webhooks'],
    summary: 'pawaPay callbacks (deposits, payouts, refunds), verified by their RFC 9421 signature when configured',
    description:
      "pawaPay's callback for a deposit, payout or refund that reached a final status (COMPLETED or FAILED). With PAWAPAY_CALLBACK_PUBLIC_KEY the Content-Digest and the RFC 9421 Signature over it are verified (missing, wrong or older than 5 minutes: 401 UNAUTHORIZED); without it the body is only a hint and the operation's state is read back from pawaPay before anything is applied. A body that is no deposit, payout or refund is 400 INVALID_ARGUMENT. Each (operation, status) is applied once (a repeat answers duplicate true): a completed deposit moves the reservation from PENDING_PAYMENT to PAID (money into escrow), a failed one marks the payment FAILED; a payout completes or fails its withdrawal (the amount back in the wallet); a refund is recorded on its reservation. Operations not ours are acknowledged and ignored.",
    security: [],
    request: {
      headers: z.object({
        signature: z.string().optional().openapi({ description: 'RFC 9421 Signature (sig-pp=:...:)' }),
        'signature-input': z.string().optional(),
        'content-digest': z.string().optional().openapi({ description: 'RFC 9530 digest of the body (sha-256 or sha-512)' }),
      }),
    },
    responses: { 200: jsonContent(WebhookAckSchema, 'Callback accepted (applied now or before)'), ...errorResponses(400, 401) },
  }),
  async (c) => c.json(await handleRailCallback(c.get('deps'), 'PAWAPAY', await c.req.text(), c.req.raw.headers, new Date(), { method: 'POST', url: c.req.url }), 200),
);

/** The local pawaPay stand-in when the configuration chose it; 404 otherwise (never in production). */
function sandbox(deps: Deps): PawapaySandbox {
  if (deps.providers.mobileMoney.rail('PAWAPAY')?.mode !== 'SANDBOX') throw endpointNotFound('money.sandboxProviderNotActive');
  return new PawapaySandbox(deps.env.KV);
}

/** Hands every callback the sandbox queued to the callback handler, as pawaPay would POST them. */
export async function deliverSandboxCallbacks(deps: Deps): Promise<number> {
  if (deps.providers.mobileMoney.rail('PAWAPAY')?.mode !== 'SANDBOX') return 0;
  const bodies = await new PawapaySandbox(deps.env.KV).takeCallbacks();
  for (const body of bodies) await handleRailCallback(deps, 'PAWAPAY', body, new Headers()).catch((err) => console.error(JSON.stringify({ level: 'error', msg: 'sandbox callback not applied', error: String(err) })));
  return bodies.length;
}

const Params = z.object({ id: z.string().uuid().openapi({ param: { name: 'id', in: 'path' } }) });
const back = { description: 'Back to the deposit page' };

async function page(c: Context<AppEnv>, id: string) {
  const deposit = await sandbox(c.get('deps')).load('deposit', id);
  if (!deposit) throw notFound('Checkout session');
  const amount = textAmount(amountMinor(deposit.amount, deposit.currency), deposit.currency);
  const phone = `${deposit.payer?.accountDetails.provider ?? ''} +${deposit.payer?.accountDetails.phoneNumber ?? ''}`;
  const path = `/sandbox/pawapay/deposits/${encodeURIComponent(id)}`;
  return sandboxPage(
    c,
    'sandbox.pawapayTitle',
    deposit.status === 'ACCEPTED' ? msg('sandbox.pinPrompt', { phone, amount }) : msg('sandbox.waveText', { reference: deposit.clientReferenceId ?? id, amount }),
    deposit.status === 'ACCEPTED'
      ? [
          { action: `${path}/approve`, label: msg('sandbox.approve') },
          { action: `${path}/refuse`, label: msg('sandbox.refuse') },
        ]
      : { status: deposit.status, reason: deposit.failureReason?.failureCode },
  );
}

const decide = (approve: boolean) => async (deps: Deps, id: string) => {
  await sandbox(deps).decide(id, approve);
  await deliverSandboxCallbacks(deps);
  return `/sandbox/pawapay/deposits/${id}`;
};

export const pawapaySandboxRouter = createRouter()
  .openapi(
    createRoute({ method: 'get', operationId: 'sandboxPawapayDepositPage', path: '/sandbox/pawapay/deposits/{id}', tags: ['Sandbox'], summary: "Sandbox pawaPay PIN prompt (local runs without PAWAPAY_API_TOKEN)", description: "Stands in for the payer's phone: the deposit's amount and number, and while it waits the Approve and Refuse buttons. 404 ENDPOINT_NOT_FOUND unless the local pawaPay sandbox is the configured rail (never in production); an unknown deposit is 404 RESOURCE_NOT_FOUND.", security: [], request: { params: Params }, responses: { 200: html('HTML page'), ...errorResponses(404) } }),
    async (c) => page(c, c.req.valid('param').id),
  )
  .openapi(
    createRoute({ method: 'post', operationId: 'sandboxPawapayApprove', path: '/sandbox/pawapay/deposits/{id}/approve', tags: ['Sandbox'], summary: 'Sandbox: the payer approves the PIN prompt', description: 'The deposit becomes COMPLETED and its callback goes through the pawaPay callback handler (unless the number is one that never calls back, ending 129): the reservation becomes PAID. Redirects (303) to the page. 404 unless the local pawaPay sandbox is active.', security: [], request: { params: Params }, responses: { 303: back, ...errorResponses(404) } }),
    async (c) => c.redirect(await decide(true)(c.get('deps'), c.req.valid('param').id), 303),
  )
  .openapi(
    createRoute({ method: 'post', operationId: 'sandboxPawapayRefuse', path: '/sandbox/pawapay/deposits/{id}/refuse', tags: ['Sandbox'], summary: 'Sandbox: the payer refuses the PIN prompt', description: 'The deposit FAILED with PAYMENT_NOT_APPROVED and its callback goes through the handler: the payment is FAILED, the booking payable again before its deadline. Redirects (303) to the page. 404 unless the local pawaPay sandbox is active.', security: [], request: { params: Params }, responses: { 303: back, ...errorResponses(404) } }),
    async (c) => c.redirect(await decide(false)(c.get('deps'), c.req.valid('param').id), 303),
  );
