// The validated configuration (issue 14): production without a secret or binding answers 503 and
// runs no job; production mounts no sandbox or development route and documents none; with every
// secret it serves with the real adapters. The sandbox identity issuer for social login (issue 18,
// defect 7). Local links follow the port `npm start` serves on.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localServer } from '../scripts/lib/local-server.mjs';
import { PRODUCTION_REQUIREMENTS, SANDBOX_CLIENT_IDS, appConfig } from '../src/config';
import { users } from '../src/db/schema';
import worker from '../src/index';
import { sandboxJwks, signSandboxIdToken } from '../src/providers/social-login/sandbox-issuer';
import { serveJwks, uniqueEmail } from './helpers/auth';
import { db, reservationRow } from './helpers/db';
import { FIFTY_EUR, aReservation, aUser } from './helpers/factories';
import { BASE } from './helpers/http';
import { stripeSignature } from './helpers/fake-stripe';
import { WEBHOOK, fakeStripeForThisFile } from './helpers/money';
import { PRODUCTION_ENV } from './helpers/production';
import { PUBLISHED_DEV_VALUES } from '../src/config.published';
import devVarsExample from '../.dev.vars.example?raw';

const stripe = fakeStripeForThisFile();

const PRODUCTION = PRODUCTION_ENV;

/** Local development without social client ids: both social providers are the sandbox issuer. */
const SOCIAL_SANDBOX = { ...env, ENVIRONMENT: 'development', GOOGLE_CLIENT_IDS: '', APPLE_CLIENT_IDS: '' } as Env;

