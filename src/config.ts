// The one validated configuration: zod over `env`, checked once per env object (once per isolate),
// and the place where every provider is chosen. Production refuses to serve without each of its
// secrets and bindings; elsewhere a provider without its settings is the local sandbox.
import { z } from '@hono/zod-openapi';
import type { Locale } from './db/schema';
import { QR_TTL_MS } from './lib/qr-payload';
import { rootUrl } from './lib/urls';
import { POLICIES } from './lib/rate-limit-policies';
import { PUBLISHED_DEV_VALUES } from './config.published';
import { CURRENCY_CODES, parseCurrencyList, type CurrencyCode } from './lib/currency';
import { DEFAULT_PROTECTION_RATE, parseProtectionLimits, type ProtectionLimit } from './lib/protection';

/** Settings that are not in the generated Env (no default in wrangler.toml; set as secrets). */
export interface OptionalSettings {
  KYC_PROVIDER_URL?: string;
  KYC_PROVIDER_API_KEY?: string;
  /** Optional everywhere: where unexpected errors are reported (lib/error-tracking.ts); unset, nowhere. */
  SENTRY_DSN?: string;
  /** Push (FCM HTTP v1): the Firebase service account's JSON key. Unset outside production: the push sandbox. */
  FCM_SERVICE_ACCOUNT?: string;
  /** SMS (Twilio Messages API): the account, its auth token and the sender (E.164 number or MG... service). */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_FROM?: string;
  /** The enabled currencies (CONTRACT section 20), comma-separated ISO codes; unset: lib/currency.ts DEFAULT_CURRENCIES. */
  CURRENCIES?: string;
  /** Wave (mobile money, XOF): the business wallet's API key and the webhook's signing secret. */
  WAVE_API_KEY?: string;
  WAVE_WEBHOOK_SECRET?: string;
  /**
   * pawaPay (mobile money: MTN and Orange in XAF and XOF, CONTRACT section 29): the API token;
   * PAWAPAY_ENVIRONMENT `sandbox` for pawaPay's own sandbox (TEST), else its production (LIVE);
   * PAWAPAY_SIGNING_KEY (PKCS#8 PEM, ECDSA P-256) and PAWAPAY_SIGNING_KEY_ID sign our financial
   * requests; PAWAPAY_CALLBACK_PUBLIC_KEY (SPKI PEM) verifies its callbacks; PAWAPAY_ENABLED=false
   * turns the rail off.
   */
  PAWAPAY_API_TOKEN?: string;
  PAWAPAY_ENVIRONMENT?: string;
  PAWAPAY_SIGNING_KEY?: string;
  PAWAPAY_SIGNING_KEY_ID?: string;
  PAWAPAY_CALLBACK_PUBLIC_KEY?: string;
  PAWAPAY_ENABLED?: string;
  /** Reading the metrics (Analytics Engine SQL API): the Cloudflare account id and an API token with Account Analytics Read. */
  METRICS_ACCOUNT_ID?: string;
  METRICS_API_TOKEN?: string;
  /** The protection premium's rate in [0, 1) (CONTRACT section 21); unset: 0.03. */
  PROTECTION_RATE?: string;
  /** Minimum and maximum covered value per currency, `EUR:20:2000,XOF:13000:1300000`; unset: lib/protection.ts defaults. */
  PROTECTION_LIMITS?: string;
  /** Where the watchdog's alerts go (CONTRACT section 27): an e-mail address (required in production), an E.164 number, a Slack-compatible webhook. */
  ALERT_EMAIL?: string;
  ALERT_SMS?: string;
  ALERT_WEBHOOK_URL?: string;
  /** The language of the alerts, `fr` or `en` (unset: en): the on-call team's. */
  ALERT_LOCALE?: string;
}

export type ProviderMode = 'LIVE' | 'SANDBOX';
export type SocialProviderName = 'google' | 'apple';

/** Who issues the ID tokens a social login accepts, and where its keys are. */
export interface SocialIssuer {
  mode: ProviderMode;
  /** LIVE: the provider's JWKS URL. SANDBOX: null, the local issuer's own key set is used. */
  jwksUrl: string | null;
  issuers: string[];
  /** Accepted `aud` values: the configured client ids, or the sandbox's own client id. */
  audience: string[];
}

