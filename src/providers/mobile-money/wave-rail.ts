// Wave behind the mobile-money port (port.ts): a pay-in is a hosted checkout the payer opens (Wave's
// launch URL), captured at once; Wave refunds whole checkouts only, so a partial refund is a Wave
// payout of the part to the paying number (docs/decisions-wavepay.md); payouts go to a Wave number
// of an XOF country. Our operation id is Wave's Idempotency-Key: a retry returns the same object.
import type {
  CallbackVerification,
  MobileMoneyRail,
  OperationResult,
  Operator,
  PayInInput,
  PayInResult,
  PayoutInput,
  RailMode,
  RailStatement,
  RailStatementEntry,
  RefundInput,
} from './port';
import { UNLIMITED } from './port';
import type { MobileMoneyCheckout, MobileMoneyPayout, MobileMoneyStatementLine, WaveApi } from './wave-api';
import { MobileMoneyRejectedError } from './wave-api';

/** Country calling code -> the country and the digits after it (mobile numbers) where Wave pays out. */
export const WAVE_COUNTRIES: Readonly<Record<string, { country: string; digits: number }>> = {
  '221': { country: 'SN', digits: 9 },
  '225': { country: 'CI', digits: 10 },
  '223': { country: 'ML', digits: 8 },
  '226': { country: 'BF', digits: 8 },
};

/** The number as stored (`+221771234567`), or null when it is not a Wave mobile number. */
export function waveMobile(input: string): string | null {
  const phone = input.replace(/[\s.\-()]/g, '');
  const m = /^\+(\d{3})(\d+)$/.exec(phone);
  if (!m) return null;
  const country = WAVE_COUNTRIES[m[1]];
  return country && m[2].length === country.digits ? phone : null;
}

const OPERATORS: Operator[] = Object.values(WAVE_COUNTRIES).map(({ country }) => ({
  code: 'WAVE',
  rail: 'WAVE',
  displayName: 'Wave',
  country,
  currency: 'XOF',
  decimals: 0,
  approval: 'REDIRECT',
  // Wave's public reference states no limits: the wallet's own apply.
  payIn: UNLIMITED,
  payout: UNLIMITED,
  refund: UNLIMITED,
}));

const REFUND_PREFIX = 'refund-';
const PAYOUT_PREFIX = 'payout-';

function checkoutResult(c: MobileMoneyCheckout): PayInResult {
  const status = c.paymentStatus === 'succeeded' ? 'COMPLETED' : c.checkoutStatus === 'expired' ? 'FAILED' : 'PENDING';
  return {
    status,
    ref: c.id,
    providerTransactionId: c.transactionId,
    failure: status === 'FAILED' ? (c.lastPaymentError ?? { code: 'checkout-expired', message: 'The checkout expired unpaid' }) : c.lastPaymentError,
    amountMinor: c.amountMinor,
    currency: c.currency,
    approvalUrl: c.launchUrl || null,
    expiresAt: c.expiresAt,
  };
}

function payoutResult(p: MobileMoneyPayout, ref = p.id): OperationResult {
  const status = p.status === 'succeeded' ? 'COMPLETED' : p.status === 'processing' ? 'PENDING' : 'FAILED';
  const failure = status === 'FAILED' ? (p.failure ?? { code: `payout-${p.status}`, message: `payout ${p.status}` }) : null;
  return { status, ref, providerTransactionId: p.id, failure, amountMinor: p.amountMinor, currency: p.currency };
}

/**
 * A statement line in the port's words. The line's amount is the balance change after the fee, so
 * what the person paid or got is |amount + fee| (in 990 + 10; out -1 010 + 10). A whole-checkout
 * refund names the checkout, as our refund's ref does (`refund-<checkout>`); a payout (a withdrawal
 * or a partial refund) carries only our client_reference.
 */
export function statementEntry(line: MobileMoneyStatementLine): RailStatementEntry {
  const base = { id: line.transactionId, amountMinor: Math.abs(line.amountMinor + line.feeMinor), currency: line.currency, at: line.at, ref: null, reference: line.clientReference };
  const checkout = line.checkoutSessionId;
  if (line.type === 'api_checkout' && !line.isReversal) return { ...base, kind: 'PAYIN', ref: checkout };
  if (line.type === 'api_checkout_refund' || line.type === 'api_checkout') return { ...base, kind: 'REFUND', ref: checkout ? `${REFUND_PREFIX}${checkout}` : null };
  if (line.type === 'api_payout' && !line.isReversal) return { ...base, kind: 'PAYOUT' };
  if (line.type === 'api_payout_reversal' || line.type === 'api_payout') return { ...base, kind: 'PAYOUT_REVERSAL' };
  return { ...base, kind: 'OTHER', reference: null };
}

