// The language of the messages sent to a person (CONTRACT section 16): fr or en, fr by default.
import type { Locale } from '../db/schema';

/** The first supported language of an Accept-Language header, by quality; fr when none is. */
export function localeFromAcceptLanguage(header: string | undefined | null): Locale {
  if (!header) return 'fr';
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
  return (found?.language as Locale | undefined) ?? 'fr';
}
