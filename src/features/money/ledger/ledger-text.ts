// The words of a money history line: a message key of messages/ledger.ts with its values, kept as
// JSON beside the ledger entry and its transactions (description_text) and rendered in the
// reader's language when read (the history, the receipts, the console). Amounts stay minor units
// and a currency until then, so each language writes them its own way (lib/message-text.ts renderText).
import type { Locale } from '../../../db/schema';
import { renderText, textAmount, type TextAmount } from '../../../lib/message-text';
import { isMessageKey, type Message } from '../../../messages';

/** An amount inside a history line's values. */
export type LineAmount = TextAmount;
export const lineAmount = textAmount;

/** The line in `locale` (lib/message-text.ts: the one renderer of texts with amounts). */
export const renderLine = (text: Message, locale: Locale): string => renderText(text, locale);

/** The stored form of a line (description_text). */
export const storedLine = (text: Message): string => JSON.stringify(text);

/**
 * A ledger entry's or a transaction's line in `locale`: from its stored key and values, or, for a
 * line written before they were kept (or with a key no longer known), the English it was written with.
 */
export function lineText(t: { description: string; descriptionText: string | null }, locale: Locale): string {
  if (!t.descriptionText) return t.description;
  const text = JSON.parse(t.descriptionText) as Message;
  return isMessageKey(text.key) ? renderLine(text, locale) : t.description;
}
