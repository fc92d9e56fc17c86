import type { components } from './generated/api.js';
export type ErrorBody = components['schemas']['ErrorResponse'];
export type ErrorCode = ErrorBody['errorCode'];
/** Which rule refused a request, for an app to branch on (CONTRACT 26): the error body's `reason`. */
export type ErrorReason = NonNullable<ErrorBody['reason']>;
export type FieldError = components['schemas']['FieldError'];
export declare class ApiError extends Error {
    readonly name = "ApiError";
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
    constructor(status: number, body: unknown, headers?: Headers);
    /** The message of the field error on `field`, if any (form validation). */
    fieldError(field: string): string | undefined;
}
/** The request never got an answer (offline, DNS, connection reset), after the retries allowed. */
export declare class NetworkError extends Error {
    readonly cause: unknown;
    readonly attempts: number;
    readonly name: string;
    constructor(cause: unknown, attempts: number);
}
/** No answer within the call's timeout (default 30 s), after the retries allowed: a NetworkError like the others. */
export declare class TimeoutError extends NetworkError {
    readonly timeoutMs: number;
    readonly name = "TimeoutError";
    constructor(timeoutMs: number, attempts: number);
}
/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export declare function retryAfterMs(headers: Headers, now: number): number | null;
/**
 * The data of an openapi-fetch result, or its error thrown as ApiError:
 * `const trip = await unwrap(api.GET('/v1/api/annonces/{id}', { params: { path: { id } } }))`.
 */
export declare function unwrap<T>(result: Promise<{
    data?: T;
    error?: unknown;
    response: Response;
}>): Promise<T>;
