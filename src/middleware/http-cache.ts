// HTTP caching, decided in one place:
// - an answer to an authenticated request (Authorization header) is `private, no-store`: it may
//   hold personal data and must not be kept by any cache;
// - anonymous GETs of public reference data carry `public, max-age=<n>` (the table below), so
//   phones and CDNs can keep them; anything else is `no-store` (recipient pages hold a live code);
// - every successful JSON GET carries a strong ETag (SHA-1 of the body) and answers 304 with no
//   body to a matching If-None-Match. HTML pages are not tagged (their nonce changes every time);
//   file downloads use the ETag R2 gives them; receipt PDFs are not tagged.
import type { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { toHex } from '../lib/digest';
import { routeTable } from '../lib/openapi';

/** Anonymous GETs that anyone may cache, and for how long (seconds). */
export const PUBLIC_CACHE: { path: string; maxAgeSeconds: number }[] = [
  { path: '/v1/api/reference/countries', maxAgeSeconds: 86_400 },
  { path: '/v1/api/reference/countries/{code}/cities', maxAgeSeconds: 86_400 },
  // Admins may extend it: kept 5 minutes, like the categories.
  { path: '/v1/api/reference/prohibited-items', maxAgeSeconds: 300 },
  { path: '/v1/api/categories', maxAgeSeconds: 300 },
  { path: '/v1/api/openapi.json', maxAgeSeconds: 300 },
  { path: '/v1/api/annonces', maxAgeSeconds: 30 },
  { path: '/v1/api/annonces/{id}', maxAgeSeconds: 30 },
  { path: '/v1/api/users/{id}', maxAgeSeconds: 60 },
  { path: '/v1/api/users/{id}/reviews', maxAgeSeconds: 60 },
  { path: '/v1/api/reviews/customers', maxAgeSeconds: 60 },
];

export const PRIVATE = 'private, no-store';
const NOWHERE = 'no-store';

/** Headers a 304 keeps from the answer it stands for (RFC 9110 section 15.4.5), plus ours. */
const KEPT_ON_304 = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary', 'x-request-id', 'ratelimit-policy', 'x-d1-bookmark'];

const ifNoneMatchHas = (header: string | undefined, etag: string) =>
  header !== undefined && (header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag));

async function strongEtag(body: ArrayBuffer): Promise<string> {
  return `"${toHex(await crypto.subtle.digest('SHA-1', body))}"`;
}

/** Cache-Control on every answer, ETag and 304 on successful JSON GETs. */
export const httpCache = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const res = c.res;
  if (c.req.header('Authorization')) res.headers.set('Cache-Control', PRIVATE);
  else if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', NOWHERE);

  if (c.req.method !== 'GET' || res.status !== 200) return;
  let etag = res.headers.get('ETag');
  let bodyRead = false;
  if (!etag) {
    if (!res.headers.get('Content-Type')?.startsWith('application/json')) return;
    // The body read once and the answer rebuilt around the same bytes (hashing a clone tees the stream).
    const body = await res.arrayBuffer();
    etag = await strongEtag(body);
    bodyRead = true;
    const tagged = new Response(body, res);
    tagged.headers.set('ETag', etag);
    c.res = undefined; // replaced, not merged: the headers are already the answer's
    c.res = tagged;
  }
  if (ifNoneMatchHas(c.req.header('If-None-Match'), etag)) {
    if (!bodyRead) await res.body?.cancel();
    const headers = new Headers();
    const answer = c.res;
    for (const name of KEPT_ON_304) {
      const value = answer.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    c.res = new Response(null, { status: 304, headers });
  }
});

const maxAgeOf = routeTable(PUBLIC_CACHE.map(({ path, maxAgeSeconds }) => ({ method: 'GET', path, value: maxAgeSeconds })));

/** `public, max-age` on the anonymous 200s of the table's routes: one middleware for the whole table. */
const publicCaching = createMiddleware<AppEnv>(async (c, next) => {
  const maxAgeSeconds = maxAgeOf(c.req.method, c.req.path);
  await next();
  if (maxAgeSeconds === undefined || c.res.status !== 200 || c.req.header('Authorization')) return;
  c.res.headers.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  c.res.headers.append('Vary', 'Authorization');
});

export function registerPublicCaching(app: Hono<AppEnv>) {
  app.use(publicCaching);
}
