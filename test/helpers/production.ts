// A complete production configuration for tests that call the worker as deployed: the test
// secrets plus what only production requires (src/config.ts).
import { env } from 'cloudflare:workers';

export const PRODUCTION_ENV = {
  ...env,
  ENVIRONMENT: 'production',
  PUBLIC_BASE_URL: 'https://api.example.com',
  KYC_PROVIDER_URL: 'https://kyc.example.com/v1',
  KYC_PROVIDER_API_KEY: 'kyc-api-key-production',
} as Env;
