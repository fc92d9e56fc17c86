// Money (CONTRACT section 10): checkout through the real Stripe SDK against a fake Stripe API,
// the signed webhook, escrow (capture, release, void, refund), the ledger's invariants,
// wallets, transactions and receipts, withdrawals (including concurrent ones), Connect
// onboarding, the cron, and the local sandbox provider.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { getDb } from '../src/db/client';
import { ledgerEntries, notifications, payoutAccounts, reservations, withdrawals } from '../src/db/schema';
import { transitionReservation } from '../src/features/bookings/reservation-transition';
import {
  captureOnDeposit,
  cancellationRefundCents,
  releaseForReservation,
  releaseOnDelivery,
  voidOrRefund,
} from '../src/features/payments/escrow.service';
import { userWalletFigures } from '../src/features/wallet/wallet.service';
import worker from '../src/index';
import { FakeStripe, stripeSignature } from './helpers/fake-stripe';
import { call, errorBody, get, post, put } from './helpers/http';
import {
  accountBalance,
  createBooking,
  ledgerInvariantViolations,
  linkPayoutAccount,
  reservation,
  reservationMoney,
  walletKey,
} from './helpers/money-fixtures';
import { type TestUser, aUser, tokenFor, aCarrier, anAdmin } from './helpers/factories';
import { accountBalance, walletKey, reservationMoney, ledgerInvariantViolations } from './helpers/money';

const stripe = new FakeStripe();
const db = getDb(env);

beforeAll(() => stripe.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => stripe.server.close());

const WEBHOOK = '/v1/api/webhooks/payment-provider';

async function sendRaw(payload: string, signature?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (signature !== undefined) headers['Stripe-Signature'] = signature;
  return call('POST', WEBHOOK, { raw: payload, headers });
}

async function sendEvent(event: object) {
  const payload = JSON.stringify(event);
  return sendRaw(payload, await stripeSignature(payload));
}

/** A booking paid by card (authorised, not captured) through the webhook. */
async function paidBooking(sender: TestUser, carrier: TestUser | { id: number }, options: Parameters<typeof createBooking>[2] = {}) {
  const booking = await createBooking(sender, carrier, options);
  const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
  const res = await sendEvent(stripe.event('payment_intent.amount_capturable_updated', pi));
  expect(res.status).toBe(200);
  return { booking: await reservation(booking.id), pi };
}

async function deliver(id: number) {
  await transitionReservation(db, id, 'ACCEPT');
  await transitionReservation(db, id, 'DEPOSIT');
  await captureOnDeposit(env, id);
  return releaseOnDelivery(env, id, { action: 'DELIVER', set: { deliveredAt: new Date().toISOString() } });
}

async function runCron(time = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: time, cron: '*/5 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe('checkout (POST /payments/checkout)', () => {
  it('opens a manual-capture Checkout Session in cents with an idempotency key per reservation', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const booking = await createBooking(sender, carrier, { weightG: 4000, pricePerKgCents: 1250 });
    const before = stripe.requests.length;

    const res = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });

    expect(res.status).toBe(200);
    expect(res.body.paymentId).toMatch(/^cs_test_/);
    expect(res.body.paymentApprovalUrl).toBe(`https://checkout.stripe.com/c/pay/${res.body.paymentId}`);
    const expires = Date.parse(res.body.expiresAt);
    expect(expires - Date.now()).toBeGreaterThan(30 * 60_000);
    expect(expires - Date.now()).toBeLessThan(33 * 60_000);

    const sent = stripe.requests.slice(before);
    expect(sent).toHaveLength(1);
    const [req] = sent;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/checkout/sessions');
    expect(req.idempotencyKey).toBe(`checkout-${booking.id}-1`);
    expect(req.body.mode).toBe('payment');
    expect(req.body.line_items[0].price_data.unit_amount).toBe('5000'); // 4 kg x 12.50 EUR
    expect(req.body.line_items[0].price_data.currency).toBe('eur');
    expect(req.body.line_items[0].quantity).toBe('1');
    expect(req.body.payment_intent_data.capture_method).toBe('manual');
    expect(req.body.payment_intent_data.metadata.reservationId).toBe(String(booking.id));
    expect(req.body.metadata.reservationId).toBe(String(booking.id));
    expect(req.body.customer_email).toBe(sender.email);
    expect(req.body.success_url).toContain('/v1/api/payments/callback/success?session_id={CHECKOUT_SESSION_ID}');

    const stored = await reservation(booking.id);
    expect(stored).toMatchObject({ paymentId: res.body.paymentId, paymentApprovalUrl: res.body.paymentApprovalUrl, paymentStatus: 'PENDING' });
  });

  it('honours Idempotency-Key: a replay returns the first answer untouched; another body with the key is 409', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const other = await createBooking(sender, await aCarrier());
    const headers = { 'Idempotency-Key': `pay-${crypto.randomUUID()}` };
    const first = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token, headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const before = stripe.requests.length;
    const replay = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token, headers });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const conflict = await post('/v1/api/payments/checkout', { reservationId: other.id }, { token: sender.token, headers });
    expect(conflict.status).toBe(409);
    expect(errorBody(conflict)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    expect(stripe.requests.length).toBe(before);
    expect((await reservation(other.id)).paymentId).toBeNull();
  });

  it('asking again while the session is open returns the same session without a new provider call', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const first = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });
    const before = stripe.requests.length;
    const second = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(stripe.requests.length).toBe(before);
  });

  it('only the sender may pay; only a PENDING_PAYMENT reservation; unknown ids are 404', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const booking = await createBooking(sender, carrier);
    const stranger = await aUser();

    const byCarrier = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: carrier.token });
    expect(byCarrier.status).toBe(403);
    expect(errorBody(byCarrier)).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED', path: '/v1/api/payments/checkout' });
    expect((await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: stranger.token })).status).toBe(403);

    const { booking: paid } = await paidBooking(sender, carrier);
    const again = await post('/v1/api/payments/checkout', { reservationId: paid.id }, { token: sender.token });
    expect(again.status).toBe(409);
    expect(errorBody(again)).toMatchObject({ errorCode: 'INVALID_STATE' });

    const missing = await post('/v1/api/payments/checkout', { reservationId: 999_999 }, { token: sender.token });
    expect(missing.status).toBe(404);
    expect(errorBody(missing)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('after the payment deadline no session is opened: 409 INVALID_STATE', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    await db.update(reservations).set({ paymentDeadline: new Date(Date.now() - 1000).toISOString() }).where(eq(reservations.id, booking.id));
    const before = stripe.requests.length;
    const res = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });
    expect(res.status).toBe(409);
    expect(errorBody(res)).toMatchObject({ errorCode: 'INVALID_STATE', message: `The payment window of reservation ${booking.id} has closed` });
    expect(stripe.requests.length).toBe(before);
  });

  it('a bad body is 400 VALIDATION_ERROR and no token is 401', async () => {
    const sender = await aUser();
    const bad = await post('/v1/api/payments/checkout', { reservationId: 'x' }, { token: sender.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [expect.objectContaining({ field: 'reservationId', rejectedValue: 'x' })],
    });
    const anonymous = await post('/v1/api/payments/checkout', { reservationId: 1 });
    expect(anonymous.status).toBe(401);
    expect(errorBody(anonymous)).toMatchObject({ errorCode: 'UNAUTHORIZED' });
  });

  it('a provider outage is 502 PAYMENT_PROCESSING_ERROR', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    stripe.outage.add('/v1/checkout/sessions');
    try {
      const res = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });
      expect(res.status).toBe(502);
      expect(errorBody(res)).toMatchObject({ status: 502, errorCode: 'PAYMENT_PROCESSING_ERROR' });
    } finally {
      stripe.outage.delete('/v1/checkout/sessions');
    }
  });
});