export interface AppConfig {
  production: boolean;
  /** LIVE: a live Stripe key; TEST: a Stripe test key (sk_test_/rk_test_: Stripe's test mode, never in production); SANDBOX: the local stand-in. */
  payment: { mode: 'LIVE' | 'TEST'; secretKey: string } | { mode: 'SANDBOX' };
  /** LIVE: the provider's API; TEST: its sandbox or test mode (a test key or host, kycTestSettings); SANDBOX: the local stand-in. */
  kyc: { mode: 'LIVE' | 'TEST'; url: string; apiKey: string } | { mode: 'SANDBOX' };
  social: Record<SocialProviderName, SocialIssuer>;
  /** Sentry's DSN when unexpected errors are reported; null: reported nowhere. */
  errorTracking: { dsn: string } | null;
  /** LIVE: Cloudflare Email Service (the EMAIL binding) from EMAIL_FROM; SANDBOX: the development outbox. */
  email: { mode: 'LIVE'; from: string } | { mode: 'SANDBOX' };
  /** LIVE: FCM HTTP v1 with the service account's JSON key; SANDBOX: the development outbox. */
  push: { mode: 'LIVE'; serviceAccount: string } | { mode: 'SANDBOX' };
  /**
   * LIVE: Wave's Checkout and Payout APIs; SANDBOX: the local stand-in, which signs its webhook
   * events with `webhookSecret` (WAVE_WEBHOOK_SECRET, else SANDBOX_WAVE_WEBHOOK_SECRET).
   */
  wave: { mode: 'LIVE'; apiKey: string; webhookSecret: string } | { mode: 'SANDBOX'; webhookSecret: string } | { mode: 'OFF' };
  /**
   * pawaPay: LIVE (api.pawapay.io) or TEST (pawaPay's sandbox) with the token; SANDBOX: the local
   * stand-in (outside production, no token); OFF: PAWAPAY_ENABLED=false.
   */
  pawapay:
    | { mode: 'LIVE' | 'TEST'; apiToken: string; signing: { privateKey: string; keyId: string } | null; callbackPublicKey: string | null }
    | { mode: 'SANDBOX' }
    | { mode: 'OFF' };
  /** LIVE: Twilio's Messages API; TEST: Twilio's test credentials (a magic From number, nothing delivered); SANDBOX: the development outbox. */
  sms: { mode: 'LIVE' | 'TEST'; accountSid: string; authToken: string; from: string } | { mode: 'SANDBOX' };
  /**
   * LIVE: per-request metrics and business events written to Workers Analytics Engine (the METRICS
   * binding), read back through its SQL API; LOCAL: kept in the isolate's memory (providers/metrics).
   */
  metrics: { mode: 'LIVE'; accountId: string; apiToken: string } | { mode: 'LOCAL' };
  /** The platform's money settings (CONTRACT section 1): commission and VAT rates in [0, 1), the one currency. */
  platform: { commissionRate: number; vatRate: number; currency: string };
  /** The enabled currencies (CURRENCIES), in the order configured; EUR, the fallback of every trip, always among them. */
  currencies: readonly CurrencyCode[];
  /** The protection option (CONTRACT section 21): premium rate, covered value limits per currency (major units). */
  protection: { rate: number; limits: Readonly<Record<CurrencyCode, ProtectionLimit>> };
  /**
   * Where the watchdog's alerts go; null: not by that channel. The webhook is POSTed in production
   * (LIVE) and recorded in the development outbox elsewhere (SANDBOX), like the other channels.
   */
  alerts: { email: string | null; sms: string | null; webhook: { mode: ProviderMode; url: string } | null; locale: Locale };
  /** Lifetime of a handover QR payload: QR_TTL_SECONDS may shorten the default (browser test only), never lengthen it. */
  qrTtlMs: number;
}

export type ConfigCheck = { ok: true; config: AppConfig } | { ok: false; problems: string[] };

/**
 * Where sandboxes may stand in for providers: local development, and `test`, the name the test
 * runner (vitest.config.ts) and the local benchmark and soak harness (scripts/bench/lib/serve.mjs)
 * set; deploy:check deploys nothing but production.
 */
const SANDBOX_ENVIRONMENTS: ReadonlySet<string> = new Set(['development', 'test']);

/**
 * Production rules apply (every secret required, no sandbox, no development route) everywhere
 * but development and the test runner: `staging` and a misspelt environment fail closed too.
 */
export const isProduction = (env: Pick<Env, 'ENVIRONMENT'>) => !SANDBOX_ENVIRONMENTS.has(String(env.ENVIRONMENT ?? ''));

/**
 * Staging (wrangler.toml [env.staging]) is production in every rule but money: it runs on the
 * providers' test keys only, so nothing it does is ever charged or paid out (CONTRACT section 27).
 */
export const isStaging = (env: Pick<Env, 'ENVIRONMENT'>) => env.ENVIRONMENT === 'staging';

/** The sandbox identity issuer signs a verified token for any e-mail: local development only. */
export const isDevelopment = (env: Pick<Env, 'ENVIRONMENT'>) => env.ENVIRONMENT === 'development';

