// The Wave adapter: Wave's HTTP API over fetch (a test stubs fetch with test/helpers/fake-wave.ts).
//
// What it relies on, from Wave's public API reference:
// - https://docs.wave.com/checkout (Checkout API). Base URL https://api.wave.com; every request
//   `Authorization: Bearer <API key>` (keys like wave_sn_prod_..., one business wallet each).
//   POST /v1/checkout/sessions {amount: string, currency: "XOF", success_url, error_url,
//   client_reference?, restrict_payer_mobile?, aggregated_merchant_id?} -> the session
//   {id: "cos-...", amount, currency, checkout_status: open|complete|expired,
//   payment_status: processing|cancelled|succeeded, wave_launch_url, client_reference,
//   transaction_id, last_payment_error, when_created, when_expires, when_completed, ...};
//   GET /v1/checkout/sessions/:id; GET /v1/checkout/sessions/search?client_reference= -> {result: [...]};
//   POST /v1/checkout/sessions/:id/expire (an open session only); POST
//   /v1/checkout/sessions/:id/refund (a paid session, in full).
// - https://docs.wave.com/payout (Payout API). POST /v1/payout {currency, receive_amount: string,
//   mobile (E.164), name, national_id?, client_reference?, payment_reason?} with an
//   `Idempotency-Key` header (the same key returns the same payout, never a second one) -> the
//   payout {id: "pt-...", status: processing|succeeded|failed|reversed, receive_amount, fee,
//   payout_error?: {error_code, error_message}, timestamp, ...}; GET /v1/payout/:id.
// - https://docs.wave.com/balance-api (Balance & Reconciliation API). GET /v1/transactions?date=
//   YYYY-MM-DD&after=<cursor> -> {page_info: {start_cursor, end_cursor, has_next_page}, date,
//   items: [{timestamp, transaction_id, transaction_type (api_checkout, api_checkout_refund,
//   api_payout, api_payout_reversal, merchant_payment, ...), amount (signed, after the fee), fee,
//   balance, currency, is_reversal, client_reference, checkout_api_session_id, ...}]}.
// - Errors (both pages): a non-2xx answer with {code, message} (401 invalid-auth,
//   404 ..-not-found, 400 request-validation-error, 429 and 5xx retryable).
// - https://docs.wave.com/webhook: events {id, type, data} (checkout.session.completed,
//   checkout.session.payment_failed, b2b.payment_received, merchant.payment_received, ...),
//   signed in the Wave-Signature header (wave-signature.ts).
// Amounts are decimal strings in the currency's unit; XOF has no decimals.
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
import { amountString, MobileMoneyRejectedError, ProviderUnavailableError, STATEMENT_CAP } from './wave-api';
import { verifyWaveWebhook } from './wave-signature';
import { readCheckout, readPayout, readStatementLine, type WaveError, type WaveTransactionPage } from './wave-wire';

export const WAVE_API_BASE = 'https://api.wave.com';
export const WAVE_TIMEOUT_MS = 20_000;

export interface WaveSettings {
  apiKey: string;
  webhookSecret: string;
}

type Method = 'GET' | 'POST';

export class WaveProvider implements WaveApi {
  readonly name = 'wave' as const;
  readonly currencies = ['XOF'] as const;
  constructor(private readonly settings: WaveSettings) {}