/** Calls the worker's own fetch handler with an env variant. */
async function send(variant: Env, method: string, path: string, init: { json?: unknown; form?: Record<string, string>; token?: string } = {}) {
  const headers = new Headers();
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  }
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${BASE}${path}`, { method, headers, body }), variant, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  const json = res.headers.get('Content-Type')?.includes('application/json') && text ? JSON.parse(text) : undefined;
  return { status: res.status, text, body: json as any, headers: res.headers };
}

const without = (name: string) => ({ ...PRODUCTION, [name]: undefined }) as unknown as Env;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('production without a secret or binding', () => {
  it('requires every secret, provider setting and binding the code uses', () => {
    expect([...PRODUCTION_REQUIREMENTS].sort()).toEqual(
      [
        'ALERT_EMAIL',
        'ALERT_LOCALE',
        'APPLE_CLIENT_IDS',
        'APPLE_JWKS_URL',
        'AUTH_EMAIL_RATE_LIMITER',
        'AUTH_IP_RATE_LIMITER',
        'CHECKOUT_RATE_LIMITER',
        'PUBLIC_RATE_LIMITER',
        'RECIPIENT_RATE_LIMITER',
        'SEARCH_RATE_LIMITER',
        'UPLOAD_RATE_LIMITER',
        'MESSAGE_RATE_LIMITER',
        'CONVERSATION',
        'DB',
        'DELIVERIES',
        'EMAIL',
        'EMAIL_FROM',
        'FCM_SERVICE_ACCOUNT',
        'GOOGLE_CLIENT_IDS',
        'GOOGLE_JWKS_URL',
        'JWT_AUDIENCE',
        'JWT_ISSUER',
        'JWT_KEYS',
        'KV',
        'KYC_PROVIDER_API_KEY',
        'KYC_PROVIDER_URL',
        'KYC_WEBHOOK_SECRET',
        'METRICS',
        'METRICS_ACCOUNT_ID',
        'METRICS_API_TOKEN',
        'PAWAPAY_API_TOKEN',
        'PLATFORM_COMMISSION_RATE',
        'PLATFORM_COMPANY_REGISTRATION',
        'PLATFORM_CURRENCY',
        'PLATFORM_LEGAL_ADDRESS',
        'PLATFORM_LEGAL_NAME',
        'PLATFORM_VAT_NUMBER',
        'PLATFORM_VAT_RATE',
        'PUBLIC_BASE_URL',
        'QR_SIGNING_SECRET',
        'QR_TTL_SECONDS',
        'RECEIPT_SIGNING_SECRET',
        'RESERVATION_QR',
        'RESERVATION_STATUS',
        'RESERVATION_TRACKING',
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'TWILIO_ACCOUNT_SID',
        'TWILIO_AUTH_TOKEN',
        'TWILIO_FROM',
        'UPLOADS',
        'WAVE_API_KEY',
        'WAVE_WEBHOOK_SECRET',
      ].sort(),
    );
  });

  it.each(PRODUCTION_REQUIREMENTS.map((name) => [name]))('without %s every request answers 503 naming it, with one log line', async (name) => {
    const broken = without(name);
    for (const [method, path] of [
      ['GET', '/v1/api/health'],
      ['POST', '/v1/api/auth/login'],
      ['GET', '/v1/api/annonces'],
    ]) {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await send(broken, method, path);
      expect(res.status, `${method} ${path}`).toBe(503);
      const { timestamp, ...body } = res.body;
      expect(Date.parse(timestamp)).not.toBeNaN();
      expect(body).toEqual({
        status: 503,
        errorCode: 'INTERNAL_ERROR',
        message: `The service is not configured: missing ${name}`,
        path,
        suggestions: ['Set the named secrets (wrangler secret put NAME --env production) and bindings (wrangler.toml)'],
      });
      const lines = errors.mock.calls.map((args) => String(args[0]));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`missing ${name}`);
      errors.mockRestore();
    }
  });

  it('live means live: a Stripe test key (sk_test_, rk_test_) or the pawaPay sandbox is refused in production, named, never echoed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const cases: [string, string, string][] = [
      ['STRIPE_SECRET_KEY', 'sk_test_51TestModeKeyThatTakesNoMoney', 'a live Stripe secret key (sk_live_... or rk_live_...; test keys are refused in production)'],
      ['STRIPE_SECRET_KEY', 'rk_test_51RestrictedTestModeKey', 'a live Stripe secret key (sk_live_... or rk_live_...; test keys are refused in production)'],
      ['PAWAPAY_ENVIRONMENT', 'sandbox', 'production (pawaPay sandbox is refused in production)'],
      ['TWILIO_FROM', '+15005550006', "a live sender (Twilio's test numbers +1 500 555 ... are refused in production)"],
      ['KYC_PROVIDER_URL', 'https://sandbox.kyc-provider.example/v1', "the provider's live API (a sandbox or test host is refused in production)"],
      ['KYC_PROVIDER_API_KEY', 'test_a1b2c3d4e5f6g7h8', 'a live key (a test or sandbox key is refused in production)'],
    ];
    for (const [name, value, expected] of cases) {
      const res = await send({ ...PRODUCTION, [name]: value } as Env, 'GET', '/v1/api/health');
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(`The service is not configured: invalid ${name} (expected ${expected})`);
      if (name.endsWith('KEY')) expect(res.text).not.toContain(value);
    }
    expect(appConfig({ ...PRODUCTION, STRIPE_SECRET_KEY: 'sk_live_51LiveKey' } as Env).payment.mode).toBe('LIVE');
  });

  it('outside production health says TEST for a Stripe test key, LIVE for a live one, SANDBOX without one', () => {
    expect(appConfig({ ...env, ENVIRONMENT: 'development', STRIPE_SECRET_KEY: 'sk_test_51TestModeKey' } as Env).payment.mode).toBe('TEST');
    expect(appConfig({ ...env, ENVIRONMENT: 'development', STRIPE_SECRET_KEY: 'rk_test_51TestModeKey' } as Env).payment.mode).toBe('TEST');
    expect(appConfig({ ...env, ENVIRONMENT: 'development', STRIPE_SECRET_KEY: 'sk_live_51LiveKey' } as Env).payment.mode).toBe('LIVE');
    expect(appConfig({ ...env, ENVIRONMENT: 'development', STRIPE_SECRET_KEY: '' } as Env).payment.mode).toBe('SANDBOX');
    const twilio = { TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'token' };
    expect(appConfig({ ...env, ENVIRONMENT: 'development', ...twilio, TWILIO_FROM: '+15005550006' } as Env).sms.mode).toBe('TEST');
    expect(appConfig({ ...env, ENVIRONMENT: 'development', ...twilio, TWILIO_FROM: '+221770000000' } as Env).sms.mode).toBe('LIVE');
    expect(appConfig({ ...env, ENVIRONMENT: 'development', KYC_PROVIDER_URL: 'https://api.kyc.example/v1', KYC_PROVIDER_API_KEY: 'sandbox_123' } as Env).kyc.mode).toBe('TEST');
    expect(appConfig({ ...env, ENVIRONMENT: 'development', KYC_PROVIDER_URL: 'https://api-sandbox.kyc.example/v1', KYC_PROVIDER_API_KEY: 'k' } as Env).kyc.mode).toBe('TEST');
    expect(appConfig({ ...env, ENVIRONMENT: 'development', KYC_PROVIDER_URL: 'https://api.kyc.example/v1', KYC_PROVIDER_API_KEY: 'live_123' } as Env).kyc.mode).toBe('LIVE');
  });

  it('a malformed value is named with the form expected, never echoed', async () => {
    const cases: [string, string, string][] = [
      ['STRIPE_SECRET_KEY', 'pk_live_publishableKeyNotASecret', 'a live Stripe secret key (sk_live_... or rk_live_...; test keys are refused in production)'],
      ['STRIPE_WEBHOOK_SECRET', 'not-a-signing-secret-value', 'Stripe webhook signing secrets (whsec_..., comma-separated)'],
      ['PUBLIC_BASE_URL', 'http://api.example.com', 'an https URL'],
      ['STRIPE_WEBHOOK_SECRET', 'whsec_platformEndpoint,notASigningSecret', 'Stripe webhook signing secrets (whsec_..., comma-separated)'],
      ['JWT_KEYS', '[{"kid":"k1","secret":"too-short-secret"}]', 'a JSON array of {kid, secret} with secrets of at least 32 characters'],
      ['FCM_SERVICE_ACCOUNT', '{"project_id":"p","client_email":"e@p"}', 'a Firebase service account JSON key (project_id, client_email, private_key)'],
      ['TWILIO_ACCOUNT_SID', 'SK0123456789', 'a Twilio account SID (AC + 32 hex digits)'],
      ['TWILIO_FROM', '0612345678', 'an E.164 number (+...) or a Messaging Service SID (MG...)'],
      ['WAVE_API_KEY', 'sk_live_notAWaveKey', 'a Wave API key (wave_<country>_prod_...)'],
      // Optional, but a malformed one is named rather than silently reporting nowhere.
      ['SENTRY_DSN', 'http://sentry.example.com/1', 'a Sentry DSN (https://<key>@<host>/<project>)'],
    ];
    for (const [name, value, expected] of cases) {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await send({ ...PRODUCTION, [name]: value } as Env, 'GET', '/v1/api/health');
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(`The service is not configured: invalid ${name} (expected ${expected})`);
      expect(res.text).not.toContain(value);
    }
  });

  it('names every problem at once, and never a secret value', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await send({ ...without('STRIPE_SECRET_KEY'), GOOGLE_CLIENT_IDS: '', KYC_PROVIDER_URL: 'http://kyc.local' } as Env, 'GET', '/v1/api/health');
    expect(res.body.message).toBe(
      'The service is not configured: missing STRIPE_SECRET_KEY; missing GOOGLE_CLIENT_IDS; invalid KYC_PROVIDER_URL (expected an https URL)',
    );
    for (const secret of [env.STRIPE_WEBHOOK_SECRET, env.QR_SIGNING_SECRET, env.KYC_WEBHOOK_SECRET, 'kyc-api-key-production', 'test-secret-current']) {
      expect(res.text).not.toContain(secret);
    }
  });

  it('the cron runs no job', async () => {
    const { reservation } = await aReservation({ set: { paymentDeadline: new Date(Date.now() - 3600_000).toISOString() } });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), without('STRIPE_SECRET_KEY'), ctx);
    await waitOnExecutionContext(ctx);
    expect((await reservationRow(reservation.id)).status).toBe('PENDING_PAYMENT');
    expect(errors.mock.calls.map((args) => String(args[0]))).toEqual([expect.stringContaining('"event":"scheduled.skipped"')]);
    expect(String(errors.mock.calls[0][0])).toContain('missing STRIPE_SECRET_KEY');
  });
});

describe('production refuses the secrets published in .dev.vars.example', () => {
  const published = (name: string) => PUBLISHED_DEV_VALUES.find((v) => v.name === name)!.value;
  const expected = 'a value of its own, not the one published in .dev.vars.example';

  it('the list the check uses follows the file', () => {
    const fromFile = devVarsExample
      .split('\n')
      .map((line) => line.match(/^\s*([A-Z][A-Z0-9_]*)\s*=(.*)$/))
      .filter((m): m is RegExpMatchArray => m !== null)
      .map(([, name, value]) => ({ name, value: value.trim() }))
      .filter(({ value }) => value.length > 0);
    expect(PUBLISHED_DEV_VALUES).toEqual(fromFile);
    expect(PUBLISHED_DEV_VALUES.map((v) => v.name)).toEqual(['JWT_KEYS', 'QR_SIGNING_SECRET', 'RECEIPT_SIGNING_SECRET', 'STRIPE_WEBHOOK_SECRET', 'WAVE_WEBHOOK_SECRET', 'KYC_WEBHOOK_SECRET', 'ALERT_EMAIL', 'ALERT_SMS', 'ALERT_WEBHOOK_URL']);
  });

  it('any secret set to a published value: 503 naming it, never echoing it', async () => {
    const devKey = (JSON.parse(published('JWT_KEYS')) as { secret: string }[])[0].secret;
    const cases: [string, string][] = [
      ...PUBLISHED_DEV_VALUES.map(({ name, value }) => [name, value] as [string, string]),
      // The published signing key under another kid, behind a key of its own: still anyone's key.
      ['JWT_KEYS', JSON.stringify([{ kid: 'prod-2', secret: 'a-production-secret-0123456789abcdefghij' }, { kid: 'prod-1', secret: devKey }])],
      // One of the comma-separated webhook secrets.
      ['STRIPE_WEBHOOK_SECRET', `whsec_platform_endpoint, ${published('STRIPE_WEBHOOK_SECRET')}`],
    ];
    for (const [name, value] of cases) {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await send({ ...PRODUCTION, [name]: value } as Env, 'GET', '/v1/api/health');
      expect(res.status, name).toBe(503);
      expect(res.body.message).toBe(`The service is not configured: invalid ${name} (expected ${expected})`);
      expect(res.text).not.toContain(name === 'JWT_KEYS' ? devKey : value);
    }
  });

  it('development and the test runner may use them', async () => {
    const local = { ...env, ENVIRONMENT: 'development', QR_SIGNING_SECRET: published('QR_SIGNING_SECRET') } as Env;
    expect((await send(local, 'GET', '/v1/api/health')).status).toBe(200);
  });
});

describe('staging follows the production rules, on test money only', () => {
  // [env.staging] in wrangler.toml: the providers' test keys, no Wave (it has no test mode) and so no XOF.
  const STAGING = {
    ...PRODUCTION,
    ENVIRONMENT: 'staging',
    STRIPE_SECRET_KEY: 'sk_test_51StagingKey',
    PAWAPAY_ENVIRONMENT: 'sandbox',
    TWILIO_FROM: '+15005550006',
    KYC_PROVIDER_URL: 'https://sandbox.kyc.example.com/v1',
    CURRENCIES: 'EUR,XAF',
    WAVE_API_KEY: undefined,
    WAVE_WEBHOOK_SECRET: undefined,
  } as unknown as Env;

  it('refuses live keys, pawaPay production, a Wave key and XOF, each named, never echoed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const cases: [Record<string, string | undefined>, string][] = [
      [{ STRIPE_SECRET_KEY: 'sk_live_51LiveMoney' }, 'invalid STRIPE_SECRET_KEY (expected a Stripe test key (sk_test_... or rk_test_...; staging refuses live keys))'],
      [{ PAWAPAY_ENVIRONMENT: undefined }, "missing PAWAPAY_ENVIRONMENT"],
      [{ PAWAPAY_ENVIRONMENT: 'production' }, "invalid PAWAPAY_ENVIRONMENT (expected sandbox (staging uses pawaPay's sandbox only))"],
      [{ WAVE_API_KEY: 'wave_sn_prod_RealMoneyKey' }, 'invalid WAVE_API_KEY (expected unset (Wave has no test mode: staging would move real money))'],
      [{ CURRENCIES: 'EUR,XAF,XOF' }, 'invalid CURRENCIES (expected currencies without XOF in staging (Wave, its provider, has no test mode))'],
    ];
    for (const [change, problem] of cases) {
      const res = await send({ ...STAGING, ...change } as unknown as Env, 'GET', '/v1/api/health');
      expect(res.status, problem).toBe(503);
      expect(res.body.message).toBe(`The service is not configured: ${problem}`);
      for (const value of Object.values(change)) if (value && value.length > 12) expect(res.text).not.toContain(value);
    }
  });

  it('fails closed: without a provider setting it answers 503 naming it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await send({ ...STAGING, STRIPE_SECRET_KEY: undefined, GOOGLE_CLIENT_IDS: '' } as unknown as Env, 'GET', '/v1/api/health');
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('The service is not configured: missing STRIPE_SECRET_KEY; missing GOOGLE_CLIENT_IDS');
    // The test runner's secrets alone are not enough either.
    const bare = await send({ ...env, ENVIRONMENT: 'staging' } as Env, 'GET', '/v1/api/health');
    expect(bare.status).toBe(503);
    expect(bare.body.message).toContain('missing KYC_PROVIDER_URL');
  });

  it('with every setting: each provider real in its test mode (health says so), no sandbox or development route', async () => {
    const health = await send(STAGING, 'GET', '/v1/api/health');
    expect(health.status).toBe(200);
    expect(health.body.providers).toEqual({ payment: 'TEST', kyc: 'TEST', googleLogin: 'LIVE', appleLogin: 'LIVE', mailer: 'LIVE', push: 'LIVE', sms: 'TEST', wave: 'OFF', pawapay: 'TEST' });
    for (const [method, path] of [
      ['GET', '/sandbox/social/google/sign-in'],
      ['POST', '/sandbox/social/google/sign-in'],
      ['GET', '/sandbox/social/jwks.json'],
      ['GET', '/sandbox/checkout/cs_sandbox_x'],
      ['GET', '/sandbox/kyc/sbx_00000000000000000000000000000000'],
      ['POST', '/v1/api/dev/seed'],
      ['GET', '/dev/outbox'],
    ]) {
      const res = await send(STAGING, method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ errorCode: 'ENDPOINT_NOT_FOUND', message: `No endpoint ${method} ${path}` });
    }
  });

  it('the sandbox identity issuer exists only in development: the test runner without client ids has none', async () => {
    const noClientIds = { ...env, GOOGLE_CLIENT_IDS: '', APPLE_CLIENT_IDS: '' } as Env;
    expect((await send(noClientIds, 'GET', '/sandbox/social/google/sign-in')).status).toBe(404);
    expect((await send(noClientIds, 'GET', '/sandbox/social/jwks.json')).status).toBe(404);
    // A token of the development issuer is not accepted there either.
    const { token } = await signSandboxIdToken(SOCIAL_SANDBOX, 'google', appConfig(SOCIAL_SANDBOX).social.google, { email: uniqueEmail('sbx') });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await send(noClientIds, 'POST', '/v1/api/auth/oauth2/google', { json: { idToken: token } });
    expect(res.status).toBe(401);
    expect((await send(noClientIds, 'GET', '/v1/api/health')).body.providers).toMatchObject({ googleLogin: 'LIVE', appleLogin: 'LIVE' });
  });
});

describe('push and SMS outside production', () => {
  it('without their settings are the sandboxes; with them, the real adapters; a malformed one is named', async () => {
    const local = await send(env, 'GET', '/v1/api/health');
    expect(local.body.providers).toMatchObject({ push: 'SANDBOX', sms: 'SANDBOX' });
    const { FCM_SERVICE_ACCOUNT, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM } = PRODUCTION as Env & Record<string, string>;
    const configured = { ...env, FCM_SERVICE_ACCOUNT, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM } as Env;
    expect((await send(configured, 'GET', '/v1/api/health')).body.providers).toMatchObject({ push: 'LIVE', sms: 'LIVE' });
    // Half a Twilio configuration is not a sender: still the sandbox.
    expect((await send({ ...env, TWILIO_ACCOUNT_SID } as Env, 'GET', '/v1/api/health')).body.providers).toMatchObject({ sms: 'SANDBOX' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = await send({ ...env, FCM_SERVICE_ACCOUNT: 'not json' } as Env, 'GET', '/v1/api/health');
    expect(broken.status).toBe(503);
    expect(broken.body.message).toBe('The service is not configured: invalid FCM_SERVICE_ACCOUNT (expected a Firebase service account JSON key (project_id, client_email, private_key))');
  });
});

describe('the money settings, parsed once with the rest', () => {
  it('commission and VAT rates are in [0, 1): a rate of 1 is named, in production and locally', async () => {
    expect(appConfig(env).platform).toEqual({ commissionRate: 0.15, vatRate: 0.2, currency: 'EUR' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const name of ['PLATFORM_COMMISSION_RATE', 'PLATFORM_VAT_RATE']) {
      for (const variant of [PRODUCTION, env]) {
        const res = await send({ ...variant, [name]: '1' } as Env, 'GET', '/v1/api/health');
        expect(res.status).toBe(503);
        expect(res.body.message).toBe(`The service is not configured: invalid ${name} (expected a rate from 0 to below 1)`);
      }
    }
    expect(appConfig({ ...env, PLATFORM_COMMISSION_RATE: '0', PLATFORM_VAT_RATE: '0.055' } as Env).platform).toMatchObject({ commissionRate: 0, vatRate: 0.055 });
  });
});

describe('production with every secret', () => {
  it('answers normally and reports every provider real', async () => {
    const res = await send(PRODUCTION, 'GET', '/v1/api/health');
    expect(res.status).toBe(200);
    expect(res.body.providers).toEqual({ payment: 'LIVE', kyc: 'LIVE', googleLogin: 'LIVE', appleLogin: 'LIVE', mailer: 'LIVE', push: 'LIVE', sms: 'LIVE', wave: 'LIVE', pawapay: 'LIVE' });
  });

  it("Stripe's two endpoints (platform and Connect) share the webhook URL: either signing secret is accepted, no other", async () => {
    const variant = { ...PRODUCTION, STRIPE_WEBHOOK_SECRET: 'whsec_platform_endpoint, whsec_connect_endpoint' } as Env;
    const deliver = async (secret: string) => {
      const payload = JSON.stringify(stripe.event('account.updated', { id: 'acct_not_ours', object: 'account', charges_enabled: true }));
      const headers = { 'Content-Type': 'application/json', 'Stripe-Signature': await stripeSignature(payload, { secret }) };
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`${BASE}${WEBHOOK}`, { method: 'POST', headers, body: payload }), variant, ctx);
      await waitOnExecutionContext(ctx);
      return res.status;
    };
    expect(await deliver('whsec_platform_endpoint')).toBe(200);
    expect(await deliver('whsec_connect_endpoint')).toBe(200);
    expect(await deliver('whsec_someone_else')).toBe(401);
  });

  it('checkout goes to Stripe, with links on the public https origin', async () => {
    const { sender, reservation } = await aReservation(FIFTY_EUR);
    const before = stripe.requests.length;
    const res = await send(PRODUCTION, 'POST', '/v1/api/payments/checkout', { json: { reservationId: reservation.id }, token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body.paymentId).toMatch(/^cs_test_/);
    expect(res.body.paymentApprovalUrl).toBe(`https://checkout.stripe.com/c/pay/${res.body.paymentId}`);
    const [sent] = stripe.requests.slice(before);
    expect(sent.body.success_url).toMatch(/^https:\/\/api\.example\.com\/v1\/api\/payments\/callback\/success\?/);
  });

  it('KYC sessions are started with the real provider', async () => {
    const user = await aUser();
    let called: { auth: string | null; body: any } | undefined;
    stripe.server.use(
      http.post('https://kyc.example.com/v1/sessions', async ({ request }) => {
        called = { auth: request.headers.get('Authorization'), body: await request.json() };
        return HttpResponse.json({ id: 'kyc_live_1', url: 'https://kyc.example.com/flow/1', token: 'sdk-token-1' });
      }),
    );
    const res = await send(PRODUCTION, 'POST', '/v1/api/kyc/sessions', { token: user.token });
    expect(res.status).toBe(201);
    expect(res.body.kycSessionUrl).toBe('https://kyc.example.com/flow/1');
    expect(called).toEqual({
      auth: 'Bearer kyc-api-key-production',
      body: expect.objectContaining({ callbackUrl: 'https://api.example.com/v1/api/webhooks/kyc-provider/status-update' }),
    });
  });

  it('mounts no sandbox or development route', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const [method, path] of [
      ['GET', '/sandbox/checkout/cs_sandbox_x'],
      ['POST', '/sandbox/checkout/cs_sandbox_x/pay'],
      ['GET', '/sandbox/connect/acct_sandbox_user_1'],
      ['POST', '/sandbox/connect/acct_sandbox_user_1/complete'],
      ['GET', '/sandbox/kyc/sbx_00000000000000000000000000000000'],
      ['POST', '/sandbox/kyc/sbx_00000000000000000000000000000000/approve'],
      ['GET', '/sandbox/social/jwks.json'],
      ['GET', '/sandbox/social/google/sign-in'],
      ['POST', '/sandbox/social/apple/sign-in'],
      ['POST', '/v1/api/dev/seed'],
    ]) {
      const res = await send(PRODUCTION, method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      // The not-found handler's own message: no route matched (a mounted sandbox would say it is inactive).
      expect(res.body).toMatchObject({ errorCode: 'ENDPOINT_NOT_FOUND', message: `No endpoint ${method} ${path}` });
    }
  });

  it('documents no sandbox or development route', async () => {
    const operations = (doc: any) =>
      Object.entries(doc.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap(([path, ops]) =>
        Object.values(ops).map((op) => ({ path, tags: op.tags ?? [] })),
      );
    const local = operations((await send(env, 'GET', '/v1/api/openapi.json')).body);
    const production = operations((await send(PRODUCTION, 'GET', '/v1/api/openapi.json')).body);
    const isLocalOnly = (o: { path: string; tags: string[] }) =>
      o.path.startsWith('/sandbox/') || o.path.startsWith('/v1/api/dev/') || o.tags.some((t) => t === 'Sandbox' || t === 'Development');
    expect(local.filter(isLocalOnly).length).toBeGreaterThanOrEqual(10);
    expect(production.filter(isLocalOnly)).toEqual([]);
    expect(production.length).toBe(local.length - local.filter(isLocalOnly).length);
  });
});

