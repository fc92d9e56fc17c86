// Every split of an amount (CONTRACT sections 1 and 20), in the currency's minor unit: each is
// rounded once, and its parts add up exactly to what was split. The integer cores serve
// lib/money.ts's EUR helpers too, so their rounding is the one of every currency.
import { money, type Money } from './amount';
import type { CurrencyCode } from './currency';

/** grams x minor units per kg / 1000, rounded once (half up): the price of a booking. */
export const priceMinor = (weightG: number, pricePerKgMinor: number): number => Math.round((weightG * pricePerKgMinor) / 1000);

/** The platform's commission on `total` at `rate` in [0, 1), rounded once; the carrier gets the rest. */
export const commissionMinor = (totalMinor: number, rate: number): number => Math.round(totalMinor * rate);

/** The VAT inside a VAT-inclusive amount at `rate`, rounded once; the net part is the rest. */
export const vatMinor = (grossMinor: number, rate: number): number => Math.round((grossMinor * rate) / (1 + rate));

export interface PriceParts<C extends CurrencyCode> {
  total: Money<C>;
  commission: Money<C>;
  carrier: Money<C>;
}

/** The price of `weightG` at `pricePerKg`, and its commission and carrier parts (commission + carrier = total). */
export function splitPriceOf<C extends CurrencyCode>(weightG: number, pricePerKg: Money<C>, rate: number): PriceParts<C> {
  const total = priceMinor(weightG, pricePerKg.minor);
  const commission = commissionMinor(total, rate);
  const c = pricePerKg.currency;
  return { total: money(total, c), commission: money(commission, c), carrier: money(total - commission, c) };
}

/** A total split into the platform's commission and the carrier's share. */
export function commissionSplit<C extends CurrencyCode>(total: Money<C>, rate: number): { commission: Money<C>; carrier: Money<C> } {
  const commission = commissionMinor(total.minor, rate);
  return { commission: money(commission, total.currency), carrier: money(total.minor - commission, total.currency) };
}

/** A VAT-inclusive amount split into its net part and its VAT (net + vat = gross). */
export function vatSplit<C extends CurrencyCode>(gross: Money<C>, rate: number): { net: Money<C>; vat: Money<C> } {
  const vat = vatMinor(gross.minor, rate);
  return { net: money(gross.minor - vat, gross.currency), vat: money(vat, gross.currency) };
}

/**
 * `total` shared in proportion to integer `weights` by largest remainder: each part is the floor
 * of its exact share, and the minor units left go one each to the largest fractions (ties to
 * the earlier weight). The parts add up to `total` exactly, each is within one unit of its exact
 * share, and none exceeds its weight when |total| <= the weights' sum. Exact with BigInt, however
 * large the products; a negative total is shared as the mirror of its absolute value.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total)) throw new Error(`allocate: ${total} is not an integer amount`);
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new Error('allocate: weights are non-negative integers');
  const whole = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (whole === 0n) {
    if (total !== 0) throw new Error('allocate: nothing to share in proportion to');
    return weights.map(() => 0);
  }
  const t = BigInt(Math.abs(total));
  const exact = weights.map((w) => t * BigInt(w));
  const parts = exact.map((e) => e / whole);
  let left = t - parts.reduce((s, p) => s + p, 0n);
  const order = weights.map((_, i) => i).sort((a, b) => {
    const ra = exact[a] % whole;
    const rb = exact[b] % whole;
    return ra === rb ? a - b : rb > ra ? 1 : -1;
  });
  for (const i of order) {
    if (left === 0n) break;
    parts[i] += 1n;
    left -= 1n;
  }
  return parts.map((p) => (total < 0 ? -Number(p) : Number(p)));
}

/** Money shared in proportion to integer `weights` (see allocate). */
export const allocateMoney = <C extends CurrencyCode>(total: Money<C>, weights: readonly number[]): Money<C>[] =>
  allocate(total.minor, weights).map((m) => money(m, total.currency));

/**
 * A part of a split amount shared like the amount was: a partial refund or a partial capture
 * `amount` of a total made of `parts` (commission and carrier share, for instance) is split in
 * proportion to them; each result is at most its part and they add up to `amount` exactly.
 */
export function proportionalSplit<C extends CurrencyCode, K extends string>(amount: Money<C>, parts: Readonly<Record<K, Money<NoInfer<C>>>>): Record<K, Money<C>> {
  const keys = Object.keys(parts) as K[];
  for (const k of keys) if (parts[k].currency !== amount.currency) throw new Error(`cannot split ${amount.currency} over ${parts[k].currency}`);
  const whole = keys.reduce((s, k) => s + parts[k].minor, 0);
  if (amount.minor < 0 || amount.minor > whole) throw new Error(`a part of ${whole} must be between 0 and it, not ${amount.minor}`);
  const shares = allocate(amount.minor, keys.map((k) => parts[k].minor));
  return Object.fromEntries(keys.map((k, i) => [k, money(shares[i], amount.currency)])) as Record<K, Money<C>>;
}
