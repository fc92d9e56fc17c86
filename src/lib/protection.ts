// The protection option's arithmetic (CONTRACT section 21): the premium is PROTECTION_RATE of the
// declared value, the value counted between the currency's minimum and maximum covered value, and
// the coverage is the declared value capped at that maximum. Pure: config.ts parses the settings,
// bookings and disputes apply them. Amounts in minor units of the currency.
import { CURRENCY_CODES, minorPerMajor, type CurrencyCode } from './currency';

export const DEFAULT_PROTECTION_RATE = 0.03;

/** Minimum and maximum covered value of a currency, in major units (the configuration's unit). */
export interface ProtectionLimit {
  min: number;
  max: number;
}

/**
 * The defaults, about 20 EUR to 2,000 EUR in each currency (XOF and XAF are pegged at 655.957 to
 * the euro; the others rounded at late-2026 rates). PROTECTION_LIMITS overrides any of them.
 */
export const DEFAULT_PROTECTION_LIMITS: Readonly<Record<CurrencyCode, ProtectionLimit>> = {
  EUR: { min: 20, max: 2000 },
  XOF: { min: 13_000, max: 1_300_000 },
  XAF: { min: 13_000, max: 1_300_000 },
  MAD: { min: 200, max: 22_000 },
  GBP: { min: 20, max: 1700 },
  USD: { min: 20, max: 2200 },
  CAD: { min: 30, max: 3000 },
  CHF: { min: 20, max: 2000 },
  GNF: { min: 200_000, max: 20_000_000 },
};

/**
 * `PROTECTION_LIMITS`, `EUR:20:2000,XOF:13000:1300000`: the currencies it names take those limits
 * (whole major units, 0 <= min <= max, max > 0), the others keep the defaults. null when malformed.
 */
export function parseProtectionLimits(csv: string | undefined): Record<CurrencyCode, ProtectionLimit> | null {
  const limits = { ...DEFAULT_PROTECTION_LIMITS };
  for (const part of (csv ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Z]{3}):(\d{1,12}):(\d{1,12})$/.exec(part);
    if (!m || !(CURRENCY_CODES as string[]).includes(m[1]!)) return null;
    const [min, max] = [Number(m[2]), Number(m[3])];
    if (max <= 0 || min > max) return null;
    limits[m[1] as CurrencyCode] = { min, max };
  }
  return limits;
}

export interface ProtectionTerms {
  /** The declared value of the items, as declared. */
  declaredCents: number;
  /** What a payout can reach: the declared value capped at the maximum covered value. */
  coverageCents: number;
  premiumCents: number;
}

/**
 * The premium and coverage of `declaredCents` (> 0) in `currency`: the premium is `rate` of the
 * declared value raised to the minimum and capped at the maximum covered value, rounded half up
 * to the currency's minor unit (whole francs for XOF). The rate is counted in millionths so that
 * 3 % of 1,234.50 EUR is 37.04 EUR, not a float's 37.03499...
 */
export function protectionTerms(declaredCents: number, currency: CurrencyCode, rate: number, limit: ProtectionLimit): ProtectionTerms {
  if (!Number.isSafeInteger(declaredCents) || declaredCents <= 0) throw new Error('the declared value must be positive minor units');
  if (!(rate >= 0 && rate < 1)) throw new Error('the protection rate must be in [0, 1)');
  const unit = minorPerMajor(currency);
  const [minCents, maxCents] = [limit.min * unit, limit.max * unit];
  const counted = Math.min(Math.max(declaredCents, minCents), maxCents);
  const ppm = Math.round(rate * 1_000_000);
  // Integer arithmetic: counted * ppm stays below 2^53 for any covered value under 9e9 major units.
  const premiumCents = Math.floor((counted * ppm + 500_000) / 1_000_000);
  return { declaredCents, coverageCents: Math.min(declaredCents, maxCents), premiumCents };
}
