// Which mobile numbers a Wave payout account may have (CONTRACT section 20, decided in
// docs/decisions-wavepay.md): E.164 numbers of the XOF countries where Wave pays out, with each
// country's national number length. Spaces, dots and dashes a person types are dropped first.
import type { CurrencyCode } from '../../../lib/currency';

/** Country calling code -> digits after it (mobile numbers). */
export const WAVE_PAYOUT_COUNTRIES: Readonly<Record<string, { country: string; digits: number }>> = {
  '221': { country: 'SN', digits: 9 },
  '225': { country: 'CI', digits: 10 },
  '223': { country: 'ML', digits: 8 },
  '226': { country: 'BF', digits: 8 },
};

/** The currency a provider's wallets are paid out in. */
export const PAYOUT_CURRENCY: Readonly<Record<'WAVE', CurrencyCode>> = { WAVE: 'XOF' };

/** The number as stored (`+221771234567`), or null when it is not a Wave mobile number. */
export function waveMobile(input: string): string | null {
  const phone = input.replace(/[\s.\-()]/g, '');
  const m = /^\+(\d{3})(\d+)$/.exec(phone);
  if (!m) return null;
  const country = WAVE_PAYOUT_COUNTRIES[m[1]];
  return country && m[2].length === country.digits ? phone : null;
}
