// Payments: checkout session, payment status, browser callbacks, and the provider webhook.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createRouter, type AppEnv } from '../../../env';
import { authErrorResponses, errorResponses, jsonBody, jsonContent, signedIn } from '../../../lib/openapi';
import { decimalInt, pathId } from '../../../validation';
import { PAYMENT_METHODS } from '../../../db/schema';
import { OPERATOR_CODES } from '../../../providers/mobile-money';
import { returnPage } from './html';
import type { KeyWithoutParams } from '../../../messages';
import { checkoutReturned, createCheckout, listPaymentMethods, paymentStatus, reservationPaymentMethods, type CallbackOutcome } from './payments.service';
import { handlePaymentWebhook } from './payments.webhook';
import { idempotent } from '../../../middleware/idempotency';
import { ProviderPaymentStatusSchema, ReservationStatusSchema } from '../../reservations/reservation.schemas';

const Limits = z.object({ min: z.number(), max: z.number().nullable().openapi({ description: 'null: no stated maximum' }) }).openapi('AmountLimits');
const CheckoutBody = z
  .object({
    reservationId: z.number().int().min(1).max(2_147_483_647),
    method: z.enum(PAYMENT_METHODS).optional().openapi({ description: 'CARD (default, Stripe) or MOBILE_MONEY: see GET /payments/methods' }),
    provider: z
      .enum(OPERATOR_CODES)
      .optional()
      .openapi({ description: 'MOBILE_MONEY only: the operator (WAVE, MTN_MOMO_CMR, ORANGE_CMR, MTN_MOMO_CIV, ORANGE_CIV, ORANGE_SEN; GET /payments/methods lists them). Default WAVE for XOF', example: 'MTN_MOMO_CMR' }),
    phone: z.string().min(6).max(32).optional().openapi({ description: 'MOBILE_MONEY only: the paying number (E.164); required where the payer approves a PIN prompt on the phone', example: '+237677123456' }),
  })
  .openapi('CheckoutRequest');
const PaymentMethodsSchema = z
  .object({
    methods: z.array(
      z.object({
        method: z.enum(PAYMENT_METHODS),
        provider: z.string().openapi({ description: 'STRIPE for CARD; the mobile-money operator (WAVE, MTN_MOMO_CMR, ORANGE_CIV, ...)' }),
        currencies: z.array(z.string()).openapi({ description: 'ISO 4217 codes this method takes' }),
        displayName: z.string().optional().openapi({ description: 'The operator as people know it (MTN, Orange, Wave)' }),
        countries: z.array(z.string()).optional().openapi({ description: 'ISO 3166-1 alpha-2 countries the operator serves' }),
        payIn: Limits.nullable().optional().openapi({ description: 'Pays in (checkout), within these amounts; null: it does not' }),
        payout: Limits.nullable().optional().openapi({ description: 'Pays out (withdrawals to a payout account), within these amounts; null: it does not' }),
        decimals: z.number().int().optional().openapi({ description: 'Decimals the operator accepts in an amount (XOF, XAF: 0)' }),
        approval: z.enum(['REDIRECT', 'PIN_PROMPT']).optional().openapi({ description: 'REDIRECT: open paymentApprovalUrl; PIN_PROMPT: the payer approves on the phone' }),
      }),
    ),
  })
  .openapi('PaymentMethods');
