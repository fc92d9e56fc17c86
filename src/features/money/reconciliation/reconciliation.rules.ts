// The reconciliation's comparisons (CONTRACT section 27, docs/OPERATIONS.md "Reconciliation"): a
// provider's records of one UTC day against ours, every difference with both amounts and both
// statuses. Pure: reconciliation.service.ts reads both sides and stores what these return.
import type { DifferenceKind, MobileMoneyOperationRow, ReconciledObject } from '../../../db/schema';
import { PAYMENT_STATUS } from '../../../db/schema/reservations';
import type { OperationResult } from '../../../providers/mobile-money';
import type { ProviderCharge, ProviderRefund, ProviderTransfer } from '../../../providers/payment';

export interface Difference {
  kind: DifferenceKind;
  object: ReconciledObject;
  providerRef: string | null;
  reservationId: number | null;
  withdrawalId: number | null;
  currency: string;
  providerAmountMinor: number | null;
  ourAmountMinor: number | null;
  providerStatus: string | null;
  ourStatus: string | null;
}

/** A card-paid reservation as our books hold it. */
export interface OurCardPayment {
  reservationId: number;
  /** The PaymentIntent (Stripe's charge names it). */
  authorizationId: string;
  /** What the card was charged: the price and the protection premium. */
  chargedMinor: number;
  /** What went back to the payer (refund or released hold), per the ledger's money-back line. */
  backMinor: number;
  currency: string;
  paymentStatus: string | null;
  refundId: string | null;
}

/** A withdrawal paid (or to be paid) by a Stripe transfer. */
export interface OurTransfer {
  withdrawalId: number;
  transferId: string | null;
  amountMinor: number;
  currency: string;
  status: string;
}

const S = PAYMENT_STATUS;

/**
 * Every state a difference may name, for the API's enums: the provider's (a charge's state in one
 * word, a Stripe refund's status, a transfer's, a mobile-money rail's) and ours (a payment status,
 * a withdrawal's, a mobile-money operation's).
 */
export const PROVIDER_STATES = [
  'failed', 'released', 'authorized', 'captured', 'partially_refunded', 'refunded',
  'pending', 'requires_action', 'succeeded', 'canceled',
  'paid', 'partially_reversed', 'reversed',
  'PENDING', 'COMPLETED', 'FAILED', 'UNKNOWN',
] as const;
export const OUR_STATES = [...new Set([...Object.values(PAYMENT_STATUS), 'COMPLETED', 'NEW', 'UNKNOWN'])] as [string, ...string[]];

/** The charge's state in one word, and the payment statuses of ours that agree with it. */
export function chargeState(c: ProviderCharge): { state: string; agrees: readonly string[] } {
  if (c.status === 'failed') return { state: 'failed', agrees: [S.FAILED, S.EXPIRED] };
  if (!c.captured) {
    return c.refunded
      ? { state: 'released', agrees: [S.VOIDED, S.AUTHORIZATION_EXPIRED] }
      : { state: 'authorized', agrees: [S.AUTHORIZED, S.VOID_PENDING, S.PARTIAL_CAPTURE_PENDING] };
  }
  const back = refundedAfterCapture(c);
  if (back <= 0) return { state: 'captured', agrees: [S.CAPTURED, S.PARTIALLY_CAPTURED, S.REFUND_PENDING] };
  if (back < c.capturedMinor) return { state: 'partially_refunded', agrees: [S.PARTIALLY_REFUNDED, S.REFUND_PENDING] };
  return { state: 'refunded', agrees: [S.REFUNDED] };
}

/** Stripe counts the part a partial capture released as refunded: only what went back after capture. */
export const refundedAfterCapture = (c: ProviderCharge) => (c.captured ? c.refundedMinor - (c.amountMinor - c.capturedMinor) : 0);

/** What our books say was captured, for the statuses that captured something. */
function ourCapturedMinor(p: OurCardPayment): number | null {
  switch (p.paymentStatus) {
    case S.CAPTURED:
    case S.REFUND_PENDING:
    case S.REFUNDED:
    case S.PARTIALLY_REFUNDED:
      return p.chargedMinor;
    case S.PARTIALLY_CAPTURED:
      return p.chargedMinor - p.backMinor;
    default:
      return null;
  }
}

