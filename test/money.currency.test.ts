// Money per currency (CONTRACT section 20, issue 29): the currency table and Stripe's zero-decimal
// list, the CURRENCIES setting, Money that cannot mix currencies, the edge conversion with its
// error bodies, splits that add up exactly in every minor unit, and the default currency of a
// departure country. Pure functions (plus one small router for the error bodies): no database.
import { createRoute, z } from '@hono/zod-openapi';
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConfig } from '../src/config';
import { createRouter } from '../src/env';
import { AppError, toErrorResponse } from '../src/errors';
import {
  MAX_DECIMALS,
  add,
  amountInCurrency,
  amountSchema,
  assertEnabled,
  currencyCodeSchema,
  formatAmount,
  fromMinor,
  money,
  parseMinor,
  storedMoney,
  sub,
  sum,
  toMinor,
  type Money,
} from '../src/lib/amount';
import {
  CURRENCY_CODES,
  DEFAULT_CURRENCIES,
  EURO_AREA,
  STRIPE_ZERO_DECIMAL,
  defaultCurrencyFor,
  fromStripeAmount,
  minorUnitOf,
  parseCurrencyList,
  stripeDecimalsOf,
  toStripeAmount,
  type CurrencyCode,
} from '../src/lib/currency';
import { formatMoney, splitPrice, toCents, vatIncluded } from '../src/lib/money';
import { allocate, allocateMoney, commissionSplit, proportionalSplit, splitPriceOf, vatSplit } from '../src/lib/splits';
import { whenValid } from '../src/validation';
import { render } from '../src/messages';
import { PRODUCTION_ENV } from './helpers/production';

const RUNS = { numRuns: 300 };
const currencyArb = fc.constantFrom(...CURRENCY_CODES);
/** An amount of minor units up to 10 million major units of any currency. */
const minorArb = fc.integer({ min: 0, max: 1_000_000_000 });
const rateArb = fc.integer({ min: 0, max: 9999 }).map((n) => n / 10_000);
const isWhole = (n: number) => Number.isSafeInteger(n);

describe('the currency table', () => {
  it('holds the ISO minor unit of each configured currency', () => {
    expect(DEFAULT_CURRENCIES).toEqual(['EUR', 'XOF', 'XAF', 'MAD', 'GBP', 'USD', 'CAD']);
    expect(Object.fromEntries(DEFAULT_CURRENCIES.map((c) => [c, minorUnitOf(c)]))).toEqual({ EUR: 2, XOF: 0, XAF: 0, MAD: 2, GBP: 2, USD: 2, CAD: 2 });
  });

  it("agrees with Stripe's zero-decimal list for every currency, so Stripe amounts are minor units", () => {
    for (const c of ['XOF', 'XAF', 'GNF', 'JPY', 'KRW']) expect(STRIPE_ZERO_DECIMAL.has(c)).toBe(true);
    for (const c of ['EUR', 'MAD', 'GBP', 'USD', 'CAD', 'CHF']) expect(STRIPE_ZERO_DECIMAL.has(c)).toBe(false);
    for (const c of CURRENCY_CODES) expect([c, stripeDecimalsOf(c)]).toEqual([c, minorUnitOf(c)]);
    expect(toStripeAmount(15_000, 'XOF')).toBe(15_000);
    expect(toStripeAmount(1234, 'EUR')).toBe(1234);
    fc.assert(fc.property(currencyArb, minorArb, (c, m) => fromStripeAmount(toStripeAmount(m, c), c) === m), RUNS);
  });

  it.each([
    [undefined, DEFAULT_CURRENCIES],
    ['', DEFAULT_CURRENCIES],
    ['EUR', ['EUR']],
    [' eur , XOF,EUR ', ['EUR', 'XOF']],
    ['XOF,EUR,GNF', ['XOF', 'EUR', 'GNF']],
  ])('CURRENCIES=%j enables %j', (csv, expected) => {
    expect(parseCurrencyList(csv)).toEqual({ ok: true, currencies: expected });
  });

  it('names the codes the table does not know', () => {
    expect(parseCurrencyList('EUR,ABC,XOF,eu')).toEqual({ ok: false, unknown: ['ABC', 'EU'] });
  });
});