describe('webhook (POST /webhooks/payment-provider)', () => {
  it('checkout.session.completed authorises: PAID, ids filled, escrow booked, both parties notified, status endpoint agrees', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const booking = await createBooking(sender, carrier);
    const checkout = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });
    const { session, paymentIntent } = stripe.completeCheckout(checkout.body.paymentId);

    const res = await sendEvent(stripe.event('checkout.session.completed', session));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });
    const paid = await reservation(booking.id);
    expect(paid).toMatchObject({
      status: 'PAID',
      paymentId: session.id,
      authorizationId: paymentIntent.id,
      paymentStatus: 'AUTHORIZED',
      invoiceId: `INV-${booking.reservationNumber}`,
    });
    expect(paid.paymentDate).not.toBeNull();
    expect(paid.invoiceUrl).toMatch(/\/v1\/api\/transactions\/\d+\/receipt$/);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 5000, PROVIDER_CLEARING: -5000, WALLET: 0 });
    const notes = await db.select().from(notifications).where(sql`json_extract(${notifications.data}, '$.reservationId') = ${booking.id}`);
    expect(notes.map((n) => [n.userId, n.type]).sort()).toEqual(
      [
        [sender.id, 'PAYMENT_AUTHORIZED'],
        [carrier.id, 'RESERVATION_PAID'],
      ].sort(),
    );

    const status = await get(`/v1/api/payments/${booking.id}/status`, { token: carrier.token });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ reservationId: booking.id, paymentId: session.id, paymentStatus: 'AUTHORIZED', reservationStatus: 'PAID' });
    expect((await get(`/v1/api/payments/${booking.id}/status`, { token: (await aUser()).token })).status).toBe(403);
    expect((await get(`/v1/api/payments/${booking.id}/status`, { token: (await anAdmin()).token })).status).toBe(200);
    const mismatch = await get('/v1/api/payments/abc/status', { token: sender.token });
    expect(mismatch.status).toBe(400);
    expect(errorBody(mismatch)).toMatchObject({ errorCode: 'TYPE_MISMATCH' });
  });

  it('the same event twice is applied once', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    const event = stripe.event('payment_intent.amount_capturable_updated', pi);

    const first = await sendEvent(event);
    const second = await sendEvent(event);

    expect(first.body).toEqual({ received: true, duplicate: false });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ received: true, duplicate: true });
    expect((await reservationMoney(booking.id)).entries).toEqual([{ key: `escrow-in:${booking.id}`, type: 'PAYMENT_ESCROWED' }]);
    const notes = await db.select().from(notifications).where(sql`json_extract(${notifications.data}, '$.reservationId') = ${booking.id}`);
    expect(notes).toHaveLength(2);
  });

  it('two different events of one authorisation (session completed + amount capturable) converge', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const checkout = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });
    const { session, paymentIntent } = stripe.completeCheckout(checkout.body.paymentId);
    await Promise.all([
      sendEvent(stripe.event('payment_intent.amount_capturable_updated', paymentIntent)),
      sendEvent(stripe.event('checkout.session.completed', session)),
    ]);
    expect(await reservation(booking.id)).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED', paymentId: session.id });
    expect((await reservationMoney(booking.id)).entries).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a capture event arriving before the authorisation event ends in the same state', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    const authorised = stripe.event('payment_intent.amount_capturable_updated', pi);
    const captured = stripe.event('payment_intent.succeeded', { ...pi, status: 'succeeded', amount_received: pi.amount, latest_charge: 'ch_early' });

    expect((await sendEvent(captured)).status).toBe(200);
    expect((await sendEvent(authorised)).status).toBe(200);

    expect(await reservation(booking.id)).toMatchObject({
      status: 'PAID',
      authorizationId: pi.id,
      captureId: 'ch_early',
      paymentStatus: 'CAPTURED',
    });
    expect((await reservationMoney(booking.id)).entries).toHaveLength(1);
    expect((await reservationMoney(booking.id)).ESCROW).toBe(booking.totalAmountCents);
  });

  it('a failed payment keeps the reservation payable and tells the sender', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const res = await sendEvent(stripe.event('payment_intent.payment_failed', { id: 'pi_failed_1', object: 'payment_intent', metadata: { reservationId: String(booking.id) } }));
    expect(res.status).toBe(200);
    expect(await reservation(booking.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'FAILED' });
    const [note] = await db.select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(note.type).toBe('PAYMENT_FAILED');
  });

  it('events about unknown reservations are acknowledged and ignored', async () => {
    const pi = stripe.authorizedPaymentIntent(1000, 'eur', { reservationId: '99999999' });
    const res = await sendEvent(stripe.event('payment_intent.amount_capturable_updated', pi));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });
    const foreign = await sendEvent(stripe.event('payment_intent.succeeded', { id: 'pi_other_integration', object: 'payment_intent', metadata: {} }));
    expect(foreign.status).toBe(200);
  });

  it('an authorisation for a reservation that expired meanwhile is voided, not booked', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier(), { status: 'EXPIRED' });
    const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    await sendEvent(stripe.event('payment_intent.amount_capturable_updated', pi));
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('canceled');
    expect(await reservation(booking.id)).toMatchObject({ status: 'EXPIRED', paymentStatus: 'VOIDED' });
    expect((await reservationMoney(booking.id)).entries).toEqual([]);
  });

  describe('refused deliveries answer 401 UNAUTHORIZED with the error body', () => {
    const payload = () => JSON.stringify(stripe.event('payment_intent.amount_capturable_updated', { id: 'pi_x', object: 'payment_intent', metadata: {} }));
    const expectUnauthorized = (res: Awaited<ReturnType<typeof sendRaw>>) => {
      expect(res.status).toBe(401);
      expect(errorBody(res)).toEqual({
        status: 401,
        errorCode: 'UNAUTHORIZED',
        message: 'Invalid webhook signature',
        path: WEBHOOK,
        suggestions: ['Sign the raw body with the endpoint secret; timestamps older than 300 s are refused'],
      });
    };

    it('no signature header', async () => expectUnauthorized(await sendRaw(payload())));

    it('a tampered body', async () => {
      const body = payload();
      const signature = await stripeSignature(body);
      expectUnauthorized(await sendRaw(body.replace('pi_x', 'pi_y'), signature));
    });

    it('a signature made with another secret', async () => {
      const body = payload();
      expectUnauthorized(await sendRaw(body, await stripeSignature(body, { secret: 'whsec_someone_else' })));
    });

    it('a timestamp older than 300 s', async () => {
      const body = payload();
      const old = Math.floor(Date.now() / 1000) - 301;
      expectUnauthorized(await sendRaw(body, await stripeSignature(body, { timestamp: old })));
    });

    it('nothing is stored for a refused event', async () => {
      const body = payload();
      const id = JSON.parse(body).id;
      await sendRaw(body, await stripeSignature(body, { secret: 'whsec_nope' }));
      const row = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM payment_events WHERE id = ${id}`);
      expect(row?.n).toBe(0);
    });
  });

  it('a well-signed body that is not an event is 400 INVALID_ARGUMENT', async () => {
    for (const body of ['{not json', JSON.stringify({ hello: 'world' })]) {
      const res = await sendRaw(body, await stripeSignature(body));
      expect(res.status).toBe(400);
      expect(errorBody(res)).toMatchObject({ status: 400, errorCode: 'INVALID_ARGUMENT', fieldErrors: [] });
    }
  });

  it('the webhook is public in the OpenAPI document', async () => {
    const doc = await get('/v1/api/openapi.json');
    const op = doc.body.paths['/v1/api/webhooks/payment-provider'].post;
    expect(op.security).toEqual([]);
    for (const path of ['/v1/api/payments/checkout', '/v1/api/user/me/wallet', '/v1/api/withdrawals', '/v1/api/withdrawals/auto', '/v1/api/transactions/{id}/receipt', '/v1/api/pay-connect/can-receive-payments']) {
      expect(doc.body.paths[path], path).toBeDefined();
    }
  });
});

describe('escrow', () => {
  it('capture at deposit keeps the money in escrow; delivery releases carrier amount and commission, once', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const { booking, pi } = await paidBooking(sender, carrier);
    await transitionReservation(db, booking.id, 'ACCEPT');
    await transitionReservation(db, booking.id, 'DEPOSIT');
    const before = stripe.requests.length;

    expect(await captureOnDeposit(env, booking.id)).toBe(true);
    expect(await captureOnDeposit(env, booking.id)).toBe(true); // idempotent, no second call

    const captures = stripe.requests.slice(before);
    expect(captures).toHaveLength(1);
    expect(captures[0]).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${pi.id}/capture`, idempotencyKey: `capture-${booking.id}` });
    const captured = await reservation(booking.id);
    expect(captured).toMatchObject({ paymentStatus: 'CAPTURED', captureId: stripe.paymentIntents.get(pi.id)!.latest_charge });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(5000);

    const walletBefore = await accountBalance(walletKey(carrier.id));
    const revenueBefore = await accountBalance('PLATFORM_REVENUE');
    const delivered = await releaseOnDelivery(env, booking.id, { action: 'DELIVER' });
    expect(delivered.status).toBe('DELIVERED');
    expect(await accountBalance(walletKey(carrier.id))).toBe(walletBefore + 4250);
    expect(await accountBalance('PLATFORM_REVENUE')).toBe(revenueBefore + 750);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, WALLET: 4250, PLATFORM_REVENUE: 750, PROVIDER_CLEARING: -5000 });

    // A second delivery is a 409 and moves nothing; a bare release of a delivered reservation is a no-op.
    await expect(releaseOnDelivery(env, booking.id, { action: 'DELIVER' })).rejects.toMatchObject({ errorCode: 'INVALID_STATE' });
    await releaseOnDelivery(env, booking.id, null);
    expect(await accountBalance(walletKey(carrier.id))).toBe(walletBefore + 4250);
    const [note] = await db.select().from(notifications).where(sql`${notifications.userId} = ${carrier.id} AND ${notifications.type} = 'FUNDS_RELEASED'`);
    expect(note.message).toContain('42.50 EUR');
  });

  it('the deposit scan captures the payment and answers with it captured; a capture outage still deposits', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const scan = async (id: number) => {
      const qr = await get(`/v1/api/bookings/${id}/qrcode/deposit`, { token: sender.token });
      expect(qr.status).toBe(200);
      return post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: carrier.token });
    };

    const { booking, pi } = await paidBooking(sender, carrier);
    await transitionReservation(db, booking.id, 'ACCEPT');
    const res = await scan(booking.id);
    expect(res.status).toBe(200);
    const chargeId = stripe.paymentIntents.get(pi.id)!.latest_charge;
    expect(res.body).toMatchObject({ id: booking.id, status: 'DEPOSITED', paymentStatus: 'CAPTURED', captureId: chargeId });
    expect(res.headers.get('x-d1-round-trips')).toBe('2'); // the handover batch, then the capture
    expect(await reservation(booking.id)).toMatchObject({ status: 'DEPOSITED', paymentStatus: 'CAPTURED', captureId: chargeId });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(booking.totalAmountCents);
    const notes = await db.select().from(notifications).where(sql`${notifications.userId} = ${sender.id} AND ${notifications.type} = 'RESERVATION_DEPOSITED'`);
    expect(notes.map((n) => [n.message, n.data])).toEqual([
      [`Your parcel for reservation ${booking.reservationNumber} was handed over to the carrier.`, { reservationId: booking.id }],
    ]);

    // The provider is down: the parcel is still handed over; the payment stays authorised for the cron.
    const second = await paidBooking(sender, carrier);
    await transitionReservation(db, second.booking.id, 'ACCEPT');
    const capturePath = `/v1/payment_intents/${second.pi.id}/capture`;
    stripe.outage.add(capturePath);
    try {
      const down = await scan(second.booking.id);
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ status: 'DEPOSITED', paymentStatus: 'AUTHORIZED', captureId: null });
    } finally {
      stripe.outage.delete(capturePath);
    }
    expect(await captureOnDeposit(env, second.booking.id)).toBe(true);
  });

  it("an agency's trip is paid into the agency wallet", async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const { booking } = await paidBooking(sender, carrier, { agencyId: 77 });
    await deliver(booking.id);
    expect(await accountBalance('WALLET:AGENCY:77')).toBe(4250);
    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
  });

  it('rejection before capture voids the authorisation and returns the escrow', async () => {
    const sender = await aUser();
    const { booking, pi } = await paidBooking(sender, await aCarrier());
    const before = stripe.requests.length;

    const rejected = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' });

    expect(rejected).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    const calls = stripe.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ path: `/v1/payment_intents/${pi.id}/cancel`, idempotencyKey: `void-${booking.id}` });
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('canceled');
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
    // Twice: 409, nothing moves, no second provider call.
    await expect(voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' })).rejects.toMatchObject({ errorCode: 'INVALID_STATE' });
    expect(stripe.requests.length).toBe(before + 1);
  });

  it('a sender cancelling after CONFIRMED gets all but the commission: partial capture of the commission only', async () => {
    const sender = await aUser();
    const { booking, pi } = await paidBooking(sender, await aCarrier());
    await transitionReservation(db, booking.id, 'ACCEPT');
    const refund = cancellationRefundCents(booking, 'CONFIRMED', 'SENDER');
    expect(refund).toBe(4250);
    const before = stripe.requests.length;

    const cancelled = await voidOrRefund(env, booking.id, refund, { action: 'CANCEL', set: { cancelledBy: sender.id } });

    expect(cancelled).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIALLY_REFUNDED' });
    const [capture] = stripe.requests.slice(before);
    expect(capture).toMatchObject({ path: `/v1/payment_intents/${pi.id}/capture`, body: { amount_to_capture: '750' } });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: -750, PLATFORM_REVENUE: 750 });
  });

  it('a cancellation after capture refunds through the provider with the refund amount', async () => {
    const sender = await aUser();
    const { booking, pi } = await paidBooking(sender, await aCarrier());
    await transitionReservation(db, booking.id, 'ACCEPT');
    await captureOnDeposit(env, booking.id); // captured early (aging hold)
    const before = stripe.requests.length;

    const cancelled = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'CANCEL' });

    const [refund] = stripe.requests.slice(before);
    expect(refund).toMatchObject({ path: '/v1/refunds', idempotencyKey: `refund-${booking.id}`, body: { payment_intent: pi.id, amount: '5000' } });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED' });
    expect(cancelled.refundId).toMatch(/^re_/);
  });

  it('a rejection racing a capture ends as a refund', async () => {
    const sender = await aUser();
    const { booking, pi } = await paidBooking(sender, await aCarrier());
    // The provider captured (e.g. the cron) but our row still says AUTHORIZED when the carrier rejects.
    Object.assign(stripe.paymentIntents.get(pi.id)!, { status: 'succeeded', amount_received: pi.amount, amount_capturable: 0, latest_charge: 'ch_raced' });
    const rejected = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' });
    expect(rejected).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUNDED' });
    expect(stripe.requestsTo('POST', '/v1/refunds').at(-1)).toMatchObject({ body: { payment_intent: pi.id, amount: '5000' } });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0 });
  });

  it('a card hold that lapses before deposit cancels the reservation and empties its escrow', async () => {
    const sender = await aUser();
    const { booking, pi } = await paidBooking(sender, await aCarrier());
    const before = stripe.requests.length;
    const res = await sendEvent(stripe.event('payment_intent.canceled', { ...pi, status: 'canceled', cancellation_reason: 'automatic' }));
    expect(res.status).toBe(200);
    expect(await reservation(booking.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'AUTHORIZATION_EXPIRED' });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
    expect(stripe.requests.length).toBe(before); // nothing to void or refund
  });

  it('callers that commit the status first: bookings release hook, bare release after DELIVERED', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const rejected = await paidBooking(sender, carrier);
    // A live reservation keeps its escrow when no transition comes with the call.
    await expect(voidOrRefund(env, rejected.booking.id, rejected.booking.totalAmountCents)).rejects.toThrow('cannot be returned');
    const after = await transitionReservation(db, rejected.booking.id, 'REJECT');
    expect(await releaseForReservation(env, after, { paid: true, refundCents: after.totalAmountCents })).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    expect((await reservationMoney(after.id)).ESCROW).toBe(0);
    const unpaid = await createBooking(sender, carrier);
    expect(await releaseForReservation(env, unpaid, { paid: false, refundCents: 0 })).toBeNull();

    const delivered = await paidBooking(sender, carrier);
    for (const action of ['ACCEPT', 'DEPOSIT'] as const) await transitionReservation(db, delivered.booking.id, action);
    await captureOnDeposit(env, delivered.booking.id);
    await transitionReservation(db, delivered.booking.id, 'DELIVER');
    await releaseOnDelivery(env, delivered.booking.id, null);
    await releaseOnDelivery(env, delivered.booking.id, null);
    expect(await reservationMoney(delivered.booking.id)).toMatchObject({ ESCROW: 0, WALLET: 4250, PLATFORM_REVENUE: 750 });
  });

  it('a refund whose provider call fails stays pending and the cron finishes it', async () => {
    const sender = await aUser();
    const { booking, pi } = await paidBooking(sender, await aCarrier());
    stripe.outage.add(`/v1/payment_intents/${pi.id}/cancel`);
    const rejected = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' });
    expect(rejected).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOID_PENDING' });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(0);
    stripe.outage.delete(`/v1/payment_intents/${pi.id}/cancel`);
    await runCron();
    expect(await reservation(booking.id)).toMatchObject({ paymentStatus: 'VOIDED' });
  });

  it('the cron captures authorisations older than six days and keeps them in escrow', async () => {
    const sender = await aUser();
    const { booking, pi } = await paidBooking(sender, await aCarrier());
    const fresh = await paidBooking(sender, await aCarrier());
    // Accepted long ago, departure still ahead (a PAID booking left unanswered is auto-rejected after 24 h).
    const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000 - 60_000).toISOString();
    await db.update(reservations).set({ status: 'CONFIRMED', paidAt: sixDaysAgo, confirmedAt: sixDaysAgo }).where(eq(reservations.id, booking.id));

    await runCron();

    expect(await reservation(booking.id)).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'CAPTURED' });
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('succeeded');
    expect((await reservationMoney(booking.id)).ESCROW).toBe(booking.totalAmountCents);
    expect(await reservation(fresh.booking.id)).toMatchObject({ paymentStatus: 'AUTHORIZED' });
  });

  it('escrow left behind by a cancellation or rejection whose refund never ran is returned by the cron, by the rules, once', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const longAgo = new Date(Date.now() - 20 * 60_000).toISOString();
    // The requests stopped right after their status change: what the handlers commit first.
    const cancelled = await paidBooking(sender, carrier);
    await transitionReservation(db, cancelled.booking.id, 'ACCEPT', { confirmedAt: longAgo });
    await transitionReservation(db, cancelled.booking.id, 'CANCEL', { cancelledAt: longAgo, cancelledBy: sender.id });
    const rejected = await paidBooking(sender, carrier);
    await transitionReservation(db, rejected.booking.id, 'REJECT');
    const justNow = await paidBooking(sender, carrier); // its own request may still be returning the money
    await transitionReservation(db, justNow.booking.id, 'REJECT');
    await db.update(reservations).set({ updatedAt: longAgo }).where(sql`${reservations.id} IN (${cancelled.booking.id}, ${rejected.booking.id})`);

    await runCron();

    // The sender cancelled after acceptance: everything but the commission comes back.
    expect(await reservation(cancelled.booking.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIALLY_REFUNDED' });
    expect(await reservationMoney(cancelled.booking.id)).toMatchObject({ ESCROW: 0, PLATFORM_REVENUE: cancelled.booking.platformCommissionCents });
    expect(await reservation(rejected.booking.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    expect((await reservationMoney(rejected.booking.id)).ESCROW).toBe(0);
    expect(await reservation(justNow.booking.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'AUTHORIZED' });
    expect((await reservationMoney(justNow.booking.id)).ESCROW).toBe(justNow.booking.totalAmountCents);

    const requests = stripe.requests.length;
    await runCron(); // nothing left to return: no second refund, no provider call for these
    expect(stripe.requests.slice(requests).filter((r) => r.path.includes(cancelled.pi.id) || r.path.includes(rejected.pi.id))).toEqual([]);
    expect((await reservationMoney(cancelled.booking.id)).entries).toHaveLength(2);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('wallet, transactions and receipts', () => {
  it('GET /user/me/wallet and the User summary figures follow the ledger', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const empty = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      balance: 0,
      pendingWithdrawalAmount: 0,
      totalEarned: 0,
      totalWithdrawn: 0,
      currency: 'EUR',
      autoWithdrawal: { enabled: false, threshold: null },
    });
    for (let i = 0; i < 2; i += 1) await deliver((await paidBooking(sender, carrier)).booking.id);
    const account = stripe.addAccount();
    await linkPayoutAccount(carrier, account.id);
    expect((await post('/v1/api/withdrawals', { amount: 30.5 }, { token: carrier.token })).status).toBe(201);

    const wallet = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(wallet.body).toMatchObject({ balance: 54.5, pendingWithdrawalAmount: 0, totalEarned: 85, totalWithdrawn: 30.5 });
    expect(await userWalletFigures(env, carrier.id)).toEqual({ walletBalance: 54.5, pendingWithdrawalAmount: 0, totalEarned: 85, totalWithdrawn: 30.5 });
    expect((await get('/v1/api/user/me/wallet')).status).toBe(401);
  });

  it('transactions: page, filters, summary, detail, owner-only PDF receipt kept in R2', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const { booking } = await paidBooking(sender, carrier);
    const second = await paidBooking(sender, carrier);
    await voidOrRefund(env, second.booking.id, second.booking.totalAmountCents, { action: 'REJECT' });

    const page = await get('/v1/api/transactions?size=10', { token: sender.token });
    expect(page.status).toBe(200);
    expect(page.body.page).toEqual({ number: 0, size: 10, totalElements: 3, totalPages: 1 });
    expect(page.body.content.map((t: any) => [t.type, t.amount])).toEqual([
      ['REFUND', 50],
      ['PAYMENT', -50],
      ['PAYMENT', -50],
    ]);
    const payments = await get('/v1/api/transactions?type=PAYMENT', { token: sender.token });
    expect(payments.body.page.totalElements).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    expect((await get(`/v1/api/transactions?dateFrom=${today}&dateTo=${today}`, { token: sender.token })).body.page.totalElements).toBe(3);
    expect((await get('/v1/api/transactions?dateTo=2000-01-01', { token: sender.token })).body.page.totalElements).toBe(0);
    const badType = await get('/v1/api/transactions?type=GIFT', { token: sender.token });
    expect(badType.status).toBe(400);
    const badSort = await get('/v1/api/transactions?sort=secret,asc', { token: sender.token });
    expect(errorBody(badSort)).toMatchObject({ errorCode: 'INVALID_ARGUMENT' });

    const summary = await get('/v1/api/transactions/summary?period=MONTH', { token: sender.token });
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ period: 'MONTH', currency: 'EUR', totalPaid: 100, totalRefunded: 50, totalEarned: 0, net: -50, count: 3 });

    const payment = (await reservation(booking.id)).invoiceUrl!.match(/transactions\/(\d+)\/receipt/)![1];
    const detail = await get(`/v1/api/transactions/${payment}`, { token: sender.token });
    expect(detail.body).toMatchObject({ id: Number(payment), type: 'PAYMENT', amount: -50, currency: 'EUR', reservationId: booking.id });
    expect((await get(`/v1/api/transactions/${payment}`, { token: carrier.token })).status).toBe(403);
    expect((await get('/v1/api/transactions/99999999', { token: sender.token })).status).toBe(404);

    const receipt = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token });
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('Content-Type')).toBe('application/pdf');
    expect(String(receipt.body).startsWith('%PDF-')).toBe(true);
    expect(String(receipt.body)).toContain('(Payment receipt) Tj');
    expect(String(receipt.body)).toContain('(Amount: 50.00 EUR) Tj');
    expect(String(receipt.body)).toContain(`(Reservation: ${booking.reservationNumber}) Tj`);
    const stored = await env.UPLOADS.get(`receipts/user-${sender.id}/transaction-${payment}.pdf`);
    expect(stored).not.toBeNull();
    const again = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: sender.token });
    expect(again.body).toBe(receipt.body);
    const foreign = await call('GET', `/v1/api/transactions/${payment}/receipt`, { token: carrier.token });
    expect(foreign.status).toBe(403);
  });
});

