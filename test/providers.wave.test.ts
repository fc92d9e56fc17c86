// The Wave mobile-money provider (issue 29, CONTRACT section 20): the real adapter against a
// faithful fake of Wave's HTTP API at the fetch boundary, the Wave-Signature verification, the
// sandbox that stands in without keys, and production failing closed without the keys while XOF
// is enabled.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { appConfig, SANDBOX_WAVE_WEBHOOK_SECRET } from '../src/config';
import worker from '../src/index';
import { providersFor } from '../src/providers/chosen';
import {
  WaveRail,
  amountMinor,
  amountString,
  MobileMoneyRejectedError,
  ProviderRejectedError,
  ProviderUnavailableError,
  SandboxMobileMoneyProvider,
  WaveProvider,
  type MobileMoneyPayoutInput,
} from '../src/providers/mobile-money';
import { FAKE_WAVE_API_KEY, FAKE_WAVE_WEBHOOK_SECRET, FakeWave, waveDelivery } from './helpers/fake-wave';
import { BASE } from './helpers/http';
import { PRODUCTION_ENV } from './helpers/production';

const wave = new FakeWave();
beforeAll(() => wave.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => wave.server.close());
afterEach(() => {
  vi.restoreAllMocks();
  wave.refuse.clear();
  wave.holdPayouts = false;
  wave.outage.clear();
  wave.rateLimited = false;
});

const adapter = new WaveProvider({ apiKey: FAKE_WAVE_API_KEY, webhookSecret: FAKE_WAVE_WEBHOOK_SECRET });
const nowSeconds = () => Math.floor(Date.now() / 1000);

const checkoutInput = (reference = `R-${crypto.randomUUID().slice(0, 8)}`) => ({
  amountMinor: 5000,
  currency: 'XOF',
  clientReference: reference,
  successUrl: 'https://app.example.com/pay/success',
  errorUrl: 'https://app.example.com/pay/error',
  idempotencyKey: `checkout-${reference}`,
});

const payoutInput = (overrides: Partial<MobileMoneyPayoutInput> = {}): MobileMoneyPayoutInput => ({
  amountMinor: 25000,
  currency: 'XOF',
  mobile: '+221770000001',
  name: 'Awa Diop',
  clientReference: `W-${crypto.randomUUID().slice(0, 8)}`,
  idempotencyKey: `withdrawal-${crypto.randomUUID()}`,
  ...overrides,
});

async function rejection(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the call should have failed').not.toBeNull();
  return err as MobileMoneyRejectedError;
}

describe('amounts as Wave writes them (strings, XOF without decimals)', () => {
  it('minor units and Wave’s strings convert both ways exactly', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => amountMinor(amountString(n, 'XOF'), 'XOF') === n));
    expect(amountString(5000, 'xof')).toBe('5000');
    expect(amountMinor('5000.0', 'XOF')).toBe(5000);
    for (const bad of ['12.5', '1e3', '', 'abc', null]) expect(amountMinor(bad, 'XOF'), String(bad)).toBeNaN();
  });
});