describe('social login sandbox (outside production, no client ids)', () => {
  /** Signs in on the sandbox page and returns the token the page shows. */
  async function signInOnPage(provider: 'google' | 'apple', form: Record<string, string>) {
    const page = await send(SOCIAL_SANDBOX, 'GET', `/sandbox/social/${provider}/sign-in`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<form method="post" action="\/sandbox\/social\/(google|apple)\/sign-in">/);
    expect(page.text).toContain('<input id="email" name="email" type="email" required');
    const signed = await send(SOCIAL_SANDBOX, 'POST', `/sandbox/social/${provider}/sign-in`, { form });
    expect(signed.status).toBe(200);
    const token = signed.text.match(/<textarea id="id-token" readonly>([^<]+)<\/textarea>/)?.[1];
    expect(token).toBeDefined();
    return { token: token!, html: signed.text };
  }

  it('the sign-in page signs a token the Google login accepts: 200, the user created', async () => {
    const email = uniqueEmail('sbx');
    const { token, html } = await signInOnPage('google', { email, firstName: 'Sandra', lastName: 'Box' });
    expect(html).toContain(`POST ${env.PUBLIC_BASE_URL}/v1/api/auth/oauth2/google`);
    const res = await send(SOCIAL_SANDBOX, 'POST', '/v1/api/auth/oauth2/google', { json: { idToken: token } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(res.body.user).toMatchObject({ email, firstName: 'Sandra', lastName: 'Box', emailVerified: true, roles: ['ROLE_CLIENT'] });
    const [row] = await db().select().from(users).where(eq(users.email, email));
    expect(row.googleSubject).toMatch(/^sandbox-[0-9a-f]{24}$/);
    expect(row.passwordHash).toBeNull();
    // The same token again is a replay (CONTRACT 25): 401.
    const replay = await send(SOCIAL_SANDBOX, 'POST', '/v1/api/auth/oauth2/google', { json: { idToken: token } });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe('This Google credential was already used to sign in');
    // The same person signing in again on the page, within the same second, gets a token of its
    // own (a fresh jti) and the same account.
    const next = (await signInOnPage('google', { email })).token;
    const jtiOf = (jwt: string) => JSON.parse(atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).jti;
    expect(jtiOf(next)).toMatch(/^[0-9a-f-]{36}$/);
    expect(jtiOf(next)).not.toBe(jtiOf(token));
    const again = await send(SOCIAL_SANDBOX, 'POST', '/v1/api/auth/oauth2/google', { json: { idToken: next } });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(res.body.user.id);
  });

  it('Apple: the token carries no names; they travel beside it as Apple sends them', async () => {
    const email = uniqueEmail('sbx');
    const { token, html } = await signInOnPage('apple', { email, firstName: 'Ada', lastName: 'Apple' });
    expect(html).toContain('&quot;firstName&quot;: &quot;Ada&quot;');
    const res = await send(SOCIAL_SANDBOX, 'POST', '/v1/api/auth/oauth2/apple', { json: { identityToken: token, firstName: 'Ada', lastName: 'Apple' } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email, firstName: 'Ada', lastName: 'Apple', emailVerified: true });
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    expect(payload).toMatchObject({ iss: `${env.PUBLIC_BASE_URL}/sandbox/social/apple`, aud: SANDBOX_CLIENT_IDS.apple, email_verified: 'true' });
    expect(payload.given_name).toBeUndefined();
  });

  it('a token signed by another key, or for the other provider, is refused with the 401 body', async () => {
    const { jwk } = (await sandboxJwks(SOCIAL_SANDBOX)).keys.map((k) => ({ jwk: k }))[0];
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ email: uniqueEmail('forged'), email_verified: true })
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid })
      .setIssuer(`${env.PUBLIC_BASE_URL}/sandbox/social/google`)
      .setAudience(SANDBOX_CLIENT_IDS.google)
      .setSubject('sandbox-forged')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const appleToken = (await signInOnPage('apple', { email: uniqueEmail('sbx') })).token;
    for (const idToken of [forged, appleToken]) {
      const res = await send(SOCIAL_SANDBOX, 'POST', '/v1/api/auth/oauth2/google', { json: { idToken } });
      expect(res.status).toBe(401);
      const { timestamp, debugInfo, ...body } = res.body; // debugInfo: the sandbox runs in development only
      expect(body).toEqual({
        status: 401,
        errorCode: 'AUTHENTICATION_ERROR',
        message: 'Invalid Google credential',
        path: '/v1/api/auth/oauth2/google',
        suggestions: ['Sign in with Google again to obtain a fresh token'],
      });
    }
  });

  it('serves its public key set and reports the sandboxes in /health', async () => {
    const jwks = await send(SOCIAL_SANDBOX, 'GET', '/sandbox/social/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.stringMatching(/^sandbox-/) });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const health = await send(SOCIAL_SANDBOX, 'GET', '/v1/api/health');
    expect(health.body.providers).toMatchObject({ googleLogin: 'SANDBOX', appleLogin: 'SANDBOX' });
  });

  it('a bad form answers the 400 body; with client ids configured the pages do not exist', async () => {
    const bad = await send(SOCIAL_SANDBOX, 'POST', '/sandbox/social/google/sign-in', { form: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'email', rejectedValue: 'not-an-email' })] });
    const res = await send(env, 'GET', '/sandbox/social/google/sign-in');
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe('ENDPOINT_NOT_FOUND');
    expect((await send(env, 'GET', '/sandbox/social/jwks.json')).status).toBe(404);
  });

  it('production never accepts the sandbox issuer, even with its key served as Google’s', async () => {
    expect(appConfig(PRODUCTION).social.google).toEqual({
      mode: 'LIVE',
      jwksUrl: env.GOOGLE_JWKS_URL,
      issuers: ['https://accounts.google.com', 'accounts.google.com'],
      audience: [env.GOOGLE_CLIENT_IDS],
    });
    // The production service's own sandbox issuer, had it one: same key seed, same public origin.
    const local = { ...PRODUCTION, ENVIRONMENT: 'development', GOOGLE_CLIENT_IDS: '' } as Env;
    const { token } = await signSandboxIdToken(local, 'google', appConfig(local).social.google, { email: uniqueEmail('sbx') });
    serveJwks({ [env.GOOGLE_JWKS_URL]: (await sandboxJwks(local)).keys });
    const res = await send(PRODUCTION, 'POST', '/v1/api/auth/oauth2/google', { json: { idToken: token } });
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('AUTHENTICATION_ERROR');
  });
});

