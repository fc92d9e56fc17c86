// The local stand-in for pawaPay (outside production, no PAWAPAY_API_TOKEN): a transport answering
// the very requests the pawaPay adapter sends (pawapay-rail.ts), in pawaPay's v2 shapes, over KV.
// A deposit waits for the payer as on a phone: the approval page (/sandbox/pawapay/deposits/{id})
// approves or refuses the PIN prompt. pawaPay's sandbox test numbers decide some outcomes by
// themselves (docs.pawapay.io/testing_the_api): a payer number ending 039 does not approve
// (PAYMENT_NOT_APPROVED), 049 has too little money (INSUFFICIENT_BALANCE), 029 has no wallet
// (PAYER_NOT_FOUND), 129 completes but no callback ever comes; a payout to a number ending 089 finds
// no recipient (RECIPIENT_NOT_FOUND), 129 stays without callback. Callbacks wait in an outbox until
// the sandbox routes (or the cron) deliver them to the callback handler, as pawaPay would POST them.
import type { Transport } from './pawapay-rail';
import { ID_FIELD, msisdn, PAWAPAY_OPERATORS, pawapayMinor, type PawapayKind, type PawapayPayment } from './pawapay-wire';

const PREFIX = 'sandbox:pawapay:';
const OUTBOX = `${PREFIX}outbox`;
const TTL_SECONDS = 7 * 24 * 3600;

/** Limits of the local sandbox (pawaPay's real ones come from the account's active configuration). */
export const SANDBOX_LIMITS: Readonly<Record<string, { deposit: [number, number]; payout: [number, number] }>> = {
  MTN_MOMO_CMR: { deposit: [100, 1_000_000], payout: [100, 500_000] },
  ORANGE_CMR: { deposit: [100, 500_000], payout: [100, 200_000] },
  MTN_MOMO_CIV: { deposit: [100, 1_500_000], payout: [100, 1_000_000] },
  ORANGE_CIV: { deposit: [100, 1_000_000], payout: [100, 300_000] },
  ORANGE_SEN: { deposit: [100, 1_000_000], payout: [100, 500_000] },
};

const ALPHA3: Record<string, string> = { CM: 'CMR', CI: 'CIV', SN: 'SEN' };

