// The payment-provider port: what the money features need from Stripe (hosted checkout with
// manual capture, capture/void/refund, Connect accounts, transfers). Two adapters: Stripe and a
// local sandbox used outside production when no STRIPE_SECRET_KEY is configured (config.ts).
import type { OwnerType } from '../../db/schema/money';

/** One line of a checkout, in the provider's unit; the lines add up to the checkout's amount. */
export interface CheckoutLine {
  description: string;
  amountCents: number;
}

export interface CheckoutSessionInput {
  reservationId: number;
  reservationNumber: string;
  description: string;
  amountCents: number;
  /** The charge's lines (the transport price, the protection premium); absent: one line of `description`. */
  lines?: CheckoutLine[];
  currency: string;
  customerEmail?: string;
  /** The payer's language: the provider's page is shown in it. */
  locale: 'fr' | 'en';
  successUrl: string;
  cancelUrl: string;
  /** Seconds since epoch. */
  expiresAt: number;
  idempotencyKey: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
  /** Seconds since epoch. */
  expiresAt: number;
  status: 'open' | 'complete' | 'expired';
  paymentIntentId: string | null;
  reservationId: number | null;
}

export interface ConnectedAccountState {
  id: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  requirements: string[];
}

/** A period of the provider's records, seconds since epoch: `from` included, `to` excluded. */
export interface CreatedRange {
  from: number;
  to: number;
}

/** A card charge as the provider lists it (Stripe: a Charge; its PaymentIntent is our authorizationId). */
export interface ProviderCharge {
  id: string;
  paymentIntentId: string | null;
  /** What was authorised, what was captured (0 while not) and refunded, in minor units. */
  amountMinor: number;
  capturedMinor: number;
  refundedMinor: number;
  currency: string;
  /** succeeded (authorised or captured), pending, failed. */
  status: string;
  captured: boolean;
  /** An uncaptured charge whose hold was released (voided or lapsed) is `refunded` too. */
  refunded: boolean;
  created: number;
}

/**
 * A refund as our books need it: SUCCEEDED once the provider sent the money back (its credit note
 * is issued then), PENDING while it works on it, FAILED when it gave up (an operator retries).
 */
export type RefundOutcome = 'SUCCEEDED' | 'PENDING' | 'FAILED';

/** Stripe's refund statuses (pending, requires_action, succeeded, failed, canceled) as outcomes. */
export const refundOutcomeOf = (status: string | null | undefined): RefundOutcome =>
  status === 'succeeded' ? 'SUCCEEDED' : status === 'failed' || status === 'canceled' ? 'FAILED' : 'PENDING';

export interface ProviderRefund {
  id: string;
  paymentIntentId: string | null;
  amountMinor: number;
  currency: string;
  /** pending, requires_action, succeeded, failed, canceled. */
  status: string;
  created: number;
}

export interface ProviderTransfer {
  id: string;
  amountMinor: number;
  /** What was reversed of it (money back from the connected account). */
  reversedMinor: number;
  currency: string;
  destination: string | null;
  /** Our withdrawal's id, from the transfer's metadata. */
  withdrawalId: number | null;
  created: number;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'sandbox';
  createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession>;
  retrieveCheckoutSession(id: string): Promise<CheckoutSession>;
  /** Closes an open checkout session so it can no longer be paid (Stripe: expire the Checkout Session). */
  expireCheckoutSession(id: string): Promise<void>;
  /** Captures an authorised payment; `amountCents` below the authorised amount releases the rest. */
  capture(paymentIntentId: string, options: { amountCents?: number; idempotencyKey: string }): Promise<{ chargeId: string | null }>;
  /** Voids an authorisation that was never captured. */
  cancelAuthorization(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  /** Refunds part or all of a captured payment; the refund may be confirmed later (PENDING). */
  refund(paymentIntentId: string, amountCents: number, idempotencyKey: string): Promise<{ refundId: string; outcome: RefundOutcome }>;
  /** Where a refund asked for before stands now. */
  refundOutcome(refundId: string): Promise<RefundOutcome>;
  createConnectedAccount(input: {
    ownerType: OwnerType;
    ownerId: number;
    email?: string;
    idempotencyKey: string;
  }): Promise<ConnectedAccountState>;
  createAccountLink(accountId: string, refreshUrl: string, returnUrl: string): Promise<{ url: string; expiresAt: number }>;
  retrieveAccount(accountId: string): Promise<ConnectedAccountState>;
  transfer(input: {
    amountCents: number;
    currency: string;
    destination: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<{ transferId: string }>;
  /** The provider's records created in `range` (the daily reconciliation), every page. */
  listCharges(range: CreatedRange): Promise<ProviderCharge[]>;
  listRefunds(range: CreatedRange): Promise<ProviderRefund[]>;
  listTransfers(range: CreatedRange): Promise<ProviderTransfer[]>;
}

/** The most records one listing reads (the SDK's auto-pagination cap); the report says when it is reached. */
export const LISTING_CAP = 10_000;

/**
 * The smallest charge the payment provider accepts, in minor units of `currency` (Stripe's minimum
 * charge amounts; the sandbox keeps the same so local runs refuse what production would). An
 * unlisted currency gets 50 minor units.
 */
export function minimumChargeCents(currency: string): number {
  return MINIMUM_CHARGE_CENTS[currency.toUpperCase()] ?? 50;
}

const MINIMUM_CHARGE_CENTS: Record<string, number> = {
  EUR: 50, USD: 50, GBP: 30, CHF: 50, CAD: 50, AUD: 50, NZD: 50, SGD: 50, BRL: 50, INR: 50,
  DKK: 250, NOK: 300, SEK: 300, PLN: 200, RON: 200, BGN: 100, CZK: 1500, HUF: 17500, AED: 200, HKD: 400, MXN: 1000, MYR: 200, THB: 1000,
};

/** A provider call failed for good (declined, invalid): nothing will change by retrying. */
export class ProviderRejectedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderRejectedError';
  }
}

/** A provider call failed in a way that may succeed later (network, 5xx, rate limit). */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailableError';
  }
}
