// The local stand-in for Wave (outside production, no WAVE_API_KEY): checkout sessions and payouts
// live in KV in Wave's own JSON shape; the sandbox checkout page (root path
// /sandbox/wave/checkout/{id}) pays or fails a session through completeCheckout, which returns the
// event signed with the webhook secret, for the very handler and verification a real Wave event
// goes through. Payouts succeed at once, except to a number ending in 9999, which Wave "refuses"
// (blocked-account), so a failed payout can be walked locally too. Every movement of the sandbox
// wallet (a paid checkout, a refund, a payout) is also a line of its statement, kept in KV under the
// day in Wave's Balance API shape, so the daily reconciliation reads it as it reads Wave's.
import { rootUrl } from '../../lib/urls';
import type {
  MobileMoneyCheckout,
  MobileMoneyCheckoutInput,
  MobileMoneyPayout,
  MobileMoneyPayoutInput,
  MobileMoneyStatement,
  MobileMoneyStatementLine,
  WaveApi,
  WebhookVerification,
} from './wave-api';
import { amountString, MobileMoneyRejectedError, STATEMENT_CAP } from './wave-api';
import { signWaveBody, verifyWaveWebhook, WAVE_SIGNATURE_HEADER } from './wave-signature';
import { readCheckout, readPayout, readStatementLine, type WaveBalanceTransaction, type WaveCheckoutSession, type WavePayout } from './wave-wire';

const CHECKOUT_PREFIX = 'sandbox:wave:checkout:';
const PAYOUT_PREFIX = 'sandbox:wave:payout:';
const KEY_PREFIX = 'sandbox:wave:idempotency:';
const STATEMENT_PREFIX = 'sandbox:wave:statement:';
const TTL_SECONDS = 7 * 24 * 3600;
/** Wave's sessions stay payable 30 minutes (when_expires - when_created in its examples). */
export const CHECKOUT_LIFETIME_SECONDS = 30 * 60;
/** Payouts to a number ending so are refused, like Wave refuses a blocked wallet. */
export const SANDBOX_REFUSED_MOBILE_SUFFIX = '9999';

interface SandboxSession extends WaveCheckoutSession {
  refunded?: boolean;
}

const rid = () => crypto.randomUUID().replace(/-/g, '').slice(0, 16);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A signed delivery, as Wave would POST it to the webhook URL. */
export interface SignedDelivery {
  rawBody: string;
  headers: Headers;
}

export class SandboxMobileMoneyProvider implements WaveApi {
  readonly name = 'sandbox' as const;
  readonly currencies = ['XOF'] as const;
  constructor(
    private readonly env: Env,
    private readonly webhookSecret: string,
  ) {}

  private async load<T>(prefix: string, id: string): Promise<T> {
    const found = await this.env.KV.get<T>(prefix + id, 'json');
    if (!found) throw new MobileMoneyRejectedError(prefix === PAYOUT_PREFIX ? 'payout-not-found' : 'checkout-session-not-found', `No such object: ${id}`, 404);
    return found;
  }

  private save(prefix: string, object: { id: string }) {
    return this.env.KV.put(prefix + object.id, JSON.stringify(object), { expirationTtl: TTL_SECONDS });
  }

  /** A movement of the wallet, on its day's statement (the line rides in the key's metadata: one list reads a page). */
  private record(line: Omit<WaveBalanceTransaction, 'timestamp' | 'transaction_id' | 'fee'>, at = Date.now()) {
    const row: WaveBalanceTransaction = { timestamp: iso(at), transaction_id: `T_SANDBOX_${rid().toUpperCase()}`, fee: '0', is_reversal: false, ...line };
    return this.env.KV.put(`${STATEMENT_PREFIX}${row.timestamp.slice(0, 10)}:${row.timestamp}:${row.transaction_id}`, '', { expirationTtl: TTL_SECONDS, metadata: row });
  }

  async statement(day: string): Promise<MobileMoneyStatement> {
    const lines: MobileMoneyStatementLine[] = [];
    let cursor: string | undefined;
    let more = false;
    do {
      const page = await this.env.KV.list<WaveBalanceTransaction>({ prefix: `${STATEMENT_PREFIX}${day}:`, cursor });
      for (const key of page.keys) {
        const line = readStatementLine(key.metadata);
        if (line) lines.push(line);
      }
      more = !page.list_complete;
      cursor = page.list_complete ? undefined : page.cursor;
    } while (more && lines.length < STATEMENT_CAP);
    return { lines: lines.slice(0, STATEMENT_CAP), capped: more };
  }

  /** The id a key already created, or null; and a function to remember the new one. */
  private async idempotent(scope: string, key: string) {
    const name = `${KEY_PREFIX}${scope}:${key}`;
    return { existing: await this.env.KV.get(name), remember: (id: string) => this.env.KV.put(name, id, { expirationTtl: TTL_SECONDS }) };
  }

