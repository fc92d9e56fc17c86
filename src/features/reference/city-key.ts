// How city names are compared everywhere (reference data, search, alerts): one normal form.

/** Lower-cased, accent-free, punctuation-folded city name: what search and alerts compare. */
export function cityKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s\-'’.,]+/g, ' ')
    .trim();
}