const base = (object: ReconciledObject, currency: string) => ({
  object,
  currency,
  providerRef: null,
  reservationId: null,
  withdrawalId: null,
  providerAmountMinor: null,
  ourAmountMinor: null,
  providerStatus: null,
  ourStatus: null,
});

/**
 * The day's charges against our card payments (`ours`: every reservation a listed charge names, by
 * PaymentIntent); `oursOfDay`: our card payments of the day, each expected among `listedIntents`
 * (the PaymentIntents of the charges listed over the day and its margins).
 */
export function compareCharges(charges: ProviderCharge[], byIntent: Map<string, OurCardPayment>, oursOfDay: OurCardPayment[], listedIntents: Set<string>): Difference[] {
  const out: Difference[] = [];
  for (const c of charges) {
    const p = c.paymentIntentId ? byIntent.get(c.paymentIntentId) : undefined;
    const { state, agrees } = chargeState(c);
    const at = { ...base('CHARGE', c.currency), providerRef: c.id, providerStatus: state };
    if (!p) {
      if (c.status !== 'failed') out.push({ ...at, kind: 'MISSING_IN_BOOKS', providerAmountMinor: c.amountMinor });
      continue;
    }
    const ours = { ...at, reservationId: p.reservationId, ourStatus: p.paymentStatus };
    if (c.currency !== p.currency || c.amountMinor !== p.chargedMinor) {
      out.push({ ...ours, kind: 'AMOUNT_MISMATCH', providerAmountMinor: c.amountMinor, ourAmountMinor: p.chargedMinor });
      continue;
    }
    const captured = ourCapturedMinor(p);
    if (c.captured && captured !== null && c.capturedMinor !== captured) {
      out.push({ ...ours, kind: 'AMOUNT_MISMATCH', providerAmountMinor: c.capturedMinor, ourAmountMinor: captured });
      continue;
    }
    if (!agrees.includes(p.paymentStatus ?? '')) out.push({ ...ours, kind: 'STATUS_MISMATCH', providerAmountMinor: c.amountMinor, ourAmountMinor: p.chargedMinor });
  }
  for (const p of oursOfDay) {
    if (listedIntents.has(p.authorizationId)) continue;
    out.push({ ...base('CHARGE', p.currency), kind: 'MISSING_AT_PROVIDER', providerRef: p.authorizationId, reservationId: p.reservationId, ourAmountMinor: p.chargedMinor, ourStatus: p.paymentStatus });
  }
  return out;
}

const REFUND_GOING_THROUGH = ['pending', 'requires_action', 'succeeded'];
const REFUNDED: readonly string[] = [S.REFUNDED, S.PARTIALLY_REFUNDED];

/**
 * The day's refunds against our refunds (`byRefundId`), and our refunds of the day (`oursOfDay`)
 * against the refund ids listed over the day and its margins.
 */
export function compareRefunds(
  refunds: ProviderRefund[],
  byRefundId: Map<string, OurCardPayment>,
  byIntent: Map<string, OurCardPayment>,
  oursOfDay: OurCardPayment[],
  listedRefunds: Set<string>,
): Difference[] {
  const out: Difference[] = [];
  for (const r of refunds) {
    const at = { ...base('REFUND', r.currency), providerRef: r.id, providerStatus: r.status, providerAmountMinor: r.amountMinor };
    const p = byRefundId.get(r.id);
    if (!p) {
      // Not recorded: a refund made at the provider (its dashboard) or one whose answer we lost.
      const paid = r.paymentIntentId ? byIntent.get(r.paymentIntentId) : undefined;
      if (r.status !== 'failed' && r.status !== 'canceled') out.push({ ...at, kind: 'MISSING_IN_BOOKS', reservationId: paid?.reservationId ?? null, ourStatus: paid?.paymentStatus ?? null });
      continue;
    }
    const ours = { ...at, reservationId: p.reservationId, ourAmountMinor: p.backMinor, ourStatus: p.paymentStatus };
    if (r.currency !== p.currency || r.amountMinor !== p.backMinor) out.push({ ...ours, kind: 'AMOUNT_MISMATCH' });
    else if (REFUND_GOING_THROUGH.includes(r.status) !== REFUNDED.includes(p.paymentStatus ?? '')) out.push({ ...ours, kind: 'STATUS_MISMATCH' });
  }
  for (const p of oursOfDay) {
    if (!p.refundId || listedRefunds.has(p.refundId)) continue;
    out.push({ ...base('REFUND', p.currency), kind: 'MISSING_AT_PROVIDER', providerRef: p.refundId, reservationId: p.reservationId, ourAmountMinor: p.backMinor, ourStatus: p.paymentStatus });
  }
  return out;
}

