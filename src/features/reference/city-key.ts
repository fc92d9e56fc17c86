// How city names are compared everywhere (reference data, search, alerts): one normal form.

// Unicode normalisation costs tens of microseconds a call, and the same few hundred city names
// come back on every search: the keys are remembered (a pure function), the map bounded.
const MAX_REMEMBERED = 2048;
const remembered = new Map<string, string>();

/** Lower-cased, accent-free, punctuation-folded city name: what search and alerts compare. */
export function cityKey(name: string): string {
  let key = remembered.get(name);
  if (key === undefined) {
    key = name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[\s\-'’.,]+/g, ' ')
      .trim();
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    if (name.length <= 100) remembered.set(name, key);
  }
  return key;
}
