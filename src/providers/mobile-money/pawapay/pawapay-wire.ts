// pawaPay's Merchant API v2 as it sends and takes JSON (docs.pawapay.io/v2), and its reading into
// the port's types; the adapter, the local sandbox and the test fake share these shapes.
// - POST /v2/deposits {depositId (UUIDv4, ours), amount (string), currency, payer: {type: "MMO",
//   accountDetails: {phoneNumber (MSISDN, digits), provider}}, clientReferenceId?, customerMessage?
//   (4-22 chars)} -> {depositId, status: ACCEPTED|REJECTED|DUPLICATE_IGNORED, created?, failureReason?:
//   {failureCode, failureMessage}}. Idempotent on depositId (a repeat is DUPLICATE_IGNORED).
// - GET /v2/deposits/{depositId} -> {status: FOUND|NOT_FOUND, data?: {depositId, status:
//   ACCEPTED|PROCESSING|IN_RECONCILIATION|COMPLETED|FAILED, amount, currency, country, payer,
//   providerTransactionId?, failureReason?, created, ...}}; payouts and refunds alike
//   (/v2/payouts/{payoutId} with `recipient`, /v2/refunds/{refundId} with `depositId`).
// - POST /v2/payouts {payoutId, amount, currency, recipient: {type: "MMO", accountDetails}};
//   POST /v2/refunds {refundId, depositId, amount, currency}: the same initiation answers.
// - Callbacks: the final data object (status COMPLETED or FAILED) POSTed to the configured URL.
// - POST /v2/predict-provider {phoneNumber} -> {country (ISO alpha-3), provider, phoneNumber (sanitised)}.
// - GET /v2/active-conf -> {companyName, countries: [{country, prefix, providers: [{provider,
//   displayName, currencies: [{currency, operationTypes: {DEPOSIT|PAYOUT|REFUND: {minAmount,
//   maxAmount, decimalsInAmount: NONE|TWO_PLACES, status: OPERATIONAL|DELAYED|CLOSED, ...}}}]}]}]}.
//   The reference shows operationTypes both as a map and as a list of {operationType, ...}: both are read.
// Amounts are decimal strings in the currency's unit; XOF and XAF have no decimals.
import { isCurrencyCode, minorUnitOf } from '../../../lib/currency';
import type { Failure, Operator, OperatorLimits, OperationResult, OperationStatus, PayInResult } from '../port';

export type PawapayKind = 'deposit' | 'payout' | 'refund';
export const ID_FIELD: Record<PawapayKind, 'depositId' | 'payoutId' | 'refundId'> = { deposit: 'depositId', payout: 'payoutId', refund: 'refundId' };

export interface PawapayFailure {
  failureCode: string;
  failureMessage?: string;
}

export interface PawapayAccount {
  type: 'MMO';
  accountDetails: { phoneNumber: string; provider: string };
}

/** A deposit, payout or refund as GET returns it in `data` and as the callback sends it. */
export interface PawapayPayment {
  depositId?: string;
  payoutId?: string;
  refundId?: string;
  status: string;
  amount: string;
  currency: string;
  country?: string;
  payer?: PawapayAccount;
  recipient?: PawapayAccount;
  providerTransactionId?: string;
  failureReason?: PawapayFailure;
  created?: string;
  customerMessage?: string;
  clientReferenceId?: string;
  metadata?: Record<string, unknown>;
}

export interface PawapayInitiation {
  depositId?: string;
  payoutId?: string;
  refundId?: string;
  status: 'ACCEPTED' | 'REJECTED' | 'DUPLICATE_IGNORED';
  created?: string;
  failureReason?: PawapayFailure;
}

/** pawaPay's ISO 3166-1 alpha-3 countries -> ours (alpha-2), for those this service works in. */
export const COUNTRY_ALPHA2: Readonly<Record<string, string>> = { CMR: 'CM', CIV: 'CI', SEN: 'SN', BEN: 'BJ', BFA: 'BF', COD: 'CD', COG: 'CG', GAB: 'GA', MLI: 'ML', TGO: 'TG', NER: 'NE' };

