// Wave's API as the Wave rail (wave-rail.ts) uses it (CONTRACT section 20): a hosted checkout paid
// from a Wave wallet and captured at once, its refund and expiry, payouts to a phone number, and the
// signed webhook. Two implementations: Wave itself (wave-provider.ts) and the local sandbox
// (sandbox-provider.ts). Features never see this: they talk to the mobile-money port (port.ts).
// Failures are the payment port's two kinds, so callers map them to 502/503 the same way.
import { minorUnitOf, type CurrencyCode } from '../../lib/currency';
import { ProviderRejectedError } from '../payment/payment-provider';

export { ProviderRejectedError, ProviderUnavailableError } from '../payment/payment-provider';

export interface MobileMoneyCheckoutInput {
  /** In minor units of `currency` (XOF has none: 5000 is 5000 F CFA). */
  amountMinor: number;
  currency: string;
  /** Ours, echoed back on the session and its events (the reservation's reference). */
  clientReference: string;
  successUrl: string;
  errorUrl: string;
  /** Only this wallet may pay (E.164), when given. */
  restrictPayerMobile?: string;
  idempotencyKey: string;
}

export type MobileMoneyCheckoutStatus = 'open' | 'complete' | 'expired';
export type MobileMoneyPaymentStatus = 'processing' | 'cancelled' | 'succeeded';

export interface ProviderFailure {
  code: string;
  message: string;
}

export interface MobileMoneyCheckout {
  id: string;
  /** Where the payer is sent (Wave's app or page). */
  launchUrl: string;
  amountMinor: number;
  currency: string;
  clientReference: string | null;
  checkoutStatus: MobileMoneyCheckoutStatus;
  paymentStatus: MobileMoneyPaymentStatus;
  /** The provider's transaction id, once paid (the payer sees it in their app). */
  transactionId: string | null;
  /** Seconds since epoch. */
  expiresAt: number;
  completedAt: number | null;
  lastPaymentError: ProviderFailure | null;
}

export interface MobileMoneyPayoutInput {
  amountMinor: number;
  currency: string;
  /** The recipient's wallet, E.164 (+221...). */
  mobile: string;
  /** The recipient's name as the wallet holds it (Wave checks it). */
  name: string;
  clientReference: string;
  nationalId?: string;
  paymentReason?: string;
  /** One per withdrawal: a retry never pays twice. */
  idempotencyKey: string;
}

export type MobileMoneyPayoutStatus = 'processing' | 'succeeded' | 'failed' | 'reversed';

export interface MobileMoneyPayout {
  id: string;
  status: MobileMoneyPayoutStatus;
  amountMinor: number;
  feeMinor: number;
  currency: string;
  mobile: string;
  clientReference: string | null;
  /** Why the provider refused it (status `failed`): the reason the wallet shows. */
  failure: ProviderFailure | null;
}

/**
 * One line of the business wallet's statement (Wave's Balance API, GET /v1/transactions): every
 * movement of its balance, ours or not (a merchant payment, a sweep made in Wave's portal).
 */
export interface MobileMoneyStatementLine {
  /** Wave's transaction id (T_...). */
  transactionId: string;
  /** api_checkout, api_checkout_refund, api_payout, api_payout_reversal, merchant_payment, ... */
  type: string;
  isReversal: boolean;
  /** The balance change, signed (net of the fee: an incoming 1 000 with a fee of 10 is 990). */
  amountMinor: number;
  /** What Wave kept, as it states it. */
  feeMinor: number;
  currency: string;
  /** Milliseconds since epoch. */
  at: number;
  /** The checkout session it belongs to (checkouts and their refunds). */
  checkoutSessionId: string | null;
  /** Ours, as sent with the checkout or payout. */
  clientReference: string | null;
}

/** A day's statement: every page read, or stopped at the cap (`capped`). */
export interface MobileMoneyStatement {
  lines: MobileMoneyStatementLine[];
  capped: boolean;
}

/** Statement lines read per day at most (Wave pages them; the reconciliation's note says when the cap stopped it). */
export const STATEMENT_CAP = 10_000;

export interface MobileMoneyEvent {
  id: string;
  /** checkout.session.completed, checkout.session.payment_failed, b2b.payment_received, ... */
  type: string;
  data: Record<string, unknown>;
  /** `data` read as a checkout session, for the checkout.session.* events; null for the others. */
  checkout: MobileMoneyCheckout | null;
}

/** Why a webhook delivery is refused: the route answers 400 without reading it further. */
export type WebhookRefusal = 'missing-signature' | 'malformed-signature' | 'bad-signature' | 'stale-timestamp' | 'malformed-event';

export type WebhookVerification = { ok: true; event: MobileMoneyEvent } | { ok: false; reason: WebhookRefusal };

export interface WaveApi {
  readonly name: 'wave' | 'sandbox';
  /** The currencies it collects and pays out. */
  readonly currencies: readonly string[];
  createCheckout(input: MobileMoneyCheckoutInput): Promise<MobileMoneyCheckout>;
  getCheckout(id: string): Promise<MobileMoneyCheckout>;
  /** Refunds a paid checkout in full (Wave refunds whole checkouts only). */
  refundCheckout(id: string, idempotencyKey: string): Promise<void>;
  /** Closes an open checkout so it can no longer be paid. */
  expireCheckout(id: string): Promise<void>;
  createPayout(input: MobileMoneyPayoutInput): Promise<MobileMoneyPayout>;
  getPayout(id: string): Promise<MobileMoneyPayout>;
  /** The wallet's statement for one day (YYYY-MM-DD, UTC: Wave's XOF countries keep UTC), every page up to STATEMENT_CAP lines. */
  statement(day: string): Promise<MobileMoneyStatement>;
  /** Checks the signature over the raw body and its timestamp against `now`, then reads the event. */
  verifyWebhook(rawBody: string, headers: Headers, now: Date): Promise<WebhookVerification>;
}

/** A refusal by the provider, with its own error code (e.g. `checkout-session-not-found`). */
export class MobileMoneyRejectedError extends ProviderRejectedError {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
  ) {
    super(`${code}: ${message}`);
    this.name = 'MobileMoneyRejectedError';
  }
}

/** The currencies Wave takes, with their ISO decimals (XOF has none). */
export const WAVE_CURRENCIES: readonly CurrencyCode[] = ['XOF'];
const decimalsOf = (currency: string): number | undefined => {
  const code = currency.toUpperCase();
  return (WAVE_CURRENCIES as readonly string[]).includes(code) ? minorUnitOf(code as CurrencyCode) : undefined;
};

/** The provider's amount string for minor units: 5000 XOF is "5000". */
export function amountString(amountMinor: number, currency: string): string {
  const decimals = decimalsOf(currency);
  if (decimals === undefined) throw new ProviderRejectedError(`Wave does not support ${currency}`);
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw new ProviderRejectedError(`Invalid amount ${amountMinor}`);
  if (decimals === 0) return String(amountMinor);
  const text = String(amountMinor).padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** Minor units of a provider amount string ("5000", "5000.0", "12.50"); NaN when it is not one. */
export function amountMinor(amount: unknown, currency: string): number {
  const decimals = decimalsOf(currency) ?? 0;
  const m = typeof amount === 'string' || typeof amount === 'number' ? /^(-?\d+)(?:\.(\d+))?$/.exec(String(amount)) : null;
  if (!m) return Number.NaN;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return Number.NaN;
  const sign = m[1].startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(m[1])) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0'));
}
