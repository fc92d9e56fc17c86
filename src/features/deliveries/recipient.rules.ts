// The recipient's language (CONTRACT section 16): the recipient has no account, so no locale of
// their own. Their messages are in the sender's locale unless the country the parcel goes to (the
// trip's arrival country, where the recipient lives) says otherwise: French where French is the
// language of daily business, English where English is, and the sender's choice anywhere else
// (neither language is local there, or both are, as in Canada or Switzerland: the sender knows
// the recipient better than a country list does). Pure, and turned into SQL by recipient.ts.
import type { Locale } from '../../db/schema';

/** Countries (ISO 3166-1 alpha-2) whose recipients read French: francophone Africa, the Maghreb, Europe, overseas France. */
export const FRENCH_COUNTRIES = [
  'FR', 'BE', 'LU', 'MC',
  'GP', 'MQ', 'GF', 'RE', 'YT', 'PM', 'BL', 'MF', 'NC', 'PF', 'WF',
  'SN', 'CI', 'ML', 'BF', 'NE', 'GN', 'BJ', 'TG', 'CM', 'GA', 'CG', 'CD', 'CF', 'TD', 'DJ', 'KM', 'MG', 'BI', 'HT',
  'MA', 'TN', 'DZ', 'MR',
] as const;

/** Countries whose recipients read English. */
export const ENGLISH_COUNTRIES = [
  'GB', 'IE', 'US', 'AU', 'NZ',
  'NG', 'GH', 'KE', 'ZA', 'UG', 'TZ', 'ZM', 'ZW', 'SL', 'LR', 'GM', 'BW', 'MW', 'NA',
] as const;

/** The locale of a recipient's messages, from the sender's locale and the arrival country. */
export function recipientLocale(senderLocale: Locale, country: string | null | undefined): Locale {
  const code = (country ?? '').trim().toUpperCase();
  if ((FRENCH_COUNTRIES as readonly string[]).includes(code)) return 'fr';
  if ((ENGLISH_COUNTRIES as readonly string[]).includes(code)) return 'en';
  return senderLocale;
}
