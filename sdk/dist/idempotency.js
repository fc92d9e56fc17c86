import { IDEMPOTENT_OPERATIONS } from './generated/operations.js';
import { IDEMPOTENCY_HEADER } from './transport.js';
export function acceptsIdempotencyKey(method, schemaPath) {
    return IDEMPOTENT_OPERATIONS.has(`${method.toUpperCase()} ${schemaPath}`);
}
export function idempotencyMiddleware(newKey) {
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
export function randomKey() {
    const c = typeof crypto === 'undefined' ? undefined : crypto;
    if (typeof c?.randomUUID === 'function')
        return c.randomUUID();
    const bytes = new Uint8Array(16);
    if (typeof c?.getRandomValues === 'function')
        c.getRandomValues(bytes);
    else
        for (let i = 0; i < 16; i++)
            bytes[i] = Math.floor(Math.random() * 256);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