describe('withdrawals', () => {
  async function carrierWithBalance(cents: number) {
    const sender = await aUser();
    const carrier = await aCarrier();
    // 4250 cents per delivery of 4 kg at 12.50; pick a weight that yields the wanted carrier amount.
    const { booking } = await paidBooking(sender, carrier, { weightG: 1000, pricePerKgCents: Math.round(cents / 0.85) });
    await deliver(booking.id);
    const balance = await accountBalance(walletKey(carrier.id));
    const account = stripe.addAccount();
    await linkPayoutAccount(carrier, account.id);
    return { carrier, balance, account };
  }

  it('a withdrawal transfers to the connected account in cents with an idempotency key', async () => {
    const { carrier, balance, account } = await carrierWithBalance(10_000);
    const before = stripe.requests.length;
    const res = await post('/v1/api/withdrawals', { amount: 12.34 }, { token: carrier.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: 12.34, currency: 'EUR', status: 'COMPLETED', automatic: false });
    const [transfer] = stripe.requests.slice(before);
    expect(transfer).toMatchObject({
      method: 'POST',
      path: '/v1/transfers',
      idempotencyKey: `withdrawal-${res.body.id}`,
      body: { amount: '1234', currency: 'eur', destination: account.id },
    });
    expect(res.body.transferId).toBe([...stripe.transfers.values()].find((t) => t.destination === account.id)!.id);
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance - 1234);
    const list = await get('/v1/api/withdrawals', { token: carrier.token });
    expect(list.body.page.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({ id: res.body.id, status: 'COMPLETED', amount: 12.34 });
  });

  it('the same Idempotency-Key withdraws once, even concurrently; another amount with it is 409', async () => {
    const { carrier, balance } = await carrierWithBalance(10_000);
    const headers = { 'Idempotency-Key': `w-${crypto.randomUUID()}` };
    const results = await Promise.all([1, 2, 3].map(() => post('/v1/api/withdrawals', { amount: 20 }, { token: carrier.token, headers })));
    // Each either answers as the first (201, same withdrawal) or, caught while the first still
    // runs by the Idempotency-Key middleware, is told to retry (409); never a second withdrawal.
    const made = results.filter((r) => r.status === 201);
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((r) => r.status !== 201)) expect(errorBody(r)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    expect(new Set(made.map((r) => r.body.id)).size).toBe(1);
    const replay = await post('/v1/api/withdrawals', { amount: 20 }, { token: carrier.token, headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(made[0].body);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance - 2000);
    const other = await post('/v1/api/withdrawals', { amount: 21 }, { token: carrier.token, headers });
    expect(other.status).toBe(409);
    expect(errorBody(other)).toMatchObject({ errorCode: 'INVALID_STATE' });
  });

  it('without a payout-ready account: 422 STRIPE_CONNECT_NOT_CONFIGURED', async () => {
    const user = await aUser();
    const res = await post('/v1/api/withdrawals', { amount: 1 }, { token: user.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({ status: 422, errorCode: 'STRIPE_CONNECT_NOT_CONFIGURED' });
    await linkPayoutAccount(user, stripe.addAccount(false).id, false);
    expect(errorBody(await post('/v1/api/withdrawals', { amount: 1 }, { token: user.token }))).toMatchObject({ errorCode: 'STRIPE_CONNECT_NOT_CONFIGURED' });
  });

  it('more than the balance: 422 INSUFFICIENT_FUNDS, nothing moves', async () => {
    const { carrier, balance } = await carrierWithBalance(1000);
    const res = await post('/v1/api/withdrawals', { amount: balance / 100 + 0.01 }, { token: carrier.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({ errorCode: 'INSUFFICIENT_FUNDS' });
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance);
    expect(await db.select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id))).toEqual([]);
  });

  it('bad amounts are 400 VALIDATION_ERROR', async () => {
    const user = await aUser();
    for (const amount of [0, -5, 1.234, '10']) {
      const res = await post('/v1/api/withdrawals', { amount }, { token: user.token });
      expect(res.status, String(amount)).toBe(400);
      expect(errorBody(res)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'amount' })] });
    }
  });

  it('a refused transfer returns the money to the wallet: 502, withdrawal FAILED', async () => {
    const { carrier, balance, account } = await carrierWithBalance(5000);
    stripe.refuseTransfersTo.add(account.id);
    const res = await post('/v1/api/withdrawals', { amount: 10 }, { token: carrier.token });
    expect(res.status).toBe(502);
    expect(errorBody(res)).toMatchObject({ errorCode: 'PAYMENT_PROCESSING_ERROR' });
    expect(await accountBalance(walletKey(carrier.id))).toBe(balance);
    const [w] = await db.select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id));
    expect(w).toMatchObject({ status: 'FAILED', amountCents: 1000 });
    expect(w.failureReason).toContain('capabilities');
    const wallet = await get('/v1/api/user/me/wallet', { token: carrier.token });
    expect(wallet.body).toMatchObject({ balance: balance / 100, pendingWithdrawalAmount: 0, totalWithdrawn: 0 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('many simultaneous withdrawals: exactly the affordable ones succeed, the balance never goes below zero', async () => {
    const { carrier, balance } = await carrierWithBalance(10_000);
    expect(balance).toBe(10_000);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => post('/v1/api/withdrawals', { amount: 15 }, { token: carrier.token })),
    );
    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 422);
    expect(ok).toHaveLength(6);
    expect(refused).toHaveLength(6);
    for (const r of refused) expect(r.body.errorCode).toBe('INSUFFICIENT_FUNDS');
    expect(await accountBalance(walletKey(carrier.id))).toBe(1000);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('automatic withdrawals: settings, validation, and the cron paying out wallets at or above the threshold', async () => {
    const { carrier, balance, account } = await carrierWithBalance(5000);
    const below = await carrierWithBalance(1000);
    expect((await get('/v1/api/withdrawals/auto', { token: carrier.token })).body).toEqual({ enabled: false, threshold: null });
    const bad = await put('/v1/api/withdrawals/auto', { enabled: true }, { token: carrier.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'threshold' })] });
    const set = await put('/v1/api/withdrawals/auto', { enabled: true, threshold: 40 }, { token: carrier.token });
    expect(set.body).toEqual({ enabled: true, threshold: 40 });
    await put('/v1/api/withdrawals/auto', { enabled: true, threshold: 40 }, { token: below.carrier.token });

    await runCron();

    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
    const [w] = await db.select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id));
    expect(w).toMatchObject({ status: 'COMPLETED', automatic: true, amountCents: balance, destinationAccountId: account.id });
    expect(await accountBalance(walletKey(below.carrier.id))).toBe(below.balance);
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body.autoWithdrawal).toEqual({ enabled: true, threshold: 40 });
  });
});

