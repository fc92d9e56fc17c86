// The integer cores of every split of an amount (CONTRACT sections 1 and 20), in the currency's
// minor unit: each is rounded once. The one split API over them is lib/money.ts (splitPrice,
// vatIncluded), whose parts add up exactly to what was split, in any currency.

/** grams x minor units per kg / 1000, rounded once (half up): the price of a booking. */
export const priceMinor = (weightG: number, pricePerKgMinor: number): number => Math.round((weightG * pricePerKgMinor) / 1000);

/** The platform's commission on `total` at `rate` in [0, 1), rounded once; the carrier gets the rest. */
export const commissionMinor = (totalMinor: number, rate: number): number => Math.round(totalMinor * rate);

/** The VAT inside a VAT-inclusive amount at `rate`, rounded once; the net part is the rest. */
export const vatMinor = (grossMinor: number, rate: number): number => Math.round((grossMinor * rate) / (1 + rate));
