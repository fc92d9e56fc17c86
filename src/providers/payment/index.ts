// Chooses the payment provider: Stripe when a secret key is configured, the local sandbox otherwise.
import type { PaymentProvider } from './payment-provider';
import { SandboxPaymentProvider } from './sandbox-provider';
import { StripePaymentProvider } from './stripe-provider';

export * from './payment-provider';
export { SandboxPaymentProvider } from './sandbox-provider';

export const usesSandbox = (env: Env) => !env.STRIPE_SECRET_KEY;

export function getPaymentProvider(env: Env): PaymentProvider {
  return usesSandbox(env) ? new SandboxPaymentProvider(env) : new StripePaymentProvider(env.STRIPE_SECRET_KEY);
}
