// The mobile-money port (CONTRACT section 29): what booking, escrow, refunds and withdrawals need
// from a mobile-money rail, whichever it is. Two adapters: Wave (wave-rail.ts, a hosted checkout)
// and pawaPay (pawapay/, a PIN prompt on the payer's phone); a third one is a new adapter and a line
// in rails.ts, nothing else (test/money.mobile-port.test.ts shows it).
//
// Words: a *rail* is an API we call (Wave, pawaPay); an *operator* is the mobile-money service the
// person knows and that the API names `provider` (WAVE, MTN_MOMO_CMR, ORANGE_CIV, ...). Each
// operator is reached through exactly one rail.
//
// Every operation carries OUR id (a UUID, `id`), the same on every retry, so a provider never pays
// twice; its outcome is PENDING, COMPLETED, FAILED or UNKNOWN (a timeout, a 5xx, an answer we could
// not read): an UNKNOWN is resolved by the status call with the same id, never by a new id.

export type OperationStatus = 'PENDING' | 'COMPLETED' | 'FAILED' | 'UNKNOWN';
export type RailMode = 'LIVE' | 'TEST' | 'SANDBOX';

/** Minimum and maximum of one kind of operation, in minor units of the operator's currency. */
export interface OperatorLimits {
  minMinor: number;
  maxMinor: number;
}

/** One operator a rail reaches, as its configuration says today. */
export interface Operator {
  /** The code clients use (`provider` in the API): WAVE, MTN_MOMO_CMR, ORANGE_SEN, ... */
  code: string;
  /** The rail that reaches it (WAVE, PAWAPAY). */
  rail: string;
  displayName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  currency: string;
  /** Decimals the operator accepts in an amount (XOF, XAF: 0). */
  decimals: number;
  /** How the payer approves: a hosted page to open (Wave) or a PIN prompt on the phone (pawaPay). */
  approval: 'REDIRECT' | 'PIN_PROMPT';
  /** Null: the operation is not offered (or closed right now). Limits unknown: 1 to MAX_SAFE_INTEGER. */
  payIn: OperatorLimits | null;
  payout: OperatorLimits | null;
  refund: OperatorLimits | null;
}

export interface Failure {
  code: string;
  message: string;
}

/** What a rail says about one operation. */
export interface OperationResult {
  status: OperationStatus;
  /** The rail's own reference, what a later status call needs (Wave: its ids; pawaPay: our UUID). */
  ref: string;
  /** The id the payer or payee sees on their receipt, once known. */
  providerTransactionId: string | null;
  failure: Failure | null;
  /** What the provider says was moved, when it says (checked against what we asked). */
  amountMinor: number | null;
  currency: string | null;
}

export interface PayInInput {
  id: string;
  amountMinor: number;
  currency: string;
  operator: string;
  /** The payer's number, E.164 (+237...); the PIN prompt goes to it. Null for a hosted page anyone pays. */
  phone: string | null;
  /** Ours, shown to the payer where the rail allows (the reservation number). */
  reference: string;
  /** Where a hosted page sends the payer back (Wave). */
  returnUrls: { success: string; error: string };
}

export interface PayInResult extends OperationResult {
  /** A page to open (Wave's checkout; the pawaPay sandbox's stand-in for the phone). */
  approvalUrl: string | null;
  /** Seconds since epoch: until when it can be approved, when the rail says. */
  expiresAt: number | null;
}

export interface RefundInput {
  id: string;
  /** The pay-in refunded: its rail reference and what it took. */
  payIn: { ref: string; amountMinor: number };
  amountMinor: number;
  currency: string;
  /** The number that paid (where a partial refund goes when the rail pays it out). */
  phone: string | null;
  name: string;
  reference: string;
}

export interface PayoutInput {
  id: string;
  amountMinor: number;
  currency: string;
  operator: string;
  phone: string;
  name: string;
  reference: string;
}

export type OperationKind = 'PAYIN' | 'PAYOUT' | 'REFUND';

/** A callback the rail sent, verified and read. Null `operation`: an event that is not ours to apply. */
export interface RailCallback {
  /** Unique per delivery content: stored once, applied once. */
  eventId: string;
  type: string;
  operation: (OperationResult & { kind: OperationKind }) | null;
}

/**
 * One movement on the rail's account (its statement), in the port's words: what it was (OTHER: not
 * an operation this service makes, e.g. a payment to the merchant's QR code), how much went to or
 * came from the person before the rail's fee, and how it names our operation.
 */
export interface RailStatementEntry {
  /** The rail's id of the movement. */
  id: string;
  kind: OperationKind | 'PAYOUT_REVERSAL' | 'OTHER';
  /** What the payer paid, the payee received or the refund returned: the rail's fee aside. */
  amountMinor: number;
  currency: string;
  /** Milliseconds since epoch. */
  at: number;
  /** Our operation's rail reference (`ref`), when the line names it (Wave: the checkout, its refund). */
  ref: string | null;
  /** The reference we sent with it (`reference`), when the line carries it (Wave: a payout's client_reference). */
  reference: string | null;
}

export interface RailStatement {
  entries: RailStatementEntry[];
  /** The listing stopped at its cap: the rest of the day was not read. */
  capped: boolean;
}

export type CallbackRefusal = 'missing-signature' | 'malformed-signature' | 'bad-signature' | 'stale-timestamp' | 'malformed-event';
export type CallbackVerification = { ok: true; callback: RailCallback } | { ok: false; reason: CallbackRefusal };

export interface MobileMoneyRail {
  /** WAVE, PAWAPAY, ...: also the `provider` stored on payment sessions (lower-cased). */
  readonly code: string;
  readonly mode: RailMode;
  /** The operators it reaches, with their limits and decimals (pawaPay: its active configuration). */
  operators(): Promise<Operator[]>;
  /** The operator of a number (pawaPay: predict-provider), with the number as the rail writes it; null if none of ours. */
  predictOperator(phone: string): Promise<{ operator: string; phone: string } | null>;
  payIn(input: PayInInput): Promise<PayInResult>;
  /** Null: the rail does not know this id (the initiation never reached it: safe to send again, same id). */
  payInStatus(id: string, ref: string | null): Promise<PayInResult | null>;
  /** Stops an open pay-in from being approved (Wave's expiry); a no-op where the rail has none. */
  cancelPayIn(ref: string): Promise<void>;
  refund(input: RefundInput): Promise<OperationResult>;
  refundStatus(id: string, ref: string | null): Promise<OperationResult | null>;
  payout(input: PayoutInput): Promise<OperationResult>;
  payoutStatus(id: string, ref: string | null): Promise<OperationResult | null>;
  /**
   * The account's movements of one UTC day (YYYY-MM-DD), where the rail lists them (Wave's Balance
   * API); absent where it does not (pawaPay v2: each operation is checked by id only).
   */
  statement?(day: string): Promise<RailStatement>;
  /** The callback's signature (when the rail signs) and shape, on the raw body; `target`: the request's method and URL (signatures may cover them). */
  verifyCallback(rawBody: string, headers: Headers, now: Date, target?: { method: string; url: string }): Promise<CallbackVerification>;
}

/** Limits when the rail states none. */
export const UNLIMITED: OperatorLimits = { minMinor: 1, maxMinor: Number.MAX_SAFE_INTEGER };
