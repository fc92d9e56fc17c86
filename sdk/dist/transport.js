// The fetch every call goes through (openapi-fetch's `fetch` option): the access token (refreshed
// ahead of its expiry, and once more on a 401), the D1 bookmark carried from each answer to the next
// request (read-your-writes across D1 replicas), the timeout of each attempt, and the retries: network
// errors and timeouts on requests that are safe to repeat, 429 and 503 after Retry-After.
import { backoffDelay, retryAfterDelay } from './backoff.js';
import { NetworkError, TimeoutError, retryAfterMs } from './errors.js';
export const BOOKMARK_HEADER = 'x-d1-bookmark';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long one attempt may take, answer body included, unless the call says otherwise. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Calls that carry no access token: they are how one gets one. */
const UNAUTHENTICATED = /\/auth\/(login|register|refresh|oauth2\/|verify-email|password\/(forgot|reset))/;
/** Safe to send twice by HTTP semantics (RFC 9110 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Statuses whose Response has no body (the constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
class AttemptTimedOut extends Error {
}
export class Transport {
    options;
    /** The last D1 bookmark the server sent. */
    bookmark = null;
    constructor(options) {
        this.options = options;
    }
    /** openapi-fetch's fetch: one logical request, as many attempts as the rules allow. */
    fetch = (request) => this.send(request, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    /** The same fetch with another timeout per attempt (`sdk.withTimeout(ms)`). */
    withTimeout(timeoutMs) {
        return (request) => this.send(request, timeoutMs);
    }
    async send(request, timeoutMs) {
        const body = await bodyOf(request);
        // The URL as a string: React Native's URL has no pathname.
        const authenticate = !request.headers.has('Authorization') && !UNAUTHENTICATED.test(request.url.split('?')[0]);
        const repeatable = IDEMPOTENT_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_HEADER);
        const { retry } = this.options;
        let refreshedAfter401 = false;
        for (let attempt = 1;; attempt++) {
            const token = authenticate ? await this.options.session.accessToken() : null;
            let response;
            try {
                response = await this.timed(this.attempt(request, body, token), request.signal, timeoutMs);
            }
            catch (error) {
                // A timeout is a network error: the server may or may not have acted, so only repeatable calls go again.
                if (request.signal?.aborted || !repeatable || attempt >= retry.maxAttempts) {
                    throw error instanceof AttemptTimedOut ? new TimeoutError(timeoutMs, attempt) : new NetworkError(error, attempt);
                }
                await this.options.sleep(backoffDelay(retry, attempt, this.options.random));
                continue;
            }
            this.bookmark = response.headers.get(BOOKMARK_HEADER) ?? this.bookmark;
            if (response.status === 401 && token && !refreshedAfter401) {
                // The token was refused before its time (revoked, server clock ahead): one refresh, one more try.
                refreshedAfter401 = true;
                const fresh = await this.options.session.refresh(token);
                if (fresh) {
                    attempt--;
                    continue;
                }
                return response;
            }
            if ((response.status === 429 || response.status === 503) && attempt < retry.maxAttempts) {
                const after = retryAfterMs(response.headers, this.options.now());
                if (after !== null && after > retry.maxRetryAfterMs)
                    return response;
                await this.options.sleep(after !== null ? retryAfterDelay(after, this.options.random) : backoffDelay(retry, attempt, this.options.random));
                continue;
            }
            return response;
        }
    }
    /**
     * One attempt, its answer read whole, within `timeoutMs`: a link that goes silent before or during
     * the answer ends the attempt (aborted, so the connection is let go) instead of hanging the app.
     */
    async timed(request, outer, timeoutMs) {
        const controller = new AbortController();
        const forward = () => controller.abort(outer?.reason);
        if (outer?.aborted)
            forward();
        outer?.addEventListener('abort', forward);
        let cancel = () => { };
        const expired = new Promise((_, reject) => {
            cancel = this.options.setTimer(() => {
                reject(new AttemptTimedOut());
                controller.abort(new AttemptTimedOut());
            }, timeoutMs);
        });
        const answer = this.options.fetch(request(controller.signal)).then(readWhole);
        answer.catch(() => { }); // lost the race to the timer: its rejection is expected and unobserved
        try {
            return await Promise.race([answer, expired]);
        }
        finally {
            cancel();
            outer?.removeEventListener('abort', forward);
        }
    }
    attempt(request, body, token) {
        const headers = new Headers(request.headers);
        if (token)
            headers.set('Authorization', `Bearer ${token}`);
        if (this.bookmark && !headers.has(BOOKMARK_HEADER))
            headers.set(BOOKMARK_HEADER, this.bookmark);
        if (this.options.language && !headers.has('Accept-Language'))
            headers.set('Accept-Language', this.options.language);
        return (signal) => new Request(request.url, { method: request.method, headers, body, signal, redirect: request.redirect });
    }
}
/** The answer with its body read into memory (the timeout covers it); opaque answers are passed as they are. */
async function readWhole(response) {
    if (response.type === 'opaqueredirect' || response.status < 200 || response.status > 599)
        return response;
    const body = NULL_BODY.has(response.status) ? null : await response.arrayBuffer();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
/** The body, read once so every attempt can send it (React Native's Request has no `body` stream: read it whole). */
async function bodyOf(request) {
    if (request.method === 'GET' || request.method === 'HEAD')
        return undefined;
    const buffer = await request.arrayBuffer();
    return buffer.byteLength ? buffer : undefined;
}
