// Money, payments (CONTRACT section 10): checkout through the real Stripe SDK against a fake
// Stripe API, the signed provider webhook, the payment status, the browser callbacks, and the
// local sandbox provider.
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app';
import { readReceiptToken, receiptToken } from '../src/lib/receipt-token';
import { receiptUrl } from '../src/lib/urls';
import { auditLogs, ledgerEntries, moneyDocuments, notifications, reservations } from '../src/db/schema';
import { db, reservationRow, runCron, setReservation } from './helpers/db';
import { minutesFromNow, secondsFromNow, type TestUser, aUser, aCarrier, anAdmin, aSuperAdmin, aReservation, aTrip, FIFTY_EUR } from './helpers/factories';
import { stripeSignature } from './helpers/fake-stripe';
import { call, errorBody, get, post } from './helpers/http';
import { toldTo } from './helpers/notices';
import { formatMoneyIn } from '../src/lib/money';
import { WEBHOOK, fakeStripeForThisFile, sendWebhookRaw, sendPaymentEvent, reservationMoney, ledgerInvariantViolations } from './helpers/money';

const stripe = fakeStripeForThisFile();

const INVOICE_NUMBER = /^F-\d{4}-\d{6}$/;
/** `<base>/v1/api/public/receipts/<claims>.<signature>`: opened without a bearer token. */
const SIGNED_RECEIPT_LINK = /^https?:\/\/[^/]+\/v1\/api\/public\/receipts\/[\w-]+\.[\w-]+$/;

/** A 50.00 EUR reservation waiting for its payment. */
const unpaid = async (sender?: TestUser) => (await aReservation({ sender, ...FIFTY_EUR })).reservation;
const checkout = (reservationId: number, sender: TestUser, headers?: Record<string, string>) =>
  post('/v1/api/payments/checkout', { reservationId }, { token: sender.token, headers });

describe('checkout (POST /payments/checkout)', () => {
  it('a card payment in XOF goes to Stripe in the trip currency, unscaled (XOF is zero-decimal)', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const trip = await aTrip(carrier, { currency: 'XOF', pricePerKgCents: 2_500, reservedWeightG: 2_000 });
    const { reservation } = await aReservation({ sender, carrier, trip, weightG: 2_000, set: { currency: 'XOF' } });
    const before = stripe.requests.length;
    const res = await checkout(reservation.id, sender);
    expect(res.status).toBe(200);
    const [req] = stripe.requests.slice(before);
    expect(req.body.line_items[0].price_data.currency).toBe('xof');
    expect(req.body.line_items[0].price_data.unit_amount).toBe('5000'); // 2 kg x 2500 XOF, not x100
  });

  it('opens a manual-capture Checkout Session in cents with an idempotency key per reservation', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const before = stripe.requests.length;

    const res = await checkout(booking.id, sender);

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

    const stored = await reservationRow(booking.id);
    expect(stored).toMatchObject({ paymentId: res.body.paymentId, paymentApprovalUrl: res.body.paymentApprovalUrl, paymentStatus: 'PENDING' });
  });

  it('a replay with the same Idempotency-Key returns the first answer untouched, without a provider call', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const headers = { 'Idempotency-Key': `pay-${crypto.randomUUID()}` };
    const first = await checkout(booking.id, sender, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const before = stripe.requests.length;
    const replay = await checkout(booking.id, sender, headers);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(stripe.requests.length).toBe(before);
  });

  it('another body with a used Idempotency-Key is 409 INVALID_STATE and opens nothing', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const other = await unpaid(sender);
    const headers = { 'Idempotency-Key': `pay-${crypto.randomUUID()}` };
    expect((await checkout(booking.id, sender, headers)).status).toBe(200);
    const before = stripe.requests.length;
    const conflict = await checkout(other.id, sender, headers);
    expect(conflict.status).toBe(409);
    expect(errorBody(conflict)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    expect(stripe.requests.length).toBe(before);
    expect((await reservationRow(other.id)).paymentId).toBeNull();
  });

  it('asking again while the session is open returns the same session without a new provider call', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const first = await checkout(booking.id, sender);
    const before = stripe.requests.length;
    const second = await checkout(booking.id, sender);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(stripe.requests.length).toBe(before);
  });

  it('the carrier cannot pay for the reservation: 403 ACCESS_DENIED', async () => {
    const { carrier, reservation } = await aReservation(FIFTY_EUR);
    const byCarrier = await checkout(reservation.id, carrier);
    expect(byCarrier.status).toBe(403);
    expect(errorBody(byCarrier)).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED', path: '/v1/api/payments/checkout' });
  });

  it('a stranger cannot pay for the reservation: 403', async () => {
    const booking = await unpaid();
    expect((await checkout(booking.id, await aUser())).status).toBe(403);
  });

  it('a reservation already paid is not payable again: 409 INVALID_STATE', async () => {
    const { sender, reservation } = await aReservation({ status: 'PAID', payment: stripe, ...FIFTY_EUR });
    const again = await checkout(reservation.id, sender);
    expect(again.status).toBe(409);
    expect(errorBody(again)).toMatchObject({ errorCode: 'INVALID_STATE' });
  });

  it('an unknown reservation is 404 RESOURCE_NOT_FOUND', async () => {
    const missing = await checkout(999_999, await aUser());
    expect(missing.status).toBe(404);
    expect(errorBody(missing)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('after the payment deadline no session is opened: 409 INVALID_STATE', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    await setReservation(booking.id, { paymentDeadline: secondsFromNow(-1) });
    const before = stripe.requests.length;
    const res = await checkout(booking.id, sender);
    expect(res.status).toBe(409);
    expect(errorBody(res)).toMatchObject({ errorCode: 'INVALID_STATE', message: `The payment window of reservation ${booking.id} has closed` });
    expect(stripe.requests.length).toBe(before);
  });

  it("a booking below the provider's minimum charge (made before the rule) is refused before any provider call: 422", async () => {
    const sender = await aUser();
    const { reservation: booking } = await aReservation({ sender, weightG: 300, pricePerKgCents: 100 }); // 0.30 EUR
    const before = stripe.requests.length;
    const res = await checkout(booking.id, sender);
    expect(res.status).toBe(422);
    expect(errorBody(res)).toMatchObject({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      message: 'The booking total 0.30 EUR is below the payment minimum of 0.50 EUR',
    });
    expect(stripe.requests.length).toBe(before);
  });

  it('a bad body is 400 VALIDATION_ERROR', async () => {
    const sender = await aUser();
    const bad = await post('/v1/api/payments/checkout', { reservationId: 'x' }, { token: sender.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [expect.objectContaining({ field: 'reservationId', rejectedValue: 'x' })],
    });
  });

  it('without a token it is 401 UNAUTHORIZED', async () => {
    const anonymous = await post('/v1/api/payments/checkout', { reservationId: 1 });
    expect(anonymous.status).toBe(401);
    expect(errorBody(anonymous)).toMatchObject({ errorCode: 'UNAUTHORIZED' });
  });

  it('a provider outage is 502 PAYMENT_PROCESSING_ERROR', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    stripe.outage.add('/v1/checkout/sessions');
    try {
      const res = await checkout(booking.id, sender);
      expect(res.status).toBe(502);
      expect(errorBody(res)).toMatchObject({ status: 502, errorCode: 'PAYMENT_PROCESSING_ERROR' });
    } finally {
      stripe.outage.delete('/v1/checkout/sessions');
    }
  });
});