/** The operators this service offers through pawaPay (CONTRACT section 29); others in the active configuration are ignored. */
export const PAWAPAY_OPERATORS: Readonly<Record<string, { displayName: string; country: string; currency: string; prefix: string }>> = {
  MTN_MOMO_CMR: { displayName: 'MTN Mobile Money', country: 'CM', currency: 'XAF', prefix: '237' },
  ORANGE_CMR: { displayName: 'Orange Money', country: 'CM', currency: 'XAF', prefix: '237' },
  MTN_MOMO_CIV: { displayName: 'MTN Mobile Money', country: 'CI', currency: 'XOF', prefix: '225' },
  ORANGE_CIV: { displayName: 'Orange Money', country: 'CI', currency: 'XOF', prefix: '225' },
  ORANGE_SEN: { displayName: 'Orange Money', country: 'SN', currency: 'XOF', prefix: '221' },
};

const decimalsOf = (currency: string) => (isCurrencyCode(currency) ? minorUnitOf(currency) : 0);

/** pawaPay's amount string for minor units, with no more decimals than the operator takes: 5000 XAF is "5000". */
export function pawapayAmount(amountMinor: number, currency: string): string {
  const decimals = decimalsOf(currency);
  if (decimals === 0) return String(amountMinor);
  const text = String(amountMinor).padStart(decimals + 1, '0');
  const fraction = text.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${text.slice(0, -decimals)}.${fraction}` : text.slice(0, -decimals);
}

/** Minor units of a pawaPay amount ("5000", "123.00"); NaN when it is not one. */
export function pawapayMinor(amount: unknown, currency: string): number {
  const decimals = decimalsOf(currency);
  const m = typeof amount === 'string' || typeof amount === 'number' ? /^(\d+)(?:\.(\d+))?$/.exec(String(amount)) : null;
  if (!m) return Number.NaN;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return Number.NaN;
  return Number(m[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
}

/** MSISDN as pawaPay takes it: digits only, country code first (+237 6 77 12 34 56 -> 237677123456). */
export const msisdn = (phone: string) => phone.replace(/\D/g, '');

export function statusOf(status: string): OperationStatus {
  if (status === 'COMPLETED') return 'COMPLETED';
  if (status === 'FAILED' || status === 'REJECTED') return 'FAILED';
  return 'PENDING'; // ACCEPTED, SUBMITTED, ENQUEUED, PROCESSING, IN_RECONCILIATION
}

const failureOf = (f: PawapayFailure | undefined): Failure | null =>
  f && typeof f.failureCode === 'string' ? { code: f.failureCode, message: f.failureMessage ?? f.failureCode } : null;

/** The port's result for a pawaPay payment object; null when `raw` is not one of `kind`. */
export function readPayment(kind: PawapayKind, raw: unknown): (OperationResult & { phone: string | null; provider: string | null }) | null {
  const p = raw as Partial<PawapayPayment> | null;
  const id = p?.[ID_FIELD[kind]];
  if (!p || typeof id !== 'string' || typeof p.status !== 'string' || typeof p.currency !== 'string') return null;
  const amount = pawapayMinor(p.amount, p.currency);
  if (!Number.isSafeInteger(amount)) return null;
  const account = kind === 'payout' ? p.recipient : p.payer;
  return {
    status: statusOf(p.status),
    ref: id,
    providerTransactionId: p.providerTransactionId ?? null,
    failure: statusOf(p.status) === 'FAILED' ? (failureOf(p.failureReason) ?? { code: 'FAILED', message: 'failed' }) : null,
    amountMinor: amount,
    currency: p.currency,
    phone: account?.accountDetails?.phoneNumber ? `+${account.accountDetails.phoneNumber}` : null,
    provider: account?.accountDetails?.provider ?? null,
  };
}

export const asPayIn = (r: OperationResult): PayInResult => ({ ...r, approvalUrl: null, expiresAt: null });

/** The result of an initiation answer; null for DUPLICATE_IGNORED (the caller reads the status instead). */
export function readInitiation(id: string, raw: unknown): OperationResult | null {
  const i = raw as Partial<PawapayInitiation> | null;
  if (i?.status === 'DUPLICATE_IGNORED') return null;
  if (i?.status === 'REJECTED') {
    return { status: 'FAILED', ref: id, providerTransactionId: null, failure: failureOf(i.failureReason) ?? { code: 'REJECTED', message: 'rejected' }, amountMinor: null, currency: null };
  }
  if (i?.status === 'ACCEPTED') return { status: 'PENDING', ref: id, providerTransactionId: null, failure: null, amountMinor: null, currency: null };
  return { status: 'UNKNOWN', ref: id, providerTransactionId: null, failure: null, amountMinor: null, currency: null };
}

type OperationConf = { minAmount?: string; maxAmount?: string; minTransactionLimit?: string; maxTransactionLimit?: string; decimalsInAmount?: string; status?: string; operationType?: string };

function operationTypes(raw: unknown): Record<string, OperationConf> {
  // The reference shows a map {DEPOSIT: {...}} and a list [{operationType: "PAYOUT", ...}] or [{DEPOSIT: {...}}].
  if (Array.isArray(raw)) {
    const out: Record<string, OperationConf> = {};
    for (const entry of raw as Record<string, unknown>[]) {
      if (typeof entry?.operationType === 'string') out[entry.operationType] = entry as OperationConf;
      else for (const [k, v] of Object.entries(entry ?? {})) if (v && typeof v === 'object') out[k] = v as OperationConf;
    }
    return out;
  }
  return (raw && typeof raw === 'object' ? raw : {}) as Record<string, OperationConf>;
}

function limitsOf(conf: OperationConf | undefined, currency: string): OperatorLimits | null {
  if (!conf || conf.status === 'CLOSED') return null;
  const min = pawapayMinor(conf.minAmount ?? conf.minTransactionLimit ?? '1', currency);
  const max = pawapayMinor(conf.maxAmount ?? conf.maxTransactionLimit ?? String(Number.MAX_SAFE_INTEGER), currency);
  return { minMinor: Number.isSafeInteger(min) ? min : 1, maxMinor: Number.isSafeInteger(max) ? max : Number.MAX_SAFE_INTEGER };
}

/** The operators of ours in an active configuration, with their limits and decimals. */
export function readActiveConf(raw: unknown): Operator[] {
  const countries = (raw as { countries?: unknown[] } | null)?.countries ?? [];
  const out: Operator[] = [];
  for (const c of countries as { country?: string; providers?: unknown[] }[]) {
    for (const p of (c?.providers ?? []) as { provider?: string; displayName?: string; currencies?: unknown[] }[]) {
      const ours = p?.provider ? PAWAPAY_OPERATORS[p.provider] : undefined;
      if (!ours) continue;
      for (const cur of (p.currencies ?? []) as { currency?: string; operationTypes?: unknown }[]) {
        if (cur?.currency !== ours.currency) continue;
        const ops = operationTypes(cur.operationTypes);
        const decimals = Object.values(ops).some((o) => o.decimalsInAmount === 'TWO_PLACES') ? 2 : 0;
        out.push({
          code: p.provider!,
          rail: 'PAWAPAY',
          displayName: ours.displayName,
          country: COUNTRY_ALPHA2[c.country ?? ''] ?? ours.country,
          currency: ours.currency,
          decimals: Math.min(decimals, decimalsOf(ours.currency)),
          approval: 'PIN_PROMPT',
          payIn: limitsOf(ops.DEPOSIT, ours.currency),
          payout: limitsOf(ops.PAYOUT, ours.currency),
          refund: limitsOf(ops.REFUND, ours.currency),
        });
      }
    }
  }
  return out;
}
