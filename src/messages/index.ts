// Texts by message key: the errors, and the lines of the money history (messages/ledger.ts). A
// raise site names a key and its values (`throw invalidState('reservation.notCancellable',
// { status })`); onError (errors.ts toErrorResponse) and the console render it in the request's
// language. Each key has an English and a French text with the same `{name}` slots
// (test/error-locale.test.ts checks it); the key type comes from the catalogue, so an unknown key,
// or a missing value, fails the typecheck.
import type { Locale } from '../db/schema';
import { AGENCY_MESSAGES } from './agencies';
import { AUTH_MESSAGES } from './auth';
import { BOOKING_MESSAGES } from './bookings';
import { CURRENCY_MESSAGES } from './currency';
import { CUSTOMS_MESSAGES } from './customs';
import { HANDOVER_MESSAGES } from './handover';
import { HTTP_MESSAGES } from './http';
import { LEDGER_MESSAGES } from './ledger';
import { MOBILE_MONEY_MESSAGES } from './mobile-money';
import { LEDGER_CURRENCY_MESSAGES } from './ledger-currency';
import { MONEY_MESSAGES } from './money';
import { NOTICE_MESSAGES } from './notices';
import { OFFER_MESSAGES } from './offers';
import { OPERATIONS_MESSAGES } from './operations';
import { PAGE_MESSAGES } from './pages';
export { SANDBOX_OUTCOMES } from './pages';
import { PRIVACY_MESSAGES } from './privacy';
import { PROTECT_MESSAGES } from './protect';
import { PROTECTION_MESSAGES } from './protection';
import type { French } from './types';

export const MESSAGES = {
  ...HTTP_MESSAGES,
  ...AUTH_MESSAGES,
  ...AGENCY_MESSAGES,
  ...MONEY_MESSAGES,
  ...MOBILE_MONEY_MESSAGES,
  ...CURRENCY_MESSAGES,
  ...BOOKING_MESSAGES,
  ...HANDOVER_MESSAGES,
  ...PRIVACY_MESSAGES,
  ...PROTECT_MESSAGES,
  ...PROTECTION_MESSAGES,
  ...LEDGER_CURRENCY_MESSAGES,
  ...LEDGER_MESSAGES,
  ...CUSTOMS_MESSAGES,
  ...OFFER_MESSAGES,
  ...OPERATIONS_MESSAGES,
  ...NOTICE_MESSAGES,
  ...PAGE_MESSAGES,
} as const;

type Catalogue = typeof MESSAGES;
export type MessageKey = keyof Catalogue;

/** The `{name}` slots of a text (`{a, b}` or `{x?}` is text, not a slot). */
type SlotsOf<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P extends '' | `${string}${' ' | ',' | '?' | '{' | ':' | '<' | '.'}${string}`
    ? SlotsOf<Rest>
    : P | SlotsOf<Rest>
  : never;
export type Slots<K extends MessageKey> = SlotsOf<Catalogue[K]['en']>;
export type KeyWithParams = { [K in MessageKey]: [Slots<K>] extends [never] ? never : K }[MessageKey];
export type KeyWithoutParams = Exclude<MessageKey, KeyWithParams>;
/** The values of a key's slots; each is written as `${value}` would write it. */
export type Params<K extends MessageKey> = { readonly [P in Slots<K>]: unknown };

export interface Message {
  readonly key: MessageKey;
  readonly params?: Readonly<Record<string, unknown>>;
}
/** A value written differently in each language (a category's name, a country): a slot's value picks its locale's. */
export type Localized = Readonly<Record<Locale, string>>;
export const isLocalized = (value: unknown): value is Localized =>
  typeof value === 'object' && value !== null && typeof (value as Localized).en === 'string' && typeof (value as Localized).fr === 'string';
/** A value built for each language. */
export const inEachLanguage = (write: (locale: Locale) => string): Localized => ({ en: write('en'), fr: write('fr') });

/** What an error carries as its message, a suggestion or a field error's message. */
export type Text = KeyWithoutParams | Message;

/** A key with its values, where a bare key cannot say them (suggestions, field errors, either branch of a choice). */
export function msg<K extends KeyWithParams>(key: K, params: Params<K>): Message;
export function msg(key: KeyWithoutParams): Message;
export function msg(key: MessageKey, params?: Readonly<Record<string, unknown>>): Message {
  return params === undefined ? { key } : { key, params };
}

const SLOT = /\{([A-Za-z_]\w*)\}/g;
const ENTRIES = MESSAGES as Record<string, { en: string; fr: French }>;

export const isMessageKey = (value: unknown): value is MessageKey => typeof value === 'string' && Object.hasOwn(ENTRIES, value);
/** Whether a key's text names values (its raise takes them as its second argument). */
export const hasParams = (key: MessageKey): boolean => isMessageKey(key) && ENTRIES[key].en.search(SLOT) >= 0;

const fill = (template: string, values: Readonly<Record<string, string>>) => template.replace(SLOT, (slot, name: string) => values[name] ?? slot);

/** The text in `locale`: French when asked and known, English otherwise. */
export function render(text: Text, locale: Locale): string {
  const { key, params } = typeof text === 'string' ? { key: text, params: undefined } : text;
  // Not a key (an English sentence raised before it was converted): shown as it is, in both languages.
  const entry = ENTRIES[key] ?? { en: key, fr: key };
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) values[name] = isLocalized(value) ? value[locale === 'fr' ? 'fr' : 'en'] : `${value}`;
  const english = fill(entry.en, values);
  if (locale !== 'fr') return english;
  const french = typeof entry.fr === 'function' ? entry.fr(values) : fill(entry.fr, values);
  return french ?? english;
}

/** The slot names of a text, in order (the test compares English and French with it). */
export const slotNames = (template: string): string[] => [...template.matchAll(SLOT)].map((m) => m[1]);