export class WaveRail implements MobileMoneyRail {
  readonly code = 'WAVE';
  constructor(
    /** Wave itself, or the local sandbox that stands in for it. */
    readonly api: WaveApi,
    readonly mode: RailMode,
  ) {}

  async operators(): Promise<Operator[]> {
    return OPERATORS;
  }

  async predictOperator(phone: string) {
    const mobile = waveMobile(phone);
    return mobile ? { operator: 'WAVE', phone: mobile } : null;
  }

  async payIn(input: PayInInput): Promise<PayInResult> {
    const checkout = await this.api.createCheckout({
      amountMinor: input.amountMinor,
      currency: input.currency,
      clientReference: input.reference,
      successUrl: input.returnUrls.success,
      errorUrl: input.returnUrls.error,
      ...(input.phone ? { restrictPayerMobile: input.phone } : {}),
      idempotencyKey: input.id,
    });
    return checkoutResult(checkout);
  }

  async payInStatus(_id: string, ref: string | null): Promise<PayInResult | null> {
    if (!ref) return null;
    try {
      return checkoutResult(await this.api.getCheckout(ref));
    } catch (err) {
      if (err instanceof MobileMoneyRejectedError && err.httpStatus === 404) return null;
      throw err;
    }
  }

  cancelPayIn(ref: string): Promise<void> {
    return this.api.expireCheckout(ref);
  }

  async refund(input: RefundInput): Promise<OperationResult> {
    if (input.amountMinor === input.payIn.amountMinor) {
      await this.api.refundCheckout(input.payIn.ref, input.id);
      const ref = `${REFUND_PREFIX}${input.payIn.ref}`;
      return { status: 'COMPLETED', ref, providerTransactionId: null, failure: null, amountMinor: input.amountMinor, currency: input.currency };
    }
    // A part only: paid out to the paying number, when it is a Wave number.
    const mobile = input.phone ? waveMobile(input.phone) : null;
    if (!mobile) throw new MobileMoneyRejectedError('no-wave-number', 'The payer has no verified Wave number to send a partial refund to', 422);
    const payout = await this.api.createPayout({
      amountMinor: input.amountMinor,
      currency: input.currency,
      mobile,
      name: input.name,
      clientReference: input.reference,
      paymentReason: input.reference,
      idempotencyKey: input.id,
    });
    return payoutResult(payout, `${PAYOUT_PREFIX}${payout.id}`);
  }

  async refundStatus(_id: string, ref: string | null): Promise<OperationResult | null> {
    if (!ref) return null;
    if (ref.startsWith(PAYOUT_PREFIX)) return payoutResult(await this.api.getPayout(ref.slice(PAYOUT_PREFIX.length)), ref);
    // A whole-checkout refund Wave accepted is done (its API has no refund object to read).
    return { status: 'COMPLETED', ref, providerTransactionId: null, failure: null, amountMinor: null, currency: null };
  }

  async payout(input: PayoutInput): Promise<OperationResult> {
    const mobile = waveMobile(input.phone);
    if (!mobile) throw new MobileMoneyRejectedError('invalid-wallet', `${input.phone} is not a Wave number`, 422);
    const payout = await this.api.createPayout({
      amountMinor: input.amountMinor,
      currency: input.currency,
      mobile,
      name: input.name,
      clientReference: input.reference,
      idempotencyKey: input.id,
    });
    return payoutResult(payout);
  }

  async payoutStatus(_id: string, ref: string | null): Promise<OperationResult | null> {
    return ref ? payoutResult(await this.api.getPayout(ref)) : null;
  }

  async statement(day: string): Promise<RailStatement> {
    const { lines, capped } = await this.api.statement(day);
    return { entries: lines.map(statementEntry), capped };
  }

  async verifyCallback(rawBody: string, headers: Headers, now: Date): Promise<CallbackVerification> {
    const verified = await this.api.verifyWebhook(rawBody, headers, now);
    if (!verified.ok) return verified;
    const { event } = verified;
    const c = event.checkout;
    // b2b and merchant payments: not ours to apply.
    if (!c) return { ok: true, callback: { eventId: event.id, type: event.type, operation: null } };
    const result = checkoutResult(c);
    const status = event.type === 'checkout.session.completed' && c.paymentStatus === 'succeeded' ? 'COMPLETED' : event.type === 'checkout.session.payment_failed' ? 'FAILED' : result.status;
    return { ok: true, callback: { eventId: event.id, type: event.type, operation: { ...result, status, kind: 'PAYIN' } } };
  }
}
