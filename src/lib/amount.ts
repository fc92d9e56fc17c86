// Money that carries its currency (CONTRACT section 20): integer minor units inside, the
// currency's decimals at the edge. Money<'EUR'> and Money<'XOF'> do not add up: add, sub and sum
// take one currency, checked by the compiler for known currencies and at run time for the rest.
import { z } from '@hono/zod-openapi';
import type { Locale } from '../db/schema';
import { msg, validationError, type Text } from '../errors';
import { issueOf } from '../validation';
import { CURRENCY_CODES, CURRENCY_TABLE, isCurrencyCode, minorPerMajor, minorUnitOf, type CurrencyCode } from './currency';

/** An amount of one currency in integer minor units (cents; whole francs for XOF and XAF). */
export interface Money<C extends CurrencyCode = CurrencyCode> {
  readonly minor: number;
  readonly currency: C;
}

/** Minor units as Money; a fraction of a minor unit is a programming error, never rounded away. */
export function money<C extends CurrencyCode>(minor: number, currency: C): Money<C> {
  if (!Number.isSafeInteger(minor)) throw new Error(`${currency} amounts are integer minor units, not ${minor}`);
  return { minor: minor === 0 ? 0 : minor, currency };
}

/** A stored amount and its stored currency code (a row's `*Cents` and `currency`) as Money; an unknown code is corrupt data. */
export function storedMoney(minor: number, currency: string): Money {
  if (!isCurrencyCode(currency)) throw new Error(`unknown currency ${currency} in stored data`);
  return money(minor, currency);
}

export const zero = <C extends CurrencyCode>(currency: C): Money<C> => ({ minor: 0, currency });

/** Whether `m` is in `currency` (narrows a runtime currency to a known one). */
export const isIn = <C extends CurrencyCode>(m: Money, currency: C): m is Money<C> => m.currency === currency;

// NoInfer: the first amount fixes the currency, so add(eur, xof) fails to compile instead of
// inferring C = 'EUR' | 'XOF'. Two amounts typed Money<CurrencyCode> are checked at run time.
function same<C extends CurrencyCode>(a: Money<C>, b: Money<NoInfer<C>>): C {
  if (a.currency !== b.currency) throw new Error(`cannot combine ${a.currency} and ${b.currency}`);
  return a.currency;
}

export const add = <C extends CurrencyCode>(a: Money<C>, b: Money<NoInfer<C>>): Money<C> => money(a.minor + b.minor, same(a, b));
export const sub = <C extends CurrencyCode>(a: Money<C>, b: Money<NoInfer<C>>): Money<C> => money(a.minor - b.minor, same(a, b));
export const negate = <C extends CurrencyCode>(a: Money<C>): Money<C> => money(-a.minor, a.currency);

/** The sum of amounts of `currency` (zero when there are none). */
export const sum = <C extends CurrencyCode>(currency: C, amounts: readonly Money<NoInfer<C>>[]): Money<C> =>
  amounts.reduce<Money<C>>((total, m) => add(total, m), zero(currency));

/**
 * A decimal number to the nearest minor unit, half away from zero (for EUR exactly the old
 * toCents). The epsilon absorbs binary error such as 1.005 * 100 = 100.49999999999999.
 */
export const roundToMinor = (amount: number, currency: CurrencyCode): number => roundAt(amount, minorUnitOf(currency));

function roundAt(amount: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.sign(amount) * Math.round(Math.abs(amount) * factor + Number.EPSILON * factor);
}

/**
 * `amount` in units of 10^-decimals when it has no more decimals than that, else why not. A
 * decimal written with those decimals parses to the double nearest it, so it equals
 * minor / 10^decimals within a few ulps; that tolerance also takes 0.1 + 0.2, while a real
 * extra decimal (12.345, or 1e10 + 0.005) is far outside it.
 */
function exactMinor(amount: number, decimals: number): number | 'outOfRange' | 'tooManyDecimals' {
  const minor = Number.isFinite(amount) ? roundAt(amount, decimals) : Number.NaN;
  if (!Number.isSafeInteger(minor)) return 'outOfRange';
  return Math.abs(minor / 10 ** decimals - amount) > Math.abs(amount) * 4 * Number.EPSILON ? 'tooManyDecimals' : minor;
}

export type MinorResult<C extends CurrencyCode> = { ok: true; money: Money<C> } | { ok: false; text: Text };

/**
 * A JSON number of `currency` (12.34 EUR, 15000 XOF) to Money, or why not: more decimals than
 * the currency has (12.345 EUR, 150.5 XOF) is refused, not rounded.
 */
