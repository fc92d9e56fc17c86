// A message key with its values rendered in the reader's language: the one renderer of texts that
// carry amounts (the notices of deliveries/, the money history of money/ledger/). Amounts stay
// minor units and a currency until then ({minor, currency}), so each language writes them its own
// way (formatMoneyIn: `5 249 XOF` in French); other numbers take the language's decimal mark.
import type { Locale } from '../db/schema';
import { render, type Message } from '../messages';
import { formatMoneyIn } from './money';

/** An amount inside a text's values. */
export interface TextAmount {
  minor: number;
  currency: string;
}

export const textAmount = (minor: number, currency: string): TextAmount => ({ minor, currency });

export const isTextAmount = (v: unknown): v is TextAmount =>
  typeof v === 'object' && v !== null && typeof (v as TextAmount).minor === 'number' && typeof (v as TextAmount).currency === 'string';

/** A day inside a text's values (`{day: '2026-12-10'}`): `10 décembre 2026`, `10 December 2026`. */
export interface TextDay {
  day: string;
}

export const textDay = (iso: string): TextDay => ({ day: iso.slice(0, 10) });

const isTextDay = (v: unknown): v is TextDay => typeof v === 'object' && v !== null && typeof (v as TextDay).day === 'string';

const dayIn = (d: TextDay, locale: Locale) =>
  new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${d.day}T00:00:00Z`));

/** `2.5` -> `2,5` in French; whole numbers as they are. */
const numberIn = (n: number, locale: Locale) => (locale === 'fr' ? String(n).replace('.', ',') : String(n));

/** The text in `locale`, its amounts and numbers written as that language writes them. */
export function renderText(text: Message, locale: Locale): string {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(text.params ?? {})) {
    params[name] = isTextAmount(value)
      ? formatMoneyIn(value.minor, value.currency, locale)
      : isTextDay(value)
        ? dayIn(value, locale)
        : typeof value === 'number'
          ? numberIn(value, locale)
          : value;
  }
  return render({ key: text.key, params }, locale);
}
