// Finds, in the source text of src/, every piece of error text a client can receive: the message
// of each error constructor call (and of the local wrappers around one), the suggestions, the
// messages of hand-built field errors and the custom messages of zod rules. test/error-locale.test.ts
// checks that each literal is a message key (src/messages), never an English sentence. `${...}` in
// a template literal becomes `{}`.

/** The constructors of src/errors.ts: the message is their first argument. */
const CONSTRUCTORS = [
  'validationError', 'invalidArgument', 'missingParameter', 'typeMismatch', 'authenticationError', 'unauthorized',
  'endpointNotFound', 'alreadyExists', 'invalidState', 'businessRule', 'insufficientFunds', 'connectNotConfigured',
  'paymentError', 'paymentProcessingError', 'internalError', 'accessDenied', 'tooManyRequests',
];

/** Other calls that carry an error message, and the index of that argument. */
const MESSAGE_ARGUMENT: Record<string, number> = {
  consumeRateLimit: 3, // middleware/rate-limit.ts: the 429's message
  MalformedEventError: 0, // providers/payment: becomes the 400 of the payment webhook
};

export interface Found {
  file: string;
  line: number;
  /** What raised it: a constructor's name, `suggestion`, `fieldError`, `zod`. */
  kind: string;
  /** The text with `{}` for each interpolated value; undefined when the argument is not text written there. */
  text?: string;
  /** The argument's source when it is not literal text (a variable, a call). */
  expression?: string;
  /** For notFound: the noun, and whether an id follows. */
  noun?: { text: string; withId: boolean };
}

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

/** The end (exclusive) of the string or template literal starting at `i`. */
function skipLiteral(s: string, i: number): number {
  const quote = s[i];
  let j = i + 1;
  while (j < s.length) {
    if (s[j] === '\\') j += 2;
    else if (s[j] === quote) return j + 1;
    else if (quote === '`' && s[j] === '$' && s[j + 1] === '{') j = skipBalanced(s, j + 1) + 1;
    else j++;
  }
  return j;
}

/** From an opening bracket at `i`, the index of its closing bracket. */
function skipBalanced(s: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < s.length) {
    const ch = s[j];
    if (ch === "'" || ch === '"' || ch === '`') {
      j = skipLiteral(s, j);
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return j;
    }
    j++;
  }
  return j;
}

/** The top-level arguments of a call whose `(` is at `open`. */
export function callArguments(s: string, open: number): string[] {
  const close = skipBalanced(s, open);
  return splitTopLevel(s.slice(open + 1, close), ',');
}

function splitTopLevel(s: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let j = 0; j < s.length; j++) {
    const ch = s[j];
    if (ch === "'" || ch === '"' || ch === '`') {
      j = skipLiteral(s, j) - 1;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (depth === 0 && s.startsWith(separator, j)) {
      parts.push(s.slice(start, j).trim());
      start = j + separator.length;
    }
  }
  const last = s.slice(start).trim();
  if (last) parts.push(last);
  return parts;
}

/** The expression starting at `start`, up to the next top-level `,`, `}` or `)`. */
function expressionAt(s: string, start: number): string {
  let depth = 0;
  for (let j = start; j < s.length; j++) {
    const ch = s[j];
    if (ch === "'" || ch === '"' || ch === '`') {
      j = skipLiteral(s, j) - 1;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return s.slice(start, j).trim();
      depth--;
    } else if (ch === ',' && depth === 0) return s.slice(start, j).trim();
  }
  return s.slice(start).trim();
}

/** The elements of an array literal, or of each branch of `cond ? [...] : [...]`. */
function arrayElements(expr: string): string[] | undefined {
  const e = expr.trim();
  if (e.startsWith('[') && skipBalanced(e, 0) === e.length - 1) return splitTopLevel(e.slice(1, -1), ',');
  const question = splitTopLevel(e, '?');
  if (question.length < 2) return undefined;
  const colon = splitTopLevel(question.slice(1).join(' ? '), ':');
  if (colon.length < 2) return undefined;
  const sides = [colon[0], colon.slice(1).join(' : ')].map(arrayElements);
  return sides.every((x) => x !== undefined) ? (sides.flat() as string[]) : undefined;
}

/** Comment lines are blanked (their line kept), so an example in a comment is no message. */
const withoutComments = (source: string) => source.replace(/^\s*(\/\/|\/\*|\*).*$/gm, '');

/** A literal's text with `{}` for each `${...}`; undefined when `expr` is not one literal. */
export function literalText(expr: string): string | undefined {
  const e = expr.trim();
  if (!e) return undefined;
  const quote = e[0];
  if (quote !== "'" && quote !== '"' && quote !== '`') return undefined;
  if (skipLiteral(e, 0) !== e.length) return undefined;
  let out = '';
  for (let j = 1; j < e.length - 1; j++) {
    if (e[j] === '\\') {
      out += e[j + 1];
      j++;
    } else if (quote === '`' && e[j] === '$' && e[j + 1] === '{') {
      j = skipBalanced(e, j + 1);
      out += '{}';
    } else out += e[j];
  }
  return out;
}

/** The texts an argument can be: one literal, or each branch of `cond ? a : b` (nested too). */
export function possibleTexts(expr: string): string[] | undefined {
  const single = literalText(expr);
  if (single !== undefined) return [single];
  const question = splitTopLevel(expr, '?');
  if (question.length < 2) return undefined;
  // `c ? a : d ? b : e`: the first `?`, then the first `:` of what follows (the rest nests).
  const afterCondition = question.slice(1).join(' ? ');
  const colon = splitTopLevel(afterCondition, ':');
  if (colon.length < 2) return undefined;
  const sides = [colon[0], colon.slice(1).join(' : ')];
  const texts = sides.map(possibleTexts);
  return texts.every((t) => t !== undefined) ? texts.flat() as string[] : undefined;
}

