export class ApiError extends Error {
    name = 'ApiError';
    status;
    /** The specification's code; `UNKNOWN` when the body was not the error body (a proxy's page, say). */
    errorCode;
    /** The rule that refused it (CAPACITY_EXCEEDED, ITEM_PROHIBITED, ...); null when the server named none. */
    reason;
    fieldErrors;
    suggestions;
    /** X-Request-Id of the answer: quote it when reporting a problem. */
    requestId;
    /** Seconds the server asked to wait (429, 503), if it said. */
    retryAfterSeconds;
    body;
    constructor(status, body, headers) {
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
    fieldError(field) {
        return this.fieldErrors.find((f) => f.field === field)?.message;
    }
}
/** The request never got an answer (offline, DNS, connection reset), after the retries allowed. */
export class NetworkError extends Error {
    cause;
    attempts;
    name = 'NetworkError';
    constructor(cause, attempts) {
        super(`Network error after ${attempts} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`);
        this.cause = cause;
        this.attempts = attempts;
    }
}
/** No answer within the call's timeout (default 30 s), after the retries allowed: a NetworkError like the others. */
export class TimeoutError extends NetworkError {
    timeoutMs;
    name = 'TimeoutError';
    constructor(timeoutMs, attempts) {
        super(new Error(`no answer within ${timeoutMs} ms`), attempts);
        this.timeoutMs = timeoutMs;
    }
}
function isErrorBody(body) {
    return typeof body === 'object' && body !== null && typeof body.errorCode === 'string';
}
/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterMs(headers, now) {
    const value = headers.get('retry-after')?.trim();
    if (!value)
        return null;
    if (/^\d+$/.test(value))
        return Number(value) * 1000;
    const date = Date.parse(value);
    return Number.isNaN(date) ? null : Math.max(0, date - now);
}
/**
 * The data of an openapi-fetch result, or its error thrown as ApiError:
 * `const trip = await unwrap(api.GET('/v1/api/annonces/{id}', { params: { path: { id } } }))`.
 */
export async function unwrap(result) {
    const { data, error, response } = await result;
    if (error !== undefined || !response.ok)
        throw new ApiError(response.status, error, response.headers);
    return data;
}
