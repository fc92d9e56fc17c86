// HTTP caching, decided in one place:
// - an answer to an authenticated request (Authorization header) is `private, no-store`: it may
//   hold personal data and must not be kept by any cache;
// - anonymous GETs of public reference data carry `public, max-age=<n>` (the table below), so
//   phones and CDNs can keep them; anything else is `no-store` (recipient pages hold a live code);
// - every successful JSON GET carries a strong ETag (CRC-32 and length of the body) and answers 304
//   with no body to a matching If-None-Match. HTML pages are not tagged (their nonce changes every
//   time); file downloads use the ETag R2 gives them; receipt PDFs are not tagged.
import { crc32 } from 'node:zlib';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { routeTable } from '../lib/openapi';
import { setResponseHeaders } from '../lib/response-headers';

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
  // Six months of prices barely move in five minutes.
  { path: '/v1/api/annonces/price-suggestion', maxAgeSeconds: 300 },
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

/**
 * The body's CRC-32 and its length in bytes. A validator, not a signature: a changed body of the
 * same length keeps its tag with odds of 1 in 4 billion, and then only until its next change. It
 * was a SHA-1, which cost 7 instructions per byte (184 k for a 25 KB page, 2.7 % of the search):
 * the CRC is native and a fraction of that.
 */
const strongEtag = (body: Uint8Array): string => `"${crc32(body).toString(16).padStart(8, '0')}-${body.byteLength.toString(16)}"`;

type JsonBytes = { bytes?: Uint8Array };

const utf8 = new TextEncoder();

/**
 * c.json for this GET request, keeping the bytes it sends: the ETag is hashed from them, so the
 * answer is neither read back nor rebuilt (that cost about a tenth of a small GET's instructions),
 * and the text is encoded once, not once for the hash and again for the body.
 */
function keepJsonBytes(c: Context<AppEnv>, kept: JsonBytes) {
  c.json = ((object: unknown, arg?: unknown, headers?: Record<string, string>) => {
    kept.bytes = utf8.encode(JSON.stringify(object));
    return c.body(kept.bytes as Uint8Array<ArrayBuffer>, arg as never, { 'Content-Type': 'application/json', ...headers });
  }) as unknown as typeof c.json;
}

/** Cache-Control on every answer, ETag and 304 on successful JSON GETs. */
export const httpCache = createMiddleware<AppEnv>(async (c, next) => {
  const kept: JsonBytes = {};
  if (c.req.method === 'GET') keepJsonBytes(c, kept);
  await next();
  const res = c.res;
  if (c.req.header('Authorization')) res.headers.set('Cache-Control', PRIVATE);
  else if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', NOWHERE);

  if (c.req.method !== 'GET' || res.status !== 200) return;
  let etag = res.headers.get('ETag');
  if (!etag) {
    if (!res.headers.get('Content-Type')?.startsWith('application/json')) return;
    // Every JSON answer is made by c.json; the bytes kept are the body sent (headers may change after, the body not).
    etag = strongEtag(kept.bytes ?? new Uint8Array(await res.clone().arrayBuffer()));
    setResponseHeaders(c, [['ETag', etag]]);
  }
  if (ifNoneMatchHas(c.req.header('If-None-Match'), etag)) {
    await c.res.body?.cancel();
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
export const publicCaching = createMiddleware<AppEnv>(async (c, next) => {
  const maxAgeSeconds = maxAgeOf(c.req.method, c.req.path);
  await next();
  if (maxAgeSeconds === undefined || c.res.status !== 200 || c.req.header('Authorization')) return;
  c.res.headers.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  c.res.headers.append('Vary', 'Authorization');
});
