// A faithful fake of the parts of Wave's HTTP API the service uses (docs.wave.com/checkout,
// /payout, /balance-api's statement, /webhook), served through msw so the real adapter's fetch reaches it unchanged. It
// records every request, checks the bearer key as Wave does (401 missing-auth-header /
// no-matching-api-key), validates bodies (400 request-validation-error with details), keeps
// checkout sessions and payouts with their states, honours Idempotency-Key (same key and body:
// the first answer again; another body: 409), and answers errors in Wave's {code, message} shape.
// The codes of the state refusals (expire a paid session, refund twice) and of the idempotency
// mismatch are not in Wave's public reference: they are this fake's, in Wave's style.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export const FAKE_WAVE_API_KEY = 'wave_sn_prod_fake-test-key';
export const FAKE_WAVE_WEBHOOK_SECRET = 'wave_sn_WHS_fake-test-secret';

type Obj = Record<string, any>;

export interface WaveRecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Obj | null;
  idempotencyKey: string | null;
  headers: Record<string, string>;
}

const waveError = (status: number, code: string, message: string, details?: unknown) =>
  HttpResponse.json(details === undefined ? { code, message } : { code, message, details }, { status });

const invalid = (field: string, msg: string) => waveError(400, 'request-validation-error', 'Request invalid', [{ loc: [field], msg }]);

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const E164 = /^\+[1-9]\d{6,14}$/;

export class FakeWave {
  requests: WaveRecordedRequest[] = [];
  sessions = new Map<string, Obj>();
  payouts = new Map<string, Obj>();
  /** Wallets whose payouts Wave refuses, with its error code and message. */
  refuse = new Map<string, { code: string; message: string }>();
  /** Payouts stay `processing` until settlePayout (Wave pays out asynchronously at times). */
  holdPayouts = false;
  /** The business wallet's balance, in XOF: a payout above it fails with insufficient-funds. */
  balance = 10_000_000;
  /** Paths answering 500; `rateLimited` answers 429 everywhere. */
  outage = new Set<string>();
  rateLimited = false;
  /** The wallet's statement (GET /v1/transactions), in Wave's shape: written as money moves, or added by a test. */
  statement: Obj[] = [];
  /** Lines per page of GET /v1/transactions. */
  statementPageSize = 50;
  private idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  private seq = 0;

  constructor(readonly apiKey = FAKE_WAVE_API_KEY) {}

  readonly server = setupServer(
    http.all('https://api.wave.com/*', async ({ request }) => {
      const url = new URL(request.url);
      const text = request.method === 'GET' ? '' : await request.text();
      let body: Obj | null = null;
      if (text) {
        try {
          body = JSON.parse(text) as Obj;
        } catch {
          return waveError(400, 'request-validation-error', 'Body is not JSON');
        }
      }
      const idempotencyKey = request.headers.get('Idempotency-Key');
      this.requests.push({
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        idempotencyKey,
        headers: Object.fromEntries(request.headers.entries()),
      });
      const auth = request.headers.get('Authorization');
      if (!auth) return waveError(401, 'missing-auth-header', 'Your request should include an HTTP auth header.');
      if (auth !== `Bearer ${this.apiKey}`) return waveError(401, 'no-matching-api-key', "The key you provided doesn't exist in our system.");
      if (this.rateLimited) return waveError(429, 'rate-limit-exceeded', 'Too many requests.');
      if (this.outage.has(url.pathname)) return waveError(500, 'internal-server-error', 'Something went wrong on our side.');
      if (request.method !== 'POST' || !idempotencyKey) return this.route(request.method, url, body ?? {}, idempotencyKey);
      const scoped = `${url.pathname}|${idempotencyKey}`;
      const fingerprint = JSON.stringify(body);
      const seen = this.idempotency.get(scoped);
      if (seen) {
        if (seen.fingerprint !== fingerprint) return waveError(409, 'idempotency-mismatch', 'This Idempotency-Key was used with another request body.');
        return HttpResponse.json(seen.body as Obj, { status: seen.status });
      }
      const res = this.route(request.method, url, body ?? {}, idempotencyKey);
      if (res.status < 500) this.idempotency.set(scoped, { fingerprint, status: res.status, body: await res.clone().json().catch(() => null) });
      return res;
    }),
  );