describe('Wave adapter: checkout sessions', () => {
  it('creates a session with Wave’s fields (amount as a string, XOF without decimals) and the bearer key', async () => {
    const input = checkoutInput();
    const before = nowSeconds();
    const checkout = await adapter.createCheckout(input);
    const [request] = wave.requestsTo('POST', '/v1/checkout/sessions').slice(-1);
    expect(request.body).toEqual({
      amount: '5000',
      currency: 'XOF',
      success_url: input.successUrl,
      error_url: input.errorUrl,
      client_reference: input.clientReference,
    });
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_WAVE_API_KEY}`);
    expect(request.idempotencyKey).toBe(input.idempotencyKey);
    expect(checkout).toMatchObject({
      amountMinor: 5000,
      currency: 'XOF',
      clientReference: input.clientReference,
      checkoutStatus: 'open',
      paymentStatus: 'processing',
      transactionId: null,
      completedAt: null,
      lastPaymentError: null,
    });
    expect(checkout.id).toMatch(/^cos-/);
    expect(checkout.launchUrl).toBe(`https://pay.wave.com/c/${checkout.id}?a=5000&c=XOF&m=Colis%20Corridor`);
    expect(checkout.expiresAt - before).toBeGreaterThanOrEqual(30 * 60 - 2);
    expect(checkout.expiresAt - before).toBeLessThanOrEqual(30 * 60 + 2);
  });

  it('a retried create with the same idempotency key gets the same session, not a second one', async () => {
    const input = checkoutInput();
    const first = await adapter.createCheckout(input);
    const again = await adapter.createCheckout(input);
    expect(again.id).toBe(first.id);
    expect([...wave.sessions.values()].filter((s) => s.client_reference === input.clientReference)).toHaveLength(1);
  });

  it('reads a paid session back, and finds the sessions of a reference', async () => {
    const input = checkoutInput();
    const { id } = await adapter.createCheckout(input);
    wave.paySession(id);
    const paid = await adapter.getCheckout(id);
    expect(paid).toMatchObject({ id, checkoutStatus: 'complete', paymentStatus: 'succeeded', amountMinor: 5000 });
    expect(paid.transactionId).toMatch(/^T-/);
    expect(paid.completedAt).toBeGreaterThan(0);
    const found = await adapter.searchCheckouts(input.clientReference);
    expect(found.map((c) => c.id)).toEqual([id]);
    expect(wave.requestsTo('GET', '/v1/checkout/sessions/search').at(-1)?.query).toEqual({ client_reference: input.clientReference });
  });

  it('refunds a paid session once; a second refund and the refund of an unpaid session are Wave’s refusals', async () => {
    const { id } = await adapter.createCheckout(checkoutInput());
    const unpaid = await rejection(adapter.refundCheckout(id, `refund-${id}`));
    expect(unpaid).toBeInstanceOf(ProviderRejectedError);
    expect(unpaid).toMatchObject({ code: 'checkout-refund-failed', httpStatus: 409 });
    wave.paySession(id);
    await adapter.refundCheckout(id, `refund-${id}-paid`);
    expect(wave.sessions.get(id)?._refunded).toBe(true);
    expect(wave.requestsTo('POST', `/v1/checkout/sessions/${id}/refund`).at(-1)?.idempotencyKey).toBe(`refund-${id}-paid`);
    const twice = await rejection(adapter.refundCheckout(id, `refund-${id}-again`));
    expect(twice).toMatchObject({ code: 'checkout-refund-failed' });
  });

  it('expires an open session; a paid one cannot be expired', async () => {
    const open = await adapter.createCheckout(checkoutInput());
    await adapter.expireCheckout(open.id);
    expect((await adapter.getCheckout(open.id)).checkoutStatus).toBe('expired');
    const paid = await adapter.createCheckout(checkoutInput());
    wave.paySession(paid.id);
    expect(await rejection(adapter.expireCheckout(paid.id))).toMatchObject({ code: 'checkout-session-not-open', httpStatus: 409 });
  });

  it('an unknown session is a refusal with Wave’s code and status', async () => {
    const err = await rejection(adapter.getCheckout('cos-doesnotexist'));
    expect(err).toBeInstanceOf(MobileMoneyRejectedError);
    expect(err).toMatchObject({ code: 'checkout-session-not-found', httpStatus: 404 });
  });

  it('refuses an amount XOF cannot carry or another currency before calling Wave', async () => {
    const calls = wave.requests.length;
    for (const bad of [{ amountMinor: 0 }, { amountMinor: 12.5 }, { currency: 'EUR' }]) {
      expect(await rejection(adapter.createCheckout({ ...checkoutInput(), ...bad }))).toBeInstanceOf(ProviderRejectedError);
    }
    expect(wave.requests.length).toBe(calls);
  });
});

