// The KYC provider chosen by the configuration (config.ts): the HTTP provider, or the local sandbox.
import { appConfig } from '../../config';
import { apiUrl } from '../../lib/urls';
import { HttpKycProvider } from './http-provider';
import type { KycProvider } from './kyc-provider';
import { SandboxKycProvider } from './sandbox';

export * from './kyc-provider';
export * from './hmac-signature';

export const isKycSandboxEnabled = (env: Env) => appConfig(env).kyc.mode === 'SANDBOX';

export function kycProvider(env: Env): KycProvider {
  const { kyc } = appConfig(env);
  return kyc.mode !== 'SANDBOX'
    ? new HttpKycProvider(kyc.url, kyc.apiKey, apiUrl(env, '/webhooks/kyc-provider/status-update'))
    : new SandboxKycProvider(env);
}
