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

describe('splits in the minor unit of each currency (one split API: lib/money.ts)', () => {
  it('prices a booking once in the currency unit', () => {
    // 2.5 kg at 3 000 XOF/kg; 1.234 kg at 12.34 EUR/kg = 15.22756 -> 15.23.
    expect(splitPrice(2500, 3000, 0.15)).toEqual({ totalAmountCents: 7500, platformCommissionCents: 1125, carrierAmountCents: 6375 });
    expect(splitPrice(1234, 1234, 0.15)).toEqual({ totalAmountCents: 1523, platformCommissionCents: 228, carrierAmountCents: 1295 });
    // 333 g at 1 000 XOF/kg = 333 XOF, never 333.0 or 333.33.
    expect(splitPrice(333, 1000, 0.15).totalAmountCents).toBe(333);
  });

  it('price, commission and VAT parts add up exactly, whole minor units, commission within [0, total]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), minorArb, rateArb, rateArb, (g, p, rate, vatRate) => {
        const { totalAmountCents: total, platformCommissionCents: commission, carrierAmountCents: carrier } = splitPrice(g, p, rate);
        const { netCents: net, vatCents: vat } = vatIncluded(commission, vatRate);
        return (
          [total, commission, carrier, net, vat].every(isWhole) &&
          commission + carrier === total &&
          commission >= 0 &&
          commission <= total &&
          net + vat === commission &&
          vat >= 0
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