const REAL_ISSUERS: Record<SocialProviderName, string[]> = {
  google: ['https://accounts.google.com', 'accounts.google.com'],
  apple: ['https://appleid.apple.com'],
};

/** The audience the sandbox issuer signs for, per provider. */
export const SANDBOX_CLIENT_IDS: Record<SocialProviderName, string> = {
  google: 'sandbox-google-client',
  apple: 'sandbox.apple.client',
};

// Messages describe the expected form only: a value is never echoed (it may be a secret).
const text = (what = 'a non-empty value') => z.string({ error: what }).trim().min(1, { error: what });
const prefixed = (prefix: RegExp, what: string) => text(what).regex(prefix, { error: what });
const httpsUrl = (what = 'an https URL') => text(what).regex(/^https:\/\/[^\s/]+/, { error: what });
// A rate in [0, 1): a commission of 1 would leave the carrier nothing (docs/decisions-core.md).
const rate = (what = 'a rate from 0 to below 1') => text(what).regex(/^0(\.\d+)?$/, { error: what });
const binding = z.custom<object>((v) => typeof v === 'object' && v !== null, { error: 'a binding' });
const jwtKeys = text('a JSON array of {kid, secret}').refine(
  (value) => {
    try {
      const keys = JSON.parse(value) as unknown;
      return (
        Array.isArray(keys) &&
        keys.length > 0 &&
        keys.every((k) => typeof k?.kid === 'string' && k.kid && typeof k?.secret === 'string' && k.secret.length >= 32)
      );
    } catch {
      return false;
    }
  },
  { error: 'a JSON array of {kid, secret} with secrets of at least 32 characters' },
);

const fcmServiceAccount = text('a Firebase service account JSON key (project_id, client_email, private_key)').refine(
  (value) => {
    try {
      const account = JSON.parse(value) as Record<string, unknown>;
      return ['project_id', 'client_email', 'private_key'].every((k) => typeof account?.[k] === 'string' && account[k]);
    } catch {
      return false;
    }
  },
  { error: 'a Firebase service account JSON key (project_id, client_email, private_key)' },
);
const twilioAccountSid = prefixed(/^AC[0-9a-fA-F]{32}$/, 'a Twilio account SID (AC + 32 hex digits)');
const CURRENCY_LIST = `comma-separated ISO 4217 codes among ${CURRENCY_CODES.join(', ')}, EUR included`;
const currencyList = z.string({ error: CURRENCY_LIST }).refine(
  (value) => {
    const parsed = parseCurrencyList(value);
    return parsed.ok && parsed.currencies.includes('EUR');
  },
  { error: CURRENCY_LIST },
);
const PROTECTION_LIMITS_FORMAT = 'CUR:min:max pairs, comma-separated, whole units, min <= max (EUR:20:2000,XOF:13000:1300000)';
const protectionLimits = z.string({ error: PROTECTION_LIMITS_FORMAT }).refine((value) => parseProtectionLimits(value) !== null, { error: PROTECTION_LIMITS_FORMAT });
// Wave's keys are bound to one business wallet and named after its country: wave_sn_prod_... (docs.wave.com/checkout).
const waveApiKey = prefixed(/^wave_[a-z]{2}_prod_\S+$/, 'a Wave API key (wave_<country>_prod_...)');
const alertEmail = text('an e-mail address').regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, { error: 'an e-mail address' });
const alertSms = text('an E.164 number (+...)').regex(/^\+[1-9]\d{6,14}$/, { error: 'an E.164 number (+...)' });
const pem = (label: string) => prefixed(new RegExp(`^-----BEGIN ${label}-----[\\s\\S]+-----END ${label}-----\\s*$`), `a PEM ${label}`);
/**
 * Test keys and hosts told apart from live ones (CONTRACT 27: live means live). Stripe's key says
 * its mode; Twilio's test credentials only work with its magic From numbers (+1 500 555 ....); the
 * KYC provider is generic, so a key or host naming a sandbox or test mode counts as one. Wave has
 * no test mode (its keys are wave_<country>_prod_...), FCM and Cloudflare e-mail neither.
 */
export const stripeTestKey = (key: string) => /^(sk|rk)_test_/.test(key.trim());
export const twilioTestFrom = (from: string) => /^\+1500555\d{4}$/.test(from.trim());
const kycTestUrl = (url: string) => /(^|[.-])(sandbox|test|testing|staging|demo)([.-]|$)/i.test(/^https?:\/\/([^/\s:]+)/i.exec(url.trim())?.[1] ?? '');
const kycTestKey = (apiKey: string) => /^(sk_|api_)?(test|sandbox)[_.-]/i.test(apiKey.trim());
export const kycTestSettings = (url: string, apiKey: string) => kycTestUrl(url) || kycTestKey(apiKey);
const twilioFrom = prefixed(/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/, 'an E.164 number (+...) or a Messaging Service SID (MG...)');

