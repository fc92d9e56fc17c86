// Contact details in a conversation before payment (CONTRACT section 17): phone numbers, e-mail
// addresses and links are replaced, so the trade is not taken off the platform before it is paid.
// A pure function; everything it must and must not mask is in test/conversations.masking.test.ts.

export const HIDDEN = '[hidden until payment]';

// Top-level domains a link or an address is recognised by: the common ones and those of the
// markets served. A closed list keeps "3.5kg" or "fin.de" (typo) untouched.
const TLDS = 'com|fr|net|org|io|co|be|ch|uk|lu|ma|sn|ci|tn|dz|cm|me|ly|gl|gg|app|info|biz|eu|link|xyz|site|online|page|to';

// A separator written as a character or a word: "." / "dot" / "point", "@" / "at" / "arobase",
// with or without spaces or brackets around the word ("jean [at] gmail (dot) com").
const around = (words: string) => String.raw`(?:\s+|\s*[\[({<]\s*)(?:${words})(?:\s+|\s*[\])}>]\s*)`;
const DOT = String.raw`(?:\s*\.\s*|${around('dot|point')})`;
const AT = String.raw`(?:\s*@\s*|${around('at|@|arobase|arrobase|arobas')})`;
// Labels carry no dot: the dots come only through DOT, so a failing match never backtracks widely.
const LABEL = String.raw`[\p{L}\d_%+\-]+`;

const EMAIL = new RegExp(
  String.raw`(?<![\p{L}\d_%+\-.])(?:` +
    // jean.dupont@gmail.com, jean@gmail (no spaces: unambiguous).
    String.raw`[\p{L}\d_%+\-.]+@[\p{L}\d\-]+(?:\.[\p{L}\d\-]+)*` +
    '|' +
    // jean dot dupont at gmail dot com, jean arobase gmail point fr: it must end on a known domain.
    String.raw`${LABEL}(?:${DOT}${LABEL})*${AT}${LABEL}(?:${DOT}${LABEL})*${DOT}(?:${TLDS})(?![\p{L}\d])` +
    ')',
  'giu',
);

const LINK = new RegExp(
  String.raw`\bhttps?:\/\/\S+|\bwww${DOT}${LABEL}(?:${DOT}${LABEL})*(?:\/\S*)?` +
    '|' +
    String.raw`(?<![\p{L}\d_@.\-])[\p{L}\d](?:[\p{L}\d\-]*[\p{L}\d])?(?:\.[\p{L}\d\-]+)*\.(?:${TLDS})(?![\p{L}\d])(?:\/\S*)?`,
  'giu',
);

// Spelled-out digits, French and English. Each word adds the digits it stands for: a unit one,
// a teen or a tens word two; a unit after a tens word ("trente-quatre", "thirty four") adds none.
const UNITS: Record<string, number> = Object.fromEntries(
  ['zero', 'zéro', 'oh', 'un', 'une', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf']
    .concat(['one', 'two', 'three', 'four', 'five', 'seven', 'eight', 'nine'])
    .map((w) => [w, 1]),
);
const TEENS = ['onze', 'douze', 'treize', 'quatorze', 'quinze', 'seize']
  .concat(['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']);
const TENS = ['dix', 'vingt', 'vingts', 'trente', 'quarante', 'cinquante', 'soixante']
  .concat(['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']);
const NUMBER_WORDS = [...Object.keys(UNITS), ...TEENS, ...TENS].sort((a, b) => b.length - a.length).join('|');

// A date (day, month, year) is never part of a phone number: "12/05/2026 - 14/05/2026" stays.
const DATE = String.raw`(?<!\d[./\-])(?:(?:0?[1-9]|[12]\d|3[01])[./\-](?:0?[1-9]|1[0-2])[./\-](?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2})(?![./\-]?\d)`;
const TOKEN = String.raw`(?:(?!${DATE})\d+|(?<![\p{L}])(?:${NUMBER_WORDS})(?![\p{L}]))`;
const JOIN = String.raw`(?:[\s.\-\/()]{1,3}|\s+(?:et|and)\s+(?=\p{L}))`;
// A run of digits and number words; it may not start inside a code ("PX-2345678") or a word.
const RUN = new RegExp(String.raw`(?<![\p{L}\d][\-]?|[\p{L}\d])(?:\+\s?|\(\+?)?${TOKEN}(?:${JOIN}${TOKEN})*(?![\p{L}\d])`, 'giu');

/** How many digits a run of digits and number words stands for, and whether it used words. */
function digitCount(run: string): { digits: number; words: boolean } {
  let digits = 0;
  let words = false;
  let afterTens = false;
  let previous = '';
  for (const [part] of run.matchAll(/\d+|\p{L}+/gu)) {
    if (/^\d/.test(part)) {
      digits += part.length;
      afterTens = false;
      previous = part;
      continue;
    }
    const w = part.toLowerCase();
    if (w === 'et' || w === 'and') continue;
    words = true;
    if (TENS.includes(w)) {
      if ((w === 'vingt' || w === 'vingts') && previous === 'quatre') digits += 1; // quatre-vingt: 80
      else if (!(afterTens && w === 'dix')) digits += 2; // soixante-dix: 70
      afterTens = true;
    } else if (TEENS.includes(w)) {
      if (!afterTens) digits += 2; // soixante-douze: 72
      afterTens = false;
    } else {
      if (!afterTens) digits += 1;
      afterTens = false;
    }
    previous = w;
  }
  return { digits, words };
}

/** A run is a phone number: 9 or more digits, 8 with an international "+", 8 spelled out. */
function isPhone(run: string): boolean {
  const { digits, words } = digitCount(run);
  if (words) return digits >= 8;
  if (/^\(?\+/.test(run)) return digits >= 8;
  return digits >= 9;
}

/** The body with phone numbers, e-mail addresses and links replaced by {@link HIDDEN}. */
export function maskContactDetails(body: string): string {
  return body
    .replace(EMAIL, HIDDEN)
    .replace(LINK, HIDDEN)
    .replace(RUN, (run) => (isPhone(run) ? HIDDEN : run));
}

/** Whether masking changed anything (the author is told their details were hidden). */
export const hasContactDetails = (body: string) => maskContactDetails(body) !== body;

