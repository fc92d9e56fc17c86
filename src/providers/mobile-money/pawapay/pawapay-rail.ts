// pawaPay behind the mobile-money port (port.ts), on its Merchant API v2 (pawapay-wire.ts lists the
// calls): a pay-in is a deposit (a PIN prompt on the payer's phone), refunds are refunds of that
// deposit (whole or part), payouts go to MTN or Orange numbers; the operators, their limits and
// decimals come from the active configuration (cached a few minutes). Our UUID is pawaPay's
// depositId/payoutId/refundId: a repeat is DUPLICATE_IGNORED, so a retry reads the status instead.
// Financial requests are signed when a key is configured (pawapay-signature.ts); a callback is
// verified with pawaPay's public key when one is configured, else it is only a hint: its state is
// read back from pawaPay before anything is applied. `send` is the HTTP transport: fetch to
// pawaPay, or the local sandbox (pawapay-sandbox.ts) answering the same requests.
import type { CallbackVerification, MobileMoneyRail, OperationResult, Operator, PayInInput, PayInResult, PayoutInput, RailMode, RefundInput } from '../port';
import { MobileMoneyRejectedError, ProviderUnavailableError } from '../wave-api';
import { asPayIn, ID_FIELD, msisdn, PAWAPAY_OPERATORS, pawapayAmount, readActiveConf, readInitiation, readPayment, type PawapayKind } from './pawapay-wire';
import { importSigningKey, importVerifyKey, signRequest, verifySignedRequest } from './pawapay-signature';

export const PAWAPAY_BASE = { LIVE: 'https://api.pawapay.io', TEST: 'https://api.sandbox.pawapay.io' } as const;
export const PAWAPAY_TIMEOUT_MS = 20_000;
const CONF_KEY = 'pawapay:active-conf';
const CONF_TTL_SECONDS = 300;

export interface PawapaySettings {
  mode: RailMode;
  baseUrl: string;
  apiToken: string;
  /** Our ECDSA P-256 private key (PKCS#8 PEM) and its id at pawaPay: financial requests are signed. */
  signing: { privateKey: string; keyId: string } | null;
  /** pawaPay's public key (SPKI PEM): callbacks must carry a valid signature. */
  callbackPublicKey: string | null;
}

export type Transport = (request: Request) => Promise<Response>;

/** A callback's target when the route does not say: the signature covers method, host and path. */
const DEFAULT_TARGET = { method: 'POST', url: 'https://localhost/v1/api/webhooks/pawapay' };

const customerMessage = (reference: string) => `Colis ${reference}`.replace(/[^A-Za-z0-9 ]/g, ' ').slice(0, 22).padEnd(4, ' ');

export class PawapayRail implements MobileMoneyRail {
  readonly code = 'PAWAPAY';
  readonly mode: RailMode;
  constructor(
    private readonly settings: PawapaySettings,
    private readonly cache: KVNamespace | null,
    private readonly send: Transport = (request) => fetch(request),
  ) {
    this.mode = settings.mode;
  }

