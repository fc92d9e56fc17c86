// The one error type of the service, the specification's error body, and the hooks that turn
// every failure (zod, Hono, domain, unexpected) into that body.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { readerLocale } from './lib/locale';
import { hasParams, msg, render, type KeyWithParams, type Params, type Text } from './messages';
import type { Noun } from './messages/words';
import { REASONS, reasonOfKey, type Reason } from './messages/reasons';

export { msg, type Text } from './messages';

/** A text's English (what `AppError.message` holds): for logs, and for rules whose callers read English. */
export const english = (text: Text): string => render(text, 'en');
export type { Noun } from './messages/words';
export { REASONS, type Reason } from './messages/reasons';

/** errorCode -> HTTP status (CONTRACT section 2). A few codes carry another status for one case. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_ARGUMENT: 400,
  MISSING_PARAMETER: 400,
  TYPE_MISMATCH: 400,
  AUTHENTICATION_ERROR: 401,
  UNAUTHORIZED: 401,
  ACCESS_DENIED: 403,
  RESOURCE_NOT_FOUND: 404,
  ENDPOINT_NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  INVALID_STATE: 409,
  BUSINESS_RULE_VIOLATION: 422,
  INSUFFICIENT_FUNDS: 422,
  STRIPE_CONNECT_NOT_CONFIGURED: 422,
  PAYMENT_ERROR: 402,
  PAYMENT_PROCESSING_ERROR: 502,
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** A field error as raised: its message is a key (rendered in the request's language by onError). */
export interface FieldError {
  field: string;
  message: Text;
  rejectedValue: unknown;
}

export interface AppErrorOptions {
  /** Overrides the code's usual status (405, 413, 415, 429). */
  status?: ContentfulStatusCode;
  fieldErrors?: FieldError[];
  suggestions?: Text[];
  headers?: Record<string, string>;
  cause?: unknown;
  /** The business rule, when the message key does not name it (messages/reasons.ts). */
  reason?: Reason;
}

