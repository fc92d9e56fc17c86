// The French of texts the service does not write: zod's own issue messages (zod/v4/locales/en)
// and Hono's request errors. Their English is all there is to go on, so they are matched here by
// their text (`{}` stands for a value); every text the service writes has a message key instead.
const pick =
  (words: Record<string, string>) =>
  (value: string): string | undefined =>
    words[value];

// zod's own English messages (zod/v4/locales/en): their words.
const ZOD_TYPES: Record<string, string> = {
  string: 'texte',
  number: 'nombre',
  int: 'entier',
  boolean: 'booléen',
  bigint: 'bigint',
  symbol: 'symbole',
  undefined: 'aucune valeur',
  null: 'null',
  object: 'objet',
  array: 'tableau',
  date: 'date',
  file: 'fichier',
  function: 'fonction',
  map: 'map',
  set: 'ensemble',
  nan: 'NaN',
  NaN: 'NaN',
  Infinity: 'Infinity',
  '-Infinity': '-Infinity',
  promise: 'promesse',
  value: 'valeur',
  unknown: 'inconnu',
};
const zodType = pick(ZOD_TYPES);
/** French agrees a participle with its noun: "aucune valeur reçue", "date attendue", "texte attendu". */
const FEMININE_TYPES = new Set(['aucune valeur', 'date', 'fonction', 'promesse', 'valeur']);
const agreed = (noun: string, participle: string) => `${noun} ${participle}${FEMININE_TYPES.has(noun) ? 'e' : ''}`;
const ZOD_UNITS = pick({ characters: 'caractères', bytes: 'octets', items: 'éléments', entries: 'entrées', elements: 'éléments' });
const ZOD_FORMATS = pick({
  input: 'valeur invalide',
  'email address': 'adresse e-mail invalide',
  URL: 'URL invalide',
  emoji: 'emoji invalide',
  UUID: 'UUID invalide',
  UUIDv4: 'UUIDv4 invalide',
  UUIDv6: 'UUIDv6 invalide',
  GUID: 'GUID invalide',
  'ISO datetime': 'date et heure ISO invalides',
  'ISO date': 'date ISO invalide',
  'ISO time': 'heure ISO invalide',
  'ISO duration': 'durée ISO invalide',
  'IPv4 address': 'adresse IPv4 invalide',
  'IPv6 address': 'adresse IPv6 invalide',
  'base64-encoded string': 'texte base64 invalide',
  'base64url-encoded string': 'texte base64url invalide',
  'JSON string': 'texte JSON invalide',
  'E.164 number': 'numéro E.164 invalide',
  JWT: 'JWT invalide',
});
/** `<=100`, `>0`, `exactly 6` -> `<=100`, `>0`, `exactement 6`. */
const zodBound = (bound: string) => (/^(<=|>=|<|>)-?[\d.e+]+$/.test(bound) ? bound : /^exactly (\S+)$/.test(bound) ? bound.replace('exactly', 'exactement') : undefined);
const zodSize = (verb: string) => (origin: string, ...rest: string[]) => {
  // `exactly 2 characters` splits anywhere: the unit is the last word, the bound what precedes it.
  const boundAndUnit = rest.join(' ');
  const cut = boundAndUnit.lastIndexOf(' ');
  const [bound, unit] = [boundAndUnit.slice(0, cut), boundAndUnit.slice(cut + 1)];
  const o = zodType(origin);
  const b = zodBound(bound);
  const u = ZOD_UNITS(unit);
  return o && b && u ? `${verb} : ${agreed(o, 'attendu')} de ${b} ${u}` : undefined;
};
const zodValue = (verb: string) => (origin: string, bound: string) => {
  const o = zodType(origin);
  const b = zodBound(bound);
  return o && b ? `${verb} : ${agreed(o, 'attendu')} ${b}` : undefined;
};


type Entry = string | ((...values: string[]) => string | undefined);

const FR: Record<string, Entry> = {
  // Hono
  'Malformed JSON in request body': 'JSON mal formé dans le corps de la requête',
  'Malformed FormData request. {}': 'Requête FormData mal formée. {}',
  // zod
  'Invalid input: expected {}, received {}': (expected, received) =>
    zodType(expected) && zodType(received) ? `Valeur invalide : ${agreed(zodType(expected)!, 'attendu')}, ${agreed(zodType(received)!, 'reçu')}` : undefined,
  // A type agrees its participle; a literal value ("A") is named as it is.
  'Invalid input: expected {}': (expected) => `Valeur invalide : ${agreed(zodType(expected) ?? expected, 'attendu')}`,
  'Invalid option: expected one of {}': 'Option invalide : une valeur parmi {} attendue',
  'Too big: expected {} to have {} {}': zodSize('Trop grand'),
  'Too big: expected {} to be {}': zodValue('Trop grand'),
  'Too small: expected {} to have {} {}': zodSize('Trop petit'),
  'Too small: expected {} to be {}': zodValue('Trop petit'),
  'Invalid string: must start with "{}"': 'Texte invalide : doit commencer par "{}"',
  'Invalid string: must end with "{}"': 'Texte invalide : doit finir par "{}"',
  'Invalid string: must include "{}"': 'Texte invalide : doit contenir "{}"',
  'Invalid string: must match pattern {}': 'Texte invalide : doit correspondre au motif {}',
  'Invalid {}': (format) => (ZOD_FORMATS(format) ? `${ZOD_FORMATS(format)!.charAt(0).toUpperCase()}${ZOD_FORMATS(format)!.slice(1)}` : undefined),
  'Invalid number: must be a multiple of {}': 'Nombre invalide : doit être un multiple de {}',
  'Unrecognized key: {}': 'Clé non reconnue : {}',
  'Unrecognized keys: {}': 'Clés non reconnues : {}',
  'Invalid key in {}': (origin) => (zodType(origin) ? `Clé invalide dans ${zodType(origin)}` : undefined),
  'Invalid value in {}': (origin) => (zodType(origin) ? `Valeur invalide dans ${zodType(origin)}` : undefined),
  'Invalid discriminator value. Expected {}': 'Valeur de discriminant invalide. Attendu : {}',
  'Invalid input: more than one option matched': 'Valeur invalide : plusieurs options correspondent',
  'Invalid input': 'Valeur invalide',
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Templates with more fixed text first, so `Invalid {}` is tried after the longer ones. */
const TEMPLATES = Object.entries(FR)
  .filter(([key]) => key.includes('{}'))
  .sort(([a], [b]) => b.replaceAll('{}', '').length - a.replaceAll('{}', '').length)
  .map(([key, entry]) => ({ pattern: new RegExp(`^${key.split('{}').map(escape).join('(.+?)')}$`, 's'), entry }));

const fill = (entry: Entry, values: string[]): string | undefined => {
  if (typeof entry === 'function') return entry(...values);
  let i = 0;
  return entry.replace(/\{\}/g, () => values[i++] ?? '');
};

/** The French of a zod or Hono message; undefined when it is not one this knows. */
export function frenchOfExternal(text: string): string | undefined {
  const exact = FR[text];
  if (exact !== undefined && !text.includes('{}')) return fill(exact, []);
  for (const { pattern, entry } of TEMPLATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const translated = fill(entry, match.slice(1));
    if (translated !== undefined) return translated;
  }
  return undefined;
}
