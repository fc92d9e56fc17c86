// Money: integer cents inside, two-decimal numbers at the edge; the price split of CONTRACT section 1.

/** Decimal amount (e.g. 12.34) to integer cents, rounding half away from zero. */
export function toCents(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100 + Number.EPSILON * 100);
}

/** Integer cents to a two-decimal number for JSON. */
export const fromCents = (cents: number): number => Math.round(cents) / 100;

/** `750, 'EUR'` -> `7.50 EUR`: how an amount is written for people (messages, history, receipts). */
export const formatMoney = (cents: number, currency: string): string => `${fromCents(cents).toFixed(2)} ${currency}`;

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
  const totalAmountCents = Math.round((reservedWeightG * pricePerKgCents) / 1000);
  const platformCommissionCents = Math.round(totalAmountCents * commissionRate);
  return { totalAmountCents, platformCommissionCents, carrierAmountCents: totalAmountCents - platformCommissionCents };
}

/** A VAT-inclusive amount split into its net part and its VAT at `rate` (the VAT rounded to the cent). */
export function vatIncluded(grossCents: number, rate: number): { netCents: number; vatCents: number } {
  const vatCents = Math.round((grossCents * rate) / (1 + rate));
  return { netCents: grossCents - vatCents, vatCents };
}
