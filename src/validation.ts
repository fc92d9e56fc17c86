// The zod failure hook shared by every router, and the small schemas routes reuse for
// path and query parameters. Query and path values arrive as strings, so their type errors
// are TYPE_MISMATCH and absences MISSING_PARAMETER; bodies get VALIDATION_ERROR with every field.
import { z } from '@hono/zod-openapi';
import type { Hook } from '@hono/zod-openapi';
import { AppError, msg, type ErrorCode, type FieldError, type Text } from './errors';
import { isMessageKey, type MessageKey } from './messages';

type Issue = z.core.$ZodIssue;

/** A zod issue may name the code it should raise (for example INVALID_ARGUMENT for a bad sort). */
export const issueCode = (errorCode: ErrorCode) => ({ errorCode });

/**
 * The message of a custom zod issue (`ctx.addIssue({ code: 'custom', ...issueOf(text) })`): zod
 * carries a string, so the key goes as the message and its values in `params.values`.
 */
export const issueOf = (text: Text, params: Record<string, unknown> = {}) =>
  typeof text === 'string' ? { message: text, params } : { message: text.key, params: { ...params, values: text.params } };

/** An issue's message as a Text: a key of ours (with its values), or zod's own English (error.external). */
export function issueText(issue: { message: string; params?: unknown }): Text {
  if (!isMessageKey(issue.message)) return msg('error.external', { text: issue.message });
  const values = (issue.params as { values?: Record<string, unknown> } | undefined)?.values;
  return values ? { key: issue.message, params: values } : (issue.message as Text);
}

/**
 * The options of an object-level rule (`.refine()` / `.superRefine()` on an object) that reads
 * `fields`: the rule runs whenever those fields passed their own checks, even when other fields
 * failed. By default zod 4 skips object-level rules once any field failed, so their errors came
 * in a second round; with this, one 400 lists every failing field. A rule never runs on a field
 * that failed its own check (that field's issue is reported instead), nor when the body is not
 * an object. Every cross-field, date or "one of" rule of a body or query uses it.
 */
export const whenValid = (...fields: readonly string[]) => ({
  when: (payload: z.core.ParsePayload): boolean =>
    payload.value !== null &&
    typeof payload.value === 'object' &&
    !payload.issues.some((issue) => !issue.path?.length || fields.includes(String(issue.path[0]))),
});

/**
 * Whether `field` passed its own checks so far, for a rule that reads several fields and checks
 * each one it can (registered with `whenValid()` and no field, it runs on any object).
 */
export const passed = (ctx: z.core.ParsePayload, field: string): boolean =>
  !ctx.issues.some((issue) => String(issue.path?.[0]) === field);

/**
 * Request headers a route documents in OpenAPI but checks in its own middleware (Idempotency-Key):
 * createRouter() mounts no zod validator for a schema marked here, which would copy every
 * request header into an object on each call only to accept any string.
 */
const documentedOnlyHeaders = new WeakSet<object>();

/** Marks a route's `request.headers` schema as documentation only (see createRouter in env.ts). */
export function documentedOnly<T extends object>(headers: T): T {
  documentedOnlyHeaders.add(headers);
  return headers;
}

export const isDocumentedOnly = (headers: unknown): boolean => typeof headers === 'object' && headers !== null && documentedOnlyHeaders.has(headers);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any router's env: validation sits below env.ts
export const validationHook: Hook<unknown, any, string, unknown> = (result) => {
  const raw = (result as { data?: unknown }).data;
  const target = (result as { target?: string }).target ?? 'json';
  if (result.success) {
    // Every route's bodies, forms, queries and path values pass here once parsed: the one place
    // that refuses control characters in any string (CONTRACT section 19).
    if (target === 'header' || target === 'cookie') return;
    const issues = controlCharacterIssues(raw);
    if (issues.length) throw toValidationError(issues, raw, target);
    return;
  }
  throw toValidationError(result.error.issues, raw, target);
};

