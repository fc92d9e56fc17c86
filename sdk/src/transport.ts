// The fetch every call goes through (openapi-fetch's `fetch` option): the access token (refreshed
// ahead of its expiry, and once more on a 401), the D1 bookmark carried from each answer to the next
// request (read-your-writes across D1 replicas), and the retries: network errors on requests that are
// safe to repeat, 429 and 503 after Retry-After.
import { backoffDelay, retryAfterDelay, type RetryPolicy } from './backoff.js';
import { NetworkError, retryAfterMs } from './errors.js';
import type { Session } from './session.js';

export const BOOKMARK_HEADER = 'x-d1-bookmark';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** Calls that carry no access token: they are how one gets one. */
const UNAUTHENTICATED = /\/auth\/(login|register|refresh|oauth2\/|verify-email|password\/(forgot|reset))/;
/** Safe to send twice by HTTP semantics (RFC 9110 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export interface TransportOptions {
  fetch: (request: Request) => Promise<Response>;
  session: Session;
  retry: RetryPolicy;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Sent as Accept-Language when the caller sets none ('fr' or 'en'). */
  language?: string;
}

export class Transport {
  /** The last D1 bookmark the server sent. */
  bookmark: string | null = null;

  constructor(private readonly options: TransportOptions) {}

  /** openapi-fetch's fetch: one logical request, as many attempts as the rules allow. */
  readonly fetch = async (request: Request): Promise<Response> => {
    const body = await bodyOf(request);
    // The URL as a string: React Native's URL has no pathname.
    const authenticate = !request.headers.has('Authorization') && !UNAUTHENTICATED.test(request.url.split('?')[0]);
    const repeatable = IDEMPOTENT_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_HEADER);
    const { retry } = this.options;
    let refreshedAfter401 = false;
    for (let attempt = 1; ; attempt++) {
      const token = authenticate ? await this.options.session.accessToken() : null;
      let response: Response;
      try {
        response = await this.options.fetch(this.attempt(request, body, token));
      } catch (error) {
        if (request.signal?.aborted || !repeatable || attempt >= retry.maxAttempts) throw new NetworkError(error, attempt);
        await this.options.sleep(backoffDelay(retry, attempt, this.options.random));
        continue;
      }
      this.bookmark = response.headers.get(BOOKMARK_HEADER) ?? this.bookmark;
      if (response.status === 401 && token && !refreshedAfter401) {
        // The token was refused before its time (revoked, server clock ahead): one refresh, one more try.
        refreshedAfter401 = true;
        const fresh = await this.options.session.refresh(token);
        if (fresh) {
          await response.body?.cancel();
          attempt--;
          continue;
        }
        return response;
      }
      if ((response.status === 429 || response.status === 503) && attempt < retry.maxAttempts) {
        const after = retryAfterMs(response.headers, this.options.now());
        if (after !== null && after > retry.maxRetryAfterMs) return response;
        await response.body?.cancel();
        await this.options.sleep(after !== null ? retryAfterDelay(after, this.options.random) : backoffDelay(retry, attempt, this.options.random));
        continue;
      }
      return response;
    }
  };

  private attempt(request: Request, body: ArrayBuffer | undefined, token: string | null): Request {
    const headers = new Headers(request.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (this.bookmark && !headers.has(BOOKMARK_HEADER)) headers.set(BOOKMARK_HEADER, this.bookmark);
    if (this.options.language && !headers.has('Accept-Language')) headers.set('Accept-Language', this.options.language);
    return new Request(request.url, { method: request.method, headers, body, signal: request.signal, redirect: request.redirect });
  }
}

/** The body, read once so every attempt can send it (React Native's Request has no `body` stream: read it whole). */
async function bodyOf(request: Request): Promise<ArrayBuffer | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const buffer = await request.arrayBuffer();
  return buffer.byteLength ? buffer : undefined;
}