  /** One call: network failures, timeouts, 429 and 5xx are unavailable (the outcome unknown); 4xx refusals carry pawaPay's failureCode. */
  private async call(method: 'GET' | 'POST', path: string, body?: object): Promise<unknown> {
    const url = `${this.settings.baseUrl}${path}`;
    const text = body ? JSON.stringify(body) : undefined;
    const headers: Record<string, string> = { Authorization: `Bearer ${this.settings.apiToken}`, Accept: 'application/json' };
    if (text) Object.assign(headers, { 'Content-Type': 'application/json' });
    if (text && this.settings.signing) {
      const key = await importSigningKey(this.settings.signing.privateKey);
      Object.assign(headers, await signRequest(key, this.settings.signing.keyId, { method, url }, text));
    }
    let res: Response;
    try {
      res = await this.send(new Request(url, { method, headers, body: text, signal: AbortSignal.timeout(PAWAPAY_TIMEOUT_MS) }));
    } catch (err) {
      throw new ProviderUnavailableError(`pawaPay ${method} ${path} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const raw = await res.text();
    let json: unknown = null;
    try {
      json = raw ? JSON.parse(raw) : null;
    } catch {
      // a proxy's HTML page: judged by its status
    }
    if (res.ok) {
      if (json === null) throw new ProviderUnavailableError(`pawaPay ${method} ${path}: unreadable answer`);
      return json;
    }
    const failure = (json as { failureReason?: { failureCode?: string; failureMessage?: string } } | null)?.failureReason;
    const code = failure?.failureCode ?? `HTTP_${res.status}`;
    if (res.status === 429 || res.status >= 500) throw new ProviderUnavailableError(`pawaPay ${method} ${path}: ${code}`);
    throw new MobileMoneyRejectedError(code, failure?.failureMessage ?? res.statusText, res.status);
  }

  async operators(): Promise<Operator[]> {
    const cached = await this.cache?.get<unknown>(CONF_KEY, 'json');
    const conf = cached ?? (await this.call('GET', '/v2/active-conf'));
    if (!cached) await this.cache?.put(CONF_KEY, JSON.stringify(conf), { expirationTtl: CONF_TTL_SECONDS });
    return readActiveConf(conf);
  }

  async predictOperator(phone: string) {
    let answer: { provider?: string; phoneNumber?: string };
    try {
      answer = (await this.call('POST', '/v2/predict-provider', { phoneNumber: phone })) as typeof answer;
    } catch (err) {
      if (err instanceof MobileMoneyRejectedError) return null; // not a number pawaPay can read
      throw err;
    }
    if (!answer.provider || !PAWAPAY_OPERATORS[answer.provider] || !answer.phoneNumber) return null;
    return { operator: answer.provider, phone: `+${msisdn(answer.phoneNumber)}` };
  }

  /** The current state of one of our operations; null when pawaPay does not know the id. */
  private async status(kind: PawapayKind, id: string): Promise<OperationResult | null> {
    const answer = (await this.call('GET', `/v2/${kind}s/${encodeURIComponent(id)}`)) as { status?: string; data?: unknown };
    if (answer.status === 'NOT_FOUND') return null;
    const read = readPayment(kind, answer.data);
    if (!read) throw new ProviderUnavailableError(`pawaPay ${kind} ${id}: unreadable status`);
    const { phone: _phone, provider: _provider, ...result } = read;
    return result;
  }

  /** Sends an initiation; a duplicate (sent before, same id) reads the status instead. */
  private async initiate(kind: PawapayKind, id: string, body: object): Promise<OperationResult> {
    const answer = await this.call('POST', `/v2/${kind}s`, { [ID_FIELD[kind]]: id, ...body });
    const result = readInitiation(id, answer);
    if (result) return result;
    return (await this.status(kind, id)) ?? { status: 'UNKNOWN', ref: id, providerTransactionId: null, failure: null, amountMinor: null, currency: null };
  }

  async payIn(input: PayInInput): Promise<PayInResult> {
    if (!input.phone) throw new MobileMoneyRejectedError('INVALID_PHONE_NUMBER', 'A pawaPay deposit needs the payer’s number', 400);
    const result = await this.initiate('deposit', input.id, {
      amount: pawapayAmount(input.amountMinor, input.currency),
      currency: input.currency,
      payer: { type: 'MMO', accountDetails: { phoneNumber: msisdn(input.phone), provider: input.operator } },
      clientReferenceId: input.reference,
      customerMessage: customerMessage(input.reference),
    });
    return asPayIn(result);
  }

  async payInStatus(id: string): Promise<PayInResult | null> {
    const result = await this.status('deposit', id);
    return result && asPayIn(result);
  }

  async cancelPayIn(): Promise<void> {
    // A PIN prompt cannot be withdrawn: a payment arriving later for an ended booking is refunded.
  }

  refund(input: RefundInput): Promise<OperationResult> {
    return this.initiate('refund', input.id, { depositId: input.payIn.ref, amount: pawapayAmount(input.amountMinor, input.currency), currency: input.currency });
  }

  refundStatus(id: string): Promise<OperationResult | null> {
    return this.status('refund', id);
  }

  payout(input: PayoutInput): Promise<OperationResult> {
    return this.initiate('payout', input.id, {
      amount: pawapayAmount(input.amountMinor, input.currency),
      currency: input.currency,
      recipient: { type: 'MMO', accountDetails: { phoneNumber: msisdn(input.phone), provider: input.operator } },
      clientReferenceId: input.reference,
      customerMessage: customerMessage(input.reference),
    });
  }

  payoutStatus(id: string): Promise<OperationResult | null> {
    return this.status('payout', id);
  }

  async verifyCallback(rawBody: string, headers: Headers, now: Date, target = DEFAULT_TARGET): Promise<CallbackVerification> {
    if (this.settings.callbackPublicKey) {
      const check = await verifySignedRequest(await importVerifyKey(this.settings.callbackPublicKey), target, headers, rawBody, now);
      if (check !== 'ok') return { ok: false, reason: check };
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      return { ok: false, reason: 'malformed-event' };
    }
    // A refund names its deposit too (depositId): the refund id is looked for first.
    const kind = (['refund', 'payout', 'deposit'] as const).find((k) => typeof body?.[ID_FIELD[k]] === 'string');
    const read = kind ? readPayment(kind, body) : null;
    if (!kind || !read) return { ok: false, reason: 'malformed-event' };
    const portKind = kind === 'deposit' ? 'PAYIN' : kind === 'payout' ? 'PAYOUT' : 'REFUND';
    // Unsigned: the body is a hint; what pawaPay says about the id is what is applied.
    const { phone: _p, provider: _v, ...claimed } = read;
    const truth = this.settings.callbackPublicKey ? claimed : await this.status(kind, read.ref);
    if (!truth) return { ok: true, callback: { eventId: `${kind}:${read.ref}:NOT_FOUND`, type: `${kind}.unknown`, operation: null } };
    return { ok: true, callback: { eventId: `${kind}:${truth.ref}:${truth.status}`, type: `${kind}.${truth.status.toLowerCase()}`, operation: { ...truth, kind: portKind } } };
  }
}