describe('a checkout that ends unpaid', () => {
  it('an abandoned checkout does not stay PENDING: the booking expires and so does its payment', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    expect((await checkout(booking.id, sender)).status).toBe(200);
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING' });
    await db().update(reservations).set({ paymentDeadline: minutesFromNow(-1) }).where(eq(reservations.id, booking.id));

    await runCron();

    expect(await reservationRow(booking.id)).toMatchObject({ status: 'EXPIRED', paymentStatus: 'EXPIRED' });
  });

  it('cancelling a booking with an open checkout ends the checkout too', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    expect((await checkout(booking.id, sender)).status).toBe(200);
    const cancelled = await post(`/v1/api/bookings/${booking.id}/cancel`, {}, { token: sender.token });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', paymentStatus: 'EXPIRED' });
  });

  it('cancelling closes the checkout session at the provider, so the old page cannot be paid', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const sessionId = (await checkout(booking.id, sender)).body.paymentId as string;
    expect((await post(`/v1/api/bookings/${booking.id}/cancel`, {}, { token: sender.token })).status).toBe(200);
    expect(stripe.requestsTo('POST', `/v1/checkout/sessions/${sessionId}/expire`)).toHaveLength(1);
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
  });

  it('an expiring booking closes its checkout session at the provider', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const sessionId = (await checkout(booking.id, sender)).body.paymentId as string;
    await db().update(reservations).set({ paymentDeadline: minutesFromNow(-1) }).where(eq(reservations.id, booking.id));
    await runCron();
    expect(stripe.requestsTo('POST', `/v1/checkout/sessions/${sessionId}/expire`)).toHaveLength(1);
  });

  it('a payment that still completes after the cancellation is voided, and the return page says the booking is no longer payable', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const sessionId = (await checkout(booking.id, sender)).body.paymentId as string;
    stripe.outage.add(`/v1/checkout/sessions/${sessionId}/expire`); // the provider could not close it in time
    try {
      expect((await post(`/v1/api/bookings/${booking.id}/cancel`, {}, { token: sender.token })).status).toBe(200);
    } finally {
      stripe.outage.delete(`/v1/checkout/sessions/${sessionId}/expire`);
    }
    stripe.completeCheckout(sessionId);
    const page = await call('GET', `/v1/api/payments/callback/success?session_id=${sessionId}`);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('Booking no longer payable');
    expect(String(page.body)).not.toContain('Payment authorised');
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'VOIDED' });
    expect((await reservationMoney(booking.id)).entries).toEqual([]);
  });
});