/**
 * Characters that make a name people see read otherwise than it is (CONTRACT 25): bidirectional
 * embeddings, overrides and isolates, zero-width spaces and joiners, the word joiner and the BOM.
 */
const INVISIBLE_IN_NAMES = /[\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF]/;
export const isVisibleName = (value: string) => !INVISIBLE_IN_NAMES.test(value);

/**
 * THE schema of a name people see (user names, display names, agency and branch names, item
 * names): trimmed, `min` to `max` characters, without bidirectional or zero-width characters
 * (400 VALIDATION_ERROR with fieldErrors, like any field).
 */
// Checked before trimming: trim() would silently drop a leading or trailing U+FEFF.
export const nameText = (max: number, min = 1) => {
  const name = z.string().refine(isVisibleName, 'validation.invisibleCharacters').trim();
  return (min > 0 ? name.min(min) : name).max(max);
};

/** C0 controls except tab, line feed and carriage return; DEL; C1 controls. Refused in every string. */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Tabs and line breaks: allowed in free text only. */
const LINE_CONTROL = /[\t\n\r]/;
/**
 * Fields of free text (several lines a person writes), by their name in the API: the only strings
 * where tabs and line breaks are kept. A name, an email, a token or a city is one line.
 */
export const FREE_TEXT_FIELDS: ReadonlySet<string> = new Set([
  'address',
  'body',
  'comment',
  'content',
  'contentInfo',
  'description',
  'details',
  'instructions',
  'message',
  'note',
  'reason',
  'rejectionReason',
  'resolutionNote',
  'suspensionReason',
  'text',
]);
export const CONTROL_CHARACTER_MESSAGE: MessageKey = 'validation.controlCharacters';

/**
 * One issue per string of `value` holding a control character (tabs and line breaks count unless
 * the string's field is free text). Walked with an explicit stack: a `z.unknown()` field may hold
 * anything, nested as deep as the body allows.
 */
export function controlCharacterIssues(value: unknown): Issue[] {
  const issues: Issue[] = [];
  // Each entry links to its parent: the path is built only for a refused string (most requests have none).
  type Entry = { value: unknown; parent: Entry | null; key: PropertyKey; field: string | null };
  const stack: Entry[] = [{ value, parent: null, key: '', field: null }];
  while (stack.length) {
    const next = stack.pop()!;
    const v = next.value;
    if (typeof v === 'string') {
      const refused = CONTROL_CHARACTER.test(v) || (!(next.field !== null && FREE_TEXT_FIELDS.has(next.field)) && LINE_CONTROL.test(v));
      if (refused) issues.push({ code: 'custom', path: pathOf(next), message: CONTROL_CHARACTER_MESSAGE, input: v } as Issue);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: next, key: i, field: next.field });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], parent: next, key: entries[i][0], field: entries[i][0] });
    }
  }
  return issues;
}

const pathOf = (entry: { parent: { parent: unknown; key: PropertyKey } | null; key: PropertyKey }): PropertyKey[] => {
  const path: PropertyKey[] = [];
  for (let e = entry as typeof entry | null; e?.parent; e = e.parent as typeof entry) path.unshift(e.key);
  return path;
};

export function toValidationError(issues: readonly Issue[], raw: unknown, target: string): AppError {
  const fieldErrors: FieldError[] = issues.map((issue) => ({
    field: fieldName(issue, target),
    message: issueText(issue),
    rejectedValue: rejectedValue(raw, issue.path),
  }));
  const code = errorCodeFor(issues, raw, target);
  return new AppError(code, messageFor(code, target, fieldErrors), {
    fieldErrors,
    suggestions: suggestionsFor(code),
  });
}

function errorCodeFor(issues: readonly Issue[], raw: unknown, target: string): ErrorCode {
  for (const issue of issues) {
    const explicit = (issue as { params?: { errorCode?: ErrorCode } }).params?.errorCode;
    if (explicit) return explicit;
  }
  if (target === 'json' || target === 'form') return 'VALIDATION_ERROR';
  if (issues.some((i) => valueAt(raw, i.path) === undefined)) return 'MISSING_PARAMETER';
  if (issues.some((i) => i.code === 'invalid_type')) return 'TYPE_MISMATCH';
  return 'VALIDATION_ERROR';
}

