// Money: integer cents inside, two-decimal numbers at the edge; the price split of CONTRACT section 1.
// The EUR-era helpers, kept for their callers; their rounding is the per-currency one of
// lib/amount.ts and lib/splits.ts (Money carries its currency there).
import type { Locale } from '../db/schema';
import { formatAmount, roundToMinor, storedMoney } from './amount';
import { isCurrencyCode, minorUnitOf } from './currency';
import { commissionMinor, priceMinor, vatMinor } from './splits';

/** Decimal amount (e.g. 12.34) to integer cents, rounding half away from zero. */
export const toCents = (amount: number): number => roundToMinor(amount, 'EUR');

/** Integer cents to a two-decimal number for JSON. */
export const fromCents = (cents: number): number => Math.round(cents) / 100;

/**
 * `750, 'EUR'` -> `7.50 EUR`, `15000, 'XOF'` -> `15000 XOF`: minor units written with the
 * currency's decimals (two for a code the table does not know), for messages, history, receipts.
 */
export function formatMoney(minor: number, currency: string): string {
  return `${decimalText(minor, currency)} ${currency}`;
}

/**
 * Minor units as the language writes them: `1234.50 EUR` in English (the form the money history
 * and receipts have always had), `1 234,50 EUR` in French (lib/amount.ts formatAmount).
 */
export function formatMoneyIn(minor: number, currency: string, locale: Locale): string {
  return locale === 'fr' && isCurrencyCode(currency) ? formatAmount(storedMoney(minor, currency), locale) : formatMoney(minor, currency);
}

/** Minor units as text with the currency's decimals, without the code: `750, 'EUR'` -> `7.50`. */
export function decimalText(minor: number, currency: string): string {
  const decimals = decimalsOf(currency);
  return (Math.round(minor) / 10 ** decimals).toFixed(decimals);
}

/** The currency's ISO decimals (a provider's lower-case code too); two for a code the table does not know. */
function decimalsOf(currency: string): number {
  const code = currency.toUpperCase();
  return isCurrencyCode(code) ? minorUnitOf(code) : 2;
}

/** Minor units of `currency` as the JSON number of its decimals (1250 EUR -> 12.5, 15000 XOF -> 15000). */
export function amountOf(minor: number, currency: string): number {
  return Math.round(minor) / 10 ** decimalsOf(currency);
}

/** Weight in kg (up to 3 decimals) to integer grams. */
export const toGrams = (kg: number): number => Math.round(kg * 1000);
export const fromGrams = (grams: number): number => grams / 1000;

export interface PriceSplit {
  totalAmountCents: number;
  platformCommissionCents: number;
  carrierAmountCents: number;
}

/**
 * totalAmount = round2(reservedWeight * pricePerKg); platformCommission = round2(totalAmount * rate);
 * carrierAmount = totalAmount - platformCommission, so the two always add up exactly.
 */
export function splitPrice(reservedWeightG: number, pricePerKgCents: number, commissionRate: number): PriceSplit {
  // grams * cents/kg / 1000 = cents; integer arithmetic first, one rounding.
  const totalAmountCents = priceMinor(reservedWeightG, pricePerKgCents);
  const platformCommissionCents = commissionMinor(totalAmountCents, commissionRate);
  return { totalAmountCents, platformCommissionCents, carrierAmountCents: totalAmountCents - platformCommissionCents };
}

/** A VAT-inclusive amount split into its net part and its VAT at `rate` (the VAT rounded to the cent). */
export function vatIncluded(grossCents: number, rate: number): { netCents: number; vatCents: number } {
  const vatCents = vatMinor(grossCents, rate);
  return { netCents: grossCents - vatCents, vatCents };
}