/**
 * The day's transfers against our withdrawals (`byWithdrawal`, named by the transfer's metadata),
 * and our transfers of the day against the transfer ids listed over the day and its margins. A
 * second transfer for one withdrawal, or a transfer for a withdrawal we call FAILED (its money back
 * in the wallet), is money paid twice: both are listed.
 */
export function compareTransfers(transfers: ProviderTransfer[], byWithdrawal: Map<number, OurTransfer>, oursOfDay: OurTransfer[], listedTransfers: Set<string>): Difference[] {
  const out: Difference[] = [];
  for (const t of transfers) {
    const state = t.reversedMinor >= t.amountMinor ? 'reversed' : t.reversedMinor > 0 ? 'partially_reversed' : 'paid';
    const at = { ...base('TRANSFER', t.currency), providerRef: t.id, providerStatus: state, providerAmountMinor: t.amountMinor };
    const w = t.withdrawalId ? byWithdrawal.get(t.withdrawalId) : undefined;
    if (!w || (w.status === 'COMPLETED' && w.transferId !== t.id)) {
      out.push({ ...at, kind: 'MISSING_IN_BOOKS', withdrawalId: w?.withdrawalId ?? null, ourStatus: w?.status ?? null });
      continue;
    }
    const ours = { ...at, withdrawalId: w.withdrawalId, ourAmountMinor: w.amountMinor, ourStatus: w.status };
    if (t.currency !== w.currency || t.amountMinor !== w.amountMinor) out.push({ ...ours, kind: 'AMOUNT_MISMATCH' });
    else if (w.status !== 'COMPLETED' || state !== 'paid') out.push({ ...ours, kind: 'STATUS_MISMATCH' });
  }
  for (const w of oursOfDay) {
    if (!w.transferId || listedTransfers.has(w.transferId)) continue;
    out.push({ ...base('TRANSFER', w.currency), kind: 'MISSING_AT_PROVIDER', providerRef: w.transferId, withdrawalId: w.withdrawalId, ourAmountMinor: w.amountMinor, ourStatus: w.status });
  }
  return out;
}

const OBJECT_OF = { PAYIN: 'PAYIN', REFUND: 'REFUND', PAYOUT: 'PAYOUT' } as const;

/** Where a rail's status and ours disagree: one side final, the other not, or final both ways but not alike. */
export function statusesDisagree(provider: string, ours: string): boolean {
  if (provider === 'UNKNOWN') return false;
  if (provider === 'PENDING') return ours === 'COMPLETED' || ours === 'FAILED';
  if (provider === 'COMPLETED') return ours !== 'COMPLETED';
  return ours === 'COMPLETED'; // FAILED at the rail: ours still in flight is the cron's to settle
}

/**
 * One mobile-money operation against what its rail says of it (`result`; null: the rail does not
 * know the id). An operation the rail never received is a difference only if we think it went.
 */
export function compareOperation(op: Pick<MobileMoneyOperationRow, 'id' | 'kind' | 'status' | 'amountMinor' | 'currency' | 'ref' | 'reservationId' | 'withdrawalId'>, result: OperationResult | null): Difference | null {
  const at = {
    ...base(OBJECT_OF[op.kind], op.currency),
    providerRef: op.ref ?? op.id,
    reservationId: op.reservationId,
    withdrawalId: op.withdrawalId,
    ourAmountMinor: op.amountMinor,
    ourStatus: op.status,
  };
  if (!result) return op.status === 'COMPLETED' || op.status === 'PENDING' ? { ...at, kind: 'MISSING_AT_PROVIDER' } : null;
  const theirs = { ...at, providerStatus: result.status, providerAmountMinor: result.amountMinor };
  if (result.amountMinor !== null && (result.amountMinor !== op.amountMinor || (result.currency !== null && result.currency !== op.currency))) {
    return { ...theirs, kind: 'AMOUNT_MISMATCH', currency: result.currency ?? op.currency };
  }
  return statusesDisagree(result.status, op.status) ? { ...theirs, kind: 'STATUS_MISMATCH' } : null;
}