function messageFor(code: ErrorCode, target: string, fieldErrors: FieldError[]): Text {
  const names = [...new Set(fieldErrors.map((f) => f.field))].join(', ');
  const where = target === 'json' ? 'body' : target === 'param' ? 'path parameter' : target;
  switch (code) {
    case 'MISSING_PARAMETER':
      return msg('validation.missing', { where, names });
    case 'TYPE_MISMATCH':
      return msg('validation.wrongType', { where, names });
    case 'INVALID_ARGUMENT':
      return fieldErrors[0]?.message ?? 'validation.invalidArgument';
    default:
      return msg('validation.failed', { where, names });
  }
}

function suggestionsFor(code: ErrorCode): Text[] {
  switch (code) {
    case 'TYPE_MISMATCH':
      return ['validation.checkTypes'];
    case 'MISSING_PARAMETER':
      return ['validation.provideRequired'];
    default:
      return ['validation.correctFields'];
  }
}

/** A field's name in fieldErrors: `items[1].name` (an array index in brackets, CONTRACT 26). */
export const fieldPath = (path: readonly PropertyKey[]): string =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`)).join('');

function fieldName(issue: Issue, target: string): string {
  if (issue.path.length > 0) return fieldPath(issue.path);
  // A missing required key is reported on the object; zod 4 keeps its name in `keys` for unrecognized ones.
  const keys = (issue as { keys?: string[] }).keys;
  if (keys?.length) return keys.join(',');
  return target === 'json' ? 'body' : target;
}

/** Passwords and tokens are never echoed back, not even to their sender. */
const REDACTED = '[redacted]';
const SECRET_FIELD = /password|token|secret/i;
const isSecretField = (path: readonly PropertyKey[]) => path.some((key) => typeof key === 'string' && SECRET_FIELD.test(key));

function rejectedValue(raw: unknown, path: readonly PropertyKey[]): unknown {
  const value = valueAt(raw, path);
  if (value === undefined) return null;
  return isSecretField(path) ? REDACTED : echoable(value);
}

/** Deeper levels of a rejected value are not echoed back: cut there. */
export const MAX_ECHO_DEPTH = 8;

/**
 * The rejected value as it can be sent back: a client may post arrays or objects nested
 * thousands of levels deep (well inside the body limit), and serialising those overflows the
 * stack and turned a 400 into a 500. Levels below MAX_ECHO_DEPTH are replaced by a marker.
 * Recursion here is bounded by that depth, never by the input.
 */
function echoable(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_ECHO_DEPTH) return '[nested too deeply]';
  if (Array.isArray(value)) return value.map((item) => echoable(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, echoable(v, depth + 1)]));
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const DECIMAL_INT = /^-?\d+$/;

/**
 * An integer query or path value written in plain decimal digits. `z.coerce.number()` would read
 * `0x10` as 16, `1e3` as 1000 and an empty value as 0; here anything but digits (with an optional
 * minus sign, so a negative value reaches the range check as VALIDATION_ERROR) stays a string and
 * fails as TYPE_MISMATCH, and so does an empty value. Chain range checks on `num`.
 */
export const decimalInt = (num: z.ZodNumber = z.number().int()) =>
  z.preprocess((v) => (typeof v === 'string' ? (DECIMAL_INT.test(v) ? Number(v) : v === '' ? Number.NaN : v) : v), num);

/** A positive int32 id in the path. `abc`, `0x10`, `1.5` or an empty value is TYPE_MISMATCH. */
export const pathId = (name: string) =>
  decimalInt(z.number().int().min(1).max(2_147_483_647)).openapi({
    param: { name, in: 'path' },
    type: 'integer',
    format: 'int32',
    example: 1,
  });

export const IdParams = z.object({ id: pathId('id') });