describe('webhook (POST /webhooks/payment-provider)', () => {
  /** A reservation whose Checkout Session the provider reports completed. */
  async function completedCheckout() {
    const { sender, carrier, reservation } = await aReservation(FIFTY_EUR);
    const opened = await checkout(reservation.id, sender);
    const { session, paymentIntent } = stripe.completeCheckout(opened.body.paymentId);
    return { sender, carrier, booking: reservation, session, paymentIntent };
  }

  it('checkout.session.completed authorises: PAID, ids filled, escrow booked', async () => {
    const { booking, session, paymentIntent } = await completedCheckout();

    const res = await sendPaymentEvent(stripe.event('checkout.session.completed', session));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });
    const paid = await reservationRow(booking.id);
    expect(paid).toMatchObject({
      status: 'PAID',
      paymentId: session.id,
      authorizationId: paymentIntent.id,
      paymentStatus: 'AUTHORIZED',
      // Authorised, nothing charged: no invoice until the capture (CONTRACT section 19).
      invoiceId: null,
      invoiceTransactionId: null,
      invoiceStatus: null,
    });
    expect(paid.paymentDate).not.toBeNull();
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 5000, PROVIDER_CLEARING: -5000, WALLET: 0 });
  });

  it('an authorisation notifies the sender (PAYMENT_AUTHORIZED) and the carrier (RESERVATION_PAID)', async () => {
    const { sender, carrier, booking, session } = await completedCheckout();
    await sendPaymentEvent(stripe.event('checkout.session.completed', session));
    const notes = await db().select().from(notifications).where(sql`json_extract(${notifications.data}, '$.reservationId') = ${booking.id}`);
    expect(notes.map((n) => [n.userId, n.type]).sort()).toEqual(
      [
        [sender.id, 'PAYMENT_AUTHORIZED'],
        [carrier.id, 'RESERVATION_PAID'],
      ].sort(),
    );
  });

  it('the payment status (GET /payments/{id}/status) agrees with the authorisation', async () => {
    const { carrier, booking, session } = await completedCheckout();
    await sendPaymentEvent(stripe.event('checkout.session.completed', session));
    const status = await get(`/v1/api/payments/${booking.id}/status`, { token: carrier.token });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ reservationId: booking.id, paymentId: session.id, paymentStatus: 'AUTHORIZED', reservationStatus: 'PAID' });
  });

  it('the payment status is refused to a stranger (403) and readable by an admin', async () => {
    const { booking, session } = await completedCheckout();
    await sendPaymentEvent(stripe.event('checkout.session.completed', session));
    expect((await get(`/v1/api/payments/${booking.id}/status`, { token: (await aUser()).token })).status).toBe(403);
    expect((await get(`/v1/api/payments/${booking.id}/status`, { token: (await anAdmin()).token })).status).toBe(200);
  });

  it('the payment status of a non-numeric id is 400 TYPE_MISMATCH', async () => {
    const mismatch = await get('/v1/api/payments/abc/status', { token: (await aUser()).token });
    expect(mismatch.status).toBe(400);
    expect(errorBody(mismatch)).toMatchObject({ errorCode: 'TYPE_MISMATCH' });
  });

  it('the same event twice is applied once', async () => {
    const booking = await unpaid();
    const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    const event = stripe.event('payment_intent.amount_capturable_updated', pi);

    const first = await sendPaymentEvent(event);
    const second = await sendPaymentEvent(event);

    expect(first.body).toEqual({ received: true, duplicate: false });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ received: true, duplicate: true });
    expect((await reservationMoney(booking.id)).entries).toEqual([{ key: `escrow-in:${booking.id}`, type: 'PAYMENT_ESCROWED' }]);
    const notes = await db().select().from(notifications).where(sql`json_extract(${notifications.data}, '$.reservationId') = ${booking.id}`);
    expect(notes).toHaveLength(2);
  });

  it('two different events of one authorisation (session completed + amount capturable) converge', async () => {
    const { booking, session, paymentIntent } = await completedCheckout();
    await Promise.all([
      sendPaymentEvent(stripe.event('payment_intent.amount_capturable_updated', paymentIntent)),
      sendPaymentEvent(stripe.event('checkout.session.completed', session)),
    ]);
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED', paymentId: session.id });
    expect((await reservationMoney(booking.id)).entries).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a capture event arriving before the authorisation event ends in the same state', async () => {
    const booking = await unpaid();
    const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    const authorised = stripe.event('payment_intent.amount_capturable_updated', pi);
    const captured = stripe.event('payment_intent.succeeded', { ...pi, status: 'succeeded', amount_received: pi.amount, latest_charge: 'ch_early' });

    expect((await sendPaymentEvent(captured)).status).toBe(200);
    expect((await sendPaymentEvent(authorised)).status).toBe(200);

    expect(await reservationRow(booking.id)).toMatchObject({
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
    const booking = await unpaid(sender);
    const res = await sendPaymentEvent(
      stripe.event('payment_intent.payment_failed', { id: 'pi_failed_1', object: 'payment_intent', metadata: { reservationId: String(booking.id) } }),
    );
    expect(res.status).toBe(200);
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'FAILED' });
    const [note] = await db().select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(note.type).toBe('PAYMENT_FAILED');
    // The amount that did not go through, in the app and in every message sent.
    const told = await toldTo(sender.id, 'PAYMENT_FAILED');
    const fr = `Le paiement de ${formatMoneyIn(5000, 'EUR', 'fr')} pour la réservation ${booking.reservationNumber} n'a pas abouti ; rien n'a été débité. Vous pouvez réessayer.`;
    expect(told).toMatchObject({ key: 'notice.paymentFailed', fr, sentFr: [['EMAIL', fr]] });
    expect(told.en).toBe(`The payment of 50.00 EUR for reservation ${booking.reservationNumber} did not go through; nothing was charged. You can try again.`);
  });

  it('a signed event whose amount, currency or session is not the checkout this service created changes nothing, is acknowledged and audited (CONTRACT section 19)', async () => {
    const { booking, session, paymentIntent } = await completedCheckout();
    const foreignSession = { ...session, id: 'cs_test_not_ours' };
    const events = [
      stripe.event('checkout.session.completed', { ...session, amount_total: 1 }),
      stripe.event('checkout.session.completed', { ...session, currency: 'usd' }),
      stripe.event('checkout.session.completed', foreignSession),
      stripe.event('payment_intent.amount_capturable_updated', { ...paymentIntent, amount: 1, amount_capturable: 1 }),
      stripe.event('payment_intent.succeeded', { ...paymentIntent, amount: 1, amount_received: 1, status: 'succeeded', latest_charge: 'ch_cent' }),
    ];
    for (const event of events) {
      const res = await sendPaymentEvent(event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, duplicate: false });
    }
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING', authorizationId: null, captureId: null });
    expect((await reservationMoney(booking.id)).entries).toEqual([]);
    const audits = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'PAYMENT_EVENT_MISMATCH'), eq(auditLogs.targetId, String(booking.id))))
      .orderBy(auditLogs.id);
    expect(audits.map((a) => [(a.details as any).eventId, (a.details as any).fields])).toEqual([
      [events[0].id, ['amount']],
      [events[1].id, ['currency']],
      [events[2].id, ['session']],
      [events[3].id, ['amount']],
      [events[4].id, ['amount']],
    ]);
    expect(audits[0]).toMatchObject({
      actorId: null,
      targetType: 'RESERVATION',
      details: { eventType: 'checkout.session.completed', expected: { amountCents: 5000, currency: 'EUR' }, received: { amountCents: 1, currency: 'eur', sessionId: session.id } },
    });
    // The checkout's own event still pays it.
    expect((await sendPaymentEvent(stripe.event('checkout.session.completed', session))).status).toBe(200);
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED' });
  });

  it('an event about an unknown reservation is acknowledged and ignored', async () => {
    const pi = stripe.authorizedPaymentIntent(1000, 'eur', { reservationId: '99999999' });
    const res = await sendPaymentEvent(stripe.event('payment_intent.amount_capturable_updated', pi));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });
  });

  it('an event of another integration (no reservation in its metadata) is acknowledged', async () => {
    const foreign = await sendPaymentEvent(stripe.event('payment_intent.succeeded', { id: 'pi_other_integration', object: 'payment_intent', metadata: {} }));
    expect(foreign.status).toBe(200);
  });

  it('an authorisation for a reservation that expired meanwhile is voided, not booked', async () => {
    const { reservation: booking } = await aReservation({ status: 'EXPIRED', ...FIFTY_EUR });
    const pi = stripe.authorizedPaymentIntent(booking.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    await sendPaymentEvent(stripe.event('payment_intent.amount_capturable_updated', pi));
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('canceled');
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'EXPIRED', paymentStatus: 'VOIDED' });
    expect((await reservationMoney(booking.id)).entries).toEqual([]);
  });

  describe('refused deliveries answer 401 UNAUTHORIZED with the error body', () => {
    const payload = () => JSON.stringify(stripe.event('payment_intent.amount_capturable_updated', { id: 'pi_x', object: 'payment_intent', metadata: {} }));
    const expectUnauthorized = (res: Awaited<ReturnType<typeof sendWebhookRaw>>) => {
      expect(res.status).toBe(401);
      expect(errorBody(res)).toEqual({
        status: 401,
        errorCode: 'UNAUTHORIZED',
        message: 'Invalid webhook signature',
        path: WEBHOOK,
        suggestions: ['Sign the raw body with the endpoint secret; timestamps more than 300 s in the past or the future are refused'],
      });
    };

    it('no signature header', async () => expectUnauthorized(await sendWebhookRaw(payload())));

    it('a tampered body', async () => {
      const body = payload();
      const signature = await stripeSignature(body);
      expectUnauthorized(await sendWebhookRaw(body.replace('pi_x', 'pi_y'), signature));
    });

    it('a signature made with another secret', async () => {
      const body = payload();
      expectUnauthorized(await sendWebhookRaw(body, await stripeSignature(body, { secret: 'whsec_someone_else' })));
    });

    it('a timestamp older than 300 s', async () => {
      const body = payload();
      const old = Math.floor(Date.now() / 1000) - 301;
      expectUnauthorized(await sendWebhookRaw(body, await stripeSignature(body, { timestamp: old })));
    });

    it('a timestamp more than 300 s in the future (10 minutes ahead), nothing stored (CONTRACT section 19)', async () => {
      const body = payload();
      const ahead = Math.floor(Date.now() / 1000) + 600;
      expectUnauthorized(await sendWebhookRaw(body, await stripeSignature(body, { timestamp: ahead })));
      const row = await db().get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM payment_events WHERE id = ${JSON.parse(body).id}`);
      expect(row?.n).toBe(0);
      // Within the tolerance either way, it is accepted.
      const near = payload();
      expect((await sendWebhookRaw(near, await stripeSignature(near, { timestamp: Math.floor(Date.now() / 1000) + 60 }))).status).toBe(200);
    });

    it('nothing is stored for a refused event', async () => {
      const body = payload();
      const id = JSON.parse(body).id;
      await sendWebhookRaw(body, await stripeSignature(body, { secret: 'whsec_nope' }));
      const row = await db().get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM payment_events WHERE id = ${id}`);
      expect(row?.n).toBe(0);
    });
  });

  it.each([['malformed JSON', '{not json'], ['JSON that is not an event', JSON.stringify({ hello: 'world' })]])(
    'a well-signed body that is %s is 400 INVALID_ARGUMENT',
    async (_, body) => {
      const res = await sendWebhookRaw(body, await stripeSignature(body));
      expect(res.status).toBe(400);
      expect(errorBody(res)).toMatchObject({ status: 400, errorCode: 'INVALID_ARGUMENT', fieldErrors: [] });
    },
  );

  it('the webhook is public in the OpenAPI document', async () => {
    const doc = await get('/v1/api/openapi.json');
    const op = doc.body.paths['/v1/api/webhooks/payment-provider'].post;
    expect(op.security).toEqual([]);
  });

  it('the OpenAPI document lists the money routes', async () => {
    const doc = await get('/v1/api/openapi.json');
    for (const path of ['/v1/api/payments/checkout', '/v1/api/user/me/wallet', '/v1/api/withdrawals', '/v1/api/withdrawals/auto', '/v1/api/transactions/{id}/receipt', '/v1/api/pay-connect/can-receive-payments']) {
      expect(doc.body.paths[path], path).toBeDefined();
    }
  });
});

