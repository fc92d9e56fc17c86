// The payment provider chosen by the configuration (config.ts): Stripe, or the local sandbox.
import { appConfig } from '../../config';
import type { PaymentProvider } from './payment-provider';
import { SandboxPaymentProvider } from './sandbox-provider';
import { StripePaymentProvider } from './stripe-provider';

export * from './payment-provider';
export { SandboxPaymentProvider } from './sandbox-provider';

export const usesSandbox = (env: Env) => appConfig(env).payment.mode === 'SANDBOX';

export function getPaymentProvider(env: Env): PaymentProvider {
  const { payment } = appConfig(env);
  return payment.mode !== 'SANDBOX' ? new StripePaymentProvider(payment.secretKey) : new SandboxPaymentProvider(env);
}