describe('pay-connect', () => {
  it('onboarding creates one Express account and a link; status and eligibility follow account.updated', async () => {
    const user = await aUser();
    const before = stripe.requests.length;
    const first = await post('/v1/api/pay-connect/onboarding', undefined, { token: user.token });
    expect(first.status).toBe(200);
    expect(first.body.connectedAccountId).toMatch(/^acct_/);
    expect(first.body.onboardingUrl).toContain('https://connect.stripe.com/setup/e/');
    const [create, link] = stripe.requests.slice(before);
    expect(create).toMatchObject({
      path: '/v1/accounts',
      idempotencyKey: `connect-account-user-${user.id}`,
      body: { type: 'express', email: user.email, capabilities: { transfers: { requested: 'true' } } },
    });
    expect(link).toMatchObject({ path: '/v1/account_links', body: { account: first.body.connectedAccountId, type: 'account_onboarding' } });
    expect(link.body.return_url).toContain('/v1/api/pay-connect/return?account=');

    const second = await post('/v1/api/pay-connect/onboarding', undefined, { token: user.token });
    expect(second.body.connectedAccountId).toBe(first.body.connectedAccountId);
    expect(stripe.requestsTo('POST', '/v1/accounts').filter((r) => r.idempotencyKey === `connect-account-user-${user.id}`)).toHaveLength(1);

    const notYet = await get('/v1/api/pay-connect/can-receive-payments', { token: user.token });
    expect(notYet.body).toEqual({ canReceivePayments: false, chargesEnabled: false, payoutsEnabled: false, reason: 'Onboarding is not finished' });

    const account = stripe.accounts.get(first.body.connectedAccountId)!;
    Object.assign(account, { charges_enabled: true, payouts_enabled: true, details_submitted: true, requirements: { currently_due: [] } });
    expect((await sendEvent(stripe.event('account.updated', account))).status).toBe(200);

    const ready = await get('/v1/api/pay-connect/can-receive-payments', { token: user.token });
    expect(ready.body).toEqual({ canReceivePayments: true, chargesEnabled: true, payoutsEnabled: true, reason: null });
    const status = await get('/v1/api/pay-connect/account-status', { token: user.token });
    expect(status.body).toEqual({
      connectedAccountId: account.id,
      status: 'ACTIVE',
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirements: [],
    });
    const returned = await call('GET', `/v1/api/pay-connect/return?account=${account.id}`);
    expect(returned.status).toBe(200);
    expect(String(returned.body)).toContain('Payout account ready');
    // Through the app directly: the worker's fetch would follow the redirect.
    const refreshed = await createApp().request(`http://api.test/v1/api/pay-connect/refresh?account=${account.id}`, {}, env);
    expect(refreshed.status).toBe(302);
    expect(refreshed.headers.get('Location')).toContain(`https://connect.stripe.com/setup/e/${account.id}/`);
  });

  it('a user without an account cannot receive payments and says why', async () => {
    const user = await aUser();
    const res = await get('/v1/api/pay-connect/can-receive-payments', { token: user.token });
    expect(res.body).toEqual({
      canReceivePayments: false,
      chargesEnabled: false,
      payoutsEnabled: false,
      reason: 'No connected payout account: start the onboarding first',
    });
    expect((await get('/v1/api/pay-connect/account-status', { token: user.token })).body.status).toBe('NOT_CONNECTED');
  });
});