/** What every environment needs: nothing works without these, and no sandbox stands in. */
const everywhere = {
  DB: binding,
  KV: binding,
  UPLOADS: binding,
  RESERVATION_QR: binding,
  RESERVATION_TRACKING: binding,
  CONVERSATION: binding,
  RESERVATION_STATUS: binding,
  DELIVERIES: binding,
  JWT_KEYS: jwtKeys,
  QR_SIGNING_SECRET: text(),
  RECEIPT_SIGNING_SECRET: text(),
  JWT_ISSUER: text(),
  JWT_AUDIENCE: text(),
  // Optional, but a malformed DSN is named like any other setting rather than silently reporting nowhere.
  SENTRY_DSN: z
    .string()
    .trim()
    .regex(/^(https:\/\/[^\s@/]+@[^\s/]+\/\S+)?$/, { error: 'a Sentry DSN (https://<key>@<host>/<project>)' })
    .optional(),
  // Optional outside production (unset: the sandbox), but a malformed value is named, not ignored.
  FCM_SERVICE_ACCOUNT: fcmServiceAccount.optional(),
  TWILIO_ACCOUNT_SID: twilioAccountSid.optional(),
  TWILIO_AUTH_TOKEN: text().optional(),
  TWILIO_FROM: twilioFrom.optional(),
  WAVE_API_KEY: waveApiKey.optional(),
  WAVE_WEBHOOK_SECRET: text().optional(),
  PAWAPAY_API_TOKEN: text().optional(),
  PAWAPAY_ENVIRONMENT: z.enum(['production', 'sandbox'], { error: 'production or sandbox' }).optional(),
  PAWAPAY_SIGNING_KEY: pem('PRIVATE KEY').optional(),
  PAWAPAY_CALLBACK_PUBLIC_KEY: pem('PUBLIC KEY').optional(),
  PAWAPAY_ENABLED: z.enum(['true', 'false'], { error: 'true or false' }).optional(),
  // Optional outside production (unset: the defaults), but never outside [0, 1).
  PLATFORM_COMMISSION_RATE: rate().optional(),
  PLATFORM_VAT_RATE: rate().optional(),
  // Optional (unset: the default set), but an unknown code stops the service rather than being dropped.
  CURRENCIES: currencyList.optional(),
  // Optional (unset: 3 % and lib/protection.ts's limits), but a malformed value stops the service.
  PROTECTION_RATE: rate().optional(),
  PROTECTION_LIMITS: protectionLimits.optional(),
  // Optional outside production (the watchdog then alerts by the channels set), never malformed.
  ALERT_EMAIL: alertEmail.optional(),
  ALERT_SMS: alertSms.optional(),
  ALERT_WEBHOOK_URL: httpsUrl().optional(),
  ALERT_LOCALE: z.enum(['fr', 'en']).optional(),
};

/** Production: every provider real, every link https (Stripe Connect's return and refresh URLs too). */
const productionOnly = {
  ...Object.fromEntries(Object.values(POLICIES).map((p) => [p.binding, binding])),
  PUBLIC_BASE_URL: httpsUrl(),
  // The on-call team's language: who reads the alerts must be able to read them.
  ALERT_LOCALE: z.enum(['fr', 'en']),
  // Printed on every invoice: a European marketplace's invoices must name the issuer.
  PLATFORM_LEGAL_NAME: text(),
  PLATFORM_LEGAL_ADDRESS: text(),
  PLATFORM_VAT_NUMBER: text(),
  PLATFORM_COMPANY_REGISTRATION: text(),
  PLATFORM_VAT_RATE: rate(),
  PLATFORM_COMMISSION_RATE: rate(),
  PLATFORM_CURRENCY: text('an ISO 4217 code').regex(/^[A-Z]{3}$/, { error: 'an ISO 4217 code' }),
  QR_TTL_SECONDS: text('seconds, 1 to 60').regex(/^([1-9]|[1-5]\d|60)$/, { error: 'seconds, 1 to 60' }),
  // One signing secret per Stripe endpoint: the platform's and the Connect one (comma-separated).
  STRIPE_WEBHOOK_SECRET: prefixed(/^whsec_[^\s,]+(\s*,\s*whsec_[^\s,]+)*$/, 'Stripe webhook signing secrets (whsec_..., comma-separated)'),
  KYC_WEBHOOK_SECRET: text(),
  GOOGLE_CLIENT_IDS: text('comma-separated client ids'),
  GOOGLE_JWKS_URL: httpsUrl(),
  APPLE_CLIENT_IDS: text('comma-separated client ids'),
  APPLE_JWKS_URL: httpsUrl(),
  EMAIL: binding,
  EMAIL_FROM: text('an e-mail address').regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, { error: 'an e-mail address' }),
  FCM_SERVICE_ACCOUNT: fcmServiceAccount,
  TWILIO_ACCOUNT_SID: twilioAccountSid,
  TWILIO_AUTH_TOKEN: text(),
  // Required only while pawaPay is enabled (pawapayRequired): MTN and Orange go through it.
  PAWAPAY_API_TOKEN: text(),
  // Seeing trouble (CONTRACT 24): the Analytics Engine dataset written, the account and token that read it.
  METRICS: binding,
  METRICS_ACCOUNT_ID: text('a Cloudflare account id (32 hex digits)').regex(/^[0-9a-f]{32}$/, { error: 'a Cloudflare account id (32 hex digits)' }),
  METRICS_API_TOKEN: text(),
  // Alerts reach a person (CONTRACT section 27): at least an e-mail address; SMS and webhook optional.
  ALERT_EMAIL: alertEmail,
};

