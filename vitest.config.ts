// Tests run inside workerd with real D1, KV, R2 and Durable Objects (@cloudflare/vitest-plugin).
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig, type Plugin } from 'vitest/config';

/** Stripe ships source maps pointing at missing files; vite would print hundreds of warnings. */
const stripSourceMaps = (): Plugin => ({
  name: 'strip-stripe-sourcemaps',
  enforce: 'pre',
  transform(code, id) {
    if (!id.includes('node_modules/stripe/')) return null;
    return { code: code.replace(/\/\/# sourceMappingURL=.*$/gm, ''), map: null };
  },
});

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    plugins: [
      stripSourceMaps(),
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ENVIRONMENT: 'test',
            JWT_KEYS: JSON.stringify([
              { kid: 'test-2', secret: 'test-secret-current-0123456789abcdefghijklmnop' },
              { kid: 'test-1', secret: 'test-secret-previous-0123456789abcdefghijklmno' },
            ]),
            QR_SIGNING_SECRET: 'test-qr-secret',
            RECEIPT_SIGNING_SECRET: 'test-receipt-secret',
            STRIPE_SECRET_KEY: 'sk_test_fake',
            STRIPE_WEBHOOK_SECRET: 'whsec_test_secret',
            KYC_WEBHOOK_SECRET: 'test-kyc-secret',
            GOOGLE_CLIENT_IDS: 'test-google-client',
            APPLE_CLIENT_IDS: 'test.apple.client',
            DEMO_PASSWORD: '',
            // Fuzz budget (test/fuzz.test.ts): small in `npm test`, larger through `npm run fuzz`.
            FUZZ_RUNS: process.env.FUZZ_RUNS ?? '',
            FUZZ_MS_PER_OPERATION: process.env.FUZZ_MS_PER_OPERATION ?? '',
            FUZZ_TOTAL_MS: process.env.FUZZ_TOTAL_MS ?? '',
          },
        },
      }),
    ],
    // The tests run the zod the bundle ships (wrangler.toml [alias]: zod without its translations).
    resolve: { alias: [{ find: /^zod$/, replacement: path.join(import.meta.dirname, 'src/lib/zod-without-locales/index.ts') }] },
    test: {
      setupFiles: ['./test/setup.ts'],
      include: ['test/**/*.test.ts'],
      testTimeout: 30_000,
      silent: 'passed-only',
      hookTimeout: 60_000,
    },
  };
});
