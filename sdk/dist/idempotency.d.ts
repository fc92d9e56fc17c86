import type { Middleware } from './vendor/openapi-fetch.js';
export declare function acceptsIdempotencyKey(method: string, schemaPath: string): boolean;
export declare function idempotencyMiddleware(newKey: () => string): Middleware;
/** A random UUID v4: crypto.randomUUID where it exists, else from getRandomValues (React Native with a polyfill of it). */
export declare function randomKey(): string;
