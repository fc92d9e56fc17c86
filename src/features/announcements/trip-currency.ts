// A trip's currency and its prices at the edge (CONTRACT section 20): the currency sent or the
// departure country's, the price per kg with exactly the currency's decimals, and the price
// filters of the search, which compare within one currency.
import { invalidState } from '../../errors';
import { assertEnabled, fromMinor, storedMoney, toMinor } from '../../lib/amount';
import { defaultCurrencyFor, minorPerMajor, type CurrencyCode } from '../../lib/currency';

/** The currency of a new trip: the one sent (enabled, else 400 naming `currency`), else the departure country's. */
export function tripCurrency(sent: string | undefined, departureCountry: string, enabled: readonly CurrencyCode[]): CurrencyCode {
  return sent !== undefined ? assertEnabled(sent, enabled, 'currency') : defaultCurrencyFor(departureCountry, enabled);
}

/** A price per kg in `currency` to minor units; more decimals than the currency has is the 400 naming `pricePerKg`. */
export const pricePerKgMinor = (pricePerKg: number, currency: CurrencyCode): number => toMinor(pricePerKg, currency, 'pricePerKg').minor;

/** A stored price per kg (minor units of the trip's currency) as the JSON number of its currency. */
export const pricePerKgOut = (minor: number, currency: string): number => fromMinor(storedMoney(minor, currency));

/**
 * The currency a price filter compares in: the `currency` filter, else the departure country's
 * (a search from Dakar compares francs), else the platform's main currency. Trips in other
 * currencies are not compared, so a price filter returns only trips of that currency.
 */
export function priceFilterCurrency(filters: { currency?: string; departureCountry?: string }, enabled: readonly CurrencyCode[], main: CurrencyCode): CurrencyCode {
  if (filters.currency !== undefined) return assertEnabled(filters.currency, enabled, 'currency');
  return filters.departureCountry ? defaultCurrencyFor(filters.departureCountry, enabled) : main;
}

/** A bound of a price filter in minor units, rounded towards the inside (a maximum down, a minimum up). */
export function priceBoundMinor(value: number, currency: CurrencyCode, bound: 'max' | 'min'): number {
  const scaled = value * minorPerMajor(currency);
  // The epsilon absorbs binary error (1.1 * 100 = 110.00000000000001) before rounding inwards.
  return bound === 'max' ? Math.floor(scaled + 1e-9) : Math.ceil(scaled - 1e-9);
}

export interface CurrencySettings {
  enabled: readonly CurrencyCode[];
  main: CurrencyCode;
}
/** What a search without configuration compares in (the compiled shapes are built with it). */
export const NO_CURRENCIES: CurrencySettings = { enabled: ['EUR'], main: 'EUR' };

/** 409: a trip with reservations keeps its currency (their amounts are in it). */
export const currencyFixed = (currency: string) => invalidState('announcement.currencyFixedOnceBooked', { currency });

/**
 * The price and currency an update leaves: a new currency takes the price sent, or the current
 * price's number read in the new currency (12.5 EUR cannot become XOF: 400 naming pricePerKg).
 */
export function updatedPrice(
  current: { currency: string; pricePerKgCents: number },
  input: { currency?: string; pricePerKg?: number },
  enabled: readonly CurrencyCode[],
): { currency: CurrencyCode; pricePerKgCents: number } {
  const currency = input.currency !== undefined ? assertEnabled(input.currency, enabled, 'currency') : (current.currency as CurrencyCode);
  const pricePerKg = input.pricePerKg ?? pricePerKgOut(current.pricePerKgCents, current.currency);
  return { currency, pricePerKgCents: pricePerKgMinor(pricePerKg, currency) };
}
