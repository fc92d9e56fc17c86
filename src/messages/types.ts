// The shape of a catalogue part (src/messages/*.ts), apart so the parts and the index share it
// without importing each other.

/** The French of a key: a text with the same `{name}` slots, or a function of the values (as text) where a value must be reworded; undefined falls back to the English. */
export type French = string | ((values: Readonly<Record<string, string>>) => string | undefined);

export type Entries = Record<string, { readonly en: string; readonly fr: French }>;
