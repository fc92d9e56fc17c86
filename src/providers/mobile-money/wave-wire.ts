// Wave's JSON objects as its API sends them (checkout session, payout, event) and their reading
// into the port's types. The sandbox keeps its objects in the same shape, so both adapters share
// these readers and the webhook verification.
import type { MobileMoneyCheckout, MobileMoneyPayout, MobileMoneyStatementLine, ProviderFailure } from './wave-api';
import { amountMinor } from './wave-api';

/** A checkout session (https://docs.wave.com/checkout, "Checkout session object"). */
export interface WaveCheckoutSession {
  id: string;
  amount: string;
  checkout_status: 'open' | 'complete' | 'expired';
  client_reference: string | null;
  currency: string;
  error_url: string;
  last_payment_error: { code: string; message: string } | null;
  business_name: string;
  payment_status: 'processing' | 'cancelled' | 'succeeded';
  success_url: string;
  transaction_id?: string | null;
  wave_launch_url: string;
  when_completed?: string | null;
  when_created: string;
  when_expires: string;
  aggregated_merchant_id?: string;
  restrict_payer_mobile?: string;
}

/** A payout (https://docs.wave.com/payout, "Payout object"). */
export interface WavePayout {
  id: string;
  currency: string;
  receive_amount: string;
  fee: string;
  mobile: string;
  name?: string;
  national_id?: string;
  client_reference?: string | null;
  payment_reason?: string;
  status: 'processing' | 'succeeded' | 'failed' | 'reversed';
  timestamp: string;
  payout_error?: { error_code: string; error_message: string } | null;
}

/** A line of the Balance API's statement (https://docs.wave.com/balance-api, GET /v1/transactions). */
export interface WaveBalanceTransaction {
  timestamp: string;
  transaction_id: string;
  transaction_type: string;
  /** Signed: what the balance moved by, after the fee. */
  amount: string;
  fee: string;
  balance?: string;
  currency: string;
  is_reversal?: boolean;
  counterparty_mobile?: string | null;
  client_reference?: string | null;
  payment_reason?: string | null;
  checkout_api_session_id?: string | null;
}

/** A page of it: `page_info.end_cursor` is the next page's `after`. */
export interface WaveTransactionPage {
  page_info: { start_cursor: string | null; end_cursor: string | null; has_next_page: boolean };
  date: string;
  items: WaveBalanceTransaction[];
}

/** An error answer (https://docs.wave.com/checkout, "Errors"): `{code, message}`. */
export interface WaveError {
  code?: string;
  message?: string;
  details?: unknown;
}

const seconds = (iso: unknown): number | null => {
  if (typeof iso !== 'string') return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
};

const failure = (e: { code?: unknown; message?: unknown } | null | undefined): ProviderFailure | null =>
  e && typeof e.code === 'string' ? { code: e.code, message: typeof e.message === 'string' ? e.message : '' } : null;

/** The port's checkout, or null when `raw` is not a checkout session. */
export function readCheckout(raw: unknown): MobileMoneyCheckout | null {
  const s = raw as Partial<WaveCheckoutSession> | null;
  if (!s || typeof s !== 'object' || typeof s.id !== 'string' || typeof s.currency !== 'string') return null;
  const amount = amountMinor(s.amount, s.currency);
  const expiresAt = seconds(s.when_expires);
  if (!Number.isSafeInteger(amount) || expiresAt === null) return null;
  if (!['open', 'complete', 'expired'].includes(String(s.checkout_status))) return null;
  if (!['processing', 'cancelled', 'succeeded'].includes(String(s.payment_status))) return null;
  return {
    id: s.id,
    launchUrl: s.wave_launch_url ?? '',
    amountMinor: amount,
    currency: s.currency,
    clientReference: s.client_reference ?? null,
    checkoutStatus: s.checkout_status as MobileMoneyCheckout['checkoutStatus'],
    paymentStatus: s.payment_status as MobileMoneyCheckout['paymentStatus'],
    transactionId: s.transaction_id ?? null,
    expiresAt,
    completedAt: seconds(s.when_completed),
    lastPaymentError: failure(s.last_payment_error),
  };
}

/** The port's payout, or null when `raw` is not a payout. */
export function readPayout(raw: unknown): MobileMoneyPayout | null {
  const p = raw as Partial<WavePayout> | null;
  if (!p || typeof p !== 'object' || typeof p.id !== 'string' || typeof p.currency !== 'string') return null;
  if (!['processing', 'succeeded', 'failed', 'reversed'].includes(String(p.status))) return null;
  const amount = amountMinor(p.receive_amount, p.currency);
  if (!Number.isSafeInteger(amount)) return null;
  const fee = amountMinor(p.fee ?? '0', p.currency);
  return {
    id: p.id,
    status: p.status as MobileMoneyPayout['status'],
    amountMinor: amount,
    feeMinor: Number.isSafeInteger(fee) ? fee : 0,
    currency: p.currency,
    mobile: p.mobile ?? '',
    clientReference: p.client_reference ?? null,
    failure: p.payout_error ? { code: p.payout_error.error_code, message: p.payout_error.error_message ?? '' } : null,
  };
}

/** The port's statement line, or null when `raw` is not one (an unreadable amount, no id). */
export function readStatementLine(raw: unknown): MobileMoneyStatementLine | null {
  const t = raw as Partial<WaveBalanceTransaction> | null;
  if (!t || typeof t !== 'object' || typeof t.transaction_id !== 'string' || typeof t.currency !== 'string' || typeof t.transaction_type !== 'string') return null;
  const amount = amountMinor(t.amount, t.currency);
  const fee = amountMinor(t.fee ?? '0', t.currency);
  const at = typeof t.timestamp === 'string' ? Date.parse(t.timestamp) : Number.NaN;
  if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(fee) || !Number.isFinite(at)) return null;
  return {
    transactionId: t.transaction_id,
    type: t.transaction_type,
    isReversal: t.is_reversal === true,
    amountMinor: amount,
    feeMinor: fee,
    currency: t.currency,
    at,
    checkoutSessionId: t.checkout_api_session_id ?? null,
    clientReference: t.client_reference ?? null,
  };
}
