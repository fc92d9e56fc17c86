// A complete production configuration for tests that call the worker as deployed: the test
// secrets plus what only production requires (src/config.ts).
import { env } from 'cloudflare:workers';

export const PRODUCTION_STRIPE_KEY = 'sk_live_production-test-key';

export const PRODUCTION_ENV = {
  ...env,
  ENVIRONMENT: 'production',
  // A live key: production refuses the test runner's sk_test_ key (CONTRACT section 27).
  STRIPE_SECRET_KEY: PRODUCTION_STRIPE_KEY,
  PUBLIC_BASE_URL: 'https://api.example.com',
  KYC_PROVIDER_URL: 'https://kyc.example.com/v1',
  KYC_PROVIDER_API_KEY: 'kyc-api-key-production',
  // Cloudflare Email Service's send_email binding (test/deliveries.test.ts checks what it is given).
  EMAIL: { send: async () => ({ messageId: '<production-test@example.com>' }) },
  EMAIL_FROM: 'no-reply@example.com',
  // Push (FCM) and SMS (Twilio): production requires them (test/reach.test.ts drives the adapters).
  FCM_SERVICE_ACCOUNT: JSON.stringify({ project_id: 'parcel-prod', client_email: 'push@parcel-prod.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nnot-used\n-----END PRIVATE KEY-----\n' }),
  TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: 'twilio-auth-token',
  TWILIO_FROM: '+33700000000',
  // Wave (mobile money): production requires it while XOF is enabled (the default currencies).
  WAVE_API_KEY: 'wave_sn_prod_production-test-key',
  WAVE_WEBHOOK_SECRET: 'wave_sn_WHS_production-test-secret',
  PAWAPAY_API_TOKEN: 'pawapay-production-test-token',
  // Workers Analytics Engine (metrics): the dataset binding, and the account and token that read it.
  METRICS: { writeDataPoint: () => {} },
  METRICS_ACCOUNT_ID: '0123456789abcdef0123456789abcdef',
  METRICS_API_TOKEN: 'metrics-api-token-production',
  // The watchdog's alerts (CONTRACT section 27): production requires at least the e-mail address;
  // SMS and webhook are optional, and a developer's .dev.vars (a copy of the example) must not
  // lend them its published values, which production refuses.
  ALERT_EMAIL: 'oncall@example.com',
  ALERT_LOCALE: 'fr',
  ALERT_SMS: undefined,
  ALERT_WEBHOOK_URL: undefined,
} as Env;