  /** One call: network failures, timeouts, 429 and 5xx are retryable; other refusals carry Wave's code. */
  private async call(what: string, method: Method, path: string, body?: object, idempotencyKey?: string): Promise<unknown> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.settings.apiKey}` };
    if (body) headers['Content-Type'] = 'application/json';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let res: Response;
    try {
      res = await fetch(`${WAVE_API_BASE}${path}`, {
        method,
        headers,
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(WAVE_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderUnavailableError(`Wave ${what} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // a proxy's HTML error page: judged by its status below
    }
    if (res.ok) return json;
    const error = (json ?? {}) as WaveError;
    const code = typeof error.code === 'string' ? error.code : `http-${res.status}`;
    const message = typeof error.message === 'string' ? error.message : res.statusText;
    if (res.status === 429 || res.status >= 500) throw new ProviderUnavailableError(`Wave ${what} failed: ${code}: ${message}`);
    throw new MobileMoneyRejectedError(code, message, res.status);
  }

  private checkout(what: string, raw: unknown): MobileMoneyCheckout {
    const checkout = readCheckout(raw);
    if (!checkout) throw new ProviderUnavailableError(`Wave ${what}: unreadable checkout session`);
    return checkout;
  }

  private payout(what: string, raw: unknown): MobileMoneyPayout {
    const payout = readPayout(raw);
    if (!payout) throw new ProviderUnavailableError(`Wave ${what}: unreadable payout`);
    return payout;
  }

  async createCheckout(input: MobileMoneyCheckoutInput): Promise<MobileMoneyCheckout> {
    const body = {
      amount: amountString(input.amountMinor, input.currency),
      currency: input.currency.toUpperCase(),
      success_url: input.successUrl,
      error_url: input.errorUrl,
      client_reference: input.clientReference,
      ...(input.restrictPayerMobile ? { restrict_payer_mobile: input.restrictPayerMobile } : {}),
    };
    return this.checkout('checkout', await this.call('checkout', 'POST', '/v1/checkout/sessions', body, input.idempotencyKey));
  }

  async getCheckout(id: string): Promise<MobileMoneyCheckout> {
    return this.checkout('checkout lookup', await this.call('checkout lookup', 'GET', `/v1/checkout/sessions/${encodeURIComponent(id)}`));
  }

  /** The sessions created with our reference: what a create that timed out left behind. */
  async searchCheckouts(clientReference: string): Promise<MobileMoneyCheckout[]> {
    const raw = (await this.call('checkout search', 'GET', `/v1/checkout/sessions/search?client_reference=${encodeURIComponent(clientReference)}`)) as {
      result?: unknown[];
    } | null;
    return (raw?.result ?? []).map((s) => this.checkout('checkout search', s));
  }

  async refundCheckout(id: string, idempotencyKey: string): Promise<void> {
    await this.call('refund', 'POST', `/v1/checkout/sessions/${encodeURIComponent(id)}/refund`, {}, idempotencyKey);
  }

  async expireCheckout(id: string): Promise<void> {
    await this.call('checkout expiry', 'POST', `/v1/checkout/sessions/${encodeURIComponent(id)}/expire`, {});
  }

  async createPayout(input: MobileMoneyPayoutInput): Promise<MobileMoneyPayout> {
    const body = {
      currency: input.currency.toUpperCase(),
      receive_amount: amountString(input.amountMinor, input.currency),
      mobile: input.mobile,
      name: input.name,
      client_reference: input.clientReference,
      ...(input.nationalId ? { national_id: input.nationalId } : {}),
      ...(input.paymentReason ? { payment_reason: input.paymentReason } : {}),
    };
    return this.payout('payout', await this.call('payout', 'POST', '/v1/payout', body, input.idempotencyKey));
  }

  async getPayout(id: string): Promise<MobileMoneyPayout> {
    return this.payout('payout lookup', await this.call('payout lookup', 'GET', `/v1/payout/${encodeURIComponent(id)}`));
  }

  async statement(day: string): Promise<MobileMoneyStatement> {
    const lines: MobileMoneyStatementLine[] = [];
    let after: string | null = null;
    do {
      const query = new URLSearchParams({ date: day, ...(after ? { after } : {}) });
      const page = (await this.call('statement', 'GET', `/v1/transactions?${query}`)) as Partial<WaveTransactionPage> | null;
      for (const item of page?.items ?? []) {
        const line = readStatementLine(item);
        if (!line) throw new ProviderUnavailableError('Wave statement: unreadable transaction line');
        lines.push(line);
      }
      after = page?.page_info?.has_next_page ? (page.page_info.end_cursor ?? null) : null;
    } while (after && lines.length < STATEMENT_CAP);
    return { lines: lines.slice(0, STATEMENT_CAP), capped: after !== null };
  }

  verifyWebhook(rawBody: string, headers: Headers, now: Date): Promise<WebhookVerification> {
    return verifyWaveWebhook(rawBody, headers, this.settings.webhookSecret, now);
  }
}
