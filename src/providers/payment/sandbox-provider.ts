// The local sandbox provider (outside production, no STRIPE_SECRET_KEY): checkout sessions and connected accounts
// live in KV; the checkout page the service serves completes a session by sending a signed
// event through the real webhook handler.
import type { OwnerType } from '../../db/schema/money';
import { rootUrl } from '../../lib/urls';
import type { CheckoutSession, CheckoutSessionInput, ConnectedAccountState, CreatedRange, PaymentProvider, ProviderCharge, ProviderRefund, ProviderTransfer } from './payment-provider';
import { ProviderRejectedError, refundOutcomeOf } from './payment-provider';

export interface SandboxSession extends CheckoutSession {
  amountCents: number;
  currency: string;
  description: string;
  lines?: CheckoutSessionInput['lines'];
  successUrl: string;
  cancelUrl: string;
}

const SESSION_PREFIX = 'sandbox:checkout:';
const ACCOUNT_PREFIX = 'sandbox:account:';
// What the sandbox moved, listed back to the reconciliation as Stripe lists its records.
const RECORD_PREFIX = { charge: 'sandbox:record:charge:', refund: 'sandbox:record:refund:', transfer: 'sandbox:record:transfer:' };
const nowSeconds = () => Math.floor(Date.now() / 1000);
const TTL_SECONDS = 7 * 24 * 3600;
const rid = () => crypto.randomUUID().replace(/-/g, '').slice(0, 24);