/**
 * Thrown anywhere; `onError` shapes it. Handlers never build error bodies themselves. `text` is
 * the message key and its values; `message` its English (logs, debugInfo).
 */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  readonly fieldErrors?: FieldError[];
  readonly suggestions: Text[];
  readonly headers?: Record<string, string>;
  /** The business rule refused (CONTRACT 26): from the options, else from the message key. */
  readonly reason?: Reason;

  constructor(
    readonly errorCode: ErrorCode,
    readonly text: Text,
    options: AppErrorOptions = {},
  ) {
    super(render(text, 'en'), { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status ?? ERROR_STATUS[errorCode];
    this.fieldErrors = options.fieldErrors;
    this.suggestions = options.suggestions ?? [];
    this.headers = options.headers;
    this.reason = options.reason ?? reasonOfKey(typeof text === 'string' ? text : text.key) ?? (this.status === 429 ? 'RATE_LIMITED' : undefined);
  }
}

/**
 * One constructor per errorCode: the one way to raise each error. A key that names values takes
 * them next (`throw invalidState('reservation.notCancellable', { status })`); a key without values,
 * or msg(key, values) where the text is chosen (`cond ? msg(a, {...}) : 'b.key'`), takes the options next.
 */
export interface Raise {
  <K extends KeyWithParams>(key: K, params: Params<K>, options?: AppErrorOptions): AppError;
  (text: Text, options?: AppErrorOptions): AppError;
}

const raise =
  (errorCode: ErrorCode): Raise =>
  (text: Text, params?: unknown, options?: AppErrorOptions): AppError =>
    typeof text === 'string' && hasParams(text)
      ? new AppError(errorCode, { key: text, params: params as Record<string, unknown> }, options)
      : new AppError(errorCode, text, params as AppErrorOptions | undefined);

export const validationError = raise('VALIDATION_ERROR');
export const invalidArgument = raise('INVALID_ARGUMENT');
export const missingParameter = raise('MISSING_PARAMETER');
export const typeMismatch = raise('TYPE_MISMATCH');
export const authenticationError = raise('AUTHENTICATION_ERROR');
export const unauthorized = raise('UNAUTHORIZED');
export const endpointNotFound = raise('ENDPOINT_NOT_FOUND');
/** The 404 of a path no route serves (the app's notFound, and development routes elsewhere). */
export const noEndpoint = (method: string, path: string): AppError =>
  endpointNotFound('error.noEndpoint', { method, path }, { suggestions: ['error.seeApiReference'] });
export const alreadyExists = raise('ALREADY_EXISTS');
export const invalidState = raise('INVALID_STATE');
export const businessRule = raise('BUSINESS_RULE_VIOLATION');
export const insufficientFunds = raise('INSUFFICIENT_FUNDS');
export const connectNotConfigured = raise('STRIPE_CONNECT_NOT_CONFIGURED');
export const paymentError = raise('PAYMENT_ERROR');
export const paymentProcessingError = raise('PAYMENT_PROCESSING_ERROR');
export const internalError = raise('INTERNAL_ERROR');

/** `Reservation 12 not found`: the noun is one of words.ts (its French is there). */
export const notFound = (what: Noun, id?: unknown, options?: AppErrorOptions) =>
  new AppError('RESOURCE_NOT_FOUND', id === undefined ? msg('error.notFound', { what }) : msg('error.notFoundWithId', { what, id: String(id) }), options);
export const accessDenied = (text: Text = 'error.accessDenied', options?: AppErrorOptions) => new AppError('ACCESS_DENIED', text, options);
/** A rate limit: 429 with BUSINESS_RULE_VIOLATION and Retry-After (CONTRACT section 2). */
export const tooManyRequests = (text: Text, retryAfterSeconds: number, options: AppErrorOptions = {}) =>
  new AppError('BUSINESS_RULE_VIOLATION', text, {
    ...options,
    status: 429,
    headers: { ...options.headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

export const FieldErrorSchema = z
  .object({
    field: z.string(),
    message: z.string().openapi({ description: 'In the language of Content-Language' }),
    rejectedValue: z.any().openapi({ description: 'The rejected value, as received' }),
  })
  .openapi('FieldError');

export const ErrorResponseSchema = z
  .object({
    status: z.number().int(),
    errorCode: z.enum(ERROR_CODES),
    message: z.string().openapi({
      description: 'Human-readable, in the language the Accept-Language request header prefers: fr or en (en otherwise), named by Content-Language; errorCode does not depend on it',
    }),
    timestamp: z.string().openapi({ format: 'date-time' }),
    path: z.string(),
    debugInfo: z.string().optional().openapi({ description: 'Present only when ENVIRONMENT=development' }),
    suggestions: z.array(z.string()).openapi({ description: 'In the language of Content-Language' }),
    fieldErrors: z
      .array(FieldErrorSchema)
      .optional()
      .openapi({ description: 'Present on 400 responses, and on a 409 or 422 caused by given inputs (items[1].name)' }),
    reason: z.enum(REASONS).optional().openapi({
      description: 'The business rule refused, a stable code apps can act on (added to the specification\'s body; errorCode keeps its values). Present on the 409, 422 and 429 a rule causes',
    }),
  })
  .openapi('ErrorResponse');

export type ErrorBody = z.infer<typeof ErrorResponseSchema>;

/** Turns any thrown value into (status, body). Unknown errors become INTERNAL_ERROR without detail. */
// Typed loosely: errors.ts sits below env.ts (which imports the validation hook, which raises these).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function toErrorResponse(c: Context<any>, err: unknown): Response {
  const appError = asAppError(err);
  // Raised as keys; written in the language the client prefers (fr or en, en otherwise).
  const locale = readerLocale(c.req.header('Accept-Language'));
  const text = (t: Text) => render(t, locale);
  const body: ErrorBody = {
    status: appError.status,
    errorCode: appError.errorCode,
    message: text(appError.text),
    timestamp: new Date().toISOString(),
    path: new URL(c.req.url).pathname,
    // Every error carries it in development (CONTRACT section 2), never elsewhere.
    ...(c.env?.ENVIRONMENT === 'development' ? { debugInfo: debugInfo(appError, err, c.env) } : {}),
    suggestions: appError.suggestions.map(text),
  };
  if (appError.status === 400 || appError.fieldErrors?.length) body.fieldErrors = (appError.fieldErrors ?? []).map((f) => ({ ...f, message: text(f.message) }));
  if (appError.reason) body.reason = appError.reason;
  if (appError.status >= 500) {
    console.error(JSON.stringify({ level: 'error', requestId: c.get('requestId'), error: describe(err) }));
  }
  const res = c.json(body, appError.status, { ...appError.headers, 'Content-Language': locale });
  res.headers.append('Vary', 'Accept-Language');
  return res;
}

function asAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) return fromHttpException(err);
  return new AppError('INTERNAL_ERROR', 'error.unexpected', {
    suggestions: ['error.retryOrContactSupport'],
    cause: err,
  });
}

/** Hono's own message (its English, translated when known), or ours when it has none. */
const hono = (err: HTTPException, otherwise: Text): Text => (err.message ? msg('error.external', { text: err.message }) : otherwise);

/** Hono raises HTTPException for malformed JSON (400), oversized (413) and wrong media type (415). */
function fromHttpException(err: HTTPException): AppError {
  switch (err.status) {
    case 400:
      return new AppError('INVALID_ARGUMENT', hono(err, 'error.malformedRequest'), {
        suggestions: ['error.sendWellFormedJson'],
      });
    case 401:
      return new AppError('UNAUTHORIZED', hono(err, 'error.authenticationRequired'));
    case 413:
      return new AppError('INVALID_ARGUMENT', 'error.requestBodyTooLarge', { status: 413 });
    case 415:
      return new AppError('INVALID_ARGUMENT', 'error.unsupportedMediaType', {
        status: 415,
        suggestions: ['error.sendBodyApplicationJson'],
      });
    default:
      return new AppError(err.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_ARGUMENT', hono(err, 'error.requestFailed'), {
        status: err.status as ContentfulStatusCode,
      });
  }
}

