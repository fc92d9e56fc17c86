// Mobile money through pawaPay (issue 46, CONTRACT section 29), end to end against a faithful fake of
// pawaPay's v2 API (test/helpers/fake-pawapay.ts) at the fetch boundary, with signed callbacks
// (RFC 9421, ECDSA P-256): the methods per currency and country, an MTN pay-in in XAF answered 202
// PENDING and settled by its callback, a refused prompt, a callback that never comes (the cron's
// status check), an unknown outcome (asked about, never sent again with a new id), payout accounts
// naming their operator, payouts within the operator's limits and settled by callback.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { announcements, mobileMoneyOperations, mobilePayoutAccounts } from '../src/db/schema';
import { depsOf } from '../src/env';
import { checkPendingPayIns } from '../src/features/money/mobile-money/pay-in';
import { retryPendingWithdrawals } from '../src/features/money/withdrawals/withdrawals.service';
import { retryPendingSettlements } from '../src/features/money/escrow';
import { signRequest, verifySignedRequest } from '../src/providers/mobile-money/pawapay/pawapay-signature';
import { db, reservationRow } from './helpers/db';
import { aCarrier, advance, aReservation, aTrip, deliverWithRelease, makeAvailable, type TestUser } from './helpers/factories';
import { FAKE_PAWAPAY_TOKEN, FakePawapay } from './helpers/fake-pawapay';
import { accountBalance, ledgerInvariantViolations, reservationMoney, walletKey } from './helpers/money';

const pawapay = new FakePawapay();
const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
const spki = btoa(String.fromCharCode(...new Uint8Array((await crypto.subtle.exportKey('spki', keys.publicKey)) as ArrayBuffer)));
const PUBLIC_PEM = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----`;

beforeAll(() => pawapay.server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  pawapay.server.close();
});

/** pawaPay's own sandbox (TEST) with its token and callback key; Wave off so the operators are pawaPay's. */
const liveEnv = {
  ...env,
  PAWAPAY_API_TOKEN: FAKE_PAWAPAY_TOKEN,
  PAWAPAY_ENVIRONMENT: 'sandbox',
  PAWAPAY_CALLBACK_PUBLIC_KEY: PUBLIC_PEM,
  PUBLIC_BASE_URL: 'https://api.test',
} as Env;
const app = createApp();

async function request(method: string, path: string, options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  const res = await app.request(`http://api.test${path}`, { method, headers, body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) }, liveEnv);
  const text = await res.text();
  return { status: res.status, body: res.headers.get('Content-Type')?.includes('json') && text ? JSON.parse(text) : text };
}

const CALLBACK = '/v1/api/webhooks/pawapay';
/** pawaPay POSTs the callback, signed (RFC 9421) unless told otherwise. */
async function callback(body: string, sign = true) {
  const headers = sign ? await signRequest(keys.privateKey, 'pawapay-key', { method: 'POST', url: `http://api.test${CALLBACK}` }, body) : { 'Content-Type': 'application/json' };
  return request('POST', CALLBACK, { raw: body, headers });
}

/** A 5000 XAF booking from Douala (2 kg at 2500 XAF/kg: carrier 4250, commission 750). */
async function xafBooking(carrier?: TestUser) {
  const c = carrier ?? (await aCarrier());
  const trip = await aTrip(c, { currency: 'XAF', departureCity: 'Douala', departureCountry: 'CM', arrivalCity: 'Paris', arrivalCountry: 'FR', pricePerKgCents: 2_500, reservedWeightG: 2_000 });
  return aReservation({ carrier: c, trip, weightG: 2_000, set: { currency: 'XAF' } });
}

const checkout = (sender: TestUser, reservationId: number, provider: string, phone: string) =>
  request('POST', '/v1/api/payments/checkout', { token: sender.token, body: { reservationId, method: 'MOBILE_MONEY', provider, phone } });

async function operation(subject: string) {
  const [op] = await db().select().from(mobileMoneyOperations).where(eq(mobileMoneyOperations.subject, subject));
  return op;
}

