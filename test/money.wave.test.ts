// Mobile money end to end (issue 29, CONTRACT section 20): payment methods, a Wave checkout, Wave's
// signed webhook (PAID, CAPTURED at once, the price in escrow), duplicates and events out of order,
// refunds as Wave refunds, the sandbox page, mobile payout accounts, XOF withdrawals paid out by
// Wave and can-receive-payments per currency. Wave is the real adapter against the fake Wave API
// (test/helpers/fake-wave.ts) at the fetch boundary, with real signatures.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app';
import { mobileMoneyOperations, notifications, paymentSessions, reconciliationDifferences, users } from '../src/db/schema';
import { depsOf } from '../src/env';
import { retryPendingWithdrawals } from '../src/features/money/withdrawals/withdrawals.service';
import { dayOf, runReconciliation, settleWithProvider } from '../src/features/money';
import { db, reservationRow } from './helpers/db';
import { SandboxMobileMoneyProvider } from '../src/providers/mobile-money';
import { aCarrier, advance, aReservation, aTrip, aUser, deliverWithRelease, makeAvailable, type TestUser } from './helpers/factories';
import { FAKE_WAVE_API_KEY, FAKE_WAVE_WEBHOOK_SECRET, FakeWave, waveDelivery } from './helpers/fake-wave';
import { toldTo } from './helpers/notices';
import { formatMoneyIn } from '../src/lib/money';
import { accountBalance, ledgerInvariantViolations, reservationMoney, walletKey } from './helpers/money';

const wave = new FakeWave();
beforeAll(() => wave.server.listen({ onUnhandledRequest: 'error' }));
// The last refunds log from work the worker finishes after answering (waitUntil): let those lines
// reach the runner before the file's environment closes, or vitest reports them as unhandled.
// On a loaded machine 300 ms was not always enough: the work's console is silenced too (the worker
// runs in this isolate, so these are its lines), then it is given a second to finish.
afterAll(async () => {
  for (const level of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation(() => {});
  await new Promise((resolve) => setTimeout(resolve, 1000));
  wave.server.close();
});
afterEach(() => {
  wave.refuse.clear();
  wave.holdPayouts = false;
});

/** The service with Wave's keys (the real adapter) and an https base URL, as Wave requires. */
const liveEnv = { ...env, WAVE_API_KEY: FAKE_WAVE_API_KEY, WAVE_WEBHOOK_SECRET: FAKE_WAVE_WEBHOOK_SECRET, PUBLIC_BASE_URL: 'https://api.test', PAWAPAY_ENABLED: 'false' } as Env;
const app = createApp();

interface Res {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

async function request(method: string, path: string, options: { token?: string; body?: unknown; raw?: string; headers?: HeadersInit; on?: Env } = {}): Promise<Res> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  const res = await app.request(`http://api.test${path}`, { method, headers, body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) }, options.on ?? liveEnv);
  const text = await res.text();
  const body = res.headers.get('Content-Type')?.includes('json') && text ? JSON.parse(text) : text;
  return { status: res.status, body, text, headers: res.headers };
}

const stripTimestamp = (body: any) => {
  const { timestamp, ...rest } = body;
  expect(Date.parse(timestamp)).not.toBeNaN();
  return rest;
};

/** A 5000 XOF booking (2 kg at 2500 XOF/kg: carrier 4250, commission 750) waiting for its payment. */
async function xofBooking(options: { sender?: TestUser; carrier?: TestUser } = {}) {
  const carrier = options.carrier ?? (await aCarrier());
  const trip = await aTrip(carrier, { currency: 'XOF', departureCity: 'Dakar', departureCountry: 'SN', arrivalCity: 'Paris', arrivalCountry: 'FR', pricePerKgCents: 2_500, reservedWeightG: 2_000 });
  return aReservation({ sender: options.sender, carrier, trip, weightG: 2_000, set: { currency: 'XOF' } });
}

const WEBHOOK = '/v1/api/webhooks/wave';
const deliver = async (event: object, options?: Parameters<typeof waveDelivery>[1]) => {
  const { rawBody, headers } = await waveDelivery(event, options);
  return request('POST', WEBHOOK, { raw: rawBody, headers });
};

/** Opens a MOBILE_MONEY checkout for the booking and returns the checkout response and Wave's session. */
async function waveCheckout(sender: TestUser, reservationId: number) {
  const res = await request('POST', '/v1/api/payments/checkout', { token: sender.token, body: { reservationId, method: 'MOBILE_MONEY' } });
  expect(res.status).toBe(200);
  return { res, session: wave.sessions.get(res.body.paymentId)! };
}

/** Pays the booking in the Wave app and delivers Wave's signed checkout.session.completed. */
async function payWithWave(sender: TestUser, reservationId: number) {
  const { res } = await waveCheckout(sender, reservationId);
  const event = wave.event('checkout.session.completed', wave.paySession(res.body.paymentId));
  const ack = await deliver(event);
  expect(ack.status).toBe(200);
  return { checkoutId: res.body.paymentId as string, event };
}

