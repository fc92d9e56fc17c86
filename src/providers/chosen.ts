// The providers a request (or a cron run, a queue batch) works with, chosen once from the
// configuration by the factories of each provider folder. Every getter builds its provider on first
// use and keeps it: a request that calls no provider builds none, one that calls the payment
// provider three times builds it once. Services reach them through `deps.providers` (env.ts).
import { alertWebhookProvider, type AlertWebhookProvider } from './alert-webhook';
import { emailProvider } from './email';
import type { EmailProvider } from './email/email';
import { kycProvider, type KycProvider } from './kyc';
import { metricsProvider, type MetricsProvider } from './metrics';
import { mobileMoneyRails, type MobileMoneyRails } from './mobile-money';
import { getPaymentProvider, type PaymentProvider } from './payment';
import { pushProvider } from './push';
import type { PushProvider } from './push/push-provider';
import { smsProvider } from './sms';
import type { SmsProvider } from './sms/sms-provider';
import { verifyAppleIdentityToken, verifyGoogleIdToken, type SocialIdentity } from './social-login/social-login';

/** Google and Apple sign-in: an ID token checked against the configured issuer (social-login.ts). */
export interface SocialLogin {
  google(idToken: string): Promise<SocialIdentity>;
  apple(identityToken: string): Promise<SocialIdentity>;
}

export interface Providers {
  readonly payment: PaymentProvider;
  /** Mobile money: the rails behind the one port (Wave, pawaPay): pay-in, refund, payout, callbacks. */
  readonly mobileMoney: MobileMoneyRails;
  readonly kyc: KycProvider;
  readonly email: EmailProvider;
  readonly push: PushProvider;
  readonly sms: SmsProvider;
  /** The operators' alert webhook (Slack-compatible; the outbox outside production). */
  readonly alertWebhook: AlertWebhookProvider;
  readonly socialLogin: SocialLogin;
  /** Per-request metrics and business events (Analytics Engine, or the isolate's memory), and their summary. */
  readonly metrics: MetricsProvider;
}

export function providersFor(env: Env): Providers {
  let payment: PaymentProvider | undefined;
  let mobileMoney: MobileMoneyRails | undefined;
  let kyc: KycProvider | undefined;
  let email: EmailProvider | undefined;
  let push: PushProvider | undefined;
  let sms: SmsProvider | undefined;
  let socialLogin: SocialLogin | undefined;
  let alertWebhook: AlertWebhookProvider | undefined;
  return {
    get alertWebhook() {
      return (alertWebhook ??= alertWebhookProvider(env));
    },
    get metrics() {
      return metricsProvider(env);
    },
    get payment() {
      return (payment ??= getPaymentProvider(env));
    },
    get mobileMoney() {
      return (mobileMoney ??= mobileMoneyRails(env));
    },
    get kyc() {
      return (kyc ??= kycProvider(env));
    },
    get email() {
      return (email ??= emailProvider(env));
    },
    get push() {
      return (push ??= pushProvider(env));
    },
    get sms() {
      return (sms ??= smsProvider(env));
    },
    get socialLogin() {
      return (socialLogin ??= {
        google: (idToken) => verifyGoogleIdToken(env, idToken),
        apple: (identityToken) => verifyAppleIdentityToken(env, identityToken),
      });
    },
  };
}
