// The currency table (CONTRACT section 20): ISO 4217 codes with their minor unit, which of them
// Stripe takes as zero-decimal, the configured set's parsing, and the default currency of a
// trip's departure country. Pure data and functions: amounts live in lib/amount.ts.

/**
 * ISO 4217 minor units (the number of decimals). The platform's default set plus a few
 * neighbours of the corridor; which of them are enabled is `CURRENCIES` (config.ts).
 */
export const CURRENCY_TABLE = {
  EUR: { minorUnit: 2 },
  XOF: { minorUnit: 0 },
  XAF: { minorUnit: 0 },
  MAD: { minorUnit: 2 },
  GBP: { minorUnit: 2 },
  USD: { minorUnit: 2 },
  CAD: { minorUnit: 2 },
  CHF: { minorUnit: 2 },
  GNF: { minorUnit: 0 },
} as const satisfies Record<string, { minorUnit: 0 | 2 }>;

export type CurrencyCode = keyof typeof CURRENCY_TABLE;
export type MinorUnit = (typeof CURRENCY_TABLE)[CurrencyCode]['minorUnit'];

export const CURRENCY_CODES = Object.keys(CURRENCY_TABLE) as [CurrencyCode, ...CurrencyCode[]];

/** The enabled set when `CURRENCIES` is not set. */
export const DEFAULT_CURRENCIES: readonly CurrencyCode[] = ['EUR', 'XOF', 'XAF', 'MAD', 'GBP', 'USD', 'CAD'];

export const isCurrencyCode = (value: unknown): value is CurrencyCode => typeof value === 'string' && Object.hasOwn(CURRENCY_TABLE, value);

/** The number of decimals of a currency of the table. */
export const minorUnitOf = (currency: CurrencyCode): MinorUnit => CURRENCY_TABLE[currency].minorUnit;

/** 10^decimals: how many minor units make one major unit (100 for EUR, 1 for XOF). */
export const minorPerMajor = (currency: CurrencyCode): number => 10 ** minorUnitOf(currency);

/**
 * A comma-separated list of codes (`CURRENCIES`) as the enabled set, in the order written, or
 * the codes it names that the table does not know (config.ts reports those and refuses to start).
 */
export function parseCurrencyList(csv: string | undefined): { ok: true; currencies: CurrencyCode[] } | { ok: false; unknown: string[] } {
  const codes = (csv ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  if (codes.length === 0) return { ok: true, currencies: [...DEFAULT_CURRENCIES] };
  const unknown = codes.filter((c) => !isCurrencyCode(c));
  if (unknown.length > 0) return { ok: false, unknown };
  return { ok: true, currencies: [...new Set(codes as CurrencyCode[])] };
}

/**
 * Stripe's zero-decimal currencies: their API amounts are whole units, not hundredths. Checked
 * against Stripe's documented list, https://docs.stripe.com/currencies#zero-decimal (BIF CLP DJF
 * GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF). ISK, HUF and TWD are Stripe's "special
 * cases" (two-decimal amounts in the API); none of them is in the table.
 */
export const STRIPE_ZERO_DECIMAL: ReadonlySet<string> = new Set([
  'BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF',
]);

/** The decimals Stripe expects in an API amount of `currency` (0 for its zero-decimal list, else 2). */
export const stripeDecimalsOf = (currency: CurrencyCode): number => (STRIPE_ZERO_DECIMAL.has(currency) ? 0 : 2);

/**
 * Minor units (ISO decimals) to the integer Stripe's API takes for `currency`, and back. For
 * every currency of the table both counts agree (a test checks it), so this is the identity;
 * it stays explicit so that a currency whose two counts differ cannot slip through unscaled.
 */
export function toStripeAmount(minor: number, currency: CurrencyCode): number {
  const shift = stripeDecimalsOf(currency) - minorUnitOf(currency);
  return shift >= 0 ? minor * 10 ** shift : Math.round(minor / 10 ** -shift);
}

export function fromStripeAmount(stripeAmount: number, currency: CurrencyCode): number {
  const shift = stripeDecimalsOf(currency) - minorUnitOf(currency);
  return shift >= 0 ? Math.round(stripeAmount / 10 ** shift) : stripeAmount * 10 ** -shift;
}

/** UEMOA (BCEAO): the West African CFA franc. */
const XOF_COUNTRIES = ['SN', 'CI', 'ML', 'BF', 'NE', 'TG', 'BJ', 'GW'] as const;
/** CEMAC (BEAC): the Central African CFA franc. */
const XAF_COUNTRIES = ['CM', 'GA', 'CG', 'TD', 'CF', 'GQ'] as const;
/**
 * The euro area: 21 member states since Bulgaria joined on 1 January 2026 (Croatia in 2023).
 * Every other country defaults to EUR as well; the list says which ones are the euro area by right.
 */
export const EURO_AREA = [
  'AT', 'BE', 'BG', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK',
] as const;

const COUNTRY_CURRENCY: Readonly<Record<string, CurrencyCode>> = {
  ...Object.fromEntries(XOF_COUNTRIES.map((c) => [c, 'XOF'])),
  ...Object.fromEntries(XAF_COUNTRIES.map((c) => [c, 'XAF'])),
  ...Object.fromEntries(EURO_AREA.map((c) => [c, 'EUR'])),
  MA: 'MAD',
  GB: 'GBP',
  US: 'USD',
  CA: 'CAD',
};

/**
 * The default currency of a trip leaving `country` (ISO 3166-1 alpha-2, CONTRACT section 20):
 * the country's currency when the table maps it and it is enabled, else EUR.
 */
export function defaultCurrencyFor(country: string | null | undefined, enabled: readonly CurrencyCode[] = DEFAULT_CURRENCIES): CurrencyCode {
  const code = COUNTRY_CURRENCY[(country ?? '').trim().toUpperCase()];
  return code && enabled.includes(code) ? code : 'EUR';
}