/** Calls of `name` (not its definition): the index of each call's `(`. */
const callsOf = (source: string, name: string) =>
  [...source.matchAll(new RegExp(`(?<![\\w.]|function )${name}\\(`, 'g'))].map((m) => m.index + name.length);

/** Local wrappers: `const NAME = (param...) => constructor(param, ...)`; their calls carry the message. */
function wrappersIn(source: string): string[] {
  const pattern = new RegExp(`const (\\w+) = \\((\\w+)[^)]*\\)(?::\\s*\\w+)?\\s*=>\\s*(?:${CONSTRUCTORS.join('|')})\\(\\2\\b`, 'g');
  return [...source.matchAll(pattern)].map((m) => m[1]);
}

function pushTexts(found: Found[], base: Omit<Found, 'text' | 'expression'>, expr: string | undefined) {
  if (expr === undefined) return; // a default message (accessDenied()) lives in errors.ts and is scanned there
  if (expr.startsWith('z.')) return; // the schema of the error body itself (errors.ts), not a message
  const texts = possibleTexts(expr);
  if (texts) for (const text of texts) found.push({ ...base, text });
  else found.push({ ...base, expression: expr.replace(/\s+/g, ' ') });
}

export function scanErrorTexts(files: Record<string, string>): Found[] {
  const found: Found[] = [];
  for (const [file, text] of Object.entries(files)) {
    const source = withoutComments(text);
    const wrappers = wrappersIn(source);
    for (const name of [...CONSTRUCTORS, ...wrappers]) {
      for (const open of callsOf(source, name)) {
        const args = callArguments(source, open);
        // A wrapper's own body passes its parameter on: that call is not a message site.
        if (wrappers.length && /^\w+$/.test(args[0] ?? '') && new RegExp(`const \\w+ = \\(${args[0]}\\b`).test(source.slice(Math.max(0, open - 200), open))) continue;
        pushTexts(found, { file, line: lineOf(source, open), kind: name }, args[0]);
      }
    }
    for (const [name, index] of Object.entries(MESSAGE_ARGUMENT)) {
      for (const open of callsOf(source, name)) {
        const arg = callArguments(source, open)[index];
        if (arg !== undefined) pushTexts(found, { file, line: lineOf(source, open), kind: name }, arg);
      }
    }
    for (const open of callsOf(source, 'new AppError')) {
      const args = callArguments(source, open);
      pushTexts(found, { file, line: lineOf(source, open), kind: 'AppError' }, args[1]);
    }
    for (const open of callsOf(source, 'notFound')) {
      const args = callArguments(source, open);
      const noun = literalText(args[0] ?? '');
      const line = lineOf(source, open);
      if (noun !== undefined) found.push({ file, line, kind: 'notFound', noun: { text: noun, withId: args.length > 1 && args[1] !== 'undefined' } });
      else if (!/^\(?what\b/.test(args[0] ?? '')) found.push({ file, line, kind: 'notFound', expression: args[0] });
    }
    for (const m of source.matchAll(/suggestions: /g)) {
      const start = m.index + m[0].length;
      const line = lineOf(source, start);
      const expr = expressionAt(source, start);
      const elements = arrayElements(expr);
      if (elements) for (const element of elements) pushTexts(found, { file, line, kind: 'suggestion' }, element);
      else if (!/^(z\.|options\.|\w+\.suggestions\b|string\[\])/.test(expr)) found.push({ file, line, kind: 'suggestion', expression: expr });
    }
    // Hand-built field errors: `{ field: ..., message: ... }`.
    for (const m of source.matchAll(/\{\s*field: [^,{}]+,\s*message: /g)) {
      const start = m.index + m[0].length;
      const [expr] = splitTopLevel(source.slice(start, skipBalanced(source, m.index)), ',');
      pushTexts(found, { file, line: lineOf(source, start), kind: 'fieldError' }, expr);
    }
    if (file.endsWith('/config.ts')) continue; // configuration problems: operator text, kept in English
    // zod rules with their own message: addIssue({... message }), .refine(fn, {message}|'...'), .regex(re, '...'), .min(n, '...').
    for (const m of source.matchAll(/addIssue\(\{/g)) {
      const body = source.slice(m.index, skipBalanced(source, m.index + m[0].length - 1));
      const msg = /message: /.exec(body);
      if (msg) pushTexts(found, { file, line: lineOf(source, m.index), kind: 'zod' }, splitTopLevel(body.slice(msg.index + msg[0].length), ',')[0]);
    }
    for (const m of source.matchAll(/\.(refine|superRefine|regex|min|max|length|gte|lte|gt|lt|email|url|int|positive|nonnegative)\(/g)) {
      const open = m.index + m[0].length - 1;
      const second = callArguments(source, open)[1];
      if (second === undefined) continue;
      const inObject = /^\{[^]*?\b(?:message|error): ([^]*)\}$/.exec(second.trim());
      const expr = inObject ? splitTopLevel(inObject[1], ',')[0] : second;
      if (possibleTexts(expr) || inObject) pushTexts(found, { file, line: lineOf(source, open), kind: 'zod' }, expr);
    }
  }
  return found;
}