  async createCheckout(input: MobileMoneyCheckoutInput): Promise<MobileMoneyCheckout> {
    const key = await this.idempotent('checkout', input.idempotencyKey);
    if (key.existing) return this.getCheckout(key.existing);
    const id = `cos-sandbox${rid()}`;
    const now = Date.now();
    const session: SandboxSession = {
      id,
      amount: amountString(input.amountMinor, input.currency),
      currency: input.currency.toUpperCase(),
      checkout_status: 'open',
      payment_status: 'processing',
      client_reference: input.clientReference,
      success_url: input.successUrl,
      error_url: input.errorUrl,
      business_name: 'Sandbox',
      last_payment_error: null,
      transaction_id: null,
      wave_launch_url: rootUrl(this.env, `/sandbox/wave/checkout/${id}`),
      when_created: iso(now),
      when_expires: iso(now + CHECKOUT_LIFETIME_SECONDS * 1000),
      when_completed: null,
    };
    await this.save(CHECKOUT_PREFIX, session);
    await key.remember(id);
    return readCheckout(session) as MobileMoneyCheckout;
  }

  /** The stored session, as the sandbox page shows it. */
  session(id: string): Promise<SandboxSession> {
    return this.load<SandboxSession>(CHECKOUT_PREFIX, id);
  }

  async getCheckout(id: string): Promise<MobileMoneyCheckout> {
    return readCheckout(await this.session(id)) as MobileMoneyCheckout;
  }

  async refundCheckout(id: string, _idempotencyKey: string): Promise<void> {
    const session = await this.session(id);
    if (session.refunded) return; // a retried refund: already done, as an idempotent retry would answer
    if (session.payment_status !== 'succeeded') throw new MobileMoneyRejectedError('checkout-not-refundable', `Checkout session ${id} was not paid`, 409);
    session.refunded = true;
    await this.save(CHECKOUT_PREFIX, session);
    await this.record({ transaction_type: 'api_checkout_refund', amount: `-${session.amount}`, currency: session.currency, client_reference: session.client_reference, checkout_api_session_id: session.id });
  }

  async expireCheckout(id: string): Promise<void> {
    const session = await this.session(id);
    if (session.checkout_status !== 'open') throw new MobileMoneyRejectedError('checkout-session-not-open', `Checkout session ${id} is ${session.checkout_status}`, 409);
    Object.assign(session, { checkout_status: 'expired', when_completed: iso(Date.now()) });
    await this.save(CHECKOUT_PREFIX, session);
  }

  /**
   * The sandbox page's buttons: the payer pays (or the payment fails). Returns the event Wave would
   * send, signed, for the webhook handler.
   */
  async completeCheckout(id: string, outcome: 'succeeded' | 'failed', now = new Date()): Promise<SignedDelivery> {
    const session = await this.session(id);
    if (session.checkout_status !== 'open') throw new MobileMoneyRejectedError('checkout-session-not-open', `Checkout session ${id} is ${session.checkout_status}`, 409);
    if (outcome === 'succeeded') {
      Object.assign(session, { checkout_status: 'complete', payment_status: 'succeeded', transaction_id: `T_SANDBOX_${rid().toUpperCase()}`, when_completed: iso(now.getTime()) });
    } else {
      session.last_payment_error = { code: 'insufficient-funds', message: 'The payer does not have enough money in their wallet' };
    }
    await this.save(CHECKOUT_PREFIX, session);
    if (outcome === 'succeeded') {
      await this.record({ transaction_type: 'api_checkout', amount: session.amount, currency: session.currency, client_reference: session.client_reference, checkout_api_session_id: session.id }, now.getTime());
    }
    const { refunded: _refunded, ...data } = session;
    const type = outcome === 'succeeded' ? 'checkout.session.completed' : 'checkout.session.payment_failed';
    const rawBody = JSON.stringify({ id: `EV_sandbox${rid()}`, type, data });
    const timestamp = Math.floor(now.getTime() / 1000);
    return { rawBody, headers: new Headers({ [WAVE_SIGNATURE_HEADER]: await signWaveBody(rawBody, this.webhookSecret, timestamp) }) };
  }

  async createPayout(input: MobileMoneyPayoutInput): Promise<MobileMoneyPayout> {
    const key = await this.idempotent('payout', input.idempotencyKey);
    if (key.existing) return this.getPayout(key.existing);
    const refused = input.mobile.endsWith(SANDBOX_REFUSED_MOBILE_SUFFIX);
    const payout: WavePayout = {
      id: `pt-sandbox${rid()}`,
      currency: input.currency.toUpperCase(),
      receive_amount: amountString(input.amountMinor, input.currency),
      fee: '0',
      mobile: input.mobile,
      name: input.name,
      client_reference: input.clientReference,
      status: refused ? 'failed' : 'succeeded',
      timestamp: iso(Date.now()),
      payout_error: refused ? { error_code: 'blocked-account', error_message: 'The recipient wallet is blocked' } : null,
    };
    await this.save(PAYOUT_PREFIX, payout);
    await key.remember(payout.id);
    if (!refused) await this.record({ transaction_type: 'api_payout', amount: `-${payout.receive_amount}`, currency: payout.currency, client_reference: payout.client_reference, counterparty_mobile: payout.mobile });
    return readPayout(payout) as MobileMoneyPayout;
  }

  async getPayout(id: string): Promise<MobileMoneyPayout> {
    return readPayout(await this.load<WavePayout>(PAYOUT_PREFIX, id)) as MobileMoneyPayout;
  }

  verifyWebhook(rawBody: string, headers: Headers, now: Date): Promise<WebhookVerification> {
    return verifyWaveWebhook(rawBody, headers, this.webhookSecret, now);
  }
}