describe('Wave adapter: payouts', () => {
  it('pays a wallet: Wave’s fields, the Idempotency-Key header, the fee it takes', async () => {
    const input = payoutInput();
    const payout = await adapter.createPayout(input);
    const request = wave.requestsTo('POST', '/v1/payout').at(-1)!;
    expect(request.body).toEqual({ currency: 'XOF', receive_amount: '25000', mobile: '+221770000001', name: 'Awa Diop', client_reference: input.clientReference });
    expect(request.idempotencyKey).toBe(input.idempotencyKey);
    expect(payout).toMatchObject({ status: 'succeeded', amountMinor: 25000, feeMinor: 250, currency: 'XOF', mobile: '+221770000001', failure: null });
    expect(payout.id).toMatch(/^pt-/);
    expect(await adapter.getPayout(payout.id)).toEqual(payout);
  });

  it('a payout Wave refuses comes back failed with Wave’s reason', async () => {
    wave.refuse.set('+221770000002', { code: 'blocked-account', message: 'The recipient account is blocked.' });
    const payout = await adapter.createPayout(payoutInput({ mobile: '+221770000002' }));
    expect(payout).toMatchObject({ status: 'failed', failure: { code: 'blocked-account', message: 'The recipient account is blocked.' } });
  });

  it('a payout above the business wallet’s balance fails with insufficient-funds', async () => {
    const payout = await adapter.createPayout(payoutInput({ amountMinor: wave.balance + 1 }));
    expect(payout).toMatchObject({ status: 'failed', failure: { code: 'insufficient-funds' } });
  });

  it('a retried payout with the same key pays once; the same key with another amount is refused', async () => {
    const input = payoutInput();
    const balance = wave.balance;
    const first = await adapter.createPayout(input);
    const retry = await adapter.createPayout(input);
    expect(retry.id).toBe(first.id);
    expect([...wave.payouts.values()].filter((p) => p.client_reference === input.clientReference)).toHaveLength(1);
    expect(wave.balance).toBe(balance - 25000);
    const other = await rejection(adapter.createPayout({ ...input, amountMinor: 30000 }));
    expect(other).toMatchObject({ code: 'idempotency-mismatch', httpStatus: 409 });
  });

  it('a payout still processing is read again later with its outcome', async () => {
    wave.holdPayouts = true;
    const payout = await adapter.createPayout(payoutInput());
    expect(payout.status).toBe('processing');
    wave.settlePayout(payout.id, { code: 'recipient-limit-exceeded', message: 'The recipient has reached their wallet limit.' });
    expect(await adapter.getPayout(payout.id)).toMatchObject({ status: 'failed', failure: { code: 'recipient-limit-exceeded' } });
  });

  it('Wave’s validation errors are refusals with its code', async () => {
    const err = await rejection(adapter.createPayout(payoutInput({ mobile: '770000001' })));
    expect(err).toMatchObject({ code: 'request-validation-error', httpStatus: 400 });
  });
});

describe('Wave adapter: failures', () => {
  it('a wrong API key is a refusal (401 no-matching-api-key), not something to retry', async () => {
    const wrong = new WaveProvider({ apiKey: 'wave_sn_prod_revoked', webhookSecret: FAKE_WAVE_WEBHOOK_SECRET });
    const err = await rejection(wrong.getPayout('pt-x'));
    expect(err).toBeInstanceOf(MobileMoneyRejectedError);
    expect(err).toMatchObject({ code: 'no-matching-api-key', httpStatus: 401 });
  });

  it('an outage (5xx), a rate limit (429) or an unreachable Wave may succeed later: retryable', async () => {
    wave.outage.add('/v1/payout');
    expect(await rejection(adapter.createPayout(payoutInput()))).toBeInstanceOf(ProviderUnavailableError);
    wave.outage.clear();
    wave.rateLimited = true;
    expect(await rejection(adapter.getCheckout('cos-x'))).toBeInstanceOf(ProviderUnavailableError);
    wave.rateLimited = false;
    vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('Network connection lost.'));
    const down = await rejection(adapter.getCheckout('cos-x'));
    expect(down).toBeInstanceOf(ProviderUnavailableError);
    expect(down).not.toBeInstanceOf(ProviderRejectedError);
  });

  it('every call carries a timeout', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    await adapter.getCheckout('cos-x').catch(() => {});
    expect((spy.mock.calls[0][1] as RequestInit).signal).toBeInstanceOf(AbortSignal);
  });
});

