// An Idempotency-Key on every write whose operation accepts one (the list is read from the OpenAPI
// document at generation time). The key is set once per call, before the transport, so its retries
// resend the same key and the server replays its first answer instead of acting twice.
import type { Middleware } from 'openapi-fetch';
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
