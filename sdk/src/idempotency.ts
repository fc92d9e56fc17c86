// An Idempotency-Key on every write whose operation accepts one (the list is read from the OpenAPI
// document at generation time). The key is set once per call, before the transport, so its retries
// resend the same key and the server replays its first answer instead of acting twice.
import type { Middleware } from './vendor/openapi-fetch.js';
import { IDEMPOTENT_OPERATIONS } from './generated/operations.js';
import { IDEMPOTENCY_HEADER } from './transport.js';

export function acceptsIdempotencyKey(method: string, schemaPath: string): boolean {
  return IDEMPOTENT_OPERATIONS.has(`${method.toUpperCase()} ${schemaPath}`);
}

export function idempotencyMiddleware(newKey: () => string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (acceptsIdempotencyKey(request.method, schemaPath) && !request.headers.has(IDEMPOTENCY_HEADER)) {
        request.headers.set(IDEMPOTENCY_HEADER, newKey());
      }
      return request;
    },
  };
}

/** A random UUID v4: crypto.randomUUID where it exists, else from getRandomValues (React Native with a polyfill of it). */
export function randomKey(): string {
  const c: Crypto | undefined = typeof crypto === 'undefined' ? undefined : crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof c?.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
