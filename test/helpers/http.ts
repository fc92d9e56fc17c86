// Request wrappers: call the worker as a client would, through its real fetch handler.
import { exports } from 'cloudflare:workers';

export const BASE = 'http://api.test';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body, sent as is (for malformed JSON, other media types, signed webhooks). */
  raw?: BodyInit;
  token?: string;
  headers?: Record<string, string>;
}

/** What a request sent and got back, for an observer (test/openapi-lifecycle.test.ts validates them). */
export interface Exchange {
  method: string;
  path: string;
  requestBody: unknown;
  status: number;
  contentType: string | null;
  body: unknown;
}

let observer: ((exchange: Exchange) => void) | undefined;

/** Sees every call() of the test file from now on (undefined to stop). */
export const observeCalls = (fn: ((exchange: Exchange) => void) | undefined) => {
  observer = fn;
};

export async function call<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body }));
  const text = await res.text();
  let parsed: unknown = text;
  if (res.headers.get('Content-Type')?.includes('application/json') && text) parsed = JSON.parse(text);
  observer?.({ method, path, requestBody: options.body, status: res.status, contentType: res.headers.get('Content-Type'), body: parsed });
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export const get = <T = any>(path: string, options?: RequestOptions) => call<T>('GET', path, options);
export const post = <T = any>(path: string, body?: unknown, options?: RequestOptions) =>
  call<T>('POST', path, { ...options, body });
export const put = <T = any>(path: string, body?: unknown, options?: RequestOptions) =>
  call<T>('PUT', path, { ...options, body });
export const del = <T = any>(path: string, options?: RequestOptions) => call<T>('DELETE', path, options);

/** The error body with its volatile timestamp checked and removed, for exact comparisons. */
export function errorBody(res: ApiResponse) {
  const { timestamp, ...rest } = res.body as Record<string, unknown>;
  if (typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp))) {
    throw new Error(`error body has no valid timestamp: ${JSON.stringify(res.body)}`);
  }
  return rest;
}