/** The sandbox's provider prediction by number ranges (MTN 67/650-654/68, Orange 69/655-659 in Cameroon; MTN 05, Orange 07 in Côte d'Ivoire; Orange 77/78 in Senegal). */
export function sandboxPrediction(phone: string): { provider: string; phoneNumber: string; country: string } | null {
  const n = msisdn(phone);
  const rules: [RegExp, string][] = [
    [/^237(67\d|65[0-4]|68\d)\d{6}$/, 'MTN_MOMO_CMR'],
    [/^237(69\d|65[5-9])\d{6}$/, 'ORANGE_CMR'],
    [/^22505\d{8}$/, 'MTN_MOMO_CIV'],
    [/^22507\d{8}$/, 'ORANGE_CIV'],
    [/^221(77|78)\d{7}$/, 'ORANGE_SEN'],
  ];
  const hit = rules.find(([re]) => re.test(n));
  return hit ? { provider: hit[1], phoneNumber: n, country: ALPHA3[PAWAPAY_OPERATORS[hit[1]].country] } : null;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const failure = (failureCode: string, failureMessage: string) => ({ failureCode, failureMessage });
const FAILING_PAYERS: Record<string, [string, string]> = {
  '039': ['PAYMENT_NOT_APPROVED', 'The payer did not approve the payment'],
  '049': ['INSUFFICIENT_BALANCE', 'The payer does not have enough money'],
  '029': ['PAYER_NOT_FOUND', 'The number has no mobile-money wallet'],
};

export class PawapaySandbox {
  constructor(private readonly kv: KVNamespace) {}

  private key = (kind: PawapayKind, id: string) => `${PREFIX}${kind}:${id}`;
  load(kind: PawapayKind, id: string): Promise<PawapayPayment | null> {
    return this.kv.get<PawapayPayment>(this.key(kind, id), 'json');
  }
  private save(kind: PawapayKind, p: PawapayPayment) {
    return this.kv.put(this.key(kind, p[ID_FIELD[kind]]!), JSON.stringify(p), { expirationTtl: TTL_SECONDS });
  }

  /** Queues the callback pawaPay would POST for a final payment (not for numbers that never call back). */
  private async callBack(kind: PawapayKind, p: PawapayPayment) {
    const account = p.payer ?? p.recipient;
    if (account?.accountDetails.phoneNumber.endsWith('129')) return;
    const outbox = (await this.kv.get<string[]>(OUTBOX, 'json')) ?? [];
    outbox.push(JSON.stringify(p));
    await this.kv.put(OUTBOX, JSON.stringify(outbox), { expirationTtl: TTL_SECONDS });
    void kind;
  }

  /** The callbacks waiting, removed from the outbox: the caller hands each to the callback handler. */
  async takeCallbacks(): Promise<string[]> {
    const outbox = (await this.kv.get<string[]>(OUTBOX, 'json')) ?? [];
    if (outbox.length) await this.kv.delete(OUTBOX);
    return outbox;
  }

  /** The approval page's buttons: the payer approves or refuses the PIN prompt of an ACCEPTED deposit. */
  async decide(depositId: string, approve: boolean): Promise<PawapayPayment | null> {
    const p = await this.load('deposit', depositId);
    if (!p || p.status !== 'ACCEPTED') return p;
    if (approve) Object.assign(p, { status: 'COMPLETED', providerTransactionId: `SBX${crypto.randomUUID().slice(0, 8).toUpperCase()}` });
    else Object.assign(p, { status: 'FAILED', failureReason: failure('PAYMENT_NOT_APPROVED', 'The payer refused the payment on the phone') });
    await this.save('deposit', p);
    await this.callBack('deposit', p);
    return p;
  }

  readonly transport: Transport = async (request) => {
    const path = new URL(request.url).pathname;
    const body = request.method === 'POST' ? ((await request.json().catch(() => null)) as Record<string, any> | null) : null;
    if (path === '/v2/active-conf') return json(this.activeConf());
    if (path === '/v2/predict-provider') {
      const hit = sandboxPrediction(String(body?.phoneNumber ?? ''));
      return hit ? json(hit) : json({ failureReason: failure('INVALID_PHONE_NUMBER', 'Not a number of a configured provider') }, 400);
    }
    const m = /^\/v2\/(deposit|payout|refund)s(?:\/([0-9a-f-]{36}))?$/.exec(path);
    if (!m) return json({ failureReason: failure('NOT_FOUND', path) }, 404);
    const kind = m[1] as PawapayKind;
    if (request.method === 'GET') {
      const found = await this.load(kind, m[2] ?? '');
      return json(found ? { status: 'FOUND', data: found } : { status: 'NOT_FOUND' });
    }
    return json(await this.initiate(kind, body ?? {}));
  };

  private async initiate(kind: PawapayKind, body: Record<string, any>) {
    const id = String(body[ID_FIELD[kind]] ?? '');
    if (await this.load(kind, id)) return { [ID_FIELD[kind]]: id, status: 'DUPLICATE_IGNORED' };
    const reject = (code: string, message: string) => ({ [ID_FIELD[kind]]: id, status: 'REJECTED', failureReason: failure(code, message) });
    let account = kind === 'deposit' ? body.payer : body.recipient;
    let currency = String(body.currency ?? '');
    if (kind === 'refund') {
      const deposit = await this.load('deposit', String(body.depositId ?? ''));
      if (!deposit || deposit.status !== 'COMPLETED') return reject('DEPOSIT_NOT_FOUND', 'No completed deposit to refund');
      account = deposit.payer;
      currency = deposit.currency;
    }
    const provider = String(account?.accountDetails?.provider ?? '');
    const limits = SANDBOX_LIMITS[provider]?.[kind === 'payout' ? 'payout' : 'deposit'];
    const amount = pawapayMinor(body.amount, currency);
    if (!limits || PAWAPAY_OPERATORS[provider]?.currency !== currency) return reject('INVALID_PROVIDER', `${provider} does not take ${currency}`);
    if (!(amount >= limits[0] && amount <= limits[1])) return reject('AMOUNT_OUT_OF_BOUNDS', `Amount must be between ${limits[0]} and ${limits[1]}`);
    const p: PawapayPayment = {
      [ID_FIELD[kind]]: id,
      ...(kind === 'refund' ? { depositId: body.depositId } : {}),
      status: 'ACCEPTED',
      amount: String(body.amount),
      currency,
      country: ALPHA3[PAWAPAY_OPERATORS[provider].country],
      [kind === 'payout' ? 'recipient' : 'payer']: account,
      created: new Date().toISOString(),
    };
    const number = String(account?.accountDetails?.phoneNumber ?? '');
    const failing = kind === 'deposit' ? FAILING_PAYERS[number.slice(-3)] : number.endsWith('089') ? ['RECIPIENT_NOT_FOUND', 'The recipient has no wallet'] : null;
    // A deposit waits for the approval page; payouts and refunds are done at once (unless the number says otherwise).
    if (failing) Object.assign(p, { status: 'FAILED', failureReason: failure(failing[0], failing[1]) });
    else if (kind !== 'deposit' && !number.endsWith('129')) Object.assign(p, { status: 'COMPLETED', providerTransactionId: `SBX${crypto.randomUUID().slice(0, 8).toUpperCase()}` });
    await this.save(kind, p);
    if (p.status !== 'ACCEPTED') await this.callBack(kind, p);
    return { [ID_FIELD[kind]]: id, status: 'ACCEPTED', created: p.created };
  }

  private activeConf() {
    const byCountry = new Map<string, unknown[]>();
    for (const [provider, o] of Object.entries(PAWAPAY_OPERATORS)) {
      const l = SANDBOX_LIMITS[provider];
      const op = (min: number, max: number) => ({ minAmount: String(min), maxAmount: String(max), decimalsInAmount: 'NONE', status: 'OPERATIONAL' });
      const entry = { provider, displayName: o.displayName, currencies: [{ currency: o.currency, operationTypes: { DEPOSIT: op(...l.deposit), PAYOUT: op(...l.payout), REFUND: op(...l.deposit) } }] };
      const country = ALPHA3[o.country];
      byCountry.set(country, [...(byCountry.get(country) ?? []), entry]);
    }
    return { companyName: 'Sandbox', signatureConfiguration: { signedRequestsOnly: false, signedCallbacks: false }, countries: [...byCountry].map(([country, providers]) => ({ country, providers })) };
  }
}
