// Phone numbers as people write them (CONTRACT 26): "77 123 45 67" from a Senegalese user is
// +221771234567. Read with libphonenumber-js (Google's metadata, the `min` set: lengths and
// prefixes of every country, small enough for the worker), never with hand-written rules.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { validationError } from '../errors';

/**
 * The E.164 form of `input`, read as written in the first of `countries` (ISO alpha-2) where it
 * is a valid number; an international form (+..., 00...) stands on its own. Null when unreadable.
 */
export function readPhone(input: string, countries: readonly (string | null | undefined)[] = []): string | null {
  const text = input.trim().replace(/^00/, '+');
  if (text.startsWith('+')) {
    const parsed = parsePhoneNumberFromString(text);
    return parsed?.isValid() ? parsed.number : null;
  }
  for (const country of new Set(countries)) {
    if (!country || !/^[A-Z]{2}$/.test(country)) continue;
    const parsed = parsePhoneNumberFromString(text, country as CountryCode);
    if (parsed?.isValid()) return parsed.number;
  }
  return null;
}

/** The country of an E.164 number (+221... -> SN), to read the user's next numbers the same way. */
export const phoneCountry = (e164: string | null | undefined): string | null => (e164 ? (parsePhoneNumberFromString(e164)?.country ?? null) : null);

/**
 * `input` as E.164, read in `countries`; 400 VALIDATION_ERROR naming `field` and the expected form
 * (with the country code, e.g. +221 77 123 45 67) when it cannot be read.
 */
export function phoneOrRefuse(input: string, countries: readonly (string | null | undefined)[], field: string): string {
  const e164 = readPhone(input, countries);
  if (e164) return e164;
  throw validationError('phone.unreadable', {
    fieldErrors: [{ field, message: 'phone.expectedForm', rejectedValue: input }],
    suggestions: ['phone.expectedForm'],
  });
}

/**
 * A number as a notice names where money goes (CONTRACT 26): `+221771234567` -> `+221 •• ••• 45 67`,
 * the country code and the last four digits in the number's own grouping, the rest hidden.
 */
export function maskedPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  const [code, ...groups] = (parsed ? parsed.formatInternational() : e164).split(' ');
  const national = groups.length > 0 ? groups.join(' ') : code.replace(/^\+/, '');
  const digits = national.replace(/\D/g, '').length;
  let seen = 0;
  const masked = national.replace(/\d/g, (d) => (++seen > digits - 4 ? d : '•'));
  return groups.length > 0 ? `${code} ${masked}` : `+${masked}`;
}
