// A strict Content-Security-Policy on every HTML page the worker serves: scripts run only with
// the request's nonce (no inline handler, no foreign origin), nothing may frame the page, forms
// post back to the worker. JSON answers need none. A page that runs a script takes the nonce
// with `cspNonce(c)` and puts it on its <script> tags.
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';

export const CSP_HEADER = 'Content-Security-Policy';

/** The request's nonce, made on first use (16 random bytes, base64). */
export function cspNonce(c: Context<AppEnv>): string {
  let nonce = c.get('cspNonce');
  if (!nonce) {
    nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
    c.set('cspNonce', nonce);
  }
  return nonce;
}

/** The policy of a page; without a nonce no script runs at all. */
export function contentSecurityPolicy(nonce: string | undefined): string {
  return [
    "default-src 'none'",
    nonce ? `script-src 'nonce-${nonce}' 'strict-dynamic'` : "script-src 'none'",
    // Inline styles stay allowed: a style cannot run code, and the reference page injects its own.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const pageSecurityPolicy = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.headers.get('Content-Type')?.startsWith('text/html')) {
    c.res.headers.set(CSP_HEADER, contentSecurityPolicy(c.get('cspNonce')));
  }
});
