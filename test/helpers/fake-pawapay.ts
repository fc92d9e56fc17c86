// A faithful fake of pawaPay's Merchant API v2 (docs.pawapay.io/v2) for the parts the service uses,
// served through msw at https://api.sandbox.pawapay.io so the real adapter's fetch reaches it: bearer
// token checked (401 NO_AUTHENTICATION / 403 AUTHENTICATION_ERROR), bodies validated as documented
// (UUIDv4 ids, amount strings, payer/recipient {type: MMO, accountDetails: {phoneNumber, provider}},
// 400 INVALID_PARAMETER), limits enforced (REJECTED AMOUNT_OUT_OF_BOUNDS), idempotent on the id
// (DUPLICATE_IGNORED), GET status {status: FOUND|NOT_FOUND, data}, predict-provider and active-conf.
// Deposits stay ACCEPTED until the test settles them; `callbackFor` builds the callback pawaPay
// would POST (the final data object). `outage` answers 500 on a path; `dropAfterAccept` accepts the
// request but answers 500 (the outcome unknown to the caller).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export const FAKE_PAWAPAY_TOKEN = 'pawapay-fake-test-token';
const BASE = 'https://api.sandbox.pawapay.io';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
type Obj = Record<string, any>;
type Kind = 'deposit' | 'payout' | 'refund';
const ID = { deposit: 'depositId', payout: 'payoutId', refund: 'refundId' } as const;

export const FAKE_LIMITS: Record<string, { currency: string; country: string; deposit: [number, number]; payout: [number, number] }> = {
  MTN_MOMO_CMR: { currency: 'XAF', country: 'CMR', deposit: [100, 1_000_000], payout: [100, 500_000] },
  ORANGE_CMR: { currency: 'XAF', country: 'CMR', deposit: [100, 500_000], payout: [100, 200_000] },
  MTN_MOMO_CIV: { currency: 'XOF', country: 'CIV', deposit: [100, 1_500_000], payout: [100, 1_000_000] },
  ORANGE_CIV: { currency: 'XOF', country: 'CIV', deposit: [100, 1_000_000], payout: [100, 300_000] },
  ORANGE_SEN: { currency: 'XOF', country: 'SEN', deposit: [100, 1_000_000], payout: [100, 500_000] },
};

export interface PawapayRequest {
  method: string;
  path: string;
  body: Obj | null;
  headers: Record<string, string>;
}

const bad = (code: string, message: string, status = 400) => HttpResponse.json({ status: 'REJECTED', failureReason: { failureCode: code, failureMessage: message } }, { status });

export class FakePawapay {
  requests: PawapayRequest[] = [];
  payments = { deposit: new Map<string, Obj>(), payout: new Map<string, Obj>(), refund: new Map<string, Obj>() };
  outage = new Set<string>();
  /** The next initiation of this kind is recorded but answered 500 (a timeout, as the caller sees it). */
  dropAfterAccept = new Set<Kind>();