describe('browser callbacks', () => {
  it('the success page asks the provider and applies a completed session even before the webhook', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const checkout = await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token });
    const page = await call('GET', `/v1/api/payments/callback/success?session_id=${checkout.body.paymentId}`);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('Payment not completed');
    expect((await reservation(booking.id)).status).toBe('PENDING_PAYMENT');

    stripe.completeCheckout(checkout.body.paymentId);
    const done = await call('GET', `/v1/api/payments/callback/success?session_id=${checkout.body.paymentId}`);
    expect(String(done.body)).toContain('Payment authorised');
    expect(await reservation(booking.id)).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED' });

    const forged = await call('GET', '/v1/api/payments/callback/success?session_id=cs_test_forged');
    expect(String(forged.body)).toContain('Payment session not found');
    const cancel = await call('GET', `/v1/api/payments/callback/cancel?session_id=${checkout.body.paymentId}`);
    expect(cancel.status).toBe(200);
  });
});

describe('sandbox provider (no STRIPE_SECRET_KEY)', () => {
  const app = createApp();
  const sandboxEnv = { ...env, STRIPE_SECRET_KEY: '' } as Env;
  const request = (path: string, init: RequestInit = {}) => app.request(`http://api.test${path}`, init, sandboxEnv);

  it('checkout page with Pay and Cancel; Pay goes through the signed webhook and the reservation is PAID', async () => {
    const sender = await aUser();
    const booking = await createBooking(sender, await aCarrier());
    const res = await request('/v1/api/payments/checkout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sender.token}` },
      body: JSON.stringify({ reservationId: booking.id }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { paymentId: string; paymentApprovalUrl: string };
    expect(body.paymentId).toMatch(/^cs_sandbox_/);
    const pagePath = new URL(body.paymentApprovalUrl).pathname;
    expect(pagePath).toBe(`/sandbox/checkout/${body.paymentId}`);

    const page = await request(pagePath);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toMatch(/<button[^>]*>Pay<\/button>/);
    expect(html).toMatch(/<button[^>]*>Cancel<\/button>/);
    expect(html).toContain('50.00 EUR');

    const paid = await request(`${pagePath}/pay`, { method: 'POST' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('Location')).toContain(`/v1/api/payments/callback/success?session_id=${body.paymentId}`);
    const r = await reservation(booking.id);
    expect(r).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED', paymentId: body.paymentId });
    expect(r.authorizationId).toMatch(/^pi_sandbox_/);
    const stored = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM payment_events WHERE id LIKE 'evt_sandbox_%' AND processed_at IS NOT NULL`);
    expect(stored!.n).toBeGreaterThan(0);

    const callback = await request(`/v1/api/payments/callback/success?session_id=${body.paymentId}`);
    expect(await callback.text()).toContain('Payment authorised');
  });

  it('the sandbox pages do not exist when a provider key is configured', async () => {
    const res = await get('/sandbox/checkout/cs_sandbox_x');
    expect(res.status).toBe(404);
    expect(errorBody(res)).toMatchObject({ errorCode: 'ENDPOINT_NOT_FOUND' });
  });

  it('the dev seed pays the demo reservation through the sandbox, idempotently', async () => {
    const devEnv = { ...sandboxEnv, ENVIRONMENT: 'development' } as Env;
    const seed = () => app.request('http://api.test/v1/api/dev/seed', { method: 'POST' }, devEnv);
    expect((await seed()).status).toBe(200);
    expect((await seed()).status).toBe(200);
    const rows = await db.select().from(reservations).where(eq(reservations.reservationNumber, 'DEMO-PAID-0001'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED' });
    expect((await db.select().from(ledgerEntries).where(eq(ledgerEntries.reservationId, rows[0].id))).length).toBe(1);
  });
});

describe('ledger invariants under random sequences (property)', () => {
  type Op =
    | { kind: 'book'; sender: number; carrier: number; weightG: number; agency: boolean }
    | { kind: 'pay' | 'accept' | 'deposit' | 'deliver' | 'reject'; r: number }
    | { kind: 'cancel'; r: number; by: 'SENDER' | 'CARRIER' }
    | { kind: 'withdraw'; carrier: number; share: number };

  // Weighted so that sequences often get a reservation all the way to delivery and a withdrawal.
  const reservationOp = (kind: 'pay' | 'accept' | 'deposit' | 'deliver' | 'reject') =>
    fc.record({ kind: fc.constant(kind), r: fc.nat(3) });
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('book' as const), sender: fc.nat(1), carrier: fc.nat(1), weightG: fc.integer({ min: 100, max: 30_000 }), agency: fc.boolean() }) },
    { weight: 4, arbitrary: reservationOp('pay') },
    { weight: 1, arbitrary: reservationOp('accept') },
    { weight: 1, arbitrary: reservationOp('deposit') },
    { weight: 4, arbitrary: reservationOp('deliver') },
    { weight: 1, arbitrary: reservationOp('reject') },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), r: fc.nat(3), by: fc.constantFrom('SENDER' as const, 'CARRIER' as const) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), carrier: fc.nat(1), share: fc.double({ min: 0.05, max: 1.3, noNaN: true }) }) },
  );

  /** Where a reservation's money is; exactly one place, given its history. */
  async function assertMoneyInOnePlace(id: number) {
    const r = await reservation(id);
    const m = await reservationMoney(id);
    const paid = m.entries.some((e) => e.key === `escrow-in:${id}`);
    const out = m.entries.find((e) => e.key === `escrow-out:${id}`);
    const places = [
      !paid && m.entries.length === 0, // never paid: nothing anywhere
      paid && !out && m.ESCROW === r.totalAmountCents && m.WALLET === 0 && m.PLATFORM_REVENUE === 0,
      out?.type === 'ESCROW_RELEASED' && m.ESCROW === 0 && m.WALLET === r.carrierAmountCents && m.PLATFORM_REVENUE === r.platformCommissionCents,
      out?.type === 'ESCROW_REFUNDED' && m.ESCROW === 0 && m.WALLET === 0 && -m.PROVIDER_CLEARING === m.PLATFORM_REVENUE,
    ].filter(Boolean);
    expect(places, `reservation ${id} in ${r.status}: ${JSON.stringify(m)}`).toHaveLength(1);
    // And the place matches the status.
    if (['PAID', 'CONFIRMED', 'DEPOSITED'].includes(r.status)) expect(m.ESCROW).toBe(r.totalAmountCents);
    if (r.status === 'DELIVERED') expect(out?.type).toBe('ESCROW_RELEASED');
    if (['REJECTED', 'CANCELLED'].includes(r.status) && paid) expect(out?.type).toBe('ESCROW_REFUNDED');
    if (r.status === 'PENDING_PAYMENT') expect(paid).toBe(false);
  }

  it('after every step: lines sum to zero, no wallet negative, cached balances equal lines, money in one place', async () => {
    const applied: Record<string, number> = {};
    const count = (kind: string) => (applied[kind] = (applied[kind] ?? 0) + 1);
    const attempt = (kind: string, p: Promise<unknown>) =>
      p.then(
        () => count(kind),
        (e) => expect(e.errorCode, String(e)).toBe('INVALID_STATE'),
      );
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 8, maxLength: 20, size: 'max' }), async (randomOps) => {
        // Every sequence ends with one full journey so each run also pays, delivers and withdraws.
        const ops: Op[] = [
          ...randomOps,
          { kind: 'book', sender: 0, carrier: 0, weightG: 2000, agency: false },
          { kind: 'pay', r: -1 },
          { kind: 'deliver', r: -1 },
          { kind: 'withdraw', carrier: 0, share: 0.5 },
        ];
        const senders = [await aUser(), await aUser()];
        const carriers = [await aCarrier(), await aCarrier()];
        for (const c of carriers) await linkPayoutAccount(c, stripe.addAccount().id);
        const booked: number[] = [];
        const pick = (i: number) => (booked.length ? (i < 0 ? booked[booked.length - 1] : booked[i % booked.length]) : null);
        for (const op of ops) {
          const id = 'r' in op ? pick(op.r) : null;
          const r = id ? await reservation(id) : null;
          switch (op.kind) {
            case 'book':
              booked.push(
                (await createBooking(senders[op.sender], carriers[op.carrier], { weightG: op.weightG, agencyId: op.agency ? 900 + op.carrier : null })).id,
              );
              count('book');
              break;
            case 'pay':
              if (r) {
                const pi = stripe.authorizedPaymentIntent(r.totalAmountCents, 'eur', { reservationId: String(r.id) });
                expect((await sendEvent(stripe.event('payment_intent.amount_capturable_updated', pi))).status).toBe(200);
                if (r.status === 'PENDING_PAYMENT') count('pay');
              }
              break;
            case 'accept':
              if (r) await attempt('accept', transitionReservation(db, r.id, 'ACCEPT'));
              break;
            case 'deposit':
              if (r) await attempt('deposit', transitionReservation(db, r.id, 'DEPOSIT').then(() => captureOnDeposit(env, r.id)));
              break;
            case 'deliver':
              // The carrier takes the parcel all the way: accept and deposit first when needed.
              if (r) {
                if (r.status === 'PAID') await transitionReservation(db, r.id, 'ACCEPT');
                if (r.status === 'PAID' || r.status === 'CONFIRMED') {
                  await transitionReservation(db, r.id, 'DEPOSIT');
                  await captureOnDeposit(env, r.id);
                }
                await attempt('deliver', releaseOnDelivery(env, r.id, { action: 'DELIVER' }));
              }
              break;
            case 'reject':
              if (r) await attempt('reject', voidOrRefund(env, r.id, r.totalAmountCents, { action: 'REJECT' }));
              break;
            case 'cancel':
              if (r) await attempt('cancel', voidOrRefund(env, r.id, cancellationRefundCents(r, r.status, op.by), { action: 'CANCEL' }));
              break;
            case 'withdraw': {
              const carrier = carriers[op.carrier];
              const before = await accountBalance(walletKey(carrier.id));
              // A share of the balance: sometimes affordable, sometimes more than there is.
              const cents = Math.max(1, Math.round(before * op.share));
              const res = await post('/v1/api/withdrawals', { amount: cents / 100 }, { token: carrier.token });
              expect(res.status).toBe(cents <= before ? 201 : 422);
              expect(await accountBalance(walletKey(carrier.id))).toBe(cents <= before ? before - cents : before);
              if (res.status === 201) count('withdraw');
              break;
            }
          }
          expect(await ledgerInvariantViolations()).toEqual([]);
          for (const b of booked) await assertMoneyInOnePlace(b);
        }
      }),
      { numRuns: 15 },
    );
    // The runs did exercise the money paths (not only refused operations).
    for (const kind of ['book', 'pay', 'deliver', 'withdraw']) expect(applied[kind] ?? 0, `${kind} never applied`).toBeGreaterThan(0);
    expect((applied.reject ?? 0) + (applied.cancel ?? 0)).toBeGreaterThan(0);
  });
});

describe('Idempotency-Key in the OpenAPI document', () => {
  it('is an optional header of every creating or money-moving POST', async () => {
    const doc = (await get('/v1/api/openapi.json')).body;
    const posts = [
      '/v1/api/bookings',
      '/v1/api/bookings/{id}/accept',
      '/v1/api/bookings/{id}/reject',
      '/v1/api/bookings/{id}/cancel',
      '/v1/api/bookings/{id}/deposit',
      '/v1/api/bookings/{id}/deliver',
      '/v1/api/qrcode/process/depot',
      '/v1/api/qrcode/process/livraison',
      '/v1/api/payments/checkout',
      '/v1/api/withdrawals',
      '/v1/api/agencies/{id}/withdrawals',
      '/v1/api/pay-connect/onboarding',
      '/v1/api/agencies/{id}/pay-connect/onboarding',
      '/v1/api/reviews',
      '/v1/api/reports',
      '/v1/api/annonces',
      '/v1/api/search-alerts',
      '/v1/api/admin/categories',
      '/v1/api/agencies',
      '/v1/api/agencies/{id}/branches',
      '/v1/api/agencies/{id}/employees',
      '/v1/api/kyc/sessions',
      '/v1/api/disputes',
      '/v1/api/disputes/{id}/messages',
      '/v1/api/admin/disputes/{id}/resolve',
    ];
    for (const path of posts) {
      const params = (doc.paths[path]?.post?.parameters ?? []) as { name: string; in: string; required?: boolean }[];
      const header = params.find((p) => p.name === 'Idempotency-Key');
      expect(header, path).toMatchObject({ in: 'header' });
      expect(header?.required ?? false, path).toBe(false);
    }
  });
});

describe('agency money (/agencies/{id}/wallet, withdrawals, pay-connect)', () => {
  async function agencyWithEarnings() {
    const owner = await aUser();
    const created = await post('/v1/api/agencies', { name: 'Teranga Cargo', city: 'Dakar', country: 'SN', email: 'pay@teranga.test' }, { token: owner.token });
    expect(created.status).toBe(201);
    const agencyId = created.body.id as number;
    const carrier = await aCarrier(); // the staff member who flew; the money is the agency's
    const { booking } = await paidBooking(await aUser(), carrier, { agencyId });
    await deliver(booking.id);
    return { owner: { ...owner, token: await tokenFor(owner.id, ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER']) }, agencyId, carrier };
  }

  it('a delivered agency trip lands in the agency wallet through the ledger; the owner and admins read it', async () => {
    const { owner, agencyId, carrier } = await agencyWithEarnings();
    expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(4250);
    const wallet = await get(`/v1/api/agencies/${agencyId}/wallet`, { token: owner.token });
    expect(wallet.status).toBe(200);
    expect(wallet.body).toEqual({
      balance: 42.5,
      pendingWithdrawalAmount: 0,
      totalEarned: 42.5,
      totalWithdrawn: 0,
      currency: 'EUR',
      autoWithdrawal: { enabled: false, threshold: null },
    });
    // Neither the carrier's nor the owner's personal wallet got it.
    expect((await get('/v1/api/user/me/wallet', { token: carrier.token })).body.balance).toBe(0);
    expect((await get('/v1/api/user/me/wallet', { token: owner.token })).body.balance).toBe(0);
    const admin = await anAdmin();
    expect((await get(`/v1/api/agencies/${agencyId}/wallet`, { token: admin.token })).body.balance).toBe(42.5);
    expect(errorBody(await get('/v1/api/agencies/999999/wallet', { token: owner.token }))).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('a withdrawal goes to the agency’s connected account and debits the agency wallet only', async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    const account = stripe.addAccount();
    await linkPayoutAccount({ id: agencyId }, account.id, true, 'AGENCY');
    const before = stripe.requests.length;
    const res = await post(`/v1/api/agencies/${agencyId}/withdrawals`, { amount: 10 }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: 10, status: 'COMPLETED', automatic: false });
    const [transfer] = stripe.requests.slice(before);
    expect(transfer).toMatchObject({ path: '/v1/transfers', body: { amount: '1000', currency: 'eur', destination: account.id } });
    expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(3250);
    const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, res.body.id));
    expect(row).toMatchObject({ ownerType: 'AGENCY', ownerId: agencyId, destinationAccountId: account.id });

    const list = await get(`/v1/api/agencies/${agencyId}/withdrawals`, { token: owner.token });
    expect(list.body.content.map((w: { id: number }) => w.id)).toEqual([res.body.id]);
    expect((await get('/v1/api/withdrawals', { token: owner.token })).body.page.totalElements).toBe(0);
    expect((await get(`/v1/api/agencies/${agencyId}/wallet`, { token: owner.token })).body).toMatchObject({ balance: 32.5, totalWithdrawn: 10 });

    const auto = await put(`/v1/api/agencies/${agencyId}/withdrawals/auto`, { enabled: true, threshold: 50 }, { token: owner.token });
    expect(auto.body).toEqual({ enabled: true, threshold: 50 });
    expect((await get(`/v1/api/agencies/${agencyId}/withdrawals/auto`, { token: owner.token })).body).toEqual({ enabled: true, threshold: 50 });
    expect((await get('/v1/api/withdrawals/auto', { token: owner.token })).body).toEqual({ enabled: false, threshold: null });
  });

  it('without the agency’s own payout account: 422 pointing to the agency onboarding (the owner’s account does not count)', async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    await linkPayoutAccount(owner, stripe.addAccount().id); // the owner's personal account
    const res = await post(`/v1/api/agencies/${agencyId}/withdrawals`, { amount: 1 }, { token: owner.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({
      errorCode: 'STRIPE_CONNECT_NOT_CONFIGURED',
      suggestions: [`Complete the onboarding with POST /v1/api/agencies/${agencyId}/pay-connect/onboarding`],
    });
    expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(4250);
  });

  it('onboarding creates the agency’s own Express account with the agency’s e-mail', async () => {
    const { owner, agencyId } = await agencyWithEarnings();
    const before = stripe.requests.length;
    const res = await post(`/v1/api/agencies/${agencyId}/pay-connect/onboarding`, undefined, { token: owner.token });
    expect(res.status).toBe(200);
    const [create] = stripe.requests.slice(before);
    expect(create).toMatchObject({ path: '/v1/accounts', idempotencyKey: `connect-account-agency-${agencyId}`, body: { email: 'pay@teranga.test' } });
    const [acct] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.providerAccountId, res.body.connectedAccountId));
    expect(acct).toMatchObject({ ownerType: 'AGENCY', ownerId: agencyId });
    const status = await get(`/v1/api/agencies/${agencyId}/pay-connect/account-status`, { token: owner.token });
    expect(status.body).toMatchObject({ connectedAccountId: res.body.connectedAccountId, status: 'ONBOARDING' });
    const eligibility = await get(`/v1/api/agencies/${agencyId}/pay-connect/can-receive-payments`, { token: owner.token });
    expect(eligibility.body).toMatchObject({ canReceivePayments: false, reason: 'Onboarding is not finished' });
    // The owner's personal connection is a different one.
    expect((await get('/v1/api/pay-connect/account-status', { token: owner.token })).body.status).toBe('NOT_CONNECTED');
  });

  it('anyone but the owner is refused: 403 on every route; an admin reads but moves nothing', async () => {
    const { agencyId, carrier } = await agencyWithEarnings();
    const account = stripe.addAccount();
    await linkPayoutAccount({ id: agencyId }, account.id, true, 'AGENCY');
    const before = stripe.requests.length;
    const admin = await anAdmin();
    const calls: [string, string, unknown][] = [
      ['GET', `/v1/api/agencies/${agencyId}/wallet`, undefined],
      ['POST', `/v1/api/agencies/${agencyId}/withdrawals`, { amount: 1 }],
      ['GET', `/v1/api/agencies/${agencyId}/withdrawals`, undefined],
      ['GET', `/v1/api/agencies/${agencyId}/withdrawals/auto`, undefined],
      ['PUT', `/v1/api/agencies/${agencyId}/withdrawals/auto`, { enabled: false }],
      ['POST', `/v1/api/agencies/${agencyId}/pay-connect/onboarding`, undefined],
      ['GET', `/v1/api/agencies/${agencyId}/pay-connect/account-status`, undefined],
      ['GET', `/v1/api/agencies/${agencyId}/pay-connect/can-receive-payments`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await call(method, path, { token: carrier.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(errorBody(res)).toMatchObject({ errorCode: 'ACCESS_DENIED' });
    }
    for (const [method, path, body] of calls.filter(([m]) => m !== 'GET')) {
      expect((await call(method, path, { token: admin.token, body })).status, `admin ${method} ${path}`).toBe(403);
    }
    expect(stripe.requests.length).toBe(before);
    expect(await accountBalance(`WALLET:AGENCY:${agencyId}`)).toBe(4250);
  });
});