  private id(prefix: string) {
    this.seq += 1;
    return `${prefix}-${this.seq.toString(36)}${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;
  }

  private route(method: string, url: URL, body: Obj, idempotencyKey: string | null): Response {
    const path = url.pathname;
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(body);
    if (method === 'GET' && path === '/v1/checkout/sessions/search') {
      const reference = url.searchParams.get('client_reference');
      return HttpResponse.json({ result: [...this.sessions.values()].filter((s) => s.client_reference === reference).map((s) => this.publicSession(s)) });
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const s = this.sessions.get(m[1]);
      return s ? HttpResponse.json(this.publicSession(s)) : this.sessionMissing(m[1]);
    }
    if (method === 'POST' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) {
      const s = this.sessions.get(m[1]);
      if (!s) return this.sessionMissing(m[1]);
      if (s.checkout_status !== 'open') return waveError(409, 'checkout-session-not-open', `Checkout session is ${s.checkout_status}.`);
      Object.assign(s, { checkout_status: 'expired', when_completed: iso(Date.now()) });
      return HttpResponse.json(this.publicSession(s));
    }
    if (method === 'POST' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/refund$/))) {
      const s = this.sessions.get(m[1]);
      if (!s) return this.sessionMissing(m[1]);
      if (s.payment_status !== 'succeeded' || s._refunded) return waveError(409, 'checkout-refund-failed', 'This checkout session cannot be refunded.');
      s._refunded = true;
      // Wave refunds the whole payment, its fee included: the balance goes down by what the payer paid.
      this.line({ transaction_type: 'api_checkout_refund', amount: `-${s.amount}`, fee: '0', currency: s.currency, client_reference: s.client_reference, checkout_api_session_id: s.id });
      return new HttpResponse(null, { status: 200 });
    }
    if (method === 'POST' && path === '/v1/payout') return this.createPayout(body, idempotencyKey);
    if (method === 'GET' && path === '/v1/transactions') return this.listStatement(url);
    if (method === 'GET' && (m = path.match(/^\/v1\/payout\/([^/]+)$/))) {
      const p = this.payouts.get(m[1]);
      return p ? HttpResponse.json(p) : waveError(404, 'payout-not-found', 'No payout with this id.');
    }
    return waveError(404, 'not-found', `No route ${method} ${path}.`);
  }

  private amountProblem(field: string, amount: unknown, currency: unknown): Response | null {
    if (currency !== 'XOF') return invalid('currency', 'unsupported currency');
    if (typeof amount !== 'string') return invalid(field, 'str type expected');
    // XOF has no minor unit: Wave refuses decimals.
    if (!/^[1-9]\d*$/.test(amount)) return invalid(field, 'invalid amount for currency XOF');
    return null;
  }

  private createSession(body: Obj): Response {
    const problem = this.amountProblem('amount', body.amount, body.currency);
    if (problem) return problem;
    for (const field of ['success_url', 'error_url']) {
      if (typeof body[field] !== 'string' || !/^https:\/\//.test(body[field])) return invalid(field, 'an https URL is required');
    }
    const now = Date.now();
    const id = this.id('cos');
    const session = {
      id,
      amount: body.amount,
      checkout_status: 'open',
      client_reference: body.client_reference ?? null,
      currency: body.currency,
      error_url: body.error_url,
      last_payment_error: null,
      business_name: 'Colis Corridor',
      payment_status: 'processing',
      success_url: body.success_url,
      transaction_id: null,
      wave_launch_url: `https://pay.wave.com/c/${id}?a=${body.amount}&c=${body.currency}&m=Colis%20Corridor`,
      when_completed: null,
      when_created: iso(now),
      when_expires: iso(now + 30 * 60 * 1000),
      ...(body.restrict_payer_mobile ? { restrict_payer_mobile: body.restrict_payer_mobile } : {}),
      _refunded: false,
    };
    this.sessions.set(id, session);
    return HttpResponse.json(this.publicSession(session));
  }

  private createPayout(body: Obj, idempotencyKey: string | null): Response {
    if (!idempotencyKey) return waveError(400, 'missing-idempotency-key', 'Payouts require an Idempotency-Key header.');
    const problem = this.amountProblem('receive_amount', body.receive_amount, body.currency);
    if (problem) return problem;
    if (typeof body.mobile !== 'string' || !E164.test(body.mobile)) return invalid('mobile', 'an E.164 phone number is required');
    if (typeof body.name !== 'string' || !body.name.trim()) return invalid('name', 'field required');
    const amount = Number(body.receive_amount);
    const refusal =
      this.refuse.get(body.mobile) ?? (amount > this.balance ? { code: 'insufficient-funds', message: 'Your wallet balance is too low for this payout.' } : null);
    if (!refusal && !this.holdPayouts) this.balance -= amount;
    const payout = {
      id: this.id('pt'),
      currency: body.currency,
      receive_amount: body.receive_amount,
      fee: String(Math.ceil(amount * 0.01)),
      mobile: body.mobile,
      name: body.name,
      client_reference: body.client_reference ?? null,
      ...(body.national_id ? { national_id: body.national_id } : {}),
      ...(body.payment_reason ? { payment_reason: body.payment_reason } : {}),
      status: refusal ? 'failed' : this.holdPayouts ? 'processing' : 'succeeded',
      timestamp: iso(Date.now()),
      ...(refusal ? { payout_error: { error_code: refusal.code, error_message: refusal.message } } : {}),
    };
    this.payouts.set(payout.id, payout);
    if (payout.status === 'succeeded') this.payoutLine(payout);
    return HttpResponse.json(payout);
  }

  /** A line on the statement, now (or at `timestamp`). */
  line(fields: Obj) {
    const line = { timestamp: iso(Date.now()), transaction_id: this.id('T').toUpperCase(), balance: String(this.balance), is_reversal: false, client_reference: null, checkout_api_session_id: null, ...fields };
    this.statement.push(line);
    return line;
  }

  /** A payout's line: the balance goes down by what the payee gets and the fee. */
  private payoutLine(p: Obj) {
    this.line({ transaction_type: 'api_payout', amount: `-${Number(p.receive_amount) + Number(p.fee)}`, fee: p.fee, currency: p.currency, client_reference: p.client_reference, counterparty_mobile: p.mobile });
  }

  private listStatement(url: URL): Response {
    const date = url.searchParams.get('date') ?? iso(Date.now()).slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return invalid('date', 'invalid date format');
    const after = url.searchParams.get('after');
    const from = after ? Number(atob(after)) : 0;
    if (!Number.isSafeInteger(from) || from < 0) return invalid('after', 'invalid cursor');
    const day = this.statement.filter((l) => String(l.timestamp).startsWith(date));
    const items = day.slice(from, from + this.statementPageSize);
    const next = from + items.length;
    return HttpResponse.json({ page_info: { start_cursor: after, end_cursor: next < day.length ? btoa(String(next)) : null, has_next_page: next < day.length }, date, items });
  }

  private sessionMissing(id: string) {
    return waveError(404, 'checkout-session-not-found', `No checkout session with id ${id}.`);
  }

  private publicSession(s: Obj) {
    const { _refunded, ...rest } = s;
    return rest;
  }

  // ----- what the payer and Wave's back office do -----

  /** The payer pays in the Wave app: the session completes. */
  paySession(id: string) {
    const s = this.sessions.get(id);
    if (!s) throw new Error(`unknown session ${id}`);
    Object.assign(s, { checkout_status: 'complete', payment_status: 'succeeded', transaction_id: this.id('T').toUpperCase(), when_completed: iso(Date.now()) });
    // Wave keeps 1 % of a checkout: the balance goes up by the rest.
    const fee = Math.ceil(Number(s.amount) * 0.01);
    this.line({ transaction_id: s.transaction_id, transaction_type: 'api_checkout', amount: String(Number(s.amount) - fee), fee: String(fee), currency: s.currency, client_reference: s.client_reference, checkout_api_session_id: s.id });
    return this.publicSession(s);
  }

  /** A payment attempt fails (the session stays open for another try). */
  failPayment(id: string, code = 'insufficient-funds', message = 'The payer does not have enough money in their wallet.') {
    const s = this.sessions.get(id);
    if (!s) throw new Error(`unknown session ${id}`);
    s.last_payment_error = { code, message };
    return this.publicSession(s);
  }

  /** A held payout ends. */
  settlePayout(id: string, outcome: 'succeeded' | { code: string; message: string }) {
    const p = this.payouts.get(id);
    if (!p) throw new Error(`unknown payout ${id}`);
    if (outcome === 'succeeded') {
      Object.assign(p, { status: 'succeeded' });
      this.payoutLine(p);
    }
    else Object.assign(p, { status: 'failed', payout_error: { error_code: outcome.code, error_message: outcome.message } });
    return p;
  }

  /** Wave sends a paid payout back (the payee's wallet closed): `reversed`, its money back on the statement. */
  reversePayout(id: string) {
    const p = this.payouts.get(id);
    if (!p) throw new Error(`unknown payout ${id}`);
    Object.assign(p, { status: 'reversed' });
    return this.line({ transaction_type: 'api_payout_reversal', amount: String(Number(p.receive_amount) + Number(p.fee)), fee: '0', currency: p.currency, client_reference: p.client_reference, is_reversal: true });
  }

  event(type: string, data: Obj) {
    return { id: this.id('AE_sn'), type, data: structuredClone(data) };
  }

  requestsTo(method: string, path: string | RegExp) {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }
}

/**
 * Wave's signature, written here from its documentation rather than imported, so the tests check
 * the service's verification against it: hex HMAC-SHA256 (the webhook secret) of `<t><raw body>`.
 */
export async function waveHmac(secret: string, timestamp: number, rawBody: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}${rawBody}`)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A webhook delivery as Wave sends it: the raw body and the Wave-Signature header (one v1, or
 * several as while a secret is rotated).
 */
export async function waveDelivery(
  event: object | string,
  options: { secret?: string; timestamp?: number; extraSecrets?: string[] } = {},
): Promise<{ rawBody: string; headers: Headers }> {
  const rawBody = typeof event === 'string' ? event : JSON.stringify(event);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  let header = `t=${timestamp},v1=${await waveHmac(options.secret ?? FAKE_WAVE_WEBHOOK_SECRET, timestamp, rawBody)}`;
  for (const secret of options.extraSecrets ?? []) header += `,v1=${await waveHmac(secret, timestamp, rawBody)}`;
  return { rawBody, headers: new Headers({ 'Wave-Signature': header, 'Content-Type': 'application/json' }) };
}