describe('browser callbacks', () => {
  async function openedCheckout() {
    const { sender, reservation } = await aReservation(FIFTY_EUR);
    const opened = await checkout(reservation.id, sender);
    return { booking: reservation, sessionId: opened.body.paymentId as string };
  }

  it('the success page of a session not completed says so and changes nothing', async () => {
    const { booking, sessionId } = await openedCheckout();
    const page = await call('GET', `/v1/api/payments/callback/success?session_id=${sessionId}`);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('Payment not completed');
    expect((await reservationRow(booking.id)).status).toBe('PENDING_PAYMENT');
  });

  it('the success page asks the provider and applies a completed session even before the webhook', async () => {
    const { booking, sessionId } = await openedCheckout();
    stripe.completeCheckout(sessionId);
    const done = await call('GET', `/v1/api/payments/callback/success?session_id=${sessionId}`);
    expect(String(done.body)).toContain('Payment authorised');
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED' });
    // The same page for a French reader, in French.
    const fr = await call('GET', `/v1/api/payments/callback/success?session_id=${sessionId}`, { headers: { 'Accept-Language': 'fr-SN,fr;q=0.9' } });
    expect(fr.headers.get('Content-Language')).toBe('fr');
    expect(String(fr.body)).toContain('<html lang="fr">');
    expect(String(fr.body)).toContain('<h1>Paiement autorisé</h1>');
    expect(String(fr.body)).toContain('Votre paiement est conservé en sécurité jusqu&#39;à la livraison de votre colis.');
  });

  it('the success page of an unknown session says it was not found', async () => {
    const forged = await call('GET', '/v1/api/payments/callback/success?session_id=cs_test_forged');
    expect(String(forged.body)).toContain('Payment session not found');
  });

  it('the cancel page answers 200', async () => {
    const { sessionId } = await openedCheckout();
    const cancel = await call('GET', `/v1/api/payments/callback/cancel?session_id=${sessionId}`);
    expect(cancel.status).toBe(200);
  });
});