describe('local links follow the port npm start serves on', () => {
  it('npm start passes its own address as PUBLIC_BASE_URL', () => {
    expect(localServer('8788').base).toBe('http://127.0.0.1:8788');
    expect(localServer('8788').devArgs).toEqual(expect.arrayContaining(['--port', '8788', '--var', 'PUBLIC_BASE_URL:http://127.0.0.1:8788']));
    expect(localServer().devArgs).toEqual(expect.arrayContaining(['--port', '8787', '--var', 'PUBLIC_BASE_URL:http://127.0.0.1:8787']));
    // npm start runs the crons and says so itself; wrangler's banner would say they do not run.
    expect(localServer().devArgs).toContain('--test-scheduled');
  });

  it('a second instance on 8788 hands out checkout links to 8788', async () => {
    const second = { ...env, STRIPE_SECRET_KEY: '', PUBLIC_BASE_URL: 'http://127.0.0.1:8788' } as Env;
    const { sender, reservation } = await aReservation(FIFTY_EUR);
    const res = await send(second, 'POST', '/v1/api/payments/checkout', { json: { reservationId: reservation.id }, token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body.paymentApprovalUrl).toBe(`http://127.0.0.1:8788/sandbox/checkout/${res.body.paymentId}`);
    const pay = await send(second, 'POST', `/sandbox/checkout/${res.body.paymentId}/pay`);
    expect(pay.headers.get('Location')).toMatch(/^http:\/\/127\.0\.0\.1:8788\/v1\/api\/payments\/callback\/success\?session_id=/);
  });
});
