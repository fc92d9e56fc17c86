// Does an uploaded PDF act when opened? Its objects are read as a viewer reads them: names end at
// PDF whitespace (NUL included) or a delimiter, #xx escapes are decoded, and every stream is
// decoded through its whole /Filter chain (object streams hide dictionaries there) before its
// names are checked.
import { decodeFilter, IMAGE_FILTERS, type DecodeParms } from './pdf-filters';

/**
 * PDF names that make a document act when opened (scripts, actions run on opening or on an event,
 * launched programs, embedded files and media, form submission): an identity document or a piece
 * of evidence needs none of them, and an operator opens these files (CONTRACT 25).
 */
const ACTIVE_PDF_NAMES = new Set([
  'JavaScript', 'JS', 'Launch', 'OpenAction', 'AA', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia', 'SubmitForm', 'ImportData', 'XFA',
]);

/** At most this much decoded stream data is inspected per file (a compressed bomb stops there). */
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

/** Why a PDF is refused: a name that acts, or more compressed data than can be checked. */
export type PdfRefusal = { active: string } | { tooMuchData: true };

const WHITESPACE = '\0\t\n\f\r ';
const DELIMITERS = '()<>[]{}/%';
const isRegular = (ch: string | undefined) => ch !== undefined && !WHITESPACE.includes(ch) && !DELIMITERS.includes(ch);
const unescapeName = (name: string) => name.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const latin1 = new TextDecoder('latin1');

/** The first active name in `text`, wherever it is (a string or a comment included: nothing there is needed). */
export function activeName(text: string): string | null {
  for (const match of text.matchAll(/\/([^\0\t\n\f\r ()<>[\]{}/%]*)/g)) {
    const name = unescapeName(match[1]);
    if (ACTIVE_PDF_NAMES.has(name)) return name;
  }
  return null;
}

type PdfValue = number | string | { name: string } | { ref: string } | PdfValue[] | Map<string, PdfValue>;

/** A small reader of PDF objects: enough to read a stream's dictionary and what it refers to. */
class ObjectReader {
  constructor(
    private readonly text: string,
    public at: number,
  ) {}

  skipSpace() {
    for (;;) {
      while (this.at < this.text.length && WHITESPACE.includes(this.text[this.at])) this.at++;
      if (this.text[this.at] !== '%') return;
      while (this.at < this.text.length && this.text[this.at] !== '\n' && this.text[this.at] !== '\r') this.at++;
    }
  }

  private token(): string {
    const start = this.at;
    while (isRegular(this.text[this.at])) this.at++;
    return this.text.slice(start, this.at);
  }

  /** The value at the cursor; undefined when the syntax is broken there. */
  value(depth = 0): PdfValue | undefined {
    this.skipSpace();
    const { text } = this;
    if (depth > 64 || this.at >= text.length) return undefined;
    if (text.startsWith('<<', this.at)) return this.dictionary(depth);
    const ch = text[this.at++];
    if (ch === '/') return { name: unescapeName(this.token()) };
    if (ch === '[') return this.array(depth);
    if (ch === '<') return this.skipPast('>');
    if (ch === '(') return this.literalString();
    this.at--;
    const word = this.token();
    if (word === '') return undefined;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return word;
    // "12 0 R" is a reference to object 12.
    const ref = /^\s+(\d+)\s+R(?![^\0\t\n\f\r ()<>[\]{}/%])/.exec(text.slice(this.at, this.at + 32));
    if (/^\d+$/.test(word) && ref) {
      this.at += ref[0].length;
      return { ref: `${word} ${ref[1]}` };
    }
    return Number(word);
  }

  private dictionary(depth: number): Map<string, PdfValue> | undefined {
    this.at += 2;
    const dict = new Map<string, PdfValue>();
    for (;;) {
      this.skipSpace();
      if (this.text.startsWith('>>', this.at)) {
        this.at += 2;
        return dict;
      }
      const key = this.value(depth + 1);
      const value = this.value(depth + 1);
      if (typeof key !== 'object' || !('name' in key) || value === undefined) return undefined;
      dict.set(key.name, value);
    }
  }

  private array(depth: number): PdfValue[] | undefined {
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === ']') {
        this.at++;
        return items;
      }
      const item = this.value(depth + 1);
      if (item === undefined) return undefined;
      items.push(item);
    }
  }

  private skipPast(end: string): string | undefined {
    const at = this.text.indexOf(end, this.at);
    if (at < 0) return undefined;
    this.at = at + end.length;
    return '';
  }

  private literalString(): string | undefined {
    for (let open = 1; this.at < this.text.length; this.at++) {
      const ch = this.text[this.at];
      if (ch === '\\') this.at++;
      else if (ch === '(') open++;
      else if (ch === ')' && --open === 0) {
        this.at++;
        return '';
      }
    }
    return undefined;
  }
}

/** An indirect object's value ("12 0 obj ..."), followed one reference deep at most per call. */
function resolve(text: string, value: PdfValue | undefined, hops = 4): PdfValue | undefined {
  if (!value || typeof value !== 'object' || !('ref' in value) || hops === 0) return value;
  const [num, gen] = value.ref.split(' ');
  const header = new RegExp(`(?<![0-9])${num}[\\0\\t\\n\\f\\r ]+${gen}[\\0\\t\\n\\f\\r ]+obj`).exec(text);
  if (!header) return undefined;
  return resolve(text, new ObjectReader(text, header.index + header[0].length).value(), hops - 1);
}