/**
 * Live means live (CONTRACT section 27): in production a test key would take no money at all, or
 * send no SMS; staging is the mirror image, test keys only, so it never charges or pays anyone.
 */
const liveMoney = {
  STRIPE_SECRET_KEY: prefixed(/^(sk|rk)_live_/, 'a live Stripe secret key (sk_live_... or rk_live_...; test keys are refused in production)'),
  // pawaPay's own sandbox takes test money: refused in production like Stripe's test keys.
  PAWAPAY_ENVIRONMENT: z.enum(['production'], { error: 'production (pawaPay sandbox is refused in production)' }).optional(),
  TWILIO_FROM: twilioFrom.refine((from) => !twilioTestFrom(from), { error: "a live sender (Twilio's test numbers +1 500 555 ... are refused in production)" }),
  KYC_PROVIDER_URL: httpsUrl().refine((url) => !kycTestUrl(url), { error: "the provider's live API (a sandbox or test host is refused in production)" }),
  KYC_PROVIDER_API_KEY: text().refine((key) => !kycTestKey(key), { error: 'a live key (a test or sandbox key is refused in production)' }),
  // Required only while XOF is enabled (waveRequired): Wave is its mobile-money provider.
  WAVE_API_KEY: waveApiKey,
  WAVE_WEBHOOK_SECRET: text(),
};
const testMoney = {
  STRIPE_SECRET_KEY: prefixed(/^(sk|rk)_test_/, 'a Stripe test key (sk_test_... or rk_test_...; staging refuses live keys)'),
  PAWAPAY_ENVIRONMENT: z.enum(['sandbox'], { error: "sandbox (staging uses pawaPay's sandbox only)" }),
  // Wave has no test mode: a key would move real money, so staging runs without it (and without XOF).
  WAVE_API_KEY: z.undefined({ error: 'unset (Wave has no test mode: staging would move real money)' }),
  WAVE_WEBHOOK_SECRET: text().optional(),
  TWILIO_FROM: twilioFrom,
  KYC_PROVIDER_URL: httpsUrl(),
  KYC_PROVIDER_API_KEY: text(),
};

const localSchema = z.object(everywhere);
const productionSchema = z.object({ ...everywhere, ...liveMoney, ...productionOnly });
const stagingSchema = z.object({ ...everywhere, ...testMoney, ...productionOnly });

// pawaPay's environment, request signing, callback key and switch are choices, not requirements: without
// a callback key a callback is only a hint and its state is read back from pawaPay (pawapay-rail.ts).
const OPTIONAL = new Set(['SENTRY_DSN', 'CURRENCIES', 'PROTECTION_RATE', 'PROTECTION_LIMITS', 'ALERT_SMS', 'ALERT_WEBHOOK_URL', 'PAWAPAY_ENVIRONMENT', 'PAWAPAY_SIGNING_KEY', 'PAWAPAY_CALLBACK_PUBLIC_KEY', 'PAWAPAY_ENABLED']);

/** Every configuration name production requires (the deploy runbook and the tests list them from here). */
export const PRODUCTION_REQUIREMENTS = (Object.keys(productionSchema.shape) as (keyof typeof productionSchema.shape)[]).filter(
  (name) => !OPTIONAL.has(name),
);

/**
 * The production requirements set with `wrangler secret put` rather than written in wrangler.toml
 * (`npm run deploy:check` checks the others there). The provider URL and client ids are not
 * secret, but they differ per deployment and stay out of the repository.
 */
