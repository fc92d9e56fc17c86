// How an item is recognised under a corridor's entry (CONTRACT 26), pure: by its category, or by
// its words. An item's name and description are compared with the entry's French and English
// names and keywords as sequences of words: accents, case and punctuation ignored, and a plural
// -s (or -x) ignored, so "Cuisses de poulet congelées" contains "cuisse de poulet". Phrases of
// the entry's `except` list (other goods that share a word) are taken out of the item's words first.
import type { ProhibitedItemEntry } from './prohibited-items.data';

/** The words of a text: lower case, accents off (œ as oe), split on anything but letters and digits, plural -s off. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(singular);
}

/** "cuisses" -> "cuisse", "gateaux" -> "gateau"; short words ("gaz", "bus", "as") are left alone. */
const singular = (word: string) => (word.length > 3 && /[sx]$/.test(word) && !/ss$/.test(word) ? word.slice(0, -1) : word);

/** Where `phrase` (words) starts in `words`, or -1. */
function indexOfPhrase(words: readonly string[], phrase: readonly string[]): number {
  if (phrase.length === 0) return -1;
  outer: for (let i = 0; i + phrase.length <= words.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (words[i + j] !== phrase[j]) continue outer;
    return i;
  }
  return -1;
}

/** The words of `text` with every occurrence of the `except` phrases replaced by a gap. */
function withoutExceptions(words: string[], except: readonly (readonly string[])[]): string[] {
  const out = [...words];
  for (const phrase of except) {
    for (let at = indexOfPhrase(out, phrase); at >= 0; at = indexOfPhrase(out, phrase)) out.splice(at, phrase.length, '\u0000');
  }
  return out;
}

/** An entry ready to match: its terms and exceptions as words (built once per list). */
export interface EntryMatcher {
  entry: ProhibitedItemEntry;
  terms: string[][];
  except: string[][];
}

export function matcherOf(entry: ProhibitedItemEntry): EntryMatcher {
  const terms = [entry.name.en, entry.name.fr, ...(entry.keywords ?? [])].map(wordsOf).filter((t) => t.length > 0);
  return { entry, terms, except: (entry.except ?? []).map(wordsOf) };
}

/** The first of the entry's terms found in `text`, or null. */
export function termIn(m: EntryMatcher, text: string | null | undefined): string | null {
  if (!text) return null;
  const words = withoutExceptions(wordsOf(text), m.except);
  const found = m.terms.find((t) => indexOfPhrase(words, t) >= 0);
  return found ? found.join(' ') : null;
}

export interface CheckedItem {
  /** The item's category code (null when unknown). */
  code: string | null;
  name: string;
  description?: string | null;
}

/** Which input of the item brought it under the entry: its category, its name or its description; null when none. */
export type MatchedField = 'categoryId' | 'name' | 'description';

export function matchedField(m: EntryMatcher, item: CheckedItem): MatchedField | null {
  const { entry } = m;
  // An admin's entry without categories is tied to the category whose code is its own.
  if (item.code !== null && (entry.categoryCodes?.includes(item.code) || entry.code === item.code)) return 'categoryId';
  if (termIn(m, item.name)) return 'name';
  if (termIn(m, item.description)) return 'description';
  return null;
}

export interface ItemMatch {
  index: number;
  item: CheckedItem;
  entry: ProhibitedItemEntry;
  field: MatchedField;
}

/**
 * The corridor's verdict on a booking's items: every (item, entry) that is prohibited (each item
 * once, its first entry), else every restricted one the sender did not acknowledge.
 */
export function corridorVerdict(entries: readonly ProhibitedItemEntry[], items: readonly CheckedItem[], acknowledged: readonly string[]) {
  const matchers = entries.map(matcherOf);
  const matches = (level: ProhibitedItemEntry['level'], skip: (e: ProhibitedItemEntry) => boolean) =>
    items.flatMap((item, index): ItemMatch[] =>
      matchers
        .filter((m) => m.entry.level === level && !skip(m.entry))
        .flatMap((m) => {
          const field = matchedField(m, item);
          return field ? [{ index, item, entry: m.entry, field }] : [];
        }),
    );
  const prohibited = matches('PROHIBITED', () => false).filter((m, i, all) => all.findIndex((x) => x.index === m.index) === i);
  if (prohibited.length > 0) return { prohibited, unacknowledged: [] as ItemMatch[] };
  return { prohibited: [] as ItemMatch[], unacknowledged: matches('RESTRICTED', (e) => acknowledged.includes(e.code)) };
}