interface StreamAt {
  dict: Map<string, PdfValue> | null;
  start: number;
  end: number;
  /** Its dictionary was read and its /Length lands on `endstream`: every viewer takes these bytes as data. */
  wellFormed: boolean;
}

/** The stream whose data starts at `start` (just after `stream` and its end-of-line at `keyword`). */
function streamAt(text: string, keyword: number, start: number): StreamAt {
  let dict: Map<string, PdfValue> | null = null;
  // The dictionary opens after the nearest "N G obj" header and must end right before `stream`.
  let header = text.lastIndexOf('obj', keyword);
  for (let tries = 0; header > 0 && tries < 8; tries++, header = text.lastIndexOf('obj', header - 1)) {
    if (!/\d[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+$/.test(text.slice(Math.max(0, header - 24), header))) continue;
    const reader = new ObjectReader(text, header + 3);
    const value = reader.value();
    reader.skipSpace();
    if (value instanceof Map && reader.at === keyword) dict = value;
    break;
  }
  const length = dict ? resolve(text, dict.get('Length')) : undefined;
  if (typeof length === 'number' && length >= 0 && /^(\r\n|\r|\n)?[\0\t\n\f\r ]*endstream/.test(text.slice(start + length, start + length + 32))) {
    return { dict, start, end: start + length, wellFormed: true };
  }
  let end = text.indexOf('endstream', start);
  if (end < 0) end = text.length;
  while (end > start && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return { dict, start, end, wellFormed: false };
}

/** The /Filter chain and its /DecodeParms; a stream whose dictionary could not be read is tried as the usual chains. */
function filterChains(text: string, dict: Map<string, PdfValue> | null): { filters: string[]; parms: DecodeParms[] }[] {
  if (!dict) return [['FlateDecode'], ['ASCIIHexDecode', 'FlateDecode'], ['ASCII85Decode', 'FlateDecode']].map((filters) => ({ filters, parms: [] }));
  const asList = (v: PdfValue | undefined) => (Array.isArray(v) ? v.map((item) => resolve(text, item)) : v === undefined ? [] : [v]);
  const filters = asList(resolve(text, dict.get('Filter')));
  const parms = asList(resolve(text, dict.get('DecodeParms')));
  return [
    {
      filters: filters.map((f) => (typeof f === 'object' && 'name' in f ? f.name : '?')),
      parms: filters.map((_, i) => {
        const p = parms[i];
        if (!(p instanceof Map)) return {};
        return Object.fromEntries([...p].map(([k, v]) => [k, resolve(text, v)]).filter(([, v]) => typeof v === 'number')) as DecodeParms;
      }),
    },
  ];
}

/** An image's pixels are never read as objects; only a stream with /N and /First can be an object stream. */
function isPlainImage(dict: Map<string, PdfValue> | null): boolean {
  const subtype = dict?.get('Subtype');
  return !!dict && typeof subtype === 'object' && 'name' in subtype && subtype.name === 'Image' && !dict.has('N') && !dict.has('First');
}

/**
 * Whether the PDF must be refused: the first active name in its objects or in any decoded stream,
 * or too much compressed data to check them all; null for a passive document.
 */
export async function pdfActiveContent(bytes: Uint8Array): Promise<PdfRefusal | null> {
  const text = latin1.decode(bytes);
  let budget = MAX_DECODED_BYTES;
  // What lies outside well-formed stream data is the document's structure, checked as it is.
  const structure: string[] = [];
  let structureFrom = 0;
  const keywords = /(?<![A-Za-z])stream(\r\n|\n|\r)/g;
  for (let match = keywords.exec(text); match; match = keywords.exec(text)) {
    const stream = streamAt(text, match.index, match.index + match[0].length);
    keywords.lastIndex = Math.max(stream.end, match.index + match[0].length);
    const data = bytes.subarray(stream.start, stream.end);
    // Data that holds an object header may be where a cross-reference points: keep it in the structure.
    if (stream.wellFormed && !/\d[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+obj/.test(text.slice(stream.start, stream.end))) {
      structure.push(text.slice(structureFrom, stream.start));
      structureFrom = stream.end;
    }
    if (isPlainImage(stream.dict)) continue;
    for (const { filters, parms } of filterChains(text, stream.dict)) {
      const decoded = await decodeChain(data, filters, parms, budget);
      if (decoded === 'over budget') return { tooMuchData: true };
      if (!decoded) continue;
      budget -= decoded.spent;
      const found = activeName(latin1.decode(decoded.bytes));
      if (found) return { active: found };
    }
  }
  structure.push(text.slice(structureFrom));
  for (const part of structure) {
    const found = activeName(part);
    if (found) return { active: found };
  }
  return null;
}

/** A stream's data through its filters; null when the chain ends at an image codec or an unknown filter. */
async function decodeChain(data: Uint8Array, filters: string[], parms: DecodeParms[], budget: number) {
  let bytes = data;
  let spent = 0;
  for (const [i, filter] of filters.entries()) {
    if (IMAGE_FILTERS.has(filter)) return null;
    const next = await decodeFilter(filter, bytes, parms[i] ?? {}, budget - spent + 1);
    if (!next) return null;
    spent += next.length;
    if (spent > budget) return 'over budget' as const;
    bytes = next;
  }
  return { bytes, spent };
}
