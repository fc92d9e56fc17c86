// Rate limits with the Workers rate-limiting bindings (fixed windows), one table for the whole
// service: which routes each policy guards, keyed by the client's IP. The same table documents the
// routes (429 and the headers) in the OpenAPI document.
//
// Headers (IETF httpapi draft "RateLimit header fields"): every answer of a guarded route carries
// `RateLimit-Policy: "<name>";q=<limit>;w=<window>`. The binding answers only "allowed or not", never
// how much is left, so `RateLimit: "<name>";r=0;t=<window>` (with Retry-After) is sent on 429 only.
//
// Requests that did not come through Cloudflare's edge carry no client IP (tests calling the worker
// directly); they are not counted. `wrangler dev` sets CF-Connecting-IP, so local runs are limited.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { tooManyRequests, msg, type Text } from '../errors';
import { routeTable } from '../lib/openapi';
import { setResponseHeaders } from '../lib/response-headers';
import { POLICIES, type RateLimitPolicy } from '../lib/rate-limit-policies';

export { POLICIES, type RateLimitPolicy };

type Method = 'get' | 'post';

/**
 * The public and expensive routes, by OpenAPI path. Sign-in, registration and the reset e-mail
 * (forgot) are limited by the auth routes themselves (per IP and per e-mail, see
 * features/auth/rate-limit.ts); the reset itself carries no e-mail, so it is limited here.
 */
export const GUARDED_ROUTES: { method: Method; path: string; policy: RateLimitPolicy }[] = [
  // Recipient tokens are secrets in a URL: enumeration must stop quickly.
  { method: 'get', path: '/r/{recipientToken}', policy: POLICIES.recipient },
  { method: 'get', path: '/v1/api/public/recipient/{recipientToken}', policy: POLICIES.recipient },
  { method: 'get', path: '/v1/api/tracking/{reservationId}/live', policy: POLICIES.recipient },
  // Signed receipt links: a secret in a URL too, and a PDF made on first use.
  { method: 'get', path: '/v1/api/public/receipts/{token}', policy: POLICIES.recipient },
  // A reset token guessed, or a password hashed, per request: the auth policy per IP, one bucket for
  // the API and the page of the e-mail's link.
  { method: 'post', path: '/v1/api/auth/password/reset', policy: POLICIES.authIp },
  { method: 'post', path: '/reset-password', policy: POLICIES.authIp },
  // Social sign-in verifies a token against the provider's keys and may create an account.
  { method: 'post', path: '/v1/api/auth/oauth2/google', policy: POLICIES.authIp },
  { method: 'post', path: '/v1/api/auth/oauth2/apple', policy: POLICIES.authIp },
  // One-click unsubscribe is POSTed by the mail provider's servers, many users behind one IP: the
  // generous public limit, which still stops a flood.
  { method: 'post', path: '/v1/api/unsubscribe', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/annonces', policy: POLICIES.search },
  { method: 'get', path: '/v1/api/annonces/{id}', policy: POLICIES.search },
  { method: 'get', path: '/v1/api/annonces/price-suggestion', policy: POLICIES.search },
  { method: 'get', path: '/v1/api/users/{id}', policy: POLICIES.search },
  { method: 'get', path: '/v1/api/users/{id}/reviews', policy: POLICIES.search },
  { method: 'get', path: '/v1/api/reviews/customers', policy: POLICIES.search },
  { method: 'post', path: '/v1/api/files', policy: POLICIES.upload },
  { method: 'post', path: '/v1/api/agencies/{id}/documents', policy: POLICIES.upload },
  { method: 'post', path: '/v1/api/bookings', policy: POLICIES.checkout },
  { method: 'post', path: '/v1/api/annonces/{id}/offers', policy: POLICIES.checkout },
  { method: 'post', path: '/v1/api/payments/checkout', policy: POLICIES.checkout },
  { method: 'get', path: '/v1/api/health', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/openapi.json', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/docs', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/categories', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/reference/countries', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/reference/countries/{code}/cities', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/reference/prohibited-items', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/payments/callback/success', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/payments/callback/cancel', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/pay-connect/return', policy: POLICIES.public },
  { method: 'get', path: '/v1/api/pay-connect/refresh', policy: POLICIES.public },
];

export const policyHeader = (p: RateLimitPolicy) => `"${p.name}";q=${p.limit};w=${p.windowSeconds}`;

/** Counts one request against the policy's bucket for `key`; over the limit, 429 with the headers. */
export async function consumeRateLimit(env: Env, policy: RateLimitPolicy, key: string, message: Text = 'request.tooManyRequests') {
  const { success } = await env[policy.binding].limit({ key: `${policy.name}:${key}` });
  if (!success) {
    throw tooManyRequests(message, policy.windowSeconds, {
      headers: { 'RateLimit-Policy': policyHeader(policy), RateLimit: `"${policy.name}";r=0;t=${policy.windowSeconds}` },
      suggestions: [msg('request.waitSecondsBeforeRetrying', { windowSeconds: policy.windowSeconds })],
    });
  }
}

const policyOf = routeTable(GUARDED_ROUTES.map(({ method, path, policy }) => ({ method, path, value: policy })));

/** The limit of the request's route, if guarded: one middleware for the whole table, before the routes, so a refused request does no work. */
export const rateLimits = createMiddleware<AppEnv>(async (c, next) => {
  const policy = policyOf(c.req.method, c.req.path);
  if (!policy) return next();
  const ip = c.req.header('CF-Connecting-IP');
  if (ip) await consumeRateLimit(c.env, policy, `ip:${ip}`);
  await next();
  setResponseHeaders(c, [['RateLimit-Policy', policyHeader(policy)]]);
});