/** The UUID the port recorded for `subject` (payin:<reservation>:<attempt>, refund:<reservation>, payout:<withdrawal>): the provider's key on every retry. */
async function operationId(subject: string): Promise<string> {
  const [op] = await db().select().from(mobileMoneyOperations).where(eq(mobileMoneyOperations.subject, subject));
  expect(op?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  return op.id;
}

const WAVE_METHOD = {
  method: 'MOBILE_MONEY',
  provider: 'WAVE',
  displayName: 'Wave',
  currencies: ['XOF'],
  countries: ['SN', 'ML', 'CI', 'BF'],
  payIn: { min: 1, max: null },
  payout: { min: 1, max: null },
  decimals: 0,
  approval: 'REDIRECT',
};

describe('payment methods (GET /payments/methods)', () => {
  it('an XOF booking can be paid by card (Stripe) or mobile money (Wave); each method lists its currencies', async () => {
    const { sender, reservation } = await xofBooking();
    const res = await request('GET', `/v1/api/payments/methods?reservationId=${reservation.id}`, { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      methods: [
        { method: 'CARD', provider: 'STRIPE', currencies: ['EUR', 'XOF', 'XAF', 'MAD', 'GBP', 'USD', 'CAD'] },
        WAVE_METHOD,
      ],
    });
  });

  it('a EUR booking is offered the card only; only its sender may ask; a bad id is TYPE_MISMATCH', async () => {
    const { sender, carrier, reservation } = await aReservation();
    const res = await request('GET', `/v1/api/payments/methods?reservationId=${reservation.id}`, { token: sender.token });
    expect(res.body.methods.map((m: { method: string }) => m.method)).toEqual(['CARD']);
    expect((await request('GET', `/v1/api/payments/methods?reservationId=${reservation.id}`, { token: carrier.token })).status).toBe(403);
    expect((await request('GET', '/v1/api/payments/methods?reservationId=abc', { token: sender.token })).body.errorCode).toBe('TYPE_MISMATCH');
    // Without a reservation: every method, here narrowed to a currency (CONTRACT section 29).
    expect((await request('GET', '/v1/api/payments/methods?currency=EUR', { token: sender.token })).body.methods.map((m: { method: string }) => m.method)).toEqual(['CARD']);
  });
});

describe('checkout with MOBILE_MONEY (Wave)', () => {
  it('opens a Wave checkout session for the booking and sends the sender to its launch URL', async () => {
    const { sender, reservation } = await xofBooking();
    const before = wave.requests.length;
    const { res, session } = await waveCheckout(sender, reservation.id);

    expect(res.body.paymentId).toMatch(/^cos-/);
    expect(res.body.paymentApprovalUrl).toBe(session.wave_launch_url);
    expect(res.body.paymentApprovalUrl).toMatch(/^https:\/\/pay\.wave\.com\/c\/cos-/);
    expect(Date.parse(res.body.expiresAt)).toBe(Date.parse(session.when_expires));
    const [sent] = wave.requests.slice(before);
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: await operationId(`payin:${reservation.id}:1`) });
    expect(sent.body).toEqual({
      amount: '5000',
      currency: 'XOF',
      client_reference: reservation.reservationNumber,
      success_url: 'https://api.test/v1/api/payments/callback/wave/success',
      error_url: 'https://api.test/v1/api/payments/callback/wave/error',
    });
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentId: res.body.paymentId, paymentApprovalUrl: session.wave_launch_url, paymentStatus: 'PENDING' });
    const [stored] = await db().select().from(paymentSessions).where(eq(paymentSessions.sessionId, res.body.paymentId));
    expect(stored).toMatchObject({ method: 'MOBILE_MONEY', provider: 'wave', amountCents: 5000, currency: 'XOF' });

    // Asked again: the same open session, no second one at Wave.
    const again = await request('POST', '/v1/api/payments/checkout', { token: sender.token, body: { reservationId: reservation.id, method: 'MOBILE_MONEY' } });
    expect(again.body.paymentId).toBe(res.body.paymentId);
    expect(wave.requestsTo('POST', '/v1/checkout/sessions').filter((r) => r.body?.client_reference === reservation.reservationNumber)).toHaveLength(1);
  });

  it('mobile money for a EUR booking is refused with the methods that can pay it (422, English and French)', async () => {
    const { sender, reservation } = await aReservation();
    const res = await request('POST', '/v1/api/payments/checkout', { token: sender.token, body: { reservationId: reservation.id, method: 'MOBILE_MONEY' } });
    expect(res.status).toBe(422);
    expect(stripTimestamp(res.body)).toMatchObject({
      errorCode: 'BUSINESS_RULE_VIOLATION',
      message: 'MOBILE_MONEY is not offered for payments in EUR; use one of CARD',
      suggestions: ['See the ways this reservation can be paid'],
    });
    const fr = await request('POST', '/v1/api/payments/checkout', {
      token: sender.token,
      body: { reservationId: reservation.id, method: 'MOBILE_MONEY' },
      headers: { 'Accept-Language': 'fr' },
    });
    expect(fr.body.message).toBe("MOBILE_MONEY n'est pas proposé pour les paiements en EUR ; utilisez l'un de ces moyens : CARD");
    const unknown = await request('POST', '/v1/api/payments/checkout', { token: sender.token, body: { reservationId: reservation.id, method: 'CASH' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorCode).toBe('VALIDATION_ERROR');
    expect(unknown.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['method']);
  });
});