export const PRODUCTION_SECRETS = [
  'JWT_KEYS',
  'QR_SIGNING_SECRET',
  'RECEIPT_SIGNING_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'KYC_PROVIDER_URL',
  'KYC_PROVIDER_API_KEY',
  'KYC_WEBHOOK_SECRET',
  'GOOGLE_CLIENT_IDS',
  'APPLE_CLIENT_IDS',
  'FCM_SERVICE_ACCOUNT',
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'TWILIO_FROM',
  'WAVE_API_KEY',
  'WAVE_WEBHOOK_SECRET',
  'PAWAPAY_API_TOKEN',
  'METRICS_ACCOUNT_ID',
  'METRICS_API_TOKEN',
  'ALERT_EMAIL',
] as const satisfies readonly (typeof PRODUCTION_REQUIREMENTS)[number][];

/** Production requirements that are bindings (resources in wrangler.toml), not text. */
export const PRODUCTION_BINDINGS = PRODUCTION_REQUIREMENTS.filter((name) => productionSchema.shape[name] === binding);

const list = (csv: string | undefined) =>
  (csv ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function socialIssuer(env: Env, provider: SocialProviderName): SocialIssuer {
  const clientIds = list(provider === 'google' ? env.GOOGLE_CLIENT_IDS : env.APPLE_CLIENT_IDS);
  if (clientIds.length > 0 || !isDevelopment(env)) {
    const jwksUrl = provider === 'google' ? env.GOOGLE_JWKS_URL : env.APPLE_JWKS_URL;
    return { mode: 'LIVE', jwksUrl, issuers: REAL_ISSUERS[provider], audience: clientIds };
  }
  return {
    mode: 'SANDBOX',
    jwksUrl: null,
    issuers: [rootUrl(env, `/sandbox/social/${provider}`)],
    audience: [SANDBOX_CLIENT_IDS[provider]],
  };
}

/**
 * Whether Wave is needed: it is the mobile-money provider of XOF, so production requires its keys
 * while XOF is enabled.
 */
export const waveRequired = (env: Pick<OptionalSettings, 'CURRENCIES'>) => enabledCurrencies(env).includes('XOF');

const WAVE_SETTINGS: ReadonlySet<string> = new Set(['WAVE_API_KEY', 'WAVE_WEBHOOK_SECRET']);
const PAWAPAY_SETTINGS: ReadonlySet<string> = new Set(['PAWAPAY_API_TOKEN', 'PAWAPAY_ENVIRONMENT']);

/** Whether pawaPay is needed: enabled (unless PAWAPAY_ENABLED=false) while XAF or XOF is, its currencies. */
export const pawapayRequired = (env: Pick<OptionalSettings, 'CURRENCIES' | 'PAWAPAY_ENABLED'>) =>
  env.PAWAPAY_ENABLED !== 'false' && enabledCurrencies(env).some((c) => c === 'XAF' || c === 'XOF');

function pawapay(env: Env & OptionalSettings, production: boolean): AppConfig['pawapay'] {
  if (!pawapayRequired(env)) return { mode: 'OFF' };
  const token = env.PAWAPAY_API_TOKEN?.trim();
  if (!token && !production) return { mode: 'SANDBOX' };
  const signing = env.PAWAPAY_SIGNING_KEY?.trim() ? { privateKey: env.PAWAPAY_SIGNING_KEY.trim(), keyId: env.PAWAPAY_SIGNING_KEY_ID?.trim() || 'default' } : null;
  return { mode: env.PAWAPAY_ENVIRONMENT === 'sandbox' ? 'TEST' : 'LIVE', apiToken: token ?? '', signing, callbackPublicKey: env.PAWAPAY_CALLBACK_PUBLIC_KEY?.trim() || null };
}

/**
 * Wave: LIVE wherever WAVE_API_KEY is set and in a deployed environment that takes XOF; OFF in one
 * that does not and has no key (staging: Wave has no test mode); the local stand-in elsewhere.
 */
function wave(env: Env & OptionalSettings, production: boolean): AppConfig['wave'] {
  const apiKey = env.WAVE_API_KEY?.trim();
  if (production && !apiKey && !waveRequired(env)) return { mode: 'OFF' };
  if (apiKey || production) return { mode: 'LIVE', apiKey: apiKey ?? '', webhookSecret: env.WAVE_WEBHOOK_SECRET?.trim() ?? '' };
  return { mode: 'SANDBOX', webhookSecret: env.WAVE_WEBHOOK_SECRET?.trim() || SANDBOX_WAVE_WEBHOOK_SECRET };
}

/** Signs the Wave sandbox's events when WAVE_WEBHOOK_SECRET is unset (never in production: Wave is LIVE there). */
export const SANDBOX_WAVE_WEBHOOK_SECRET = 'wave_sandbox_webhook_secret';

/** The default QR lifetime (QR_TTL_MS), or QR_TTL_SECONDS when it is a positive number of seconds below it. */
function qrTtlMs(seconds: string | undefined): number {
  const value = Number(seconds ?? '');
  return Number.isFinite(value) && value > 0 ? Math.min(value * 1000, QR_TTL_MS) : QR_TTL_MS;
}

/** CURRENCIES once checked (check() refuses a list naming a code the table lacks). */
function enabledCurrencies(env: Pick<OptionalSettings, 'CURRENCIES'>): CurrencyCode[] {
  const parsed = parseCurrencyList(env.CURRENCIES);
  return parsed.ok ? parsed.currencies : ['EUR'];
}

/** The choice of every provider, made here only. Production never gets a sandbox. */

function choose(env: Env & OptionalSettings): AppConfig {
  const production = isProduction(env);
  const live = (configured: string | undefined) => Boolean(configured?.trim()) || production;
  return {
    production,
    payment: live(env.STRIPE_SECRET_KEY) ? { mode: stripeTestKey(env.STRIPE_SECRET_KEY) ? 'TEST' : 'LIVE', secretKey: env.STRIPE_SECRET_KEY } : { mode: 'SANDBOX' },
    kyc: live(env.KYC_PROVIDER_URL)
      ? {
          mode: kycTestSettings(env.KYC_PROVIDER_URL ?? '', env.KYC_PROVIDER_API_KEY ?? '') ? 'TEST' : 'LIVE',
          url: env.KYC_PROVIDER_URL ?? '',
          apiKey: env.KYC_PROVIDER_API_KEY ?? '',
        }
      : { mode: 'SANDBOX' },
    social: { google: socialIssuer(env, 'google'), apple: socialIssuer(env, 'apple') },
    errorTracking: env.SENTRY_DSN?.trim() ? { dsn: env.SENTRY_DSN.trim() } : null,
    // The real sender needs its binding and address; production has both or does not start.
    email: production || (env.EMAIL && env.EMAIL_FROM?.trim()) ? { mode: 'LIVE', from: env.EMAIL_FROM } : { mode: 'SANDBOX' },
    push: live(env.FCM_SERVICE_ACCOUNT) ? { mode: 'LIVE', serviceAccount: env.FCM_SERVICE_ACCOUNT ?? '' } : { mode: 'SANDBOX' },
    wave: wave(env, production),
    pawapay: pawapay(env, production),
    // All three or the sandbox: half a Twilio configuration outside production is not a sender.
    sms:
      production || (env.TWILIO_ACCOUNT_SID?.trim() && env.TWILIO_AUTH_TOKEN?.trim() && env.TWILIO_FROM?.trim())
        ? {
            mode: twilioTestFrom(env.TWILIO_FROM ?? '') ? 'TEST' : 'LIVE',
            accountSid: env.TWILIO_ACCOUNT_SID ?? '',
            authToken: env.TWILIO_AUTH_TOKEN ?? '',
            from: env.TWILIO_FROM ?? '',
          }
        : { mode: 'SANDBOX' },
    platform: {
      commissionRate: Number(env.PLATFORM_COMMISSION_RATE || '0.15'),
      vatRate: Number(env.PLATFORM_VAT_RATE || '0.20'),
      currency: env.PLATFORM_CURRENCY || 'EUR',
    },
    // Analytics Engine in production; elsewhere only when its binding, account and token are all set.
    metrics:
      production || (env.METRICS && env.METRICS_ACCOUNT_ID?.trim() && env.METRICS_API_TOKEN?.trim())
        ? { mode: 'LIVE', accountId: env.METRICS_ACCOUNT_ID?.trim() ?? '', apiToken: env.METRICS_API_TOKEN?.trim() ?? '' }
        : { mode: 'LOCAL' },
    currencies: enabledCurrencies(env),
    protection: {
      rate: env.PROTECTION_RATE?.trim() ? Number(env.PROTECTION_RATE) : DEFAULT_PROTECTION_RATE,
      limits: parseProtectionLimits(env.PROTECTION_LIMITS)!,
    },
    alerts: {
      email: env.ALERT_EMAIL?.trim() || null,
      sms: env.ALERT_SMS?.trim() || null,
      webhook: env.ALERT_WEBHOOK_URL?.trim() ? { mode: production ? 'LIVE' : 'SANDBOX', url: env.ALERT_WEBHOOK_URL.trim() } : null,
      locale: env.ALERT_LOCALE?.trim() === 'fr' ? 'fr' : 'en',
    },
    qrTtlMs: qrTtlMs(env.QR_TTL_SECONDS),
  };
}

/** A value and its pieces: the keys of a JWT_KEYS array, the secrets of a comma-separated list. */
function pieces(value: string): string[] {
  const out = [value.trim(), ...value.split(',').map((s) => s.trim())];
  try {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed)) for (const k of parsed) if (typeof k?.secret === 'string') out.push(k.secret.trim());
  } catch {
    // not JSON: the value and its comma-separated parts
  }
  return out.filter((s) => s.length > 0);
}

