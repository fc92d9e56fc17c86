// Errors as typed objects: every answer outside 2xx becomes an ApiError carrying the specification's
// error body (errorCode, message, fieldErrors); a request that never got an answer is a NetworkError.
import type { components } from './generated/api.js';

export type ErrorBody = components['schemas']['ErrorResponse'];
export type ErrorCode = ErrorBody['errorCode'];
/** Which rule refused a request, for an app to branch on (CONTRACT 26): the error body's `reason`. */
export type ErrorReason = NonNullable<ErrorBody['reason']>;
export type FieldError = components['schemas']['FieldError'];

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The specification's code; `UNKNOWN` when the body was not the error body (a proxy's page, say). */
  readonly errorCode: ErrorCode | 'UNKNOWN';
  /** The rule that refused it (CAPACITY_EXCEEDED, ITEM_PROHIBITED, ...); null when the server named none. */
  readonly reason: ErrorReason | null;
  readonly fieldErrors: FieldError[];
  readonly suggestions: string[];
  /** X-Request-Id of the answer: quote it when reporting a problem. */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (429, 503), if it said. */
  readonly retryAfterSeconds: number | null;
  readonly body: unknown;

  constructor(status: number, body: unknown, headers?: Headers) {
    const error = isErrorBody(body) ? body : null;
    super(error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.errorCode = error?.errorCode ?? 'UNKNOWN';
    this.reason = error?.reason ?? null;
    this.fieldErrors = error?.fieldErrors ?? [];
    this.suggestions = error?.suggestions ?? [];
    this.requestId = headers?.get('x-request-id') ?? null;
    const retryAfter = headers ? retryAfterMs(headers, Date.now()) : null;
    this.retryAfterSeconds = retryAfter === null ? null : Math.ceil(retryAfter / 1000);
    this.body = body;
  }

  /** The message of the field error on `field`, if any (form validation). */
  fieldError(field: string): string | undefined {
    return this.fieldErrors.find((f) => f.field === field)?.message;
  }
}

/** The request never got an answer (offline, DNS, connection reset), after the retries allowed. */
export class NetworkError extends Error {
  override readonly name: string = 'NetworkError';
  constructor(override readonly cause: unknown, readonly attempts: number) {
    super(`Network error after ${attempts} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** No answer within the call's timeout (default 30 s), after the retries allowed: a NetworkError like the others. */
export class TimeoutError extends NetworkError {
  override readonly name = 'TimeoutError';
  constructor(readonly timeoutMs: number, attempts: number) {
    super(new Error(`no answer within ${timeoutMs} ms`), attempts);
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ErrorBody).errorCode === 'string';
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * The data of an openapi-fetch result, or its error thrown as ApiError:
 * `const trip = await unwrap(api.GET('/v1/api/annonces/{id}', { params: { path: { id } } }))`.
 */
export async function unwrap<T>(result: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await result;
  if (error !== undefined || !response.ok) throw new ApiError(response.status, error, response.headers);
  return data as T;
}