describe('Wave webhook (POST /webhooks/wave)', () => {
  it('a signed checkout.session.completed makes the booking PAID and CAPTURED at once, the price in escrow', async () => {
    const { sender, reservation } = await xofBooking();
    const { checkoutId } = await payWithWave(sender, reservation.id);
    const row = await reservationRow(reservation.id);
    expect(row).toMatchObject({ status: 'PAID', paymentStatus: 'CAPTURED', paymentId: checkoutId, authorizationId: checkoutId });
    expect(row.captureId).toBe(wave.sessions.get(checkoutId)!.transaction_id);
    expect(row.invoiceId).not.toBeNull();
    const money = await reservationMoney(reservation.id);
    expect(money.ESCROW).toBe(5000);
    expect(money.entries.map((e) => e.type)).toEqual(['PAYMENT_ESCROWED']);
    expect(await ledgerInvariantViolations()).toEqual([]);
    const status = await request('GET', `/v1/api/payments/${reservation.id}/status`, { token: sender.token });
    expect(status.body).toEqual({ reservationId: reservation.id, paymentId: checkoutId, paymentStatus: 'CAPTURED', reservationStatus: 'PAID' });
  });

  it('the same event twice is applied once; a failed attempt delivered after the payment changes nothing', async () => {
    const { sender, reservation } = await xofBooking();
    const { res } = await waveCheckout(sender, reservation.id);
    const failed = wave.event('checkout.session.payment_failed', wave.failPayment(res.body.paymentId));
    const completed = wave.event('checkout.session.completed', wave.paySession(res.body.paymentId));
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: false });
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: true });
    expect((await deliver(failed)).status).toBe(200);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PAID', paymentStatus: 'CAPTURED' });
    const money = await reservationMoney(reservation.id);
    expect(money.ESCROW).toBe(5000);
    expect(money.entries).toHaveLength(1);
  });

  it('a failed payment leaves the booking payable (FAILED), and a later success still pays it', async () => {
    const { sender, reservation } = await xofBooking();
    const { res } = await waveCheckout(sender, reservation.id);
    await deliver(wave.event('checkout.session.payment_failed', wave.failPayment(res.body.paymentId)));
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'FAILED' });
    expect((await reservationMoney(reservation.id)).entries).toEqual([]);
    await deliver(wave.event('checkout.session.completed', wave.paySession(res.body.paymentId)));
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PAID', paymentStatus: 'CAPTURED' });
  });

  it('a bad, missing or stale signature is 401 UNAUTHORIZED; a well-signed unreadable event is 400', async () => {
    const { sender, reservation } = await xofBooking();
    const { res } = await waveCheckout(sender, reservation.id);
    const event = wave.event('checkout.session.completed', wave.paySession(res.body.paymentId));
    const forged = await deliver(event, { secret: 'wave_sn_WHS_not-the-secret' });
    expect(forged.status).toBe(401);
    expect(stripTimestamp(forged.body)).toMatchObject({ errorCode: 'UNAUTHORIZED', message: 'Invalid Wave-Signature' });
    const stale = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(401);
    const unsigned = await request('POST', WEBHOOK, { raw: JSON.stringify(event), headers: { 'Content-Type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.errorCode).toBe('UNAUTHORIZED');
    const malformed = await deliver({ id: 'AE_x', type: 'checkout.session.completed', data: { nothing: true } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errorCode).toBe('INVALID_ARGUMENT');
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT' });
    // Rotating secrets: any matching v1 is enough.
    expect((await deliver(event, { secret: 'wave_sn_WHS_old', extraSecrets: [FAKE_WAVE_WEBHOOK_SECRET] })).status).toBe(200);
  });

  it('a session this service did not open is acknowledged and changes nothing', async () => {
    const { sender, reservation } = await xofBooking();
    const { res } = await waveCheckout(sender, reservation.id);
    const other = { ...wave.paySession(res.body.paymentId), id: 'cos-not-ours' };
    const ack = await deliver(wave.event('checkout.session.completed', other));
    expect(ack.body).toEqual({ received: true, duplicate: false });
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING' });
  });
});

describe('refunds of a Wave payment are Wave refunds', () => {
  it('the carrier rejects: the whole checkout is refunded at Wave, the escrow goes back to the sender', async () => {
    const { sender, carrier, reservation } = await xofBooking();
    const { checkoutId } = await payWithWave(sender, reservation.id);
    const res = await request('POST', `/v1/api/bookings/${reservation.id}/reject`, { token: carrier.token });
    expect(res.status).toBe(200);
    const refunds = wave.requestsTo('POST', `/v1/checkout/sessions/${checkoutId}/refund`);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].idempotencyKey).toBe(await operationId(`refund:${reservation.id}`));
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUNDED', refundId: `refund-${checkoutId}` });
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(0);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('the Wave sandbox page (no WAVE_API_KEY)', () => {
  /** The service as a local run has it: Wave's sandbox, which signs with the sandbox secret. */
  const sandboxEnv = env;

  it('"Pay with Wave" goes through the signed webhook: PAID and CAPTURED, back to the success page', async () => {
    const { sender, reservation } = await xofBooking();
    const res = await request('POST', '/v1/api/payments/checkout', { token: sender.token, body: { reservationId: reservation.id, method: 'MOBILE_MONEY' }, on: sandboxEnv });
    expect(res.status).toBe(200);
    const page = new URL(res.body.paymentApprovalUrl).pathname;
    expect(page).toBe(`/sandbox/wave/checkout/${res.body.paymentId}`);
    const shown = await request('GET', page, { on: sandboxEnv });
    expect(shown.status).toBe(200);
    expect(shown.text).toMatch(/<button[^>]*>Pay with Wave<\/button>/);
    expect(shown.text).toMatch(/<button[^>]*>Fail<\/button>/);
    expect(shown.text).toContain('5000 XOF');

    const paid = await request('POST', `${page}/pay`, { on: sandboxEnv });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('Location')).toMatch(/\/v1\/api\/payments\/callback\/wave\/success$/);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PAID', paymentStatus: 'CAPTURED', paymentId: res.body.paymentId });
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(5000);
    const back = await request('GET', new URL(paid.headers.get('Location')!).pathname, { on: sandboxEnv });
    expect(back.status).toBe(200);
    expect(back.text).toContain('Payment sent');
    const backFr = await request('GET', new URL(paid.headers.get('Location')!).pathname, { on: sandboxEnv, headers: { 'Accept-Language': 'fr' } });
    expect(backFr.text).toContain('<h1>Paiement envoyé</h1>');
    expect(backFr.text).toContain('Wave confirme votre paiement');
    // Paid once: the page no longer offers to pay.
    expect((await request('GET', page, { on: sandboxEnv })).text).toContain('This payment is paid.');
    // The sandbox wallet's statement has the payment, as Wave's Balance API would: today's
    // reconciliation reads it and finds this payment in the books.
    const day = dayOf(new Date());
    const statement = await new SandboxMobileMoneyProvider(sandboxEnv, sandboxEnv.WAVE_WEBHOOK_SECRET ?? '').statement(day);
    expect(statement.lines).toContainEqual(expect.objectContaining({ type: 'api_checkout', amountMinor: 5000, feeMinor: 0, currency: 'XOF', checkoutSessionId: res.body.paymentId, clientReference: reservation.reservationNumber }));
    const [report] = (await runReconciliation(depsOf(sandboxEnv), day)).filter((r) => r.provider === 'WAVE');
    expect(report.note).toMatch(/; statement: [1-9]\d* lines/);
    const named = await db().select().from(reconciliationDifferences).where(and(eq(reconciliationDifferences.reportId, report.id), eq(reconciliationDifferences.reservationId, reservation.id)));
    expect(named).toEqual([]);
  });

  it('"Fail" leaves the booking payable (FAILED) and goes back to the error page; an unknown session is 404', async () => {
    const { sender, reservation } = await xofBooking();
    const res = await request('POST', '/v1/api/payments/checkout', { token: sender.token, body: { reservationId: reservation.id, method: 'MOBILE_MONEY' }, on: sandboxEnv });
    const page = new URL(res.body.paymentApprovalUrl).pathname;
    const failed = await request('POST', `${page}/fail`, { on: sandboxEnv });
    expect(failed.status).toBe(303);
    expect(failed.headers.get('Location')).toMatch(/\/v1\/api\/payments\/callback\/wave\/error$/);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'FAILED' });
    expect((await request('GET', '/sandbox/wave/checkout/cos-sandboxunknown', { on: sandboxEnv })).status).toBe(404);
  });

  it('with Wave keys the sandbox page is not served (404)', async () => {
    expect((await request('GET', '/sandbox/wave/checkout/cos-anything')).status).toBe(404);
  });
});

describe('mobile payout accounts (/payout-accounts)', () => {
  const add = (user: TestUser, body: Record<string, unknown>, headers?: HeadersInit) =>
    request('POST', '/v1/api/payout-accounts', { token: user.token, body: { type: 'MOBILE_MONEY', provider: 'WAVE', name: 'Awa Diop', ...body }, headers });

  it('adds a Wave wallet (the number normalised to E.164), lists it, and the newest is the XOF default', async () => {
    const carrier = await aCarrier();
    const first = await add(carrier, { phone: '+221 77 123 45 67' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ type: 'MOBILE_MONEY', provider: 'WAVE', currency: 'XOF', phone: '+221771234567', name: 'Awa Diop', isDefault: true });
    const second = await add(carrier, { phone: '+2250701020304', name: 'Awa D.' });
    expect(second.status).toBe(201);
    const list = await request('GET', '/v1/api/payout-accounts', { token: carrier.token });
    expect(list.status).toBe(200);
    expect(list.body.content.map((a: { id: number; isDefault: boolean }) => [a.id, a.isDefault])).toEqual([
      [second.body.id, true],
      [first.body.id, false],
    ]);
    // The same wallet twice is 409.
    expect((await add(carrier, { phone: '+221771234567' })).body.errorCode).toBe('ALREADY_EXISTS');
    // Someone else sees none of them and cannot delete them.
    const other = await aUser();
    expect((await request('GET', '/v1/api/payout-accounts', { token: other.token })).body.content).toEqual([]);
    expect((await request('DELETE', `/v1/api/payout-accounts/${second.body.id}`, { token: other.token })).status).toBe(404);
    // Deleting the default makes the remaining one the default.
    expect((await request('DELETE', `/v1/api/payout-accounts/${second.body.id}`, { token: carrier.token })).status).toBe(204);
    const after = await request('GET', '/v1/api/payout-accounts', { token: carrier.token });
    expect(after.body.content).toEqual([expect.objectContaining({ id: first.body.id, isDefault: true })]);
  });

  it('a number outside Wave’s countries, of the wrong length or not E.164 is 400 naming the phone field (English and French)', async () => {
    const carrier = await aCarrier();
    for (const phone of ['+33612345678', '+22177123456', '0771234567', '+221 77 123 45 678', 'wave']) {
      const res = await add(carrier, { phone });
      expect(res.status, phone).toBe(400);
      expect(res.body.errorCode).toBe('VALIDATION_ERROR');
      expect(res.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['phone']);
    }
    const res = await add(carrier, { phone: '+33612345678' });
    expect(res.body.fieldErrors[0]).toMatchObject({
      field: 'phone',
      rejectedValue: '+33612345678',
      message: 'An E.164 mobile number of a Wave country: +221 (Senegal, 9 digits), +225 (Côte d’Ivoire, 10 digits), +223 (Mali, 8 digits) or +226 (Burkina Faso, 8 digits)',
    });
    const fr = await add(carrier, { phone: '+33612345678' }, { 'Accept-Language': 'fr' });
    expect(fr.body.fieldErrors[0].message).toBe('Un numéro mobile E.164 d’un pays Wave : +221 (Sénégal, 9 chiffres), +225 (Côte d’Ivoire, 10 chiffres), +223 (Mali, 8 chiffres) ou +226 (Burkina Faso, 8 chiffres)');
    const other = await add(carrier, { phone: '+221771234567', provider: 'ORANGE', type: 'BANK' });
    expect(other.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['provider', 'type']);
    expect((await request('GET', '/v1/api/payout-accounts', { token: carrier.token })).body.content).toEqual([]);
  });
});

/** A carrier whose wallet holds 4250 XOF: a Wave-paid booking delivered, its dispute window passed. */
async function carrierWithXof() {
  const { sender, carrier, reservation } = await xofBooking();
  await payWithWave(sender, reservation.id);
  await advance({ id: reservation.id, action: 'ACCEPT' });
  await advance({ id: reservation.id, action: 'DEPOSIT' });
  await deliverWithRelease(reservation.id);
  await makeAvailable(reservation.id);
  expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(4250);
  return carrier;
}

describe('withdrawals in XOF are Wave payouts', () => {
  const addWallet = (user: TestUser, phone: string) =>
    request('POST', '/v1/api/payout-accounts', { token: user.token, body: { type: 'MOBILE_MONEY', provider: 'WAVE', phone, name: 'Moussa Ndiaye' } });
  const withdraw = (user: TestUser, body: Record<string, unknown>) => request('POST', '/v1/api/withdrawals', { token: user.token, body });

  it('pays the default wallet through Wave’s payout API, keyed by the withdrawal', async () => {
    const carrier = await carrierWithXof();
    await addWallet(carrier, '+221770000001');
    const res = await withdraw(carrier, { amount: 4250, currency: 'XOF' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: 4250, currency: 'XOF', status: 'COMPLETED', failureReason: null });
    const [sent] = wave.requestsTo('POST', '/v1/payout').filter((r) => r.body?.mobile === '+221770000001');
    expect(sent.idempotencyKey).toBe(await operationId(`payout:${res.body.id}`));
    expect(sent.body).toEqual({ currency: 'XOF', receive_amount: '4250', mobile: '+221770000001', name: 'Moussa Ndiaye', client_reference: `withdrawal-${res.body.id}` });
    expect(res.body.transferId).toBe(wave.payouts.get(res.body.transferId)!.id);
    expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(0);
    // The amount, the number it went to (masked) and the provider, in the app and every message.
    const told = await toldTo(carrier.id, 'WITHDRAWAL_COMPLETED');
    const fr = `Votre retrait de ${formatMoneyIn(4250, 'XOF', 'fr')} est en route vers +221 •• ••• 00 01 (Wave).`;
    expect(told).toMatchObject({ key: 'notice.withdrawalSent', fr, sentFr: [['EMAIL', fr]] });
    expect(told.en).toBe(`Your withdrawal of ${formatMoneyIn(4250, 'XOF', 'en')} is on its way to +221 •• ••• 00 01 (Wave).`);
    expect(told.emailFr).toContain(fr);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a payout Wave refuses puts the money back in the wallet with Wave’s reason (502)', async () => {
    const carrier = await carrierWithXof();
    await addWallet(carrier, '+221770009999');
    wave.refuse.set('+221770009999', { code: 'blocked-account', message: 'The recipient wallet is blocked' });
    const res = await withdraw(carrier, { amount: 4250, currency: 'XOF' });
    expect(res.status).toBe(502);
    expect(stripTimestamp(res.body)).toMatchObject({
      errorCode: 'PAYMENT_PROCESSING_ERROR',
      message: 'The mobile-money provider refused the payout: blocked-account: The recipient wallet is blocked; the amount is back in the wallet',
    });
    const list = await request('GET', '/v1/api/withdrawals', { token: carrier.token });
    expect(list.body.content[0]).toMatchObject({ status: 'FAILED', currency: 'XOF', amount: 4250, failureReason: 'blocked-account: The recipient wallet is blocked' });
    expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(4250);
    const told = await toldTo(carrier.id, 'WITHDRAWAL_FAILED');
    const fr = `Votre retrait de ${formatMoneyIn(4250, 'XOF', 'fr')} vers +221 •• ••• 99 99 (Wave) a échoué ; le montant est de retour dans votre portefeuille.`;
    expect(told).toMatchObject({ key: 'notice.withdrawalFailed', fr, sentFr: [['EMAIL', fr]] });
    expect(told.en).toBe(`Your withdrawal of ${formatMoneyIn(4250, 'XOF', 'en')} to +221 •• ••• 99 99 (Wave) failed; the amount is back in your wallet.`);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('without a mobile wallet an XOF withdrawal is 422; an XOF amount with decimals is 400', async () => {
    const carrier = await carrierWithXof();
    const res = await withdraw(carrier, { amount: 1000, currency: 'XOF' });
    expect(res.status).toBe(422);
    expect(stripTimestamp(res.body)).toMatchObject({ errorCode: 'STRIPE_CONNECT_NOT_CONFIGURED', message: 'No mobile wallet to pay XOF out to: add a payout account first' });
    const decimals = await withdraw(carrier, { amount: 10.5, currency: 'XOF' });
    expect(decimals.status).toBe(400);
    expect(decimals.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['amount']);
    expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(4250);
  });

  it('can-receive-payments says per currency: XOF once a Wave wallet is the default, the others by the Stripe account', async () => {
    const carrier = await aCarrier();
    const before = await request('GET', '/v1/api/pay-connect/can-receive-payments', { token: carrier.token });
    expect(before.status).toBe(200);
    expect(before.body.canReceivePayments).toBe(false);
    const xof = (body: any) => body.currencies.find((c: { currency: string }) => c.currency === 'XOF');
    const eur = (body: any) => body.currencies.find((c: { currency: string }) => c.currency === 'EUR');
    expect(xof(before.body)).toEqual({ currency: 'XOF', canReceive: false, reason: 'No mobile wallet for XOF: add a Wave account with POST /payout-accounts' });
    expect(eur(before.body)).toEqual({ currency: 'EUR', canReceive: false, reason: 'No connected payout account: start the onboarding first' });
    expect(before.body.currencies.map((c: { currency: string }) => c.currency)).toEqual(['EUR', 'XOF', 'XAF', 'MAD', 'GBP', 'USD', 'CAD']);
    await addWallet(carrier, '+2250701020304');
    const after = await request('GET', '/v1/api/pay-connect/can-receive-payments', { token: carrier.token });
    expect(xof(after.body)).toEqual({ currency: 'XOF', canReceive: true, reason: null });
    expect(eur(after.body).canReceive).toBe(false);
  });
});

describe('Wave edge cases', () => {
  it('cancelling an unpaid booking expires its Wave session; a payment completing anyway is refunded at Wave', async () => {
    const { sender, reservation } = await xofBooking();
    const { res } = await waveCheckout(sender, reservation.id);
    const cancel = await request('POST', `/v1/api/bookings/${reservation.id}/cancel`, { token: sender.token });
    expect(cancel.status).toBe(200);
    expect(wave.requestsTo('POST', `/v1/checkout/sessions/${res.body.paymentId}/expire`)).toHaveLength(1);
    // The payer had already confirmed in the app: Wave reports the payment all the same.
    const late = await deliver(wave.event('checkout.session.completed', wave.paySession(res.body.paymentId)));
    expect(late.status).toBe(200);
    expect(wave.requestsTo('POST', `/v1/checkout/sessions/${res.body.paymentId}/refund`)).toHaveLength(1);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED' });
    expect((await reservationMoney(reservation.id)).entries).toEqual([]);
  });

  it('a payout Wave is still processing stays PENDING with its id; the cron asks Wave and completes it', async () => {
    const carrier = await carrierWithXof();
    await request('POST', '/v1/api/payout-accounts', { token: carrier.token, body: { type: 'MOBILE_MONEY', provider: 'WAVE', phone: '+22670123456', name: 'Issa Ouedraogo' } });
    wave.holdPayouts = true;
    const res = await request('POST', '/v1/api/withdrawals', { token: carrier.token, body: { amount: 4250, currency: 'XOF' } });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('PENDING');
    expect(res.body.transferId).toMatch(/^pt-/);
    wave.settlePayout(res.body.transferId, 'succeeded');
    await retryPendingWithdrawals(depsOf(liveEnv), new Date(Date.now() + 10 * 60_000));
    const list = await request('GET', '/v1/api/withdrawals', { token: carrier.token });
    expect(list.body.content[0]).toMatchObject({ id: res.body.id, status: 'COMPLETED', transferId: res.body.transferId });
    // Asked about, never sent twice.
    expect(wave.requestsTo('POST', '/v1/payout').filter((r) => r.body?.mobile === '+22670123456')).toHaveLength(1);
    expect(await accountBalance(walletKey(carrier.id), 'XOF')).toBe(0);
  });
});

describe('a partial refund of a Wave payment (Wave refunds whole checkouts only)', () => {
  /** A 5000 XOF Wave-paid booking on a STRICT trip, accepted: a sender cancelling keeps 750 XOF back (commission). */
  async function acceptedStrictBooking(phone: { number: string; verified: boolean } | null) {
    const carrier = await aCarrier();
    const sender = await aUser();
    if (phone) await db().update(users).set({ phoneNumber: phone.number, phoneVerified: phone.verified }).where(eq(users.id, sender.id));
    const trip = await aTrip(carrier, { currency: 'XOF', departureCountry: 'SN', pricePerKgCents: 2_500, reservedWeightG: 2_000, cancellationPolicy: 'STRICT' });
    const { reservation } = await aReservation({ sender, carrier, trip, weightG: 2_000, set: { currency: 'XOF', cancellationPolicy: 'STRICT' } });
    const { checkoutId } = await payWithWave(sender, reservation.id);
    await advance({ id: reservation.id, action: 'ACCEPT' });
    return { sender, reservation, checkoutId };
  }
  const cancel = (sender: TestUser, id: number) => request('POST', `/v1/api/bookings/${id}/cancel`, { token: sender.token, body: { reason: 'Plans changed' } });

  it('is paid back by a Wave payout to the sender’s verified number, keyed by the reservation: PARTIALLY_REFUNDED', async () => {
    const { sender, reservation, checkoutId } = await acceptedStrictBooking({ number: '+221770001234', verified: true });
    expect((await cancel(sender, reservation.id)).status).toBe(200);
    const [sent] = wave.requestsTo('POST', '/v1/payout').filter((r) => r.body?.mobile === '+221770001234');
    expect(sent.idempotencyKey).toBe(await operationId(`refund:${reservation.id}`));
    expect(sent.body).toMatchObject({ currency: 'XOF', receive_amount: '4250', mobile: '+221770001234', client_reference: `refund-${reservation.reservationNumber}` });
    // Never a refund of the whole checkout: the kept 750 XOF would go back too.
    expect(wave.requestsTo('POST', `/v1/checkout/sessions/${checkoutId}/refund`)).toHaveLength(0);
    const row = await reservationRow(reservation.id);
    expect(row).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIALLY_REFUNDED' });
    expect(row.refundId).toMatch(/^payout-/);
    // Told once Wave paid it, with the number it went to, masked.
    const told = await toldTo(sender.id, 'PAYMENT_REFUNDED');
    expect(told.fr).toBe(`${formatMoneyIn(4250, 'XOF', 'fr')} pour la réservation ${reservation.reservationNumber} ont été remboursés sur le numéro Mobile Money +221 •• ••• 12 34 utilisé pour payer.`);
    expect(told.sentFr).toContainEqual(['EMAIL', told.fr]);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('without a verified Wave number it stays REFUND_PENDING, with nothing sent; once the number is verified the retry pays it', async () => {
    const { sender, reservation } = await acceptedStrictBooking({ number: '+221770005678', verified: false });
    expect((await cancel(sender, reservation.id)).status).toBe(200);
    expect(wave.requestsTo('POST', '/v1/payout').filter((r) => r.body?.mobile === '+221770005678')).toHaveLength(0);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_PENDING', refundId: null });
    // The sender is told what the refund waits for, with the link, once however often it is retried.
    await settleWithProvider(depsOf(liveEnv), reservation.id);
    const waiting = (await db().select().from(notifications).where(and(eq(notifications.userId, sender.id), eq(notifications.type, 'PAYMENT_REFUNDED')))).filter(
      (n) => (n.text as { key: string } | null)?.key === 'notice.refundAwaitsPhone',
    );
    expect(waiting).toHaveLength(1);
    const told = await toldTo(sender.id, 'PAYMENT_REFUNDED');
    expect(told.fr).toBe(
      `${formatMoneyIn(4250, 'XOF', 'fr')} pour la réservation ${reservation.reservationNumber} vous seront remboursés sur votre numéro Mobile Money dès que vous l'aurez vérifié dans l'application : https://api.test/app/bookings/${reservation.id}`,
    );
    expect(told.sentFr).toContainEqual(['EMAIL', told.fr]);
    await db().update(users).set({ phoneVerified: true }).where(eq(users.id, sender.id));
    await settleWithProvider(depsOf(liveEnv), reservation.id);
    expect(wave.requestsTo('POST', '/v1/payout').filter((r) => r.body?.mobile === '+221770005678')).toHaveLength(1);
    expect(await reservationRow(reservation.id)).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED' });
  });

  it('a payout Wave refuses leaves it REFUND_PENDING for the retry and the operators', async () => {
    const { sender, reservation } = await acceptedStrictBooking({ number: '+221770009876', verified: true });
    wave.refuse.set('+221770009876', { code: 'blocked-account', message: 'The recipient wallet is blocked' });
    expect((await cancel(sender, reservation.id)).status).toBe(200);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_PENDING' });
  });
});

describe('the daily reconciliation reads Wave’s statement (Balance API)', () => {
  const liveDeps = () => depsOf(liveEnv);
  const today = () => dayOf(new Date());
  /** Today's Wave report and the differences naming `mine` (reservations, withdrawals, provider refs): other tests of this file share the day. */
  async function waveReport(mine: { reservations?: number[]; withdrawals?: number[]; refs?: string[] }) {
    const reports = await runReconciliation(liveDeps(), today());
    const report = reports.find((r) => r.provider === 'WAVE')!;
    const items = await db().select().from(reconciliationDifferences).where(eq(reconciliationDifferences.reportId, report.id));
    const ours = items.filter(
      (d) => (d.reservationId !== null && mine.reservations?.includes(d.reservationId)) || (d.withdrawalId !== null && mine.withdrawals?.includes(d.withdrawalId)) || mine.refs?.includes(d.providerRef ?? ''),
    );
    return { report, ours };
  }
  const withdrawXof = async (carrier: TestUser, phone: string) => {
    await request('POST', '/v1/api/payout-accounts', { token: carrier.token, body: { type: 'MOBILE_MONEY', provider: 'WAVE', phone, name: 'Awa Sow' } });
    const res = await request('POST', '/v1/api/withdrawals', { token: carrier.token, body: { amount: 4250, currency: 'XOF' } });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  afterEach(() => {
    wave.statementPageSize = 50;
  });

  it('a day that agrees (a payment, a whole refund, a payout) lists none of them; every page is read', async () => {
    wave.statementPageSize = 2;
    const paid = await xofBooking();
    await payWithWave(paid.sender, paid.reservation.id);
    const rejected = await xofBooking();
    await payWithWave(rejected.sender, rejected.reservation.id);
    expect((await request('POST', `/v1/api/bookings/${rejected.reservation.id}/reject`, { token: rejected.carrier.token })).status).toBe(200);
    const withdrawalId = await withdrawXof(await carrierWithXof(), '+221770004001');
    const before = wave.requestsTo('GET', '/v1/transactions').length;
    const { report, ours } = await waveReport({ reservations: [paid.reservation.id, rejected.reservation.id], withdrawals: [withdrawalId] });
    expect(ours).toEqual([]);
    const dayLines = wave.statement.filter((l) => l.timestamp.startsWith(today())).length;
    expect(report.providerRecords).toBe(dayLines);
    expect(report.note).toContain(`statement: ${dayLines} lines`);
    // Pages of 2: the first without a cursor, each next one with the cursor the last page gave.
    const pages = wave.requestsTo('GET', '/v1/transactions').slice(before);
    expect(pages).toHaveLength(Math.ceil(dayLines / 2));
    expect(pages[0].query).toEqual({ date: today() });
    expect(pages[1].query).toEqual({ date: today(), after: expect.any(String) });
  });

  it('money Wave moved that our books do not hold: a checkout of another integration, a payout paid twice; merchant payments are not ours', async () => {
    const carrier = await carrierWithXof();
    const withdrawalId = await withdrawXof(carrier, '+221770004002');
    const elsewhere = wave.line({ transaction_type: 'api_checkout', amount: '9900', fee: '100', currency: 'XOF', checkout_api_session_id: 'cos-another-integration' });
    const twice = wave.line({ transaction_type: 'api_payout', amount: '-4293', fee: '43', currency: 'XOF', client_reference: `withdrawal-${withdrawalId}` });
    wave.line({ transaction_type: 'merchant_payment', amount: '1980', fee: '20', currency: 'XOF', counterparty_mobile: '+221761110000' });
    const { report, ours } = await waveReport({ withdrawals: [withdrawalId], refs: [elsewhere.transaction_id] });
    expect(ours).toEqual([
      expect.objectContaining({ kind: 'MISSING_IN_BOOKS', object: 'PAYIN', providerRef: elsewhere.transaction_id, providerAmountMinor: 10_000, currency: 'XOF', providerStatus: 'COMPLETED', reservationId: null, ourAmountMinor: null }),
      expect.objectContaining({ kind: 'MISSING_IN_BOOKS', object: 'PAYOUT', providerRef: twice.transaction_id, providerAmountMinor: 4250, withdrawalId, ourAmountMinor: 4250, ourStatus: 'COMPLETED' }),
    ]);
    expect(report.status).toBe('DIFFERENCES');
    expect(report.note).toMatch(/statement: \d+ lines, [1-9]\d* not made by this service/);
  });

  it('a payout of another day Wave sent back today, and a payout of ours the statement never shows', async () => {
    const older = await withdrawXof(await carrierWithXof(), '+221770004003');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await db().update(mobileMoneyOperations).set({ createdAt: yesterday }).where(eq(mobileMoneyOperations.subject, `payout:${older}`));
    const [olderOp] = await db().select().from(mobileMoneyOperations).where(eq(mobileMoneyOperations.subject, `payout:${older}`));
    const reversal = wave.reversePayout(olderOp.ref!);
    const unseen = await withdrawXof(await carrierWithXof(), '+221770004004');
    const [unseenOp] = await db().select().from(mobileMoneyOperations).where(eq(mobileMoneyOperations.subject, `payout:${unseen}`));
    wave.statement = wave.statement.filter((l) => l.client_reference !== `withdrawal-${unseen}`);
    const { ours } = await waveReport({ withdrawals: [older, unseen] });
    expect(ours).toEqual([
      expect.objectContaining({ kind: 'STATUS_MISMATCH', object: 'PAYOUT', providerRef: reversal.transaction_id, providerStatus: 'reversed', withdrawalId: older, ourStatus: 'COMPLETED', ourAmountMinor: 4250 }),
      expect.objectContaining({ kind: 'MISSING_AT_PROVIDER', object: 'PAYOUT', providerRef: unseenOp.ref, withdrawalId: unseen, ourAmountMinor: 4250, ourStatus: 'COMPLETED', providerAmountMinor: null }),
    ]);
  });

  it('what Wave’s id check already lists is not listed again from the statement', async () => {
    const withdrawalId = await withdrawXof(await carrierWithXof(), '+221770004005');
    // Our books lost the answer and wrote the payout off as failed; Wave paid it.
    await db().update(mobileMoneyOperations).set({ status: 'FAILED' }).where(eq(mobileMoneyOperations.subject, `payout:${withdrawalId}`));
    const { ours } = await waveReport({ withdrawals: [withdrawalId] });
    expect(ours).toEqual([expect.objectContaining({ kind: 'STATUS_MISMATCH', object: 'PAYOUT', providerStatus: 'COMPLETED', ourStatus: 'FAILED', withdrawalId })]);
  });
});
