// The protection option at booking (CONTRACT section 21): a booking asking for protection must
// declare the value of every item; its premium and coverage come from lib/protection.ts with the
// configured rate and the currency's limits, and are kept on the reservation as booked.
import type { AppConfig } from '../../config';
import { validationError, type FieldError } from '../../errors';
import { isCurrencyCode } from '../../lib/currency';
import { protectionTerms } from '../../lib/protection';

/** The reservation's protection columns: zeros and nulls without protection. */
export interface ProtectionColumns {
  protectionPremiumCents: number;
  protectionDeclaredCents: number | null;
  protectionCoverageCents: number | null;
}

export const UNPROTECTED: ProtectionColumns = { protectionPremiumCents: 0, protectionDeclaredCents: null, protectionCoverageCents: null };

/**
 * The protection of a booking from its items' declared values (minor units, null when not
 * declared). Protection without a declared value on every item, or with a total of zero, is 400
 * VALIDATION_ERROR naming each item (or `protection`).
 */
export function bookingProtection(config: AppConfig['protection'], protection: boolean | undefined, declared: readonly (number | null | undefined)[], currency: string): ProtectionColumns {
  if (!protection) return UNPROTECTED;
  const missing = declared.flatMap((v, i): FieldError[] =>
    v === null || v === undefined ? [{ field: `items[${i}].declaredValue`, message: 'protection.declareItemValue', rejectedValue: null }] : [],
  );
  const total = declared.reduce<number>((sum, v) => sum + (v ?? 0), 0);
  if (missing.length === 0 && total <= 0) missing.push({ field: 'protection', message: 'protection.needsDeclaredValues', rejectedValue: true });
  if (missing.length > 0) throw validationError('protection.needsDeclaredValues', { fieldErrors: missing, suggestions: ['protection.addDeclaredValues'] });
  if (!isCurrencyCode(currency)) throw new Error(`no protection limits for ${currency}`);
  const terms = protectionTerms(total, currency, config.rate, config.limits[currency]);
  return { protectionPremiumCents: terms.premiumCents, protectionDeclaredCents: terms.declaredCents, protectionCoverageCents: terms.coverageCents };
}