const MethodsQuery = z.object({
  reservationId: decimalInt(z.number().int().min(1).max(2_147_483_647)).optional().openapi({ param: { name: 'reservationId', in: 'query' }, type: 'integer' }),
  currency: z.string().regex(/^[A-Z]{3}$/).optional().openapi({ param: { name: 'currency', in: 'query' }, example: 'XAF' }),
  country: z.string().regex(/^[A-Z]{2}$/).optional().openapi({ param: { name: 'country', in: 'query' }, example: 'CM' }),
});
const CheckoutSchema = z
  .object({
    paymentId: z.string().openapi({ description: 'Checkout session id (mobile money: the pay-in id, a UUID for pawaPay)' }),
    paymentApprovalUrl: z.string().nullable().openapi({ description: 'Hosted payment page to open in the browser; null when the payer approves a PIN prompt on the phone' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    status: z.enum(['PENDING']).optional().openapi({ description: 'MOBILE_MONEY: the pay-in waits for the payer; GET /payments/{reservationId}/status follows it' }),
    provider: z.string().optional().openapi({ description: 'MOBILE_MONEY: the operator' }),
    approval: z.enum(['REDIRECT', 'PIN_PROMPT']).optional(),
  })
  .openapi('CheckoutSession');
const PaymentStatusSchema = z
  .object({
    reservationId: z.number().int(),
    paymentId: z.string().nullable(),
    paymentStatus: ProviderPaymentStatusSchema.nullable(),
    reservationStatus: ReservationStatusSchema,
  })
  .openapi('PaymentStatus');
const WebhookAckSchema = z.object({ received: z.boolean(), duplicate: z.boolean() }).openapi('WebhookAck');
const CallbackQuery = z.object({
  session_id: z.string().min(1).openapi({ param: { name: 'session_id', in: 'query' } }),
});
const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const CALLBACK_TEXT = {
  AUTHORIZED: ['page.paymentAuthorized', 'page.paymentAuthorizedText'],
  NOT_COMPLETED: ['page.paymentNotCompleted', 'page.paymentNotCompletedText'],
  BOOKING_ENDED: ['page.bookingEnded', 'page.bookingEndedText'],
  CANCELLED: ['page.paymentCancelled', 'page.paymentCancelledText'],
  UNKNOWN: ['page.sessionUnknown', 'page.sessionUnknownText'],
} as const satisfies Record<CallbackOutcome, readonly [KeyWithoutParams, KeyWithoutParams]>;

/** A browser return page from the checkout: public, keyed by the provider's session id. */
const callbackRoute = <P extends string>(operationId: string, path: P, summary: string, description: string) =>
  createRoute({
    method: 'get',
    operationId,
    path,
    tags: ['Payments'],
    summary,
    description,
    security: [],
    request: { query: CallbackQuery },
    responses: { 200: html('Result page'), ...errorResponses() },
  });

/** What the return page says: what happened to the booking, re-checked with the provider. */
async function callbackPage(c: Context<AppEnv>, sessionId: string, cancelled: boolean) {
  const { outcome } = await checkoutReturned(c.get('deps'), sessionId, cancelled);
  const [title, text] = CALLBACK_TEXT[outcome];
  return returnPage(c, title, text);
}

export const paymentsRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createCheckout',
      path: '/payments/checkout',
      tags: ['Payments'],
      summary: 'Open a hosted checkout session (manual capture) for a PENDING_PAYMENT reservation (sender only)',
      description: 'Opens a hosted checkout for the reservation\'s total (the transport price, plus the protection premium as its own line): CARD with Stripe, the card only authorised (captured when the carrier takes the parcel at deposit), or MOBILE_MONEY with Wave for XOF. The sender opens paymentApprovalUrl; the payment is applied by the provider\'s webhook, which moves the reservation to PAID. An open session of the same method is handed back again rather than a second one. Only the sender (anyone else 403 ACCESS_DENIED); a reservation not PENDING_PAYMENT, or past its 30-minute payment window, is 409 INVALID_STATE; a method not offered for its currency 422 BUSINESS_RULE_VIOLATION; the provider refusing 402 PAYMENT_ERROR, failing 502 PAYMENT_PROCESSING_ERROR; a provider whose new checkouts the operators have paused (an incident) 503 PAYMENT_PROCESSING_ERROR with Retry-After, nothing charged.',
      ...signedIn(),
      request: { body: jsonBody(CheckoutBody) },
      responses: {
        200: jsonContent(CheckoutSchema, 'Checkout session (a page to open)'),
        202: jsonContent(CheckoutSchema, 'Mobile-money pay-in PENDING: the payer approves the PIN prompt on the phone; a callback or status check settles it'),
        ...authErrorResponses(402, 404, 409, 422, 502, 503),
      },
    })),
    async (c) => {
      const body = c.req.valid('json');
      const session = await createCheckout(c.get('deps'), c.get('auth'), body.reservationId, body.method, { provider: body.provider, phone: body.phone });
      return 'approval' in session && session.approval === 'PIN_PROMPT' ? c.json(session, 202) : c.json(session, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listPaymentMethods',
      path: '/payments/methods',
      tags: ['Payments'],
      summary: 'Payment methods: for a reservation (reservationId), or per currency and country',
      description: 'With reservationId: the methods the reservation\'s currency can be paid with (its sender only, anyone else 403 ACCESS_DENIED; an unknown reservation 404). Else every method, narrowed by currency and country: CARD (Stripe) in every enabled currency, and MOBILE_MONEY per operator (WAVE for XOF; MTN_MOMO_CMR, ORANGE_CMR in XAF; MTN_MOMO_CIV, ORANGE_CIV, ORANGE_SEN in XOF through pawaPay), each with its countries, whether and within what amounts it pays in and pays out, its decimals and how the payer approves.',
      ...signedIn(),
      request: { query: MethodsQuery },
      responses: { 200: jsonContent(PaymentMethodsSchema, 'Payment methods'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const deps = c.get('deps');
      return c.json(q.reservationId ? await reservationPaymentMethods(deps, c.get('auth'), q.reservationId) : await listPaymentMethods(deps, q), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getPaymentStatus',
      path: '/payments/{reservationId}/status',
      tags: ['Payments'],
      summary: 'Payment status of a reservation (parties and admins)',
      description: 'The reservation\'s payment as the provider left it: the checkout session id and the payment status (PENDING, AUTHORIZED, CAPTURED, VOIDED, REFUNDED, ... as the field lists), with the reservation\'s status. Apps poll it after the checkout page closes. The reservation\'s sender, its carrier side and admins (anyone else 403 ACCESS_DENIED); an unknown reservation is 404.',
      ...signedIn(),
      request: { params: z.object({ reservationId: pathId('reservationId') }) },
      responses: { 200: jsonContent(PaymentStatusSchema, 'Payment status'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await paymentStatus(c.get('deps'), c.get('auth'), c.req.valid('param').reservationId), 200),
  )
  .openapi(callbackRoute(
      'checkoutSuccessPage',
      '/payments/callback/success',
      'Browser return page after checkout; re-checks the session with the provider',
      "Where the card checkout sends the payer's browser back (its session_id in the query). The session is read from the provider, not trusted from the URL: a completed one is applied like the webhook would (PENDING_PAYMENT to PAID, once), and the page says whether the payment is held, not completed, or the booking ended meanwhile (a late hold is then released). An unknown session gets a page saying so. Public, HTML.",
    ), (c) => callbackPage(c, c.req.valid('query').session_id, false))
  .openapi(callbackRoute(
      'checkoutCancelPage',
      '/payments/callback/cancel',
      'Browser page after an abandoned checkout; re-checks the session with the provider',
      'Where the card checkout sends the browser when the payer leaves it. The session is still read from the provider: if it was paid after all the payment is applied, else the page says that no money was taken and the booking can be paid again before it expires. Public, HTML.',
    ), (c) => callbackPage(c, c.req.valid('query').session_id, true))
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'receivePaymentProviderEvent',
      path: '/webhooks/payment-provider',
      tags: ['Webhooks'],
      summary: 'Payment-provider events (Stripe), authenticated by the Stripe-Signature header on the raw body',
      description: 'Stripe\'s events, verified by the Stripe-Signature HMAC over the raw body (missing or wrong: 401 UNAUTHORIZED; a body that is no event 400 INVALID_ARGUMENT). Each event id is applied once (a repeat answers duplicate true): checkout.session.completed and payment_intent.amount_capturable_updated authorise (PENDING_PAYMENT to PAID, the price into escrow, both parties notified); payment_intent.succeeded marks the capture; payment_failed, canceled and checkout.session.expired record their outcome; charge.refunded, charge.refund.updated and refund.updated make a pending refund ask Stripe where it stands (confirmed: the line COMPLETED, its credit note, the sender told); account.updated refreshes a connected account. Events for objects that are not ours are acknowledged and ignored.',
      security: [],
      request: {
        headers: z.object({ 'stripe-signature': z.string().optional().openapi({ description: 't=<timestamp>,v1=<HMAC-SHA256>' }) }),
      },
      responses: {
        200: jsonContent(WebhookAckSchema, 'Event accepted (applied now or before)'),
        ...errorResponses(401),
      },
    }),
    async (c) => {
      const raw = await c.req.text();
      return c.json(await handlePaymentWebhook(c.get('deps'), raw, c.req.header('stripe-signature')), 200);
    },
  );
