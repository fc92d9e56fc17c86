// A faithful fake of the parts of Stripe's HTTP API the service uses, served through msw so the
// real `stripe` SDK (fetch client) talks to it unchanged. It records every request (form body
// parsed into nested objects, headers, Idempotency-Key), honours idempotency keys the way Stripe
// does (same key + same parameters replays the first answer; other parameters is a 400
// idempotency_error), enforces PaymentIntent states, and answers errors in Stripe's shape.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { env } from 'cloudflare:workers';
import Stripe from 'stripe';
import { PRODUCTION_STRIPE_KEY } from './production';

const CHECKOUT_LOCALES = 'auto bg cs da de el en en-GB es es-419 et fi fil fr fr-CA hr hu id it ja ko lt lv ms mt nb nl pl pt pt-BR ro ru sk sl sv th tr vi zh zh-HK zh-TW'.split(' ');

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, any>;
  idempotencyKey: string | null;
  headers: Record<string, string>;
}

type Obj = Record<string, any>;

/** `a[b][0][c]=1` form encoding to nested objects/arrays (Stripe's encoding). */
export function parseForm(text: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

const stripeError = (status: number, type: string, message: string, code?: string) =>
  HttpResponse.json({ error: { type, message, code } }, { status });

export class FakeStripe {
  requests: RecordedRequest[] = [];
  sessions = new Map<string, Obj>();
  paymentIntents = new Map<string, Obj>();
  accounts = new Map<string, Obj>();
  transfers = new Map<string, Obj>();
  refunds = new Map<string, Obj>();
  /** One charge per PaymentIntent, made at authorisation (its `latest_charge`). */
  charges = new Map<string, Obj>();
  /** Destinations whose transfers Stripe refuses (e.g. missing capability). */
  refuseTransfersTo = new Set<string>();
  /** The status a new refund answers with (card refunds: pending, succeeded or failed); tests move it on in `refunds`. */
  refundStatus: 'pending' | 'succeeded' | 'failed' = 'succeeded';
  /** Paths answering 500 (provider outage). */
  outage = new Set<string>();
  private idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  private seq = 0;

  readonly server = setupServer(
    http.all('https://api.stripe.com/*', async ({ request }) => {
      const url = new URL(request.url);
      const text = request.method === 'GET' ? url.searchParams.toString() : await request.text();
      const body = parseForm(text);
      const idempotencyKey = request.headers.get('Idempotency-Key');
      const headers = Object.fromEntries(request.headers.entries());
      this.requests.push({ method: request.method, path: url.pathname, body, idempotencyKey, headers });
      // The account's keys: the test runner's (test mode) and the production tests' live one.
      if (![env.STRIPE_SECRET_KEY, PRODUCTION_STRIPE_KEY].some((key) => request.headers.get('Authorization') === `Bearer ${key}`)) {
        return stripeError(401, 'invalid_request_error', 'Invalid API Key provided');
      }
      if (this.outage.has(url.pathname)) return stripeError(500, 'api_error', 'Something went wrong on Stripe’s end.');
      if (idempotencyKey && request.method === 'POST') {
        const scoped = `${url.pathname}|${idempotencyKey}`;
        const fingerprint = JSON.stringify(body);
        const seen = this.idempotency.get(scoped);
        if (seen) {
          if (seen.fingerprint !== fingerprint) {
            return stripeError(
              400,
              'idempotency_error',
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            );
          }
          return HttpResponse.json(seen.body as Obj, { status: seen.status, headers: { 'Idempotent-Replayed': 'true' } });
        }
        const res = this.route(request.method, url.pathname, body);
        const clone = res.clone();
        this.idempotency.set(scoped, { fingerprint, status: res.status, body: await clone.json() });
        return res;
      }
      return this.route(request.method, url.pathname, body);
    }),
  );

  private id(prefix: string) {
    this.seq += 1;
    return `${prefix}_fake${String(this.seq).padStart(6, '0')}${crypto.randomUUID().slice(0, 6)}`;
  }

  private route(method: string, path: string, body: Obj): Response {
    const now = Math.floor(Date.now() / 1000);
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      for (const field of ['mode', 'success_url', 'line_items']) {
        if (!body[field]) return stripeError(400, 'invalid_request_error', `Missing required param: ${field}.`, 'parameter_missing');
      }
      const expiresAt = body.expires_at ? Number(body.expires_at) : now + 24 * 3600;
      if (expiresAt < now + 30 * 60 - 5 || expiresAt > now + 24 * 3600) {
        return stripeError(400, 'invalid_request_error', 'The `expires_at` timestamp must be between 30 minutes and 24 hours.', 'parameter_invalid_integer');
      }
      // Stripe's Checkout languages (the `locale` parameter); any other value is refused.
      if (body.locale !== undefined && !CHECKOUT_LOCALES.includes(body.locale)) {
        return stripeError(400, 'invalid_request_error', `Invalid locale: must be one of ${CHECKOUT_LOCALES.join(', ')}`, 'parameter_invalid_string');
      }
      const item = body.line_items[0];
      const id = this.id('cs_test');
      const session = {
        id,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        url: `https://checkout.stripe.com/c/pay/${id}`,
        // Every line counts (the transport price, the protection premium).
        amount_total: (body.line_items as Obj[]).reduce((sum, l) => sum + Number(l.price_data.unit_amount) * Number(l.quantity ?? 1), 0),
        currency: item.price_data.currency,
        expires_at: expiresAt,
        metadata: body.metadata ?? {},
        payment_intent: null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        customer_email: body.customer_email ?? null,
        locale: body.locale ?? null,
        livemode: false,
        _paymentIntentData: body.payment_intent_data ?? {},
      };
      this.sessions.set(id, session);
      return HttpResponse.json(this.publicSession(session));
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const s = this.sessions.get(m[1]);
      return s ? HttpResponse.json(this.publicSession(s)) : this.missing('checkout.session', m[1]);
    }
    if (method === 'POST' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) {
      const s = this.sessions.get(m[1]);
      if (!s) return this.missing('checkout.session', m[1]);
      if (s.status !== 'open') {
        return stripeError(400, 'invalid_request_error', `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`, 'checkout_session_not_open');
      }
      s.status = 'expired';
      return HttpResponse.json(this.publicSession(s));
    }
    if (method === 'POST' && (m = path.match(/^\/v1\/payment_intents\/([^/]+)\/capture$/))) {
      const pi = this.paymentIntents.get(m[1]);
      if (!pi) return this.missing('payment_intent', m[1]);
      if (pi.status !== 'requires_capture') {
        return stripeError(400, 'invalid_request_error', `This PaymentIntent could not be captured because it has a status of ${pi.status}.`, 'payment_intent_unexpected_state');
      }
      const amount = body.amount_to_capture ? Number(body.amount_to_capture) : pi.amount_capturable;
      if (amount > pi.amount_capturable) return stripeError(400, 'invalid_request_error', 'amount_to_capture is too large', 'amount_too_large');
      const charge = this.chargeOf(pi);
      // A capture below the authorised amount releases the rest: Stripe counts it as refunded.
      Object.assign(charge, { captured: true, amount_captured: amount, amount_refunded: charge.amount - amount });
      Object.assign(pi, { status: 'succeeded', amount_received: amount, amount_capturable: 0, latest_charge: charge.id });
      return HttpResponse.json(pi);
    }
    if (method === 'POST' && (m = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/))) {
      const pi = this.paymentIntents.get(m[1]);
      if (!pi) return this.missing('payment_intent', m[1]);
      if (!['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'].includes(pi.status)) {
        return stripeError(400, 'invalid_request_error', `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`, 'payment_intent_unexpected_state');
      }
      Object.assign(pi, { status: 'canceled', amount_capturable: 0, cancellation_reason: body.cancellation_reason ?? 'requested_by_customer' });
      const voided = pi.latest_charge ? this.charges.get(pi.latest_charge) : undefined;
      if (voided) Object.assign(voided, { refunded: true, amount_refunded: voided.amount });
      return HttpResponse.json(pi);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = this.paymentIntents.get(body.payment_intent);
      if (!pi) return this.missing('payment_intent', body.payment_intent);
      if (pi.status !== 'succeeded') return stripeError(400, 'invalid_request_error', 'This PaymentIntent has not been captured.', 'charge_not_captured');
      const amount = body.amount ? Number(body.amount) : pi.amount_received - (pi.amount_refunded ?? 0);
      if (amount > pi.amount_received - (pi.amount_refunded ?? 0)) {
        return stripeError(400, 'invalid_request_error', 'Refund amount is greater than the unrefunded amount.', 'amount_too_large');
      }
      // A failed refund gives nothing back: the charge stays refundable (Stripe reverses a failed refund).
      const charged = this.chargeOf(pi);
      if (this.refundStatus !== 'failed') {
        pi.amount_refunded = (pi.amount_refunded ?? 0) + amount;
        charged.amount_refunded += amount;
        charged.refunded = charged.amount_refunded >= charged.amount;
      }
      const refund = { id: this.id('re'), object: 'refund', amount, currency: pi.currency, payment_intent: pi.id, charge: pi.latest_charge, status: this.refundStatus, created: now };
      this.refunds.set(refund.id, refund);
      return HttpResponse.json(refund);
    }
    if (method === 'POST' && path === '/v1/accounts') {
      const account = {
        id: this.id('acct'),
        object: 'account',
        type: body.type,
        email: body.email ?? null,
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
        requirements: { currently_due: ['external_account', 'individual.verification.document'] },
        capabilities: { transfers: 'inactive' },
        metadata: body.metadata ?? {},
      };
      this.accounts.set(account.id, account);
      return HttpResponse.json(account);
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const a = this.accounts.get(m[1]);
      return a ? HttpResponse.json(a) : this.missing('account', m[1]);
    }
    if (method === 'POST' && path === '/v1/account_links') {
      if (!this.accounts.has(body.account)) return this.missing('account', body.account);
      return HttpResponse.json({
        object: 'account_link',
        url: `https://connect.stripe.com/setup/e/${body.account}/${this.id('link')}`,
        created: now,
        expires_at: now + 300,
      });
    }
    if (method === 'POST' && path === '/v1/transfers') {
      const destination = this.accounts.get(body.destination);
      if (!destination) return this.missing('account', body.destination);
      if (this.refuseTransfersTo.has(body.destination) || !destination.payouts_enabled) {
        return stripeError(
          400,
          'invalid_request_error',
          'Your destination account needs to have at least one of the following capabilities enabled: transfers',
          'insufficient_capabilities_for_transfer',
        );
      }
      const transfer = {
        id: this.id('tr'),
        object: 'transfer',
        amount: Number(body.amount),
        currency: body.currency,
        destination: body.destination,
        metadata: body.metadata ?? {},
        amount_reversed: 0,
        reversed: false,
        created: now,
      };
      this.transfers.set(transfer.id, transfer);
      return HttpResponse.json(transfer);
    }
    if (method === 'GET' && path.startsWith('/v1/refunds/')) {
      const refund = this.refunds.get(path.slice('/v1/refunds/'.length));
      return refund ? HttpResponse.json(refund) : this.missing('refund', path.slice('/v1/refunds/'.length));
    }
    // The reconciliation's listings: created[gte]/created[lt], newest first, `limit` and `starting_after` pages.
    const listed = { '/v1/charges': this.charges, '/v1/refunds': this.refunds, '/v1/transfers': this.transfers }[path];
    if (method === 'GET' && listed) return this.list(path, [...listed.values()], body);
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  private list(url: string, items: Obj[], q: Obj): Response {
    const limit = Number(q.limit ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return stripeError(400, 'invalid_request_error', 'Invalid integer: limit', 'parameter_invalid_integer');
    const gte = q.created?.gte !== undefined ? Number(q.created.gte) : -Infinity;
    const lt = q.created?.lt !== undefined ? Number(q.created.lt) : Infinity;
    // Newest first; the insertion order breaks ties (ids are not time-ordered here).
    const all = items.map((item, i) => ({ item, i })).filter(({ item }) => item.created >= gte && item.created < lt).sort((a, b) => b.item.created - a.item.created || b.i - a.i).map(({ item }) => item);
    const start = q.starting_after ? all.findIndex((item) => item.id === q.starting_after) + 1 : 0;
    const data = all.slice(start, start + limit);
    return HttpResponse.json({ object: 'list', url, has_more: start + limit < all.length, data });
  }

  /** The PaymentIntent's charge (made at authorisation; made now for one a test set up by hand). */
  private chargeOf(pi: Obj): Obj {
    const found = pi.latest_charge ? this.charges.get(pi.latest_charge) : undefined;
    if (found) return found;
    const captured = pi.status === 'succeeded';
    const charge = {
      id: pi.latest_charge ?? this.id('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_captured: captured ? pi.amount_received : 0,
      amount_refunded: captured ? pi.amount - pi.amount_received : 0,
      captured,
      refunded: false,
      currency: pi.currency,
      payment_intent: pi.id,
      status: 'succeeded',
      metadata: pi.metadata ?? {},
      created: Math.floor(Date.now() / 1000),
    };
    this.charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    return charge;
  }

  private missing(kind: string, id: string) {
    return stripeError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing');
  }

  private publicSession(s: Obj) {
    const { _paymentIntentData, ...rest } = s;
    return rest;
  }

  // ----- what the customer and Stripe's back office do -----

  /** The customer pays on the hosted page: a PaymentIntent is authorised (requires_capture). */
  completeCheckout(sessionId: string) {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`unknown session ${sessionId}`);
    const pi = this.authorizedPaymentIntent(s.amount_total, s.currency, s._paymentIntentData.metadata ?? {});
    Object.assign(s, { status: 'complete', payment_intent: pi.id });
    return { session: this.publicSession(s), paymentIntent: pi };
  }

  /** An authorised (uncaptured) PaymentIntent, as after a manual-capture checkout. */
  authorizedPaymentIntent(amount: number, currency: string, metadata: Obj) {
    const pi = {
      id: this.id('pi'),
      object: 'payment_intent',
      amount,
      amount_capturable: amount,
      amount_received: 0,
      currency,
      capture_method: 'manual',
      status: 'requires_capture',
      latest_charge: null as string | null,
      metadata,
    };
    const charge = {
      id: this.id('ch'),
      object: 'charge',
      amount,
      amount_captured: 0,
      amount_refunded: 0,
      captured: false,
      refunded: false,
      currency,
      payment_intent: pi.id,
      status: 'succeeded',
      metadata,
      created: Math.floor(Date.now() / 1000),
    };
    this.charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    this.paymentIntents.set(pi.id, pi);
    return pi;
  }

  /** A payout account whose onboarding is finished (or not). */
  addAccount(enabled = true) {
    const account = {
      id: this.id('acct'),
      object: 'account',
      type: 'express',
      charges_enabled: enabled,
      payouts_enabled: enabled,
      details_submitted: enabled,
      requirements: { currently_due: enabled ? [] : ['external_account'] },
    };
    this.accounts.set(account.id, account);
    return account;
  }

  event(type: string, object: Obj) {
    return { id: this.id('evt'), object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false, data: { object: structuredClone(object) } };
  }

  requestsTo(method: string, path: string | RegExp) {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }
}

/** Signs a payload as Stripe does (Stripe-Signature header). */
export async function stripeSignature(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? env.STRIPE_WEBHOOK_SECRET,
    timestamp: options.timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
}
