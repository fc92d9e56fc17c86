// Chooses the KYC provider: the HTTP provider when KYC_PROVIDER_URL is configured, else the local
// sandbox (never in production, where an unconfigured provider must not let users approve themselves).
import { apiUrl } from '../../lib/urls';
import { HttpKycProvider } from './http-provider';
import type { KycProvider } from './kyc-provider';
import { SandboxKycProvider } from './sandbox';

export * from './kyc-provider';
export * from './hmac-signature';

/** Optional settings not in the generated Env (set them as secrets/vars to use a real provider). */
export interface KycProviderConfig {
  KYC_PROVIDER_URL?: string;
  KYC_PROVIDER_API_KEY?: string;
}

const config = (env: Env) => env as Env & KycProviderConfig;

export const isKycSandboxEnabled = (env: Env) => !config(env).KYC_PROVIDER_URL && env.ENVIRONMENT !== 'production';

export function kycProvider(env: Env): KycProvider {
  const { KYC_PROVIDER_URL, KYC_PROVIDER_API_KEY } = config(env);
  if (KYC_PROVIDER_URL) {
    return new HttpKycProvider(KYC_PROVIDER_URL, KYC_PROVIDER_API_KEY ?? '', apiUrl(env, '/webhooks/kyc-provider/status-update'));
  }
  if (env.ENVIRONMENT === 'production') throw new Error('KYC_PROVIDER_URL is not configured');
  return new SandboxKycProvider(env);
}