export function parseMinor<C extends CurrencyCode>(amount: number, currency: C): MinorResult<C> {
  const decimals = minorUnitOf(currency);
  const minor = exactMinor(amount, decimals);
  if (minor === 'outOfRange') return { ok: false, text: msg('amount.outOfRange', { currency }) };
  if (minor === 'tooManyDecimals') {
    return { ok: false, text: decimals === 0 ? msg('amount.wholeUnitsOnly', { currency }) : msg('amount.tooManyDecimals', { currency, decimals }) };
  }
  return { ok: true, money: money(minor, currency) };
}

/** A body field's error for a value the edge refused (400 VALIDATION_ERROR naming the field). */
export const fieldRefused = (field: string, text: Text, rejectedValue: unknown) =>
  validationError('validation.failed', { where: 'body', names: field }, {
    fieldErrors: [{ field, message: text, rejectedValue }],
    suggestions: ['validation.correctFields'],
  });

/** parseMinor for a service that learns the currency late (the trip's): throws the 400 naming `field`. */
export function toMinor<C extends CurrencyCode>(amount: number, currency: C, field = 'amount'): Money<C> {
  const parsed = parseMinor(amount, currency);
  if (!parsed.ok) throw fieldRefused(field, parsed.text, amount);
  return parsed.money;
}

/** Money to the JSON number of its currency (1234 EUR minor -> 12.34; 15000 XOF -> 15000). */
export const fromMinor = (m: Money): number => m.minor / minorPerMajor(m.currency);

/** Groups of three digits: `1234567` -> `1 234 567` with the separator given. */
const grouped = (digits: string, separator: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);

/**
 * How an amount is written for people in their language: `15 000 XOF` and `1 234,50 EUR` in
 * French (no-break spaces, so it never wraps), `15,000 XOF` and `1,234.50 EUR` in English;
 * always the currency's own decimals, never more.
 */
export function formatAmount(m: Money, locale: Locale): string {
  const decimals = minorUnitOf(m.currency);
  const [whole, fraction] = (Math.abs(m.minor) / minorPerMajor(m.currency)).toFixed(decimals).split('.');
  const [group, point] = locale === 'fr' ? ['\u00a0', ','] : [',', '.'];
  const sign = m.minor < 0 ? '-' : '';
  return `${sign}${grouped(whole, group)}${fraction ? point + fraction : ''}\u00a0${m.currency}`;
}

/** The most decimals any currency of the table has (2): what an amount can be checked for before its currency is known. */
export const MAX_DECIMALS = Math.max(...Object.values(CURRENCY_TABLE).map((c) => c.minorUnit));

/**
 * An amount field whose currency is known only later (the trip's, in the service): a number with
 * at most MAX_DECIMALS decimals here, then toMinor(amount, currency) once the currency is known.
 */
export const amountSchema = () =>
  // The key says two: MAX_DECIMALS is 2 while the table holds no three-decimal currency (a test checks it).
  z.number().refine((v) => typeof exactMinor(v, MAX_DECIMALS) === 'number', { message: 'money.atMost2Decimals' });

/**
 * A currency field: an ISO code of the table, else 400 naming it (`currency.unknown`). Whether
 * the code is enabled is configuration, known per request: see assertEnabled.
 */
export const currencyCodeSchema = () =>
  z
    .string()
    .refine((v) => isCurrencyCode(v), { message: 'currency.unknown' })
    .openapi({ example: 'EUR', description: `ISO 4217 code, one of ${CURRENCY_CODES.join(', ')} as configured` });

/** `currency` when the configuration enables it, else the 400 naming `field` (unknown or disabled). */
export function assertEnabled(currency: string, enabled: readonly CurrencyCode[], field = 'currency'): CurrencyCode {
  if (isCurrencyCode(currency) && enabled.includes(currency)) return currency;
  const text = isCurrencyCode(currency) ? msg('currency.notEnabled', { currency, enabled: enabled.join(', ') }) : 'currency.unknown';
  throw fieldRefused(field, text, currency);
}

/**
 * The zod rule of a body whose amount's currency is another of its fields (`{amount, currency}`):
 * `.superRefine(amountInCurrency('amount', 'currency'), whenValid('amount', 'currency'))`. An
 * unknown currency is left to the currency field's own check.
 */
export const amountInCurrency =
  (amountField: string, currencyField: string) =>
  (body: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const amount = body[amountField];
    const currency = body[currencyField];
    if (typeof amount !== 'number' || !isCurrencyCode(currency)) return;
    const parsed = parseMinor(amount, currency);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: [amountField], ...issueOf(parsed.text) });
  };
