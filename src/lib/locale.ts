// The language of the messages sent to a person (CONTRACT section 16): fr or en, fr by default;
// and of the API's error texts, en by default.
import type { Locale } from '../db/schema';

/** The first supported language of an Accept-Language header, by quality; fr when none is. */
export const localeFromAcceptLanguage = (header: string | undefined | null): Locale => preferredLocale(header, 'fr');

/**
 * The supported language (fr, en) an Accept-Language header prefers, by quality then order
 * (`fr-FR,fr;q=0.9,en;q=0.8` -> fr, `de` -> the fallback); `fallback` when it names neither.
 * Messages to a person fall back to fr; the API's error texts to en (errors.ts).
 */
export function preferredLocale(header: string | undefined | null, fallback: Locale): Locale {
  if (!header) return fallback;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { language: tag.trim().toLowerCase().split('-')[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => entry.language === 'fr' || entry.language === 'en');
  return (found?.language as Locale | undefined) ?? fallback;
}

/**
 * The language of an API answer's words (error texts, the money history, notifications, PDFs):
 * French when Accept-Language prefers it, English otherwise. Messages sent to a person use their
 * stored locale instead.
 */
export const readerLocale = (acceptLanguage: string | undefined | null): Locale => preferredLocale(acceptLanguage, 'en');

/** The headers of an answer whose words follow Accept-Language. */
export const languageHeaders = (locale: Locale) => ({ 'Content-Language': locale, Vary: 'Accept-Language' });

/** YYYY-MM-DD of an ISO date-time, as the language writes it (27/11/2026 in French). */
export const dateText = (iso: string, locale: Locale) => {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return locale === 'fr' ? `${d}/${m}/${y}` : `${y}-${m}-${d}`;
};

/** An ISO date-time to the minute, in UTC, as the language writes it (27/11/2026 10:05 UTC in French). */
export const dateTimeText = (iso: string, locale: Locale) => `${dateText(iso, locale)} ${iso.slice(11, 16)} UTC`;

/** A decimal number as the language writes it (1.5, 1,5). */
export const localDecimal = (n: number | string, locale: Locale) => (locale === 'fr' ? String(n).replace('.', ',') : String(n));

/** A country's name in the language (ISO 3166-1 alpha-2 `SN` -> Sénégal, Senegal); the code when unknown. */
export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