/**
 * The development-only `debugInfo`: the error code (or the thrown error's name) and message, the
 * cause chain, and the stack for a 500. Secret values of the environment and token-shaped strings
 * are masked, so a secret never leaves the server even in development.
 */
function debugInfo(appError: AppError, err: unknown, env: Record<string, unknown>): string {
  const parts = [`${appError.errorCode}: ${appError.message}`];
  if (err !== appError) parts.push(`thrown: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
  const cause = err instanceof AppError ? err.cause : err instanceof Error ? err.cause : undefined;
  if (cause !== undefined) parts.push(`cause: ${describe(cause)}`);
  if (appError.status >= 500) {
    const stack = err instanceof Error ? err.stack : undefined;
    if (stack) parts.push(`stack: ${stack.split('\n').slice(1, 9).map((l) => l.trim()).join(' | ')}`);
  }
  return redactSecrets(parts.join(' -- '), env);
}

const SECRET_BINDING = /SECRET|PASSWORD|TOKEN|_KEYS?$/i;
const SECRET_SHAPES: RegExp[] = [
  /Bearer\s+[\w.~+/=-]+/gi,
  /\b(?:sk|rk|pk)_(?:live|test)_[\w]+/g,
  /\bwhsec_[\w]+/g,
  /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, // a JWT
];

/** Every secret value of the environment (and, for JSON secrets such as JWT_KEYS, each string inside). */
function secretValues(env: Record<string, unknown>): string[] {
  const values: string[] = [];
  const collect = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.length >= 6) values.push(v);
    } else if (v && typeof v === 'object') {
      for (const x of Object.values(v)) collect(x);
    }
  };
  for (const [key, value] of Object.entries(env)) {
    if (!SECRET_BINDING.test(key) || typeof value !== 'string') continue;
    collect(value);
    try {
      collect(JSON.parse(value));
    } catch {
      // Not JSON: the whole value is the secret.
    }
  }
  // Longest first, so a secret containing another is masked whole.
  return values.sort((a, b) => b.length - a.length);
}

export function redactSecrets(text: string, env: Record<string, unknown>): string {
  let out = text;
  for (const secret of secretValues(env)) out = out.split(secret).join('[redacted]');
  for (const shape of SECRET_SHAPES) out = out.replace(shape, '[redacted]');
  return out;
}

function describe(err: unknown): string {
  if (err instanceof AppError && err.cause !== undefined) return `${err.message}: ${describe(err.cause)}`;
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