describe('sandbox provider (no STRIPE_SECRET_KEY)', () => {
  const app = createApp();
  const sandboxEnv = { ...env, STRIPE_SECRET_KEY: '' } as Env;
  const request = (path: string, init: RequestInit = {}) => app.request(`http://api.test${path}`, init, sandboxEnv);
  /** A JSON POST of `sender` to the sandboxed service. */
  const postAs = (sender: TestUser, path: string, body: unknown) =>
    request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sender.token}` }, body: JSON.stringify(body) });

  it('checkout page with Pay and Cancel; Pay goes through the signed webhook and the reservation is PAID', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const res = await postAs(sender, '/v1/api/payments/checkout', { reservationId: booking.id });
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
    const r = await reservationRow(booking.id);
    expect(r).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED', paymentId: body.paymentId });
    expect(r.authorizationId).toMatch(/^pi_sandbox_/);
    const stored = await db().get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM payment_events WHERE id LIKE 'evt_sandbox_%' AND processed_at IS NOT NULL`);
    expect(stored!.n).toBeGreaterThan(0);

    const callback = await request(`/v1/api/payments/callback/success?session_id=${body.paymentId}`);
    expect(await callback.text()).toContain('Payment authorised');
  });

  it('"Pay" on the page of a cancelled booking takes nothing and the return page says why', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const res = await postAs(sender, '/v1/api/payments/checkout', { reservationId: booking.id });
    const { paymentId, paymentApprovalUrl } = (await res.json()) as { paymentId: string; paymentApprovalUrl: string };
    const cancel = await postAs(sender, `/v1/api/bookings/${booking.id}/cancel`, {});
    expect(cancel.status).toBe(200);
    const pagePath = new URL(paymentApprovalUrl).pathname;
    const page = await (await request(pagePath)).text();
    expect(page).not.toMatch(/<button[^>]*>Pay<\/button>/);
    expect(page).toContain('This payment is expired.');

    const pressed = await request(`${pagePath}/pay`, { method: 'POST' });
    expect(pressed.status).toBe(303);
    const back = await request(`/v1/api/payments/callback/success?session_id=${paymentId}`);
    const text = await back.text();
    expect(text).toContain('Booking no longer payable');
    expect(text).not.toContain('Payment authorised');
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'EXPIRED', authorizationId: null });
  });

  it('the sandbox checkout page speaks the reader’s language: French amounts, buttons and outcome', async () => {
    const sender = await aUser();
    const booking = await unpaid(sender);
    const res = await postAs(sender, '/v1/api/payments/checkout', { reservationId: booking.id });
    const { paymentApprovalUrl } = (await res.json()) as { paymentApprovalUrl: string };
    const pagePath = new URL(paymentApprovalUrl).pathname;
    const french = { headers: { 'Accept-Language': 'fr-SN,fr;q=0.9' } };
    const open = await request(pagePath, french);
    expect(open.headers.get('content-language')).toBe('fr');
    const page = await open.text();
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain('<title>Paiement de test (carte)</title>');
    expect(page).toMatch(/<button type="submit">Payer<\/button>/);
    expect(page).toMatch(/<button type="submit">Annuler<\/button>/);
    expect(page).toMatch(/50,00\s€|50,00\sEUR/);
    expect((await postAs(sender, `/v1/api/bookings/${booking.id}/cancel`, {})).status).toBe(200);
    expect(await (await request(pagePath, french)).text()).toContain('Ce paiement est expiré.');
    // English for a reader naming neither language.
    expect(await (await request(pagePath, { headers: { 'Accept-Language': 'de' } })).text()).toContain('This payment is expired.');
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
    const rows = await db().select().from(reservations).where(eq(reservations.reservationNumber, 'DEMO-PAID-0001'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED' });
    expect((await db().select().from(ledgerEntries).where(eq(ledgerEntries.reservationId, rows[0].id))).length).toBe(1);
  });
});