describe('CURRENCIES in the configuration', () => {
  const variant = (over: Record<string, unknown>) => checkConfig({ ...env, ...over } as Env);

  it('defaults to the seven currencies of the corridor', () => {
    const result = variant({});
    expect(result.ok && result.config.currencies).toEqual(['EUR', 'XOF', 'XAF', 'MAD', 'GBP', 'USD', 'CAD']);
  });

  it('is parsed once into appConfig(env).currencies', () => {
    const result = variant({ CURRENCIES: 'EUR,XOF' });
    expect(result.ok && result.config.currencies).toEqual(['EUR', 'XOF']);
  });

  it('refuses an unknown code, or a set without EUR, in every environment; production fails closed', () => {
    const expected = 'invalid CURRENCIES (expected comma-separated ISO 4217 codes among EUR, XOF, XAF, MAD, GBP, USD, CAD, CHF, GNF, EUR included)';
    expect(variant({ CURRENCIES: 'EUR,XYZ' })).toEqual({ ok: false, problems: [expected] });
    expect(variant({ CURRENCIES: 'XOF' })).toEqual({ ok: false, problems: [expected] });
    expect(checkConfig({ ...PRODUCTION_ENV, CURRENCIES: 'EUR,BTC' } as Env)).toEqual({ ok: false, problems: [expected] });
    expect(checkConfig({ ...PRODUCTION_ENV } as Env).ok).toBe(true);
  });

  it('refuses a platform currency that is not enabled', () => {
    expect(variant({ CURRENCIES: 'EUR,XOF', PLATFORM_CURRENCY: 'GBP' })).toEqual({
      ok: false,
      problems: ['invalid PLATFORM_CURRENCY (expected one of the enabled CURRENCIES)'],
    });
  });
});

describe('Money carries its currency', () => {
  const eur = money(1250, 'EUR');
  const xof = money(15_000, 'XOF');

  it('adds, subtracts and sums within one currency', () => {
    expect(add(eur, money(250, 'EUR'))).toEqual({ minor: 1500, currency: 'EUR' });
    expect(sub(xof, money(5000, 'XOF'))).toEqual({ minor: 10_000, currency: 'XOF' });
    expect(sum('XOF', [xof, xof, money(1, 'XOF')])).toEqual({ minor: 30_001, currency: 'XOF' });
    expect(sum('EUR', [])).toEqual({ minor: 0, currency: 'EUR' });
  });

  it('does not compile when two currencies meet, and throws when only run time knows them', () => {
    // @ts-expect-error EUR and XOF do not add up
    expect(() => add(eur, xof)).toThrow('cannot combine EUR and XOF');
    // @ts-expect-error a XOF amount in a EUR sum
    expect(() => sum('EUR', [eur, xof])).toThrow('cannot combine EUR and XOF');
    // @ts-expect-error nor do they subtract
    expect(() => sub(xof, eur)).toThrow('cannot combine XOF and EUR');
    const fromDb: Money[] = [money(100, 'EUR'), money(100, 'XAF')];
    expect(() => add(fromDb[0], fromDb[1])).toThrow('cannot combine EUR and XAF');
  });

  it('reads a stored amount with its stored code, refusing a code the table does not know', () => {
    expect(storedMoney(1500, 'XOF')).toEqual({ minor: 1500, currency: 'XOF' });
    expect(() => storedMoney(1500, 'XXX')).toThrow('unknown currency XXX');
  });

  it('is whole minor units only', () => {
    expect(() => money(12.5, 'EUR')).toThrow();
    expect(() => money(Number.MAX_SAFE_INTEGER + 1, 'XOF')).toThrow();
  });
});