/** A carrier whose wallet holds 4250 XAF: an MTN-paid booking delivered, its dispute window passed. */
async function carrierWithXaf() {
  const carrier = await aCarrier();
  const { sender, reservation } = await xafBooking(carrier);
  const res = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+237677888888');
  await callback(pawapay.settle('deposit', res.body.paymentId, 'COMPLETED'));
  await advance({ id: reservation.id, action: 'ACCEPT' });
  await advance({ id: reservation.id, action: 'DEPOSIT' });
  await deliverWithRelease(reservation.id);
  await makeAvailable(reservation.id);
  expect(await accountBalance(walletKey(carrier.id), 'XAF')).toBe(4250);
  return carrier;
}

describe('GET /payments/methods per currency and country', () => {
  it('XAF in Cameroon: the card, MTN and Orange, each with its limits, decimals and approval', async () => {
    const { sender } = await xafBooking();
    const res = await request('GET', '/v1/api/payments/methods?currency=XAF&country=CM', { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body.methods).toEqual([
      { method: 'CARD', provider: 'STRIPE', currencies: ['EUR', 'XOF', 'XAF', 'MAD', 'GBP', 'USD', 'CAD'] },
      { method: 'MOBILE_MONEY', provider: 'MTN_MOMO_CMR', displayName: 'MTN Mobile Money', currencies: ['XAF'], countries: ['CM'], payIn: { min: 100, max: 1_000_000 }, payout: { min: 100, max: 500_000 }, decimals: 0, approval: 'PIN_PROMPT' },
      { method: 'MOBILE_MONEY', provider: 'ORANGE_CMR', displayName: 'Orange Money', currencies: ['XAF'], countries: ['CM'], payIn: { min: 100, max: 500_000 }, payout: { min: 100, max: 200_000 }, decimals: 0, approval: 'PIN_PROMPT' },
    ]);
    const ci = await request('GET', '/v1/api/payments/methods?currency=XOF&country=CI', { token: sender.token });
    expect(ci.body.methods.map((m: { provider: string }) => m.provider)).toEqual(['STRIPE', 'WAVE', 'MTN_MOMO_CIV', 'ORANGE_CIV']);
  });
});

describe('pay-in by MTN in XAF: 202 PENDING, the callback settles it', () => {
  it('sends one deposit with our UUID; the signed COMPLETED callback pays the booking once', async () => {
    const { sender, carrier, reservation } = await xafBooking();
    const res = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+237 677 12 34 56');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'PENDING', provider: 'MTN_MOMO_CMR', approval: 'PIN_PROMPT', paymentApprovalUrl: null });
    const op = await operation(`payin:${reservation.id}:1`);
    expect(res.body.paymentId).toBe(op.id);
    const [sent] = pawapay.requestsTo('POST', '/v2/deposits').filter((r) => r.body?.depositId === op.id);
    expect(sent.body).toMatchObject({ depositId: op.id, amount: '5000', currency: 'XAF', payer: { type: 'MMO', accountDetails: { phoneNumber: '237677123456', provider: 'MTN_MOMO_CMR' } }, clientReferenceId: reservation.reservationNumber });
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING' });

    const body = pawapay.settle('deposit', op.id, 'COMPLETED');
    expect(await callback(body)).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
    expect(await callback(body)).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PAID', paymentStatus: 'CAPTURED', captureId: `PT${op.id.slice(0, 8).toUpperCase()}` });
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(5000);
    expect(await operation(`payin:${reservation.id}:1`)).toMatchObject({ status: 'COMPLETED' });
    // Asking again for the same booking sends nothing new.
    expect((await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+237677123456')).status).toBe(409);
    expect(pawapay.requestsTo('POST', '/v2/deposits').filter((r) => r.body?.clientReferenceId === reservation.reservationNumber)).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
    void carrier;
  });

  it('a refused PIN prompt: FAILED with pawaPay’s reason, the booking payable again with a new deposit id', async () => {
    const { sender, reservation } = await xafBooking();
    const first = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+237677000039');
    const body = pawapay.settle('deposit', first.body.paymentId, { failureCode: 'PAYMENT_NOT_APPROVED', failureMessage: 'The payer did not approve' });
    expect((await callback(body)).status).toBe(200);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'FAILED' });
    expect(await operation(`payin:${reservation.id}:1`)).toMatchObject({ status: 'FAILED', failureCode: 'PAYMENT_NOT_APPROVED' });
    const again = await checkout(sender, reservation.id, 'ORANGE_CMR', '+237699000001');
    expect(again.status).toBe(202);
    expect(again.body.paymentId).not.toBe(first.body.paymentId);
  });

  it('a callback that never comes: the cron asks pawaPay and settles it', async () => {
    const { sender, reservation } = await xafBooking();
    const res = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+237677000129');
    pawapay.settle('deposit', res.body.paymentId, 'COMPLETED'); // no callback delivered
    expect(await checkPendingPayIns(depsOf(liveEnv), new Date(Date.now() + 60_000))).toBe(0); // too early to ask
    expect(await checkPendingPayIns(depsOf(liveEnv), new Date(Date.now() + 3 * 60_000))).toBe(1);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PAID', paymentStatus: 'CAPTURED' });
    // A late callback afterwards changes nothing.
    expect((await callback(JSON.stringify(pawapay.payments.deposit.get(res.body.paymentId)))).status).toBe(200);
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(5000);
  });

  it('an unknown outcome (5xx after pawaPay took it) is UNKNOWN, resolved by a status check: one deposit, one id', async () => {
    const { sender, reservation } = await xafBooking();
    pawapay.dropAfterAccept.add('deposit');
    const res = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+237677555555');
    expect(res.status).toBe(202);
    const op = await operation(`payin:${reservation.id}:1`);
    expect(op).toMatchObject({ status: 'UNKNOWN', id: res.body.paymentId });
    expect(await checkPendingPayIns(depsOf(liveEnv), new Date(Date.now() + 3 * 60_000))).toBe(0); // pawaPay: still ACCEPTED
    expect(await operation(`payin:${reservation.id}:1`)).toMatchObject({ status: 'PENDING' });
    pawapay.settle('deposit', op.id, 'COMPLETED');
    expect(await checkPendingPayIns(depsOf(liveEnv), new Date(Date.now() + 6 * 60_000))).toBe(1);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PAID' });
    expect(pawapay.requestsTo('POST', '/v2/deposits').filter((r) => r.body?.clientReferenceId === reservation.reservationNumber)).toHaveLength(1);
  });

  it('a callback without a valid signature is 401 and changes nothing; a body that is no payment is 400', async () => {
    const { sender, reservation } = await xafBooking();
    const res = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+237677222222');
    const body = pawapay.settle('deposit', res.body.paymentId, 'COMPLETED');
    expect((await callback(body, false)).status).toBe(401);
    const signed = await signRequest(keys.privateKey, 'k', { method: 'POST', url: `http://api.test${CALLBACK}` }, body);
    const tampered = body.replace('"5000"', '"50"');
    expect((await request('POST', CALLBACK, { raw: tampered, headers: signed })).status).toBe(401);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT' });
    expect((await callback(JSON.stringify({ hello: 'world' }))).status).toBe(400);
  });

  it('the operator’s limits and the payer’s number are checked before anything is sent', async () => {
    const { sender, reservation } = await xafBooking();
    const foreign = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', '+33612345678');
    expect(foreign.status).toBe(400);
    expect(foreign.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['phone']);
    const wrong = await checkout(sender, reservation.id, 'ORANGE_SEN', '+221771234567');
    expect(wrong).toMatchObject({ status: 422, body: { errorCode: 'BUSINESS_RULE_VIOLATION' } });
    expect(pawapay.requestsTo('POST', '/v2/deposits').filter((r) => r.body?.clientReferenceId === reservation.reservationNumber)).toHaveLength(0);
  });
});

describe('payouts to MTN and Orange (a carrier in Abidjan)', () => {
  it('a payout account names its operator, predicted from the number; the same number at another country is refused', async () => {
    const carrier = await aCarrier();
    const res = await request('POST', '/v1/api/payout-accounts', { token: carrier.token, body: { type: 'MOBILE_MONEY', phone: '+225 07 12 34 56 78', name: 'Kouadio Yao' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: 'ORANGE_CIV', currency: 'XOF', phone: '+2250712345678', isDefault: true });
    const bad = await request('POST', '/v1/api/payout-accounts', { token: carrier.token, body: { type: 'MOBILE_MONEY', provider: 'ORANGE_CMR', phone: '+2250712345679', name: 'Kouadio Yao' } });
    expect(bad.status).toBe(400);
  });

  it('withdraws XAF to Orange: above the operator’s maximum is 422 before anything moves; within it, the callback completes it', async () => {
    const carrier = await carrierWithXaf();
    expect((await request('POST', '/v1/api/payout-accounts', { token: carrier.token, body: { type: 'MOBILE_MONEY', provider: 'ORANGE_CMR', phone: '+237699111222', name: 'Paul Mbarga' } })).status).toBe(201);
    const res = await request('POST', '/v1/api/withdrawals', { token: carrier.token, body: { amount: 4250, currency: 'XAF' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'PENDING' });
    const op = await operation(`payout:${res.body.id}`);
    const [sent] = pawapay.requestsTo('POST', '/v2/payouts').filter((r) => r.body?.payoutId === op.id);
    expect(sent.body).toMatchObject({ amount: '4250', currency: 'XAF', recipient: { type: 'MMO', accountDetails: { phoneNumber: '237699111222', provider: 'ORANGE_CMR' } } });
    expect((await callback(pawapay.settle('payout', op.id, 'COMPLETED'))).status).toBe(200);
    const list = await request('GET', '/v1/api/withdrawals', { token: carrier.token });
    expect(list.body.content[0]).toMatchObject({ id: res.body.id, status: 'COMPLETED' });
    // The cron afterwards sends nothing again.
    await retryPendingWithdrawals(depsOf(liveEnv), new Date(Date.now() + 10 * 60_000));
    expect(pawapay.requestsTo('POST', '/v2/payouts').filter((r) => r.body?.payoutId === op.id)).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('above Orange Cameroon’s 200 000 XAF maximum: 422 naming the limit, the wallet untouched; a FAILED payout puts the money back', async () => {
    const carrier = await carrierWithXaf();
    await request('POST', '/v1/api/payout-accounts', { token: carrier.token, body: { type: 'MOBILE_MONEY', phone: '+237699333444', name: 'Paul Mbarga' } });
    // The wallet holds 4250; the limit is checked first whatever the balance.
    const above = await request('POST', '/v1/api/withdrawals', { token: carrier.token, body: { amount: 250_000, currency: 'XAF' } });
    expect(above).toMatchObject({ status: 422, body: { errorCode: 'BUSINESS_RULE_VIOLATION' } });
    expect(above.body.message).toBe('Orange Money (ORANGE_CMR) takes 100 XAF to 200000 XAF per operation; 250000 XAF is outside');
    expect(above.body.suggestions).toEqual(['Withdraw an amount within these limits (several withdrawals for a larger sum)']);
    expect(await accountBalance(walletKey(carrier.id), 'XAF')).toBe(4250);
    const res = await request('POST', '/v1/api/withdrawals', { token: carrier.token, body: { amount: 4250, currency: 'XAF' } });
    const op = await operation(`payout:${res.body.id}`);
    expect((await callback(pawapay.settle('payout', op.id, { failureCode: 'RECIPIENT_NOT_FOUND', failureMessage: 'No wallet' }))).status).toBe(200);
    const list = await request('GET', '/v1/api/withdrawals', { token: carrier.token });
    expect(list.body.content[0]).toMatchObject({ status: 'FAILED', failureReason: 'RECIPIENT_NOT_FOUND: No wallet' });
    expect(await accountBalance(walletKey(carrier.id), 'XAF')).toBe(4250);
  });
});

describe('refunds to the paying number and unknown outcomes of payouts and refunds', () => {
  async function paidXaf() {
    const booking = await xafBooking();
    const res = await checkout(booking.sender, booking.reservation.id, 'MTN_MOMO_CMR', '+237677444555');
    await callback(pawapay.settle('deposit', res.body.paymentId, 'COMPLETED'));
    expect(await reservationRow(booking.reservation.id)).toMatchObject({ status: 'PAID' });
    return { ...booking, depositId: res.body.paymentId as string };
  }

  it('the carrier rejects: a refund of the deposit (same number, whole amount), REFUND_PENDING until pawaPay’s callback says COMPLETED', async () => {
    const { carrier, reservation, depositId } = await paidXaf();
    expect((await request('POST', `/v1/api/bookings/${reservation.id}/reject`, { token: carrier.token })).status).toBe(200);
    const op = await operation(`refund:${reservation.id}`);
    const sent = pawapay.requestsTo('POST', '/v2/refunds').filter((r) => r.body?.depositId === depositId);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({ refundId: op.id, depositId, amount: '5000', currency: 'XAF' });
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUND_PENDING' });
    // The settlement cron meanwhile asks, never sends again.
    await retryPendingSettlements(depsOf(liveEnv));
    expect(pawapay.requestsTo('POST', '/v2/refunds').filter((r) => r.body?.depositId === depositId)).toHaveLength(1);
    expect(pawapay.requestsTo('GET', `/v2/refunds/${op.id}`).length).toBeGreaterThan(0);
    expect((await callback(pawapay.settle('refund', op.id, 'COMPLETED'))).status).toBe(200);
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUNDED' });
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(0);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a refund whose answer is lost (5xx after pawaPay took it) is asked about by the cron and completed once, never sent with a new id', async () => {
    const { carrier, reservation, depositId } = await paidXaf();
    pawapay.dropAfterAccept.add('refund');
    expect((await request('POST', `/v1/api/bookings/${reservation.id}/reject`, { token: carrier.token })).status).toBe(200);
    const op = await operation(`refund:${reservation.id}`);
    expect(op.status).toBe('UNKNOWN');
    pawapay.settle('refund', op.id, 'COMPLETED'); // its callback lost too
    await retryPendingSettlements(depsOf(liveEnv));
    expect(await operation(`refund:${reservation.id}`)).toMatchObject({ status: 'COMPLETED' });
    expect(await reservationRow(reservation.id)).toMatchObject({ paymentStatus: 'REFUNDED' });
    const sent = pawapay.requestsTo('POST', '/v2/refunds').filter((r) => r.body?.depositId === depositId);
    expect(sent.map((r) => r.body?.refundId)).toEqual([op.id]);
    expect((await reservationMoney(reservation.id)).ESCROW).toBe(0);
  });

  it('a payout whose answer is lost stays PENDING; the cron asks (same id) and its outcome is applied once', async () => {
    const carrier = await carrierWithXaf();
    await request('POST', '/v1/api/payout-accounts', { token: carrier.token, body: { type: 'MOBILE_MONEY', phone: '+237677000777', name: 'Jean Ekane' } });
    pawapay.dropAfterAccept.add('payout');
    const res = await request('POST', '/v1/api/withdrawals', { token: carrier.token, body: { amount: 4250, currency: 'XAF' } });
    expect(res.body).toMatchObject({ status: 'PENDING' });
    const op = await operation(`payout:${res.body.id}`);
    expect(op.status).toBe('UNKNOWN');
    expect(await accountBalance(walletKey(carrier.id), 'XAF')).toBe(0);
    await retryPendingWithdrawals(depsOf(liveEnv), new Date(Date.now() + 10 * 60_000));
    expect(await operation(`payout:${res.body.id}`)).toMatchObject({ status: 'PENDING' });
    const body = pawapay.settle('payout', op.id, { failureCode: 'RECIPIENT_NOT_FOUND', failureMessage: 'No wallet' });
    await retryPendingWithdrawals(depsOf(liveEnv), new Date(Date.now() + 20 * 60_000));
    expect((await callback(body)).body).toMatchObject({ received: true });
    expect(await accountBalance(walletKey(carrier.id), 'XAF')).toBe(4250); // back once, not twice
    expect(pawapay.requestsTo('POST', '/v2/payouts').filter((r) => r.body?.payoutId === op.id)).toHaveLength(1);
    expect(pawapay.requestsTo('POST', '/v2/payouts').filter((r) => r.body?.recipient?.accountDetails?.phoneNumber === '237677000777')).toHaveLength(1);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('nothing is paid twice (property)', () => {
  type Step = 'callback' | 'cron' | 'checkout' | 'together';
  const STEPS: Step[] = ['callback', 'cron', 'checkout', 'together'];

  it('under any interleaving of callbacks (repeated), status checks, repeated checkouts and cron runs, each deposit is sent once and paid at most once', async () => {
    let clock = Date.now() + 3 * 60_000;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          lost: fc.boolean(), // pawaPay took the deposit but its answer never reached us
          outcome: fc.constantFrom('COMPLETED', 'PAYMENT_NOT_APPROVED', 'INSUFFICIENT_BALANCE'),
          settleAt: fc.nat({ max: 6 }),
          steps: fc.array(fc.constantFrom(...STEPS), { minLength: 2, maxLength: 7 }),
        }),
        async ({ lost, outcome, settleAt, steps }) => {
          const { sender, reservation } = await xafBooking();
          const phone = `+237677${String(reservation.id).padStart(6, '0')}`;
          if (lost) pawapay.dropAfterAccept.add('deposit');
          const first = await checkout(sender, reservation.id, 'MTN_MOMO_CMR', phone);
          expect(first.status).toBe(202);
          const id: string = first.body.paymentId;
          let body: string | null = null;
          const settle = () => (body ??= pawapay.settle('deposit', id, outcome === 'COMPLETED' ? 'COMPLETED' : { failureCode: outcome, failureMessage: outcome }));
          const cron = () => checkPendingPayIns(depsOf(liveEnv), new Date((clock += 3 * 60_000)));
          const deliver = async () => (body ? callback(body) : null);
          for (const [i, step] of steps.entries()) {
            if (i === settleAt) settle();
            if (step === 'callback') await deliver();
            else if (step === 'cron') await cron();
            else if (step === 'checkout') await checkout(sender, reservation.id, 'MTN_MOMO_CMR', phone);
            else await Promise.all([deliver(), cron(), deliver(), checkout(sender, reservation.id, 'MTN_MOMO_CMR', phone)]);
          }
          settle();
          await cron();
          await deliver();

          const sent = pawapay.requestsTo('POST', '/v2/deposits').filter((r) => r.body?.clientReferenceId === reservation.reservationNumber);
          const ids = sent.map((r) => r.body!.depositId as string);
          expect(new Set(ids).size).toBe(ids.length); // never the same deposit sent twice
          expect(ids[0]).toBe(id);
          const completed = [...pawapay.payments.deposit.values()].filter((d) => ids.includes(d.depositId) && d.status === 'COMPLETED');
          // A second deposit only after the first one failed: a new prompt the payer asked for.
          if (outcome === 'COMPLETED') expect(ids).toEqual([id]);
          const row = await reservationRow(reservation.id);
          expect((await reservationMoney(reservation.id)).ESCROW).toBe(completed.length > 0 ? 5000 : 0);
          expect(completed.length).toBeLessThanOrEqual(1);
          expect(row.status).toBe(completed.length ? 'PAID' : 'PENDING_PAYMENT');
          expect(await operation(`payin:${reservation.id}:1`)).toMatchObject({ status: outcome === 'COMPLETED' ? 'COMPLETED' : 'FAILED' });
        },
      ),
      { numRuns: 12 },
    );
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('demo seed: Cameroon', () => {
  it('a carrier in Douala with a default Orange Money wallet and XAF trips from Douala and Yaoundé; a rerun adds nothing', async () => {
    const { runSeed } = await import('../src/features/dev/seed');
    const first = await runSeed(depsOf(env, db()));
    const second = await runSeed(depsOf(env, db()));
    expect(second.accounts).toEqual(first.accounts);
    const douala = first.accounts.find((a) => a.email === 'carrier.douala@demo.local')!;
    expect(douala.roles).toEqual(['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
    const wallets = await db().select().from(mobilePayoutAccounts).where(eq(mobilePayoutAccounts.ownerId, douala.id));
    expect(wallets).toEqual([expect.objectContaining({ ownerType: 'USER', provider: 'ORANGE_CMR', currency: 'XAF', phone: '+237699000100', isDefault: true })]);
    const trips = await db().select().from(announcements).where(eq(announcements.carrierId, douala.id));
    expect(trips.map((t) => [t.departureCity, t.departureCountry, t.currency, t.pricePerKgCents]).sort()).toEqual([
      ['Douala', 'CM', 'XAF', 2_500],
      ['Yaoundé', 'CM', 'XAF', 2_800],
    ]);
    for (const city of ['Douala', 'Yaoundé']) {
      const search = await request('GET', `/v1/api/annonces?departureCity=${encodeURIComponent(city)}&currency=XAF`);
      expect(search.body.content, city).toContainEqual(expect.objectContaining({ carrierId: douala.id, currency: 'XAF', departureCountry: 'CM', arrivalCity: 'Paris' }));
    }
  });
});

describe('signed requests to pawaPay (PAWAPAY_SIGNING_KEY)', () => {
  it('a deposit carries Content-Digest and an RFC 9421 signature under our key id that verifies with our public key; without the key nothing is signed', async () => {
    const pkcs8 = btoa(String.fromCharCode(...new Uint8Array((await crypto.subtle.exportKey('pkcs8', keys.privateKey)) as ArrayBuffer)));
    const signingEnv = { ...liveEnv, PAWAPAY_SIGNING_KEY: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----`, PAWAPAY_SIGNING_KEY_ID: 'our-key-1' } as Env;
    const { sender, reservation } = await xafBooking();
    const res = await app.request('http://api.test/v1/api/payments/checkout', { method: 'POST', headers: { Authorization: `Bearer ${sender.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ reservationId: reservation.id, method: 'MOBILE_MONEY', provider: 'MTN_MOMO_CMR', phone: '+237677321321' }) }, signingEnv);
    expect(res.status).toBe(202);
    const [sent] = pawapay.requestsTo('POST', '/v2/deposits').filter((r) => r.body?.clientReferenceId === reservation.reservationNumber);
    expect(sent.headers['signature-input']).toContain('keyid="our-key-1"');
    expect(sent.headers['content-digest']).toMatch(/^sha-(256|512)=:/);
    const verified = await verifySignedRequest(keys.publicKey, { method: 'POST', url: 'https://api.sandbox.pawapay.io/v2/deposits' }, new Headers(sent.headers), JSON.stringify(sent.body), new Date());
    expect(verified).toBe('ok');
    const tampered = await verifySignedRequest(keys.publicKey, { method: 'POST', url: 'https://api.sandbox.pawapay.io/v2/deposits' }, new Headers(sent.headers), JSON.stringify({ ...sent.body, amount: '1' }), new Date());
    expect(tampered).not.toBe('ok');
    const other = await xafBooking();
    expect((await checkout(other.sender, other.reservation.id, 'MTN_MOMO_CMR', '+237677321322')).status).toBe(202);
    const [unsigned] = pawapay.requestsTo('POST', '/v2/deposits').filter((r) => r.body?.clientReferenceId === other.reservation.reservationNumber);
    expect(unsigned.headers.signature).toBeUndefined();
  });
});