  readonly server = setupServer(
    http.all(`${BASE}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const text = request.method === 'GET' ? '' : await request.text();
      const body = text ? (JSON.parse(text) as Obj) : null;
      this.requests.push({ method: request.method, path: url.pathname, body, headers: Object.fromEntries(request.headers) });
      const auth = request.headers.get('authorization');
      if (!auth) return bad('NO_AUTHENTICATION', 'No API token', 401);
      if (auth !== `Bearer ${FAKE_PAWAPAY_TOKEN}`) return bad('AUTHENTICATION_ERROR', 'Invalid token', 403);
      if (this.outage.has(url.pathname)) return HttpResponse.json({}, { status: 500 });
      return this.route(request.method, url.pathname, body);
    }),
  );

  requestsTo(method: string, path: string) {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  private route(method: string, path: string, body: Obj | null) {
    if (path === '/v2/active-conf') return HttpResponse.json(this.activeConf());
    if (path === '/v2/predict-provider') return this.predict(String(body?.phoneNumber ?? ''));
    const m = /^\/v2\/(deposit|payout|refund)s(?:\/(.+))?$/.exec(path);
    if (!m) return bad('NOT_FOUND', path, 404);
    const kind = m[1] as Kind;
    if (method === 'GET') {
      const found = this.payments[kind].get(m[2] ?? '');
      return HttpResponse.json(found ? { status: 'FOUND', data: found } : { status: 'NOT_FOUND' });
    }
    return this.initiate(kind, body ?? {});
  }

  private predict(phone: string) {
    const n = phone.replace(/\D/g, '');
    const rules: [RegExp, string][] = [
      [/^237(67\d|65[0-4]|68\d)\d{6}$/, 'MTN_MOMO_CMR'],
      [/^237(69\d|65[5-9])\d{6}$/, 'ORANGE_CMR'],
      [/^22505\d{8}$/, 'MTN_MOMO_CIV'],
      [/^22507\d{8}$/, 'ORANGE_CIV'],
      [/^221(77|78)\d{7}$/, 'ORANGE_SEN'],
    ];
    const hit = rules.find(([re]) => re.test(n));
    if (!hit) return bad('INVALID_PHONE_NUMBER', 'The phone number is not valid for any provider');
    return HttpResponse.json({ country: FAKE_LIMITS[hit[1]].country, provider: hit[1], phoneNumber: n });
  }

  private initiate(kind: Kind, body: Obj) {
    const id = body[ID[kind]];
    if (typeof id !== 'string' || !UUID.test(id)) return bad('INVALID_PARAMETER', `${ID[kind]} must be a UUIDv4`);
    if (typeof body.amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(body.amount)) return bad('INVALID_PARAMETER', 'amount must be a decimal string');
    if (this.payments[kind].has(id)) return HttpResponse.json({ [ID[kind]]: id, status: 'DUPLICATE_IGNORED', created: this.payments[kind].get(id)!.created });
    let account = kind === 'deposit' ? body.payer : body.recipient;
    let currency = body.currency;
    if (kind === 'refund') {
      const deposit = this.payments.deposit.get(body.depositId);
      if (!deposit || deposit.status !== 'COMPLETED') return HttpResponse.json({ refundId: id, status: 'REJECTED', failureReason: { failureCode: 'DEPOSIT_NOT_FOUND', failureMessage: 'No completed deposit' } });
      account = deposit.payer;
      currency = deposit.currency;
    } else if (account?.type !== 'MMO' || typeof account?.accountDetails?.phoneNumber !== 'string' || !/^\d+$/.test(account.accountDetails.phoneNumber)) {
      return bad('INVALID_PARAMETER', 'payer/recipient must be {type: MMO, accountDetails: {phoneNumber (digits), provider}}');
    }
    const limits = FAKE_LIMITS[account.accountDetails.provider];
    if (!limits || limits.currency !== currency) return HttpResponse.json({ [ID[kind]]: id, status: 'REJECTED', failureReason: { failureCode: 'INVALID_CURRENCY', failureMessage: 'Currency not supported' } });
    const [min, max] = limits[kind === 'payout' ? 'payout' : 'deposit'];
    if (Number(body.amount) < min || Number(body.amount) > max) return HttpResponse.json({ [ID[kind]]: id, status: 'REJECTED', failureReason: { failureCode: 'AMOUNT_OUT_OF_BOUNDS', failureMessage: `Amount must be between ${min} and ${max}` } });
    const created = new Date().toISOString();
    const payment: Obj = { [ID[kind]]: id, status: 'ACCEPTED', amount: body.amount, currency, country: limits.country, [kind === 'payout' ? 'recipient' : 'payer']: account, created, ...(kind === 'refund' ? { depositId: body.depositId } : {}) };
    this.payments[kind].set(id, payment);
    if (this.dropAfterAccept.delete(kind)) return HttpResponse.json({}, { status: 502 });
    return HttpResponse.json({ [ID[kind]]: id, status: 'ACCEPTED', created });
  }

  /** The payment becomes final (as the payer's phone or the operator decides); returns the callback body pawaPay would POST. */
  settle(kind: Kind, id: string, outcome: 'COMPLETED' | { failureCode: string; failureMessage: string }): string {
    const p = this.payments[kind].get(id);
    if (!p) throw new Error(`no ${kind} ${id}`);
    if (outcome === 'COMPLETED') Object.assign(p, { status: 'COMPLETED', providerTransactionId: `PT${id.slice(0, 8).toUpperCase()}` });
    else Object.assign(p, { status: 'FAILED', failureReason: outcome });
    return JSON.stringify(p);
  }

  private activeConf() {
    const countries = new Map<string, Obj[]>();
    for (const [provider, l] of Object.entries(FAKE_LIMITS)) {
      const op = ([min, max]: [number, number]) => ({ minAmount: String(min), maxAmount: String(max), decimalsInAmount: 'NONE', status: 'OPERATIONAL' });
      countries.set(l.country, [...(countries.get(l.country) ?? []), { provider, displayName: provider.startsWith('MTN') ? 'MTN' : 'Orange', currencies: [{ currency: l.currency, operationTypes: { DEPOSIT: op(l.deposit), PAYOUT: op(l.payout), REFUND: op(l.deposit) } }] }]);
    }
    return { companyName: 'Fake', signatureConfiguration: { signedRequestsOnly: false, signedCallbacks: true }, countries: [...countries].map(([country, providers]) => ({ country, providers })) };
  }
}