describe('the edge: JSON numbers to minor units and back', () => {
  it.each([
    [12.34, 'EUR', 1234],
    [0.1 + 0.2, 'EUR', 30],
    [1.1 + 2.2, 'GBP', 330],
    [19.99, 'USD', 1999],
    [-12.34, 'EUR', -1234],
    [0, 'EUR', 0],
    [15_000, 'XOF', 15_000],
    [2500, 'XAF', 2500],
    [99.9, 'MAD', 9990],
    [1e10 + 0.01, 'CAD', 1_000_000_000_001],
  ] as const)('%s %s is %s minor units', (amount, currency, minor) => {
    expect(toMinor(amount, currency)).toEqual({ minor, currency });
    expect(fromMinor(money(minor, currency))).toBe(amount === 0.1 + 0.2 ? 0.3 : amount === 1.1 + 2.2 ? 3.3 : amount);
  });

  it.each([
    [12.345, 'EUR', 'An amount in EUR has at most 2 decimals', 'Un montant en EUR a au plus 2 décimales'],
    [1.005, 'EUR', 'An amount in EUR has at most 2 decimals', 'Un montant en EUR a au plus 2 décimales'],
    [1e10 + 0.005, 'USD', 'An amount in USD has at most 2 decimals', 'Un montant en USD a au plus 2 décimales'],
    [150.5, 'XOF', 'XOF has no decimals: send a whole amount', "Le XOF n'a pas de décimales : envoyez un montant entier"],
    [0.01, 'XAF', 'XAF has no decimals: send a whole amount', "Le XAF n'a pas de décimales : envoyez un montant entier"],
    [1e300, 'EUR', 'The amount in EUR is out of range', 'Le montant en EUR est hors limites'],
    [Number.NaN, 'XOF', 'The amount in XOF is out of range', 'Le montant en XOF est hors limites'],
  ] as const)('%s %s is refused, not rounded', (amount, currency, en, fr) => {
    const parsed = parseMinor(amount, currency);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect([render(parsed.text, 'en'), render(parsed.text, 'fr')]).toEqual([en, fr]);
    const error = (() => {
      try {
        toMinor(amount, currency, 'declaredValue');
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect([error.errorCode, error.status, error.message]).toEqual(['VALIDATION_ERROR', 400, 'Validation failed for body: declaredValue']);
    expect(error.fieldErrors).toEqual([{ field: 'declaredValue', message: parsed.text, rejectedValue: amount }]);
  });

  it('checks an amount whose currency comes later for the most decimals any currency has', () => {
    expect(MAX_DECIMALS).toBe(2);
    expect([12.34, 15000, 0.1 + 0.2].map((v) => amountSchema().safeParse(v).success)).toEqual([true, true, true]);
    const refused = amountSchema().safeParse(12.345);
    expect(refused.success || refused.error.issues.map((i) => i.message)).toEqual(['money.atMost2Decimals']);
  });

  it('keeps toCents, fromCents and formatMoney exactly as before for EUR', () => {
    expect([toCents(12.34), toCents(1.005), toCents(-2.675), toCents(0.1 + 0.2)]).toEqual([1234, 101, -268, 30]);
    expect([formatMoney(750, 'EUR'), formatMoney(123456, 'EUR'), formatMoney(-5, 'EUR')]).toEqual(['7.50 EUR', '1234.56 EUR', '-0.05 EUR']);
    expect(formatMoney(15_000, 'XOF')).toBe('15000 XOF');
  });

  it('writes amounts for people with the currency decimals, in French and English', () => {
    const nb = '\u00a0';
    expect(formatAmount(money(1_500_000, 'XOF'), 'fr')).toBe(`1${nb}500${nb}000${nb}XOF`);
    expect(formatAmount(money(1_500_000, 'XOF'), 'en')).toBe(`1,500,000${nb}XOF`);
    expect(formatAmount(money(123_450, 'EUR'), 'fr')).toBe(`1${nb}234,50${nb}EUR`);
    expect(formatAmount(money(-750, 'GBP'), 'en')).toBe(`-7.50${nb}GBP`);
    expect(formatAmount(money(0, 'XAF'), 'fr')).toBe(`0${nb}XAF`);
  });

  it('round-trips every amount of every currency; XOF and XAF never carry decimals', () => {
    fc.assert(
      fc.property(currencyArb, fc.integer({ min: -1e12, max: 1e12 }), (c, m) => {
        const json = fromMinor(money(m, c));
        if (minorUnitOf(c) === 0 && !Number.isInteger(json)) return false;
        // What a client sends back is what JSON carries: the shortest decimal of the number.
        return toMinor(Number(JSON.stringify(json)), c).minor === m;
      }),
      RUNS,
    );
  });

  it('refuses every amount with one decimal more than its currency has', () => {
    fc.assert(
      fc.property(currencyArb, fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 9 }), (c, m, extra) => {
        const amount = Number(`${fromMinor(money(m, c)).toFixed(minorUnitOf(c))}${minorUnitOf(c) === 0 ? '.' : ''}${extra}`);
        return !parseMinor(amount, c).ok;
      }),
      RUNS,
    );
  });
});

describe('the error bodies of a currency and an amount at the edge', () => {
  const app = createRouter();
  app.onError((err, c) => toErrorResponse(c, err));
  const Body = z
    .object({ amount: z.number().positive(), currency: currencyCodeSchema() })
    .superRefine(amountInCurrency('amount', 'currency'), whenValid('amount', 'currency'));
  const route = createRoute({
    method: 'post',
    path: '/probe',
    request: { body: { required: true, content: { 'application/json': { schema: Body } } } },
    responses: { 200: { description: 'ok', content: { 'application/json': { schema: z.object({ minor: z.number() }) } } } },
  });
  app.openapi(route, (c) => {
    const body = c.req.valid('json');
    const currency = assertEnabled(body.currency, ['EUR', 'XOF']);
    return c.json({ minor: toMinor(body.amount, currency).minor }, 200);
  });
  const probe = async (json: unknown, language = 'en') => {
    const res = await app.request('/probe', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': language }, body: JSON.stringify(json) }, { ENVIRONMENT: 'test' });
    const body = (await res.json()) as Record<string, unknown>;
    return { status: res.status, errorCode: body.errorCode, message: body.message, fieldErrors: body.fieldErrors, minor: body.minor };
  };

  it('accepts an amount with its currency decimals', async () => {
    expect(await probe({ amount: 12.5, currency: 'EUR' })).toMatchObject({ status: 200, minor: 1250 });
    expect(await probe({ amount: 15000, currency: 'XOF' })).toMatchObject({ status: 200, minor: 15000 });
  });

  it('answers 400 naming the amount, in French or English', async () => {
    expect(await probe({ amount: 150.5, currency: 'XOF' }, 'fr')).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation échouée pour le corps : amount',
      fieldErrors: [{ field: 'amount', message: "Le XOF n'a pas de décimales : envoyez un montant entier", rejectedValue: 150.5 }],
      minor: undefined,
    });
    expect(await probe({ amount: 12.345, currency: 'EUR' })).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [{ field: 'amount', message: 'An amount in EUR has at most 2 decimals', rejectedValue: 12.345 }],
    });
  });

  it('answers 400 naming the currency when it is unknown or not enabled', async () => {
    expect(await probe({ amount: 10, currency: 'BTC' })).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: currency',
      fieldErrors: [{ field: 'currency', message: 'Unknown currency: send an ISO 4217 code such as EUR or XOF', rejectedValue: 'BTC' }],
      minor: undefined,
    });
    expect(await probe({ amount: 10, currency: 'GBP' }, 'fr')).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation échouée pour le corps : currency',
      fieldErrors: [
        { field: 'currency', message: "Le GBP n'est pas proposé sur cette plateforme ; utilisez l'une de ces devises : EUR, XOF", rejectedValue: 'GBP' },
      ],
      minor: undefined,
    });
  });
});