const PUBLISHED = new Set(PUBLISHED_DEV_VALUES.flatMap(({ value }) => pieces(value)));
const PUBLISHABLE_NAMES = [...new Set([...PUBLISHED_DEV_VALUES.map(({ name }) => name), ...PRODUCTION_SECRETS])];

/** The secrets set to a value published in .dev.vars.example (anyone can sign with those). */
export function publishedSecrets(env: Env): string[] {
  return PUBLISHABLE_NAMES.filter((name) => {
    const value = (env as unknown as Record<string, unknown>)[name];
    return typeof value === 'string' && pieces(value).some((p) => PUBLISHED.has(p));
  });
}

/** The main currency (wallet fields, dashboards) must be one the platform offers. */
const platformCurrencyEnabled = (env: Env & OptionalSettings) =>
  (enabledCurrencies(env) as readonly string[]).includes(env.PLATFORM_CURRENCY || 'EUR');

const isUnset = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && !value.trim());

function check(env: Env): ConfigCheck {
  const strict = isProduction(env);
  const staging = isStaging(env);
  const schema = staging ? stagingSchema : strict ? productionSchema : localSchema;
  const parsed = schema.safeParse(env);
  const published = strict ? publishedSecrets(env) : [];
  // Without XOF, production needs no Wave keys; a malformed one set anyway is still named.
  const waveOptional = strict && !waveRequired(env as Env & OptionalSettings);
  const pawapayOptional = strict && !pawapayRequired(env as Env & OptionalSettings);
  const unsetName = (issue: { path: PropertyKey[] }) => isUnset((env as unknown as Record<string, unknown>)[String(issue.path[0])]);
  const issues = (parsed.error?.issues ?? []).filter(
    (issue) =>
      !(waveOptional && WAVE_SETTINGS.has(String(issue.path[0])) && unsetName(issue)) &&
      !(pawapayOptional && PAWAPAY_SETTINGS.has(String(issue.path[0])) && unsetName(issue)),
  );
  const currencyOk = !parsed.success || platformCurrencyEnabled(env);
  const stagingCurrenciesOk = !staging || !waveRequired(env as Env & OptionalSettings);
  if (issues.length === 0 && published.length === 0 && currencyOk && stagingCurrenciesOk) return { ok: true, config: choose(env) };
  const missing = new Set<string>();
  const invalid = new Map<string, string>();
  for (const name of published) invalid.set(name, 'a value of its own, not the one published in .dev.vars.example');
  if (!currencyOk) invalid.set('PLATFORM_CURRENCY', 'one of the enabled CURRENCIES');
  if (!stagingCurrenciesOk) invalid.set('CURRENCIES', 'currencies without XOF in staging (Wave, its provider, has no test mode)');
  for (const issue of issues) {
    const name = String(issue.path[0]);
    const value = (env as unknown as Record<string, unknown>)[name];
    if (isUnset(value)) missing.add(name);
    else if (!invalid.has(name)) invalid.set(name, issue.message);
  }
  return {
    ok: false,
    problems: [
      ...[...missing].map((name) => `missing ${name}`),
      ...[...invalid].map(([name, expected]) => `invalid ${name} (expected ${expected})`),
    ],
  };
}

const checked = new WeakMap<object, ConfigCheck>();

/** The configuration of `env`, validated on first use and cached with the env object. */
export function checkConfig(env: Env): ConfigCheck {
  let result = checked.get(env);
  if (!result) {
    result = check(env);
    checked.set(env, result);
  }
  return result;
}

/** What an operator reads (error message and log): names only, never a value. */
export const describeProblems = (problems: string[]) => `The service is not configured: ${problems.join('; ')}`;

/**
 * The validated configuration. Requests reach services only through the configuration gate
 * (middleware/configuration.ts), cron jobs only after their own check, so this throws only on
 * a programming error.
 */
export function appConfig(env: Env): AppConfig {
  const result = checkConfig(env);
  if (!result.ok) throw new Error(describeProblems(result.problems));
  return result.config;
}