describe('the invoice issued at capture', () => {
  it('the super-admin detail and the Reservation show ISSUED with the receipt once captured; nothing before', async () => {
    const boss = await aSuperAdmin();
    const waiting = await unpaid();
    const before = await get(`/v1/api/superadmin/reservations/${waiting.id}`, { token: boss.token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ invoiceId: null, invoiceUrl: null, invoiceStatus: null });

    // Paid (authorised) but not captured: still nothing.
    const authorised = await aReservation({ status: 'PAID', payment: stripe, ...FIFTY_EUR });
    const notYet = await get(`/v1/api/superadmin/reservations/${authorised.reservation.id}`, { token: boss.token });
    expect(notYet.body).toMatchObject({ invoiceId: null, invoiceUrl: null, invoiceStatus: null });

    const { sender, reservation } = await aReservation({ status: 'DEPOSITED', payment: stripe, ...FIFTY_EUR });
    const detail = await get(`/v1/api/superadmin/reservations/${reservation.id}`, { token: boss.token });
    expect(detail.status).toBe(200);
    expect(detail.body.invoiceStatus).toBe('ISSUED');
    expect(detail.body.invoiceId).toMatch(INVOICE_NUMBER);
    expect(detail.body.invoiceUrl).toMatch(SIGNED_RECEIPT_LINK);
    // The page of details says the same.
    const page = await get('/v1/api/superadmin/reservations?status=DEPOSITED&size=100', { token: boss.token });
    expect(page.body.content.find((r: { id: number }) => r.id === reservation.id)).toMatchObject({
      invoiceId: detail.body.invoiceId,
      invoiceUrl: detail.body.invoiceUrl,
      invoiceStatus: 'ISSUED',
    });
    // The sender's Reservation points at the same invoice, and its receipt is there.
    const own = await get(`/v1/api/bookings/${reservation.id}`, { token: sender.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ invoiceId: detail.body.invoiceId, invoiceUrl: detail.body.invoiceUrl });
    const receipt = await get(new URL(detail.body.invoiceUrl).pathname, { token: sender.token });
    expect(receipt.status).toBe(200);
    expect((await reservationRow(reservation.id)).invoiceStatus).toBe('ISSUED');
  });

  /** A paid and captured (deposited) reservation, its invoice link as the sender reads it. */
  async function paidWithInvoice() {
    const sender = await aUser({ firstName: 'Sara', lastName: 'Sender' });
    const carrier = await aCarrier({ firstName: 'Carl', lastName: 'Carrier' });
    const fixture = await aReservation({ sender, carrier, status: 'DEPOSITED', payment: stripe, ...FIFTY_EUR });
    const own = await get(`/v1/api/bookings/${fixture.reservation.id}`, { token: fixture.sender.token });
    return { ...fixture, invoiceId: own.body.invoiceId as string, invoiceUrl: own.body.invoiceUrl as string };
  }
  const openLink = (url: string) => call('GET', new URL(url).pathname); // no bearer token: a browser

  it('the invoice opens from a browser through its signed link, with the platform as seller and its legal details', async () => {
    const { sender, reservation, invoiceId, invoiceUrl } = await paidWithInvoice();
    expect(invoiceUrl).toMatch(SIGNED_RECEIPT_LINK);
    expect(invoiceUrl.startsWith(`${env.PUBLIC_BASE_URL}/v1/api/public/receipts/`)).toBe(true);

    const log = vi.spyOn(console, 'log');
    const res = await openLink(invoiceUrl);
    // The link is a secret: the request log names the route, not the token.
    const lines = log.mock.calls.map((args) => String(args[0]));
    log.mockRestore();
    expect(lines.some((l) => l.includes('"path":"/v1/api/public/receipts/:token"'))).toBe(true);
    expect(lines.some((l) => l.includes(new URL(invoiceUrl).pathname.split('/').pop()!))).toBe(false);

    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    const pdf = String(res.body);
    expect(pdf.startsWith('%PDF-')).toBe(true);
    const shown = [...pdf.matchAll(/Td \((.*)\) Tj ET/g)].map((m) => m[1].replace(/\\([()\\])/g, '$1'));
    const [{ issuedAt }] = await db().select().from(moneyDocuments).where(eq(moneyDocuments.number, invoiceId));
    const paidAt = issuedAt.slice(0, 10);
    expect(shown).toEqual([
      'Invoice',
      `Invoice number: ${invoiceId}`,
      `Invoice date: ${paidAt}`,
      'Issued by the platform, acting as marketplace on behalf of the carrier:',
      env.PLATFORM_LEGAL_NAME,
      env.PLATFORM_LEGAL_ADDRESS,
      `VAT number: ${env.PLATFORM_VAT_NUMBER}`,
      `Company registration: ${env.PLATFORM_COMPANY_REGISTRATION}`,
      'Carrier (supplier of the transport): Carl Carrier',
      `Customer: Sara Sender <${sender.email}>`,
      `Reservation: ${reservation.reservationNumber}`,
      'Weight: 4.000 kg at 12.50 EUR/kg',
      'Transport by the carrier: 42.50 EUR (no VAT charged by the platform)',
      // 7.50 EUR commission, VAT included at 20%: 6.25 + 1.25.
      'Platform service fee excl. VAT: 6.25 EUR',
      'VAT 20% on the platform service fee: 1.25 EUR',
      'Platform service fee incl. VAT: 7.50 EUR',
      `Payment reference: ${(await reservationRow(reservation.id)).authorizationId}`,
      'Total paid: 50.00 EUR',
    ]);
    expect(env.PLATFORM_LEGAL_NAME).toBe('Parcel Marketplace SAS (development)'); // from wrangler.toml [vars]
  });

  it('a tampered, forged or expired link is refused with the error body; a link to nothing is 404', async () => {
    const { reservation, invoiceUrl } = await paidWithInvoice();
    const path = new URL(invoiceUrl).pathname;
    const [body, mac] = path.slice(path.lastIndexOf('/') + 1).split('.');
    const prefix = path.slice(0, path.lastIndexOf('/') + 1);
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const invalid = { status: 403, errorCode: 'ACCESS_DENIED', message: 'This receipt link is invalid', suggestions: ['Open the receipt from the app or the reservation to get a valid link'] };
    for (const bad of [`${body}.${flip(mac)}`, `${flip(body)}.${mac}`, body, 'not-a-token', `${body}.${mac}.x`]) {
      const res = await call('GET', `${prefix}${bad}`);
      expect(res.status, bad).toBe(403);
      expect(errorBody(res)).toEqual({ ...invalid, path: `${prefix}${bad}` });
    }
    // Another transaction's id under the same signature, or a link signed with another secret.
    const transactionId = (await reservationRow(reservation.id)).invoiceTransactionId!;
    const forged = await receiptToken('not-the-secret', transactionId);
    expect(errorBody(await call('GET', `${prefix}${forged}`))).toMatchObject(invalid);

    const expired = await receiptToken(env.RECEIPT_SIGNING_SECRET, transactionId, Date.now() - 26 * 3600_000);
    const late = await call('GET', `${prefix}${expired}`);
    expect(late.status).toBe(403);
    expect(errorBody(late)).toEqual({
      status: 403,
      errorCode: 'ACCESS_DENIED',
      message: 'This receipt link has expired',
      path: `${prefix}${expired}`,
      suggestions: ['Open the receipt again from the app or the reservation: it gives a new link'],
    });
    const gone = await receiptToken(env.RECEIPT_SIGNING_SECRET, 2_000_000_000);
    expect(errorBody(await call('GET', `${prefix}${gone}`))).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('a link lives a day: valid 23 hours after it was handed out, refused 26 hours after', async () => {
    const { reservation } = await paidWithInvoice();
    const transactionId = (await reservationRow(reservation.id)).invoiceTransactionId!;
    const link = await receiptUrl(env, transactionId);
    const token = link.slice(link.lastIndexOf('/') + 1);
    await expect(readReceiptToken(env.RECEIPT_SIGNING_SECRET, token, Date.now() + 23 * 3600_000)).resolves.toBe(transactionId);
    await expect(readReceiptToken(env.RECEIPT_SIGNING_SECRET, token, Date.now() + 26 * 3600_000)).rejects.toMatchObject({ errorCode: 'ACCESS_DENIED' });
  });

  it('invoice numbers follow one sequence a year, without gaps', async () => {
    const numbers: string[] = [];
    for (let i = 0; i < 3; i += 1) numbers.push((await paidWithInvoice()).invoiceId);
    const year = new Date().toISOString().slice(0, 4);
    const sequence = numbers.map((n) => {
      expect(n).toMatch(new RegExp(`^F-${year}-\\d{6}$`));
      return Number(n.slice(-6));
    });
    expect(sequence).toEqual([sequence[0], sequence[0] + 1, sequence[0] + 2]);
    const [{ last }] = await db().all<{ last: number }>(sql`SELECT last_number AS last FROM invoice_sequences WHERE series = ${`F-${year}`}`);
    expect(last).toBe(sequence[2]);
  });

  it('a payment arriving for a cancelled booking issues no invoice and takes no number', async () => {
    const year = new Date().toISOString().slice(0, 4);
    const lastNumber = async () => (await db().all<{ last: number }>(sql`SELECT last_number AS last FROM invoice_sequences WHERE series = ${`F-${year}`}`))[0]?.last ?? 0;
    await paidWithInvoice(); // the sequence exists
    const before = await lastNumber();
    const { reservation } = await aReservation({ status: 'CANCELLED', ...FIFTY_EUR });
    const pi = stripe.authorizedPaymentIntent(5000, 'eur', { reservationId: String(reservation.id) });
    expect((await sendPaymentEvent(stripe.event('payment_intent.amount_capturable_updated', pi))).status).toBe(200);
    expect(await reservationRow(reservation.id)).toMatchObject({ invoiceId: null, invoiceTransactionId: null, invoiceStatus: null });
    expect(await lastNumber()).toBe(before);
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