describe('splits in the minor unit of each currency', () => {
  it('prices a booking once in the currency unit', () => {
    // 2.5 kg at 3 000 XOF/kg; 1.234 kg at 12.34 EUR/kg = 15.22756 -> 15.23.
    expect(splitPriceOf(2500, money(3000, 'XOF'), 0.15)).toEqual({
      total: { minor: 7500, currency: 'XOF' },
      commission: { minor: 1125, currency: 'XOF' },
      carrier: { minor: 6375, currency: 'XOF' },
    });
    expect(splitPriceOf(1234, money(1234, 'EUR'), 0.15)).toEqual({
      total: { minor: 1523, currency: 'EUR' },
      commission: { minor: 228, currency: 'EUR' },
      carrier: { minor: 1295, currency: 'EUR' },
    });
    // 333 g at 1 000 XOF/kg = 333 XOF, never 333.0 or 333.33.
    expect(splitPriceOf(333, money(1000, 'XOF'), 0.15).total).toEqual({ minor: 333, currency: 'XOF' });
  });

  it('gives the same numbers as the EUR helpers for every input', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 1_000_000 }), rateArb, (g, p, rate) => {
        const eur = splitPrice(g, p, rate);
        const parts = splitPriceOf(g, money(p, 'EUR'), rate);
        const vat = vatIncluded(eur.platformCommissionCents, 0.2);
        const split = vatSplit(parts.commission, 0.2);
        return (
          eur.totalAmountCents === parts.total.minor &&
          eur.platformCommissionCents === parts.commission.minor &&
          eur.carrierAmountCents === parts.carrier.minor &&
          vat.netCents === split.net.minor &&
          vat.vatCents === split.vat.minor
        );
      }),
      RUNS,
    );
  });

  it('price, commission and VAT parts add up exactly, whole minor units, commission within [0, total]', () => {
    fc.assert(
      fc.property(currencyArb, fc.integer({ min: 1, max: 100_000 }), minorArb, rateArb, rateArb, (c, g, p, rate, vatRate) => {
        const { total, commission, carrier } = splitPriceOf(g, money(p, c), rate);
        const { net, vat } = vatSplit(commission, vatRate);
        const again = commissionSplit(total, rate);
        return (
          [total, commission, carrier, net, vat].every((m) => isWhole(m.minor) && m.currency === c) &&
          commission.minor + carrier.minor === total.minor &&
          commission.minor >= 0 &&
          commission.minor <= total.minor &&
          net.minor + vat.minor === commission.minor &&
          vat.minor >= 0 &&
          again.commission.minor === commission.minor
        );
      }),
      RUNS,
    );
  });

  it('shares a partial refund or capture between commission and carrier in proportion, adding up exactly', () => {
    // 10 000 XOF = 1 500 commission + 8 500 carrier; a refund of 3 333 XOF.
    expect(proportionalSplit(money(3333, 'XOF'), { commission: money(1500, 'XOF'), carrier: money(8500, 'XOF') })).toEqual({
      commission: { minor: 500, currency: 'XOF' },
      carrier: { minor: 2833, currency: 'XOF' },
    });
    fc.assert(
      fc.property(currencyArb, minorArb, rateArb, fc.double({ min: 0, max: 1, noNaN: true }), (c, t, rate, f) => {
        const parts = commissionSplit(money(t, c), rate);
        const refund = money(Math.floor(t * f), c);
        const shares = proportionalSplit(refund, parts);
        return (
          shares.commission.minor + shares.carrier.minor === refund.minor &&
          [shares.commission, shares.carrier].every((m) => isWhole(m.minor) && m.minor >= 0 && m.currency === c) &&
          shares.commission.minor <= parts.commission.minor &&
          shares.carrier.minor <= parts.carrier.minor
        );
      }),
      RUNS,
    );
    expect(() => proportionalSplit(money(11, 'EUR'), { a: money(5, 'EUR'), b: money(5, 'EUR') })).toThrow();
    // @ts-expect-error the parts of a EUR amount are EUR
    expect(() => proportionalSplit(money(1, 'EUR'), { a: money(5, 'XOF') })).toThrow('cannot split EUR over XOF');
  });

  it('allocates by largest remainder: sums to the total, each within one unit of its exact share', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocate(5, [0, 3, 0])).toEqual([0, 5, 0]);
    expect(allocate(0, [0, 0])).toEqual([0, 0]);
    expect(allocate(7, [2, 5])).toEqual([2, 5]);
    expect(allocateMoney(money(1001, 'XOF'), [1, 1])).toEqual([money(501, 'XOF'), money(500, 'XOF')]);
    expect(() => allocate(1, [0, 0])).toThrow();
    expect(() => allocate(1.5, [1])).toThrow();
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.array(fc.integer({ min: 0, max: 1e9 }), { minLength: 1, maxLength: 8 }), (total, weights) => {
        fc.pre(weights.some((w) => w > 0));
        const parts = allocate(total, weights);
        const whole = weights.reduce((s, w) => s + w, 0);
        return (
          parts.length === weights.length &&
          parts.every(isWhole) &&
          parts.reduce((s, p) => s + p, 0) === total &&
          parts.every((p, i) => Math.abs(p - (total * weights[i]) / whole) < 1 + 1e-6)
        );
      }),
      RUNS,
    );
  });
});

