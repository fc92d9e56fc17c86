// The Stripe adapter: the real SDK on Workers (fetch HTTP client). A client is built per call so
// it captures the fetch in force at that moment (tests stub it).
import Stripe from 'stripe';
import type { CheckoutSession, ConnectedAccountState, CreatedRange, PaymentProvider, ProviderCharge, ProviderRefund, ProviderTransfer } from './payment-provider';
import { LISTING_CAP, ProviderRejectedError, ProviderUnavailableError, refundOutcomeOf } from './payment-provider';

export function stripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 20_000,
  });
}

/** Maps SDK errors onto the port's two failure kinds. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { type?: string; statusCode?: number; message?: string };
    const retryable =
      e.type === 'StripeConnectionError' ||
      e.type === 'StripeAPIError' ||
      e.type === 'StripeRateLimitError' ||
      (e.statusCode !== undefined && e.statusCode >= 500);
    const message = `${what} failed: ${e.message ?? String(err)}`;
    throw retryable ? new ProviderUnavailableError(message, { cause: err }) : new ProviderRejectedError(message, { cause: err });
  }
}

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);

function toSession(s: Stripe.Checkout.Session): CheckoutSession {
  const reservationId = Number(s.metadata?.reservationId);
  return {
    id: s.id,
    url: s.url ?? '',
    expiresAt: s.expires_at,
    status: (s.status ?? 'open') as CheckoutSession['status'],
    paymentIntentId: idOf(s.payment_intent),
    reservationId: Number.isInteger(reservationId) && reservationId > 0 ? reservationId : null,
  };
}

function toAccount(a: Stripe.Account): ConnectedAccountState {
  return {
    id: a.id,
    chargesEnabled: Boolean(a.charges_enabled),
    payoutsEnabled: Boolean(a.payouts_enabled),
    detailsSubmitted: Boolean(a.details_submitted),
    requirements: a.requirements?.currently_due ?? [],
  };
}

const upper = (currency: string) => currency.toUpperCase();

function toCharge(c: Stripe.Charge): ProviderCharge {
  return {
    id: c.id,
    paymentIntentId: idOf(c.payment_intent),
    amountMinor: c.amount,
    capturedMinor: c.captured ? c.amount_captured : 0,
    refundedMinor: c.amount_refunded,
    currency: upper(c.currency),
    status: c.status,
    captured: c.captured,
    refunded: c.refunded,
    created: c.created,
  };
}

const toRefund = (r: Stripe.Refund): ProviderRefund => ({
  id: r.id,
  paymentIntentId: idOf(r.payment_intent),
  amountMinor: r.amount,
  currency: upper(r.currency),
  status: r.status ?? 'pending',
  created: r.created,
});

function toTransfer(t: Stripe.Transfer): ProviderTransfer {
  const withdrawalId = Number(t.metadata?.withdrawalId);
  return {
    id: t.id,
    amountMinor: t.amount,
    reversedMinor: t.amount_reversed ?? 0,
    currency: upper(t.currency),
    destination: idOf(t.destination),
    withdrawalId: Number.isInteger(withdrawalId) && withdrawalId > 0 ? withdrawalId : null,
    created: t.created,
  };
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  constructor(private readonly secretKey: string) {}

  private get stripe() {
    return stripeClient(this.secretKey);
  }

  createCheckoutSession(input: Parameters<PaymentProvider['createCheckoutSession']>[0]) {
    const metadata = { reservationId: String(input.reservationId), reservationNumber: input.reservationNumber };
    return call('checkout session', async () =>
      toSession(
        await this.stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: (input.lines ?? [{ description: input.description, amountCents: input.amountCents }]).map((l) => ({
              quantity: 1,
              price_data: { currency: input.currency.toLowerCase(), unit_amount: l.amountCents, product_data: { name: l.description } },
            })),
            payment_intent_data: { capture_method: 'manual', metadata },
            metadata,
            client_reference_id: String(input.reservationId),
            customer_email: input.customerEmail,
            locale: input.locale,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            expires_at: input.expiresAt,
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      ),
    );
  }

  retrieveCheckoutSession(id: string) {
    return call('checkout session lookup', async () => toSession(await this.stripe.checkout.sessions.retrieve(id)));
  }

  expireCheckoutSession(id: string) {
    return call('checkout session expiry', async () => {
      await this.stripe.checkout.sessions.expire(id);
    });
  }

  capture(paymentIntentId: string, options: { amountCents?: number; idempotencyKey: string }) {
    return call('capture', async () => {
      const pi = await this.stripe.paymentIntents.capture(
        paymentIntentId,
        options.amountCents === undefined ? {} : { amount_to_capture: options.amountCents },
        { idempotencyKey: options.idempotencyKey },
      );
      return { chargeId: idOf(pi.latest_charge) };
    });
  }

  cancelAuthorization(paymentIntentId: string, idempotencyKey: string) {
    return call('void', async () => {
      await this.stripe.paymentIntents.cancel(paymentIntentId, {}, { idempotencyKey });
    });
  }

  refund(paymentIntentId: string, amountCents: number, idempotencyKey: string) {
    return call('refund', async () => {
      const refund = await this.stripe.refunds.create({ payment_intent: paymentIntentId, amount: amountCents }, { idempotencyKey });
      return { refundId: refund.id, outcome: refundOutcomeOf(refund.status) };
    });
  }

  refundOutcome(refundId: string) {
    return call('refund status', async () => refundOutcomeOf((await this.stripe.refunds.retrieve(refundId)).status));
  }

  createConnectedAccount(input: Parameters<PaymentProvider['createConnectedAccount']>[0]) {
    return call('connected account', async () =>
      toAccount(
        await this.stripe.accounts.create(
          {
            type: 'express',
            email: input.email,
            capabilities: { transfers: { requested: true } },
            metadata: { ownerType: input.ownerType, ownerId: String(input.ownerId) },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      ),
    );
  }

  createAccountLink(accountId: string, refreshUrl: string, returnUrl: string) {
    return call('account link', async () => {
      const link = await this.stripe.accountLinks.create({
        account: accountId,
        refresh_url: refreshUrl,
        return_url: returnUrl,
        type: 'account_onboarding',
      });
      return { url: link.url, expiresAt: link.expires_at };
    });
  }

  retrieveAccount(accountId: string) {
    return call('account lookup', async () => toAccount(await this.stripe.accounts.retrieve(accountId)));
  }

  transfer(input: Parameters<PaymentProvider['transfer']>[0]) {
    return call('transfer', async () => {
      const transfer = await this.stripe.transfers.create(
        {
          amount: input.amountCents,
          currency: input.currency.toLowerCase(),
          destination: input.destination,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { transferId: transfer.id };
    });
  }

  // The day's records, every page (the SDK's auto-pagination follows `starting_after`).
  listCharges(range: CreatedRange) {
    return call('charge listing', async () =>
      (await this.stripe.charges.list({ created: { gte: range.from, lt: range.to }, limit: 100 }).autoPagingToArray({ limit: LISTING_CAP })).map(toCharge),
    );
  }

  listRefunds(range: CreatedRange) {
    return call('refund listing', async () =>
      (await this.stripe.refunds.list({ created: { gte: range.from, lt: range.to }, limit: 100 }).autoPagingToArray({ limit: LISTING_CAP })).map(toRefund),
    );
  }

  listTransfers(range: CreatedRange) {
    return call('transfer listing', async () =>
      (await this.stripe.transfers.list({ created: { gte: range.from, lt: range.to }, limit: 100 }).autoPagingToArray({ limit: LISTING_CAP })).map(toTransfer),
    );
  }
}
