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
// Number words may be glued together ("sixtwelve", "zérosix"): a token is one or more of them.
const TOKEN = String.raw`(?:(?!${DATE})\d+|(?<![\p{L}])(?:${NUMBER_WORDS})(?:-?(?:${NUMBER_WORDS}))*(?![\p{L}]))`;
// Between two parts: punctuation, "et"/"and" before a word, or a separator spelled out between
// digits ("06 point 12 point 34", "06 dot 12", "06 tiret 12").
const SPELLED_JOIN = 'point|dot|tiret|dash|slash|espace|space';
const JOIN = String.raw`(?:[\s.\-\/()]{1,3}|\s+(?:et|and)\s+(?=\p{L})|\s*[\[(]?\s*(?:${SPELLED_JOIN})\s*[\])]?\s*(?=\d))`;
// A run of digits and number words; it may not start inside a code ("PX-2345678") or a word.
const RUN = new RegExp(String.raw`(?<![\p{L}\d][\-]?|[\p{L}\d])(?:\+\s?|\(\+?)?${TOKEN}(?:${JOIN}${TOKEN})*(?![\p{L}\d])`, 'giu');

// The parts of a run: digit groups, and number words one by one (glued ones split apart).
const PARTS = new RegExp(String.raw`\d+|${NUMBER_WORDS}|\p{L}+`, 'giu');
const SPELLED_JOIN_WORDS = new Set(SPELLED_JOIN.split('|'));

/** How many digits a run of digits and number words stands for, and whether it used words. */
function digitCount(run: string): { digits: number; words: boolean } {
  let digits = 0;
  let words = false;
  let afterTens = false;
  let previous = '';
  for (const [part] of run.matchAll(PARTS)) {
    if (/^\d/.test(part)) {
      digits += part.length;
      afterTens = false;
      previous = part;
      continue;
    }
    const w = part.toLowerCase();
    if (w === 'et' || w === 'and' || SPELLED_JOIN_WORDS.has(w)) continue;
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

// Digits of other scripts and full-width forms ("０６１２", "٠٦١٢", "ｊｅａｎ＠ｇｍａｉｌ") read as
// their ASCII twins: the same number to a person, invisible to the patterns above otherwise.
const FULL_WIDTH = /[\uFF01-\uFF5E]/g;
const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;
// The zero of each block of ten decimal digits that NFKC leaves as they are (Arabic-Indic, Devanagari, ...).
const DIGIT_ZEROS = [0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xe50, 0xed0, 0xf20, 0x1040, 0x17e0, 0x1810];

function asciiDigit(d: string): string {
  const n = d.normalize('NFKC');
  if (/^[0-9]$/.test(n)) return n;
  const cp = d.codePointAt(0)!;
  const zero = DIGIT_ZEROS.find((z) => cp >= z && cp <= z + 9);
  return zero === undefined ? d : String(cp - zero);
}

const normalised = (body: string) => body.replace(FULL_WIDTH, (c) => c.normalize('NFKC')).replace(OTHER_DIGIT, asciiDigit);

// An address or link typed letter by letter ("j o h n @ g m a i l . c o m", "j o h n at g m a i l
// dot c o m"): at least five single characters separated by single spaces, with the separators
// written as signs or words. It is joined up and masked only if the joined text is an address or link.
const SPELLED_SEPARATOR = 'at|arobase|dot|point';
const SPELLED_OUT = new RegExp(
  String.raw`(?<![\p{L}\d])(?:(?:[\p{L}\d@._\-]|${SPELLED_SEPARATOR}) ){4,}(?:[\p{L}\d@._\-]|${SPELLED_SEPARATOR})(?![\p{L}\d])`,
  'giu',
);
const SEPARATOR_SIGN: Record<string, string> = { at: '@', arobase: '@', dot: '.', point: '.' };

const isAddressOrLink = (text: string) => text.replace(EMAIL, HIDDEN).replace(LINK, HIDDEN) === HIDDEN;

/**
 * The run with its address masked; leading letters that cannot start an address ("à j o h n ...")
 * stay (an ASCII letter before it cannot be told apart from the address and goes with it).
 */
function maskSpelledOut(run: string): string {
  const parts = run.split(' ');
  const joined = (from: number) =>
    parts
      .slice(from)
      .map((part) => SEPARATOR_SIGN[part.toLowerCase()] ?? part)
      .join('');
  if (!isAddressOrLink(joined(0))) return run;
  let start = 0;
  while (start + 1 < parts.length && !/^[a-z0-9_\-]$/i.test(parts[start]) && isAddressOrLink(joined(start + 1))) start += 1;
  return [...parts.slice(0, start), HIDDEN].join(' ');
}

// Messaging handles: "@john_doe" anywhere (an address was masked before), and the name given
// after a messaging service and a colon or equals sign ("insta: john_doe", "mon snap : jeand").
const AT_HANDLE = /(?<![\p{L}\d_.@])@[\p{L}_][\p{L}\d_.]*[\p{L}\d_]/gu;
const SERVICES = 'instagram|insta|ig|snapchat|snap|telegram|tg|whatsapp|whats app|watsap|wsp|signal|tiktok|facebook|fb|messenger|twitter|x|viber|discord';
const SERVICE_HANDLE = new RegExp(
  String.raw`(?<![\p{L}\d])((?:${SERVICES})\s*(?::|=|-)\s*)@?[\p{L}\d_][\p{L}\d_.]*[\p{L}\d_]`,
  'giu',
);

/** The body with phone numbers, e-mail addresses, links and messaging handles replaced by {@link HIDDEN}. */
export function maskContactDetails(body: string): string {
  const plain = normalised(body);
  const masked = plain
    .replace(SPELLED_OUT, maskSpelledOut)
    .replace(EMAIL, HIDDEN)
    .replace(LINK, HIDDEN)
    .replace(AT_HANDLE, HIDDEN)
    .replace(SERVICE_HANDLE, (_, service: string) => `${service}${HIDDEN}`)
    .replace(RUN, (run) => (isPhone(run) ? HIDDEN : run));
  // A message without contact details is left exactly as written (full-width letters included).
  return masked === plain ? body : masked;
}

/** Whether masking changed anything (the author is told their details were hidden). */
export const hasContactDetails = (body: string) => maskContactDetails(body) !== body;