describe('Wave-Signature verification', () => {
  const paidEvent = () =>
    wave.event('checkout.session.completed', {
      id: 'cos-18qq25rgr100a',
      amount: '5000',
      currency: 'XOF',
      checkout_status: 'complete',
      payment_status: 'succeeded',
      client_reference: 'R-1',
      transaction_id: 'TCN4Y4ZC3FM',
      wave_launch_url: 'https://pay.wave.com/c/cos-18qq25rgr100a',
      when_created: '2026-11-27T05:00:00Z',
      when_expires: '2026-11-27T05:30:00Z',
      when_completed: '2026-11-27T05:02:00Z',
      last_payment_error: null,
    });
  const now = () => new Date();

  it('accepts a delivery signed as Wave signs it and reads the event', async () => {
    const event = paidEvent();
    const { rawBody, headers } = await waveDelivery(event);
    const result = await adapter.verifyWebhook(rawBody, headers, now());
    expect(result).toEqual({
      ok: true,
      event: {
        id: event.id,
        type: 'checkout.session.completed',
        data: event.data,
        checkout: {
          id: 'cos-18qq25rgr100a',
          launchUrl: 'https://pay.wave.com/c/cos-18qq25rgr100a',
          amountMinor: 5000,
          currency: 'XOF',
          clientReference: 'R-1',
          checkoutStatus: 'complete',
          paymentStatus: 'succeeded',
          transactionId: 'TCN4Y4ZC3FM',
          expiresAt: Date.parse('2026-11-27T05:30:00Z') / 1000,
          completedAt: Date.parse('2026-11-27T05:02:00Z') / 1000,
          lastPaymentError: null,
        },
      },
    });
  });

  it('refuses another secret, a tampered body, a missing or malformed header', async () => {
    const event = paidEvent();
    const wrong = await waveDelivery(event, { secret: 'wave_sn_WHS_someone-else' });
    expect(await adapter.verifyWebhook(wrong.rawBody, wrong.headers, now())).toEqual({ ok: false, reason: 'bad-signature' });
    const signed = await waveDelivery(event);
    const tampered = signed.rawBody.replace('"5000"', '"500000"');
    expect(tampered).not.toBe(signed.rawBody);
    expect(await adapter.verifyWebhook(tampered, signed.headers, now())).toEqual({ ok: false, reason: 'bad-signature' });
    expect(await adapter.verifyWebhook(signed.rawBody, new Headers(), now())).toEqual({ ok: false, reason: 'missing-signature' });
    const v1 = signed.headers.get('Wave-Signature')!.split(',')[1];
    for (const header of [v1, `t=soon,${v1}`, `t=${nowSeconds()}`, 'garbage']) {
      expect(await adapter.verifyWebhook(signed.rawBody, new Headers({ 'Wave-Signature': header }), now()), header).toEqual({ ok: false, reason: 'malformed-signature' });
    }
  });

  it('refuses a timestamp more than 5 minutes away, either way (a replay), and accepts one within', async () => {
    const event = paidEvent();
    const t = nowSeconds();
    for (const [offset, ok] of [[-301, false], [301, false], [-300, true], [300, true]] as const) {
      const { rawBody, headers } = await waveDelivery(event, { timestamp: t + offset });
      const result = await adapter.verifyWebhook(rawBody, headers, new Date(t * 1000));
      expect(result.ok, `offset ${offset}`).toBe(ok);
      if (!ok) expect(result).toEqual({ ok: false, reason: 'stale-timestamp' });
    }
  });

  it('accepts any one of several v1 signatures (Wave sends one per secret while rotating), none if all are wrong', async () => {
    const event = paidEvent();
    const rotating = await waveDelivery(event, { secret: 'wave_sn_WHS_old-secret', extraSecrets: [FAKE_WAVE_WEBHOOK_SECRET] });
    expect(rotating.headers.get('Wave-Signature')!.match(/v1=/g)).toHaveLength(2);
    expect((await adapter.verifyWebhook(rotating.rawBody, rotating.headers, now())).ok).toBe(true);
    const none = await waveDelivery(event, { secret: 'wave_sn_WHS_old-secret', extraSecrets: ['wave_sn_WHS_other'] });
    expect(await adapter.verifyWebhook(none.rawBody, none.headers, now())).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('a well-signed body that is not an event is refused as malformed; other event types pass without a checkout', async () => {
    for (const body of ['not json', JSON.stringify({ type: 'checkout.session.completed' }), JSON.stringify({ id: 'AE_1', type: 'checkout.session.completed', data: { id: 'cos-1' } })]) {
      const { rawBody, headers } = await waveDelivery(body);
      expect(await adapter.verifyWebhook(rawBody, headers, now()), body).toEqual({ ok: false, reason: 'malformed-event' });
    }
    const b2b = wave.event('b2b.payment_received', { id: 'b2b-1', amount: '1000', currency: 'XOF' });
    const { rawBody, headers } = await waveDelivery(b2b);
    expect(await adapter.verifyWebhook(rawBody, headers, now())).toEqual({ ok: true, event: { ...b2b, checkout: null } });
  });

  it('an adapter without a webhook secret refuses every delivery', async () => {
    const unconfigured = new WaveProvider({ apiKey: FAKE_WAVE_API_KEY, webhookSecret: '' });
    const { rawBody, headers } = await waveDelivery(paidEvent());
    expect(await unconfigured.verifyWebhook(rawBody, headers, now())).toEqual({ ok: false, reason: 'bad-signature' });
  });
});

describe('the Wave sandbox (outside production, without WAVE_API_KEY)', () => {
  const sandbox = new SandboxMobileMoneyProvider(env, SANDBOX_WAVE_WEBHOOK_SECRET);

  it('pays a session on its own page and signs the completion event for the same verification', async () => {
    const input = checkoutInput();
    const checkout = await sandbox.createCheckout(input);
    expect(checkout.launchUrl).toBe(`http://127.0.0.1:8787/sandbox/wave/checkout/${checkout.id}`);
    expect(checkout).toMatchObject({ amountMinor: 5000, currency: 'XOF', checkoutStatus: 'open', paymentStatus: 'processing' });
    expect((await sandbox.createCheckout(input)).id).toBe(checkout.id);
    const delivery = await sandbox.completeCheckout(checkout.id, 'succeeded');
    const verified = await sandbox.verifyWebhook(delivery.rawBody, delivery.headers, new Date());
    expect(verified.ok && verified.event.type).toBe('checkout.session.completed');
    expect(verified.ok && verified.event.checkout).toMatchObject({ id: checkout.id, clientReference: input.clientReference, paymentStatus: 'succeeded', checkoutStatus: 'complete' });
    // Signed for real: another secret does not verify it, and a tampered body neither.
    const other = new SandboxMobileMoneyProvider(env, 'another-secret');
    expect(await other.verifyWebhook(delivery.rawBody, delivery.headers, new Date())).toEqual({ ok: false, reason: 'bad-signature' });
    expect((await sandbox.verifyWebhook(delivery.rawBody.replace('5000', '50'), delivery.headers, new Date())).ok).toBe(false);
    // Wave's own verification code accepts it too: one scheme.
    expect((await new WaveProvider({ apiKey: 'unused', webhookSecret: SANDBOX_WAVE_WEBHOOK_SECRET }).verifyWebhook(delivery.rawBody, delivery.headers, new Date())).ok).toBe(true);
    await sandbox.refundCheckout(checkout.id, 'r1');
    await sandbox.refundCheckout(checkout.id, 'r1');
  });

  it('a failed payment sends payment_failed with the reason; an unpaid session cannot be refunded', async () => {
    const checkout = await sandbox.createCheckout(checkoutInput());
    const delivery = await sandbox.completeCheckout(checkout.id, 'failed');
    const verified = await sandbox.verifyWebhook(delivery.rawBody, delivery.headers, new Date());
    expect(verified.ok && verified.event.type).toBe('checkout.session.payment_failed');
    expect(verified.ok && verified.event.checkout?.lastPaymentError).toEqual({ code: 'insufficient-funds', message: 'The payer does not have enough money in their wallet' });
    expect(await rejection(sandbox.refundCheckout(checkout.id, 'r'))).toMatchObject({ code: 'checkout-not-refundable' });
    await sandbox.expireCheckout(checkout.id);
    expect((await sandbox.getCheckout(checkout.id)).checkoutStatus).toBe('expired');
    expect(await rejection(sandbox.getCheckout('cos-nope'))).toMatchObject({ code: 'checkout-session-not-found', httpStatus: 404 });
  });

  it('pays out at once, idempotently; a number ending in 9999 is refused with a reason', async () => {
    const input = payoutInput();
    const payout = await sandbox.createPayout(input);
    expect(payout).toMatchObject({ status: 'succeeded', amountMinor: 25000, failure: null });
    expect((await sandbox.createPayout(input)).id).toBe(payout.id);
    const refused = await sandbox.createPayout(payoutInput({ mobile: '+221770009999' }));
    expect(refused).toMatchObject({ status: 'failed', failure: { code: 'blocked-account', message: 'The recipient wallet is blocked' } });
    expect(await sandbox.getPayout(refused.id)).toEqual(refused);
  });
});

/** Calls the worker's own fetch handler with an env variant. */
async function health(variant: Env) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${BASE}/v1/api/health`), variant, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

describe('choosing Wave: sandbox locally, Wave in production, closed without its keys while XOF is on', () => {
  it('locally without WAVE_API_KEY: the sandbox, reported SANDBOX by /health', async () => {
    // Without the local .dev.vars (npm start writes WAVE_WEBHOOK_SECRET there): the built-in sandbox secret.
    const local = { ...env, WAVE_API_KEY: undefined, WAVE_WEBHOOK_SECRET: undefined } as unknown as Env;
    expect((providersFor(local).mobileMoney.rail('WAVE') as WaveRail).api.name).toBe('sandbox');
    expect(providersFor(local).mobileMoney.rail('WAVE')!.mode).toBe('SANDBOX');
    expect((await health(local)).body.providers.wave).toBe('SANDBOX');
    expect(appConfig(local).wave).toEqual({ mode: 'SANDBOX', webhookSecret: SANDBOX_WAVE_WEBHOOK_SECRET });
  });

  it('with WAVE_API_KEY: Wave, reported LIVE', async () => {
    const configured = { ...env, WAVE_API_KEY: FAKE_WAVE_API_KEY, WAVE_WEBHOOK_SECRET: FAKE_WAVE_WEBHOOK_SECRET } as Env;
    expect((providersFor(configured).mobileMoney.rail('WAVE') as WaveRail).api.name).toBe('wave');
    expect((await health(configured)).body.providers.wave).toBe('LIVE');
  });

  it('production: Wave, LIVE, with its secret', async () => {
    expect((providersFor(PRODUCTION_ENV).mobileMoney.rail('WAVE') as WaveRail).api.name).toBe('wave');
    const res = await health(PRODUCTION_ENV);
    expect(res.status).toBe(200);
    expect(res.body.providers.wave).toBe('LIVE');
  });

  it('production with XOF enabled (the default, or listed) and no Wave key answers 503 naming it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const currencies of [undefined, 'EUR,XOF', ' eur , xof ']) {
      const variant = { ...PRODUCTION_ENV, CURRENCIES: currencies, WAVE_API_KEY: undefined, WAVE_WEBHOOK_SECRET: '' } as unknown as Env;
      const res = await health(variant);
      expect(res.status, String(currencies)).toBe(503);
      expect(res.body.message).toBe('The service is not configured: missing WAVE_API_KEY; missing WAVE_WEBHOOK_SECRET');
    }
  });

  it('production without XOF needs no Wave key, but a malformed one is still named', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const noXof = { ...PRODUCTION_ENV, CURRENCIES: 'EUR,GBP', WAVE_API_KEY: undefined, WAVE_WEBHOOK_SECRET: undefined } as unknown as Env;
    expect((await health(noXof)).status).toBe(200);
    const malformed = await health({ ...noXof, WAVE_API_KEY: 'sk_live_notWave' } as Env);
    expect(malformed.status).toBe(503);
    expect(malformed.body.message).toBe('The service is not configured: invalid WAVE_API_KEY (expected a Wave API key (wave_<country>_prod_...))');
  });

  it('production refuses the sandbox webhook secret published in .dev.vars.example', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await health({ ...PRODUCTION_ENV, WAVE_WEBHOOK_SECRET: 'wave_dev_sandbox_webhook_secret' } as Env);
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(
      'The service is not configured: invalid WAVE_WEBHOOK_SECRET (expected a value of its own, not the one published in .dev.vars.example)',
    );
  });
});