describe('the default currency of a departure country', () => {
  it.each([
    ...['SN', 'CI', 'ML', 'BF', 'NE', 'TG', 'BJ', 'GW'].map((c) => [c, 'XOF'] as const),
    ...['CM', 'GA', 'CG', 'TD', 'CF', 'GQ'].map((c) => [c, 'XAF'] as const),
    ['MA', 'MAD'],
    ['GB', 'GBP'],
    ['US', 'USD'],
    ['CA', 'CAD'],
    ['sn', 'XOF'],
    ['DZ', 'EUR'],
    ['CH', 'EUR'],
    ['GN', 'EUR'],
    ['', 'EUR'],
  ] as const)('%s -> %s', (country, currency) => {
    expect(defaultCurrencyFor(country)).toBe(currency);
  });

  it('is EUR across the 21 countries of the euro area, Croatia and Bulgaria included', () => {
    expect(EURO_AREA).toHaveLength(21);
    expect(EURO_AREA).toEqual(expect.arrayContaining(['FR', 'DE', 'BE', 'IT', 'ES', 'PT', 'NL', 'HR', 'BG']));
    for (const c of EURO_AREA) expect(defaultCurrencyFor(c)).toBe('EUR');
  });

  it('falls back to EUR when the country currency is not enabled', () => {
    const enabled: CurrencyCode[] = ['EUR', 'XOF'];
    expect([defaultCurrencyFor('SN', enabled), defaultCurrencyFor('CM', enabled), defaultCurrencyFor('MA', enabled)]).toEqual(['XOF', 'EUR', 'EUR']);
  });
});