export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  constructor(private readonly env: Env) {}

  async getSession(id: string): Promise<SandboxSession | null> {
    return this.env.KV.get<SandboxSession>(SESSION_PREFIX + id, 'json');
  }

  async saveSession(session: SandboxSession) {
    await this.env.KV.put(SESSION_PREFIX + session.id, JSON.stringify(session), { expirationTtl: TTL_SECONDS });
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession> {
    const id = `cs_sandbox_${rid()}`;
    const session: SandboxSession = {
      id,
      url: rootUrl(this.env, `/sandbox/checkout/${id}`),
      expiresAt: input.expiresAt,
      status: 'open',
      paymentIntentId: null,
      reservationId: input.reservationId,
      amountCents: input.amountCents,
      currency: input.currency,
      description: input.description,
      lines: input.lines,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
    };
    await this.saveSession(session);
    return session;
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSession> {
    const session = await this.getSession(id);
    if (!session) throw new ProviderRejectedError(`No such checkout session: ${id}`);
    return session;
  }

  async expireCheckoutSession(id: string) {
    const session = await this.getSession(id);
    if (!session) throw new ProviderRejectedError(`No such checkout session: ${id}`);
    if (session.status !== 'open') return; // already paid or closed: like Stripe, nothing to expire
    session.status = 'expired';
    await this.saveSession(session);
  }

  /** The payer authorised the session (the sandbox checkout page): its PaymentIntent and charge. */
  async authorize(session: SandboxSession): Promise<void> {
    session.status = 'complete';
    session.paymentIntentId = `pi_sandbox_${rid()}`;
    await this.saveSession(session);
    const charge: ProviderCharge = {
      id: `ch_sandbox_${rid()}`,
      paymentIntentId: session.paymentIntentId,
      amountMinor: session.amountCents,
      capturedMinor: 0,
      refundedMinor: 0,
      currency: session.currency.toUpperCase(),
      status: 'succeeded',
      captured: false,
      refunded: false,
      created: nowSeconds(),
    };
    await this.putRecord('charge', session.paymentIntentId, charge);
  }

  private async putRecord(kind: keyof typeof RECORD_PREFIX, key: string, record: object) {
    await this.env.KV.put(RECORD_PREFIX[kind] + key, JSON.stringify(record), { expirationTtl: TTL_SECONDS });
  }

  private async chargeOf(paymentIntentId: string) {
    return this.env.KV.get<ProviderCharge>(RECORD_PREFIX.charge + paymentIntentId, 'json');
  }

  private async listRecords<T extends { created: number }>(kind: keyof typeof RECORD_PREFIX, range: CreatedRange): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.env.KV.list({ prefix: RECORD_PREFIX[kind], cursor });
      for (const key of page.keys) {
        const record = await this.env.KV.get<T>(key.name, 'json');
        if (record && record.created >= range.from && record.created < range.to) out.push(record);
      }
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return out;
  }

  async capture(paymentIntentId: string, options: { amountCents?: number; idempotencyKey: string }) {
    const charge = await this.chargeOf(paymentIntentId);
    if (!charge) return { chargeId: `ch_sandbox_${rid()}` };
    if (!charge.captured) await this.putRecord('charge', paymentIntentId, { ...charge, captured: true, capturedMinor: options.amountCents ?? charge.amountMinor });
    return { chargeId: charge.id };
  }

  async cancelAuthorization(paymentIntentId: string, _idempotencyKey: string) {
    const charge = await this.chargeOf(paymentIntentId);
    if (charge && !charge.captured) await this.putRecord('charge', paymentIntentId, { ...charge, refunded: true, refundedMinor: charge.amountMinor });
  }

  async refund(paymentIntentId: string, amountCents: number, _idempotencyKey: string) {
    const refund: ProviderRefund = { id: `re_sandbox_${rid()}`, paymentIntentId, amountMinor: amountCents, currency: 'EUR', status: 'succeeded', created: nowSeconds() };
    const charge = await this.chargeOf(paymentIntentId);
    if (charge) {
      refund.currency = charge.currency;
      const refundedMinor = charge.refundedMinor + amountCents;
      await this.putRecord('charge', paymentIntentId, { ...charge, refundedMinor, refunded: refundedMinor >= charge.capturedMinor });
    }
    await this.putRecord('refund', refund.id, refund);
    return { refundId: refund.id, outcome: refundOutcomeOf(refund.status) };
  }

  /** A sandbox refund succeeds when made; one it no longer knows (its record expired) is told as succeeded too. */
  async refundOutcome(refundId: string) {
    const refund = await this.env.KV.get<ProviderRefund>(RECORD_PREFIX.refund + refundId, 'json');
    return refundOutcomeOf(refund?.status ?? 'succeeded');
  }

  listCharges(range: CreatedRange) {
    return this.listRecords<ProviderCharge>('charge', range);
  }

  listRefunds(range: CreatedRange) {
    return this.listRecords<ProviderRefund>('refund', range);
  }

  listTransfers(range: CreatedRange) {
    return this.listRecords<ProviderTransfer>('transfer', range);
  }

  async createConnectedAccount(input: { ownerType: OwnerType; ownerId: number }): Promise<ConnectedAccountState> {
    const account: ConnectedAccountState = {
      id: `acct_sandbox_${input.ownerType.toLowerCase()}_${input.ownerId}`,
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirements: ['individual.verification.document'],
    };
    const existing = await this.env.KV.get<ConnectedAccountState>(ACCOUNT_PREFIX + account.id, 'json');
    if (existing) return existing;
    await this.env.KV.put(ACCOUNT_PREFIX + account.id, JSON.stringify(account));
    return account;
  }

  async createAccountLink(accountId: string, _refreshUrl: string, _returnUrl: string) {
    return { url: rootUrl(this.env, `/sandbox/connect/${accountId}`), expiresAt: Math.floor(Date.now() / 1000) + 300 };
  }

  async retrieveAccount(accountId: string): Promise<ConnectedAccountState> {
    const account = await this.env.KV.get<ConnectedAccountState>(ACCOUNT_PREFIX + accountId, 'json');
    if (!account) throw new ProviderRejectedError(`No such account: ${accountId}`);
    return account;
  }

  /** The sandbox onboarding page's "Complete" button. */
  async completeOnboarding(accountId: string): Promise<ConnectedAccountState> {
    const account: ConnectedAccountState = {
      id: accountId,
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirements: [],
    };
    await this.env.KV.put(ACCOUNT_PREFIX + accountId, JSON.stringify(account));
    return account;
  }

  async transfer(input: { amountCents: number; currency: string; destination: string; metadata: Record<string, string> }) {
    const withdrawalId = Number(input.metadata.withdrawalId);
    const transfer: ProviderTransfer = {
      id: `tr_sandbox_${rid()}`,
      amountMinor: input.amountCents,
      reversedMinor: 0,
      currency: input.currency.toUpperCase(),
      destination: input.destination,
      withdrawalId: Number.isInteger(withdrawalId) && withdrawalId > 0 ? withdrawalId : null,
      created: nowSeconds(),
    };
    await this.putRecord('transfer', transfer.id, transfer);
    return { transferId: transfer.id };
  }
}
