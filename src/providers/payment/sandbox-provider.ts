// The local sandbox provider (outside production, no STRIPE_SECRET_KEY): checkout sessions and connected accounts
// live in KV; the checkout page the service serves completes a session by sending a signed
// event through the real webhook handler.
import type { OwnerType } from '../../db/schema/money';
import { rootUrl } from '../../lib/urls';
import type { CheckoutSession, CheckoutSessionInput, ConnectedAccountState, PaymentProvider } from './payment-provider';
import { ProviderRejectedError } from './payment-provider';

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

  async capture(_paymentIntentId: string, _options: { amountCents?: number; idempotencyKey: string }) {
    return { chargeId: `ch_sandbox_${rid()}` };
  }

  async cancelAuthorization(_paymentIntentId: string, _idempotencyKey: string) {}

  async refund(_paymentIntentId: string, _amountCents: number, _idempotencyKey: string) {
    return { refundId: `re_sandbox_${rid()}` };
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

  async transfer(_input: { amountCents: number; destination: string }) {
    return { transferId: `tr_sandbox_${rid()}` };
  }
}
