// What client teams and browsers rely on beyond the bodies: a codegen-ready OpenAPI document
// (operationIds, declared tags, documented headers), rate limits with their headers, and a strict
// Content-Security-Policy on every HTML page.
import { crc32 } from 'node:zlib';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import wranglerToml from '../wrangler.toml?raw';
import { GUARDED_ROUTES, POLICIES } from '../src/middleware/rate-limit';
import { aCarrier, aReservation, aUser } from './helpers/factories';
import { BASE, call, errorBody, get, post, type ApiResponse } from './helpers/http';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operations = (doc: any) =>
  Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );

describe('the OpenAPI document is ready for code generators', () => {
  it('every operation has a unique camelCase operationId', async () => {
    const { body: doc } = await get('/v1/api/openapi.json');
    const ids = operations(doc).map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][a-zA-Z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/api/auth/login'].post.operationId).toBe('login');
    expect(doc.paths['/v1/api/agencies/{id}/withdrawals'].post.operationId).toBe('createAgencyWithdrawal');
    expect(doc.paths['/v1/api/withdrawals'].post.operationId).toBe('createWithdrawal');
  });

  it('declares every tag it uses, with a description, Authentication first', async () => {
    const { body: doc } = await get('/v1/api/openapi.json');
    const declared = doc.tags.map((t: { name: string }) => t.name);
    expect(declared[0]).toBe('Authentication');
    expect(doc.tags.every((t: { description: string }) => t.description.length > 10)).toBe(true);
    const used = new Set(operations(doc).flatMap((o) => o.op.tags));
    expect([...used].filter((t) => !declared.includes(t))).toEqual([]);
  });

  it('documents the response headers the service sends', async () => {
    const { body: doc } = await get('/v1/api/openapi.json');
    for (const { op } of operations(doc)) {
      // The configuration gate can answer any request 503 in production.
      expect(op.responses['503'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
      for (const response of Object.values(op.responses as Record<string, any>)) {
        expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      }
    }
    const book = doc.paths['/v1/api/bookings'].post.responses;
    expect(Object.keys(book[201].headers)).toEqual(['X-Request-Id', 'Cache-Control', 'RateLimit-Policy', 'x-d1-bookmark', 'Idempotent-Replayed']);
    expect(Object.keys(book[429].headers)).toEqual(['X-Request-Id', 'Cache-Control', 'RateLimit-Policy', 'RateLimit', 'x-d1-bookmark', 'Retry-After', 'Content-Language']);
    // Error texts follow Accept-Language (docs/decisions-http.md): every error response names its language.
    expect(doc.components.headers['Content-Language'].schema).toEqual({ type: 'string', enum: ['en', 'fr'] });
    expect(Object.keys(doc.paths['/v1/api/categories'].get.responses[304].headers)).toContain('ETag');
    expect(Object.keys(doc.paths['/v1/api/pay-connect/refresh'].get.responses[302].headers)).toContain('Location');
    expect(doc.components.headers['Idempotent-Replayed'].schema).toEqual({ type: 'string', enum: ['true'] });
  });
});

/**
 * Sends requests from one IP until the first 429. The bindings count in fixed 60 s windows, so a
 * run that straddles a window boundary may pass more than the limit, never fewer: at least `limit`
 * are served and a 429 comes within two windows' worth.
 */
async function untilRefused(limit: number, request: (i: number) => Promise<ApiResponse>) {
  const served: ApiResponse[] = [];
  for (let i = 0; i <= 2 * limit; i++) {
    const res = await request(i);
    if (res.status === 429) return { served, refused: res };
    served.push(res);
  }
  throw new Error(`no 429 after ${2 * limit + 1} requests`);
}

describe('rate limits on public and expensive routes', () => {
  it('the policies in code are the bindings in wrangler.toml, in every environment', () => {
    for (const policy of Object.values(POLICIES)) {
      const binding = new RegExp(
        `name = "${policy.binding}"\\nnamespace_id = "\\d+"\\nsimple = \\{ limit = ${policy.limit}, period = ${policy.windowSeconds} \\}`,
        'g',
      );
      // Development, production and staging.
      expect(wranglerToml.match(binding)?.length, policy.binding).toBe(3);
    }
  });

  it('recipient lookups: 30 a minute per IP, then 429 with Retry-After and the RateLimit headers; other IPs unaffected', async () => {
    const ip = { 'CF-Connecting-IP': '203.0.113.7' };
    const { served, refused } = await untilRefused(30, (i) =>
      get(i % 2 ? `/r/guess-${i}-${crypto.randomUUID()}` : `/v1/api/public/recipient/guess-${i}-${crypto.randomUUID()}`, { headers: ip }),
    );
    expect(served.length).toBeGreaterThanOrEqual(30);
    expect(new Set(served.map((r) => r.status))).toEqual(new Set([404]));
    expect(new Set(served.map((r) => r.headers.get('RateLimit-Policy')))).toEqual(new Set(['"recipient";q=30;w=60']));
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(refused.headers.get('RateLimit')).toBe('"recipient";r=0;t=60');
    expect(refused.headers.get('RateLimit-Policy')).toBe('"recipient";q=30;w=60');
    expect(errorBody(refused)).toMatchObject({
      status: 429,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      message: 'Too many requests; retry later',
      path: expect.stringMatching(/^\/(r|v1\/api\/public\/recipient)\/guess-/),
    });

    // A real recipient elsewhere still gets through.
    const { reservation } = await aReservation({ status: 'DEPOSITED' });
    const other = await get(`/v1/api/public/recipient/${reservation.recipientToken}`, { headers: { 'CF-Connecting-IP': '198.51.100.9' } });
    expect(other.status).toBe(200);
  });

  it('search: 120 a minute per IP; /annonces/mine is not taken for /annonces/{id}', async () => {
    const ip = { 'CF-Connecting-IP': '203.0.113.8' };
    const { served, refused } = await untilRefused(120, (i) => get(i % 2 ? '/v1/api/annonces?size=1' : '/v1/api/annonces/1', { headers: ip }));
    expect(served.length).toBeGreaterThanOrEqual(120);
    expect(served.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect(refused.headers.get('RateLimit-Policy')).toBe('"search";q=120;w=60');

    const carrier = await aCarrier();
    const mine = await get('/v1/api/annonces/mine', { headers: ip, token: carrier.token });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('RateLimit-Policy')).toBeNull();
  });

  it('password reset: 20 a minute per IP, the API and the page of the link in one bucket, then 429 with the RateLimit headers', async () => {
    const ip = { 'CF-Connecting-IP': '203.0.113.21' };
    const { served, refused } = await untilRefused(20, (i) =>
      i % 2
        ? post('/v1/api/auth/password/reset', { token: `guess-${i}-${crypto.randomUUID()}`, newPassword: 'Guessing-password-1' }, { headers: ip })
        : call('POST', '/reset-password', {
            raw: new URLSearchParams({ token: `guess-${i}-${crypto.randomUUID()}`, password: 'Guessing-password-1' }),
            headers: { ...ip, 'Content-Type': 'application/x-www-form-urlencoded' },
          }),
    );
    expect(served.length).toBeGreaterThanOrEqual(20);
    expect(served.every((r) => r.status === 400 || r.status === 401)).toBe(true);
    expect(new Set(served.map((r) => r.headers.get('RateLimit-Policy')))).toEqual(new Set(['"auth-ip";q=20;w=60']));
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(refused.headers.get('RateLimit')).toBe('"auth-ip";r=0;t=60');
    expect(refused.headers.get('RateLimit-Policy')).toBe('"auth-ip";q=20;w=60');
    expect(errorBody(refused)).toMatchObject({ status: 429, errorCode: 'BUSINESS_RULE_VIOLATION', message: 'Too many requests; retry later' });

    // Another client is not affected.
    const other = await post('/v1/api/auth/password/reset', { token: 'x'.repeat(43), newPassword: 'Guessing-password-1' }, { headers: { 'CF-Connecting-IP': '198.51.100.21' } });
    expect(other.status).not.toBe(429);
  });

  it('one-click unsubscribe: the public limit, 300 a minute per IP (a mail provider posts for many users), then 429 with the RateLimit headers', async () => {
    const ip = { 'CF-Connecting-IP': '203.0.113.22' };
    const { served, refused } = await untilRefused(300, (i) => post(`/v1/api/unsubscribe?token=forged-${i}`, undefined, { headers: ip }));
    expect(served.length).toBeGreaterThanOrEqual(300);
    expect(new Set(served.map((r) => r.status))).toEqual(new Set([400]));
    expect(served[0].headers.get('RateLimit-Policy')).toBe('"public";q=300;w=60');
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(refused.headers.get('RateLimit')).toBe('"public";r=0;t=60');
    expect(errorBody(refused)).toMatchObject({ status: 429, errorCode: 'BUSINESS_RULE_VIOLATION', path: '/v1/api/unsubscribe' });
  });

  it('every guarded route exists in the document', async () => {
    const { body: doc } = await get('/v1/api/openapi.json');
    for (const { method, path } of GUARDED_ROUTES) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});

describe('Content-Security-Policy on HTML pages', () => {
  const scriptNonces = (html: string) => [...html.matchAll(/<script[^>]*nonce="([^"]+)"/g)].map((m) => m[1]);

  it('the recipient page runs its script only with the nonce of its policy', async () => {
    const { reservation } = await aReservation({ status: 'DEPOSITED' });
    const res = await get(`/r/${reservation.recipientToken}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('Content-Security-Policy')!;
    const nonce = /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(scriptNonces(res.body)).toEqual([nonce]);
    expect((res.body as string).match(/<script/g)?.length).toBe(1);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    // A new page, a new nonce.
    const again = await get(`/r/${reservation.recipientToken}`);
    expect(again.headers.get('Content-Security-Policy')).not.toBe(csp);
  });

  it('the reference page loads Scalar from the worker itself, with the nonce', async () => {
    const res = await get('/v1/api/docs');
    const csp = res.headers.get('Content-Security-Policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(scriptNonces(res.body)).toEqual([nonce, nonce]);
    expect(res.body).toContain('<script src="/vendor/scalar-api-reference.js"');
    expect(res.body).not.toMatch(/https?:\/\//);
  });

  it('a page without a script allows none; JSON answers carry no page policy', async () => {
    const user = await aUser();
    const page = await get('/r/no-such-token');
    expect(page.status).toBe(404);
    expect(page.headers.get('Content-Type')).toContain('text/html');
    expect(page.headers.get('Content-Security-Policy')).toContain("script-src 'none'");
    const json = await get('/v1/api/user/me', { token: user.token });
    expect(json.headers.get('Content-Security-Policy')).toBeNull();
  });
});

describe('HTTP caching', () => {
  it('public reference data: public max-age and a strong ETag; If-None-Match answers 304 without a body', async () => {
    const first = await get('/v1/api/reference/countries');
    expect(first.status).toBe(200);
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=86400');
    expect(first.headers.get('Vary')).toContain('Authorization');
    const etag = first.headers.get('ETag')!;
    expect(etag).toMatch(/^"[0-9a-f]{8}-[0-9a-f]+"$/);
    // The CRC-32 and the length of exactly the bytes sent, which arrive whole.
    const sent = await (await exports.default.fetch(new Request(`${BASE}/v1/api/reference/countries`))).arrayBuffer();
    expect(etag).toBe(`"${crc32(new Uint8Array(sent)).toString(16).padStart(8, '0')}-${sent.byteLength.toString(16)}"`);
    expect(JSON.parse(new TextDecoder().decode(sent))).toEqual(first.body);

    const again = await get('/v1/api/reference/countries', { headers: { 'If-None-Match': `W/"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('ETag')).toBe(etag);
    expect(again.headers.get('Cache-Control')).toBe('public, max-age=86400');
    expect(again.headers.get('X-Request-Id')).toBeTruthy();

    expect((await get('/v1/api/reference/countries', { headers: { 'If-None-Match': '"stale"' } })).status).toBe(200);
  });

  it('the ETag follows the data: a new category changes the list', async () => {
    const before = await get('/v1/api/categories');
    expect(before.headers.get('Cache-Control')).toBe('public, max-age=300');
    const admin = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_ADMIN'] });
    const created = await post('/v1/api/admin/categories', { code: `ETAG_${Date.now()}`, name: 'Etag probe', prohibited: false }, { token: admin.token });
    expect(created.status).toBe(201);
    const after = await get('/v1/api/categories', { headers: { 'If-None-Match': before.headers.get('ETag')! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('ETag')).not.toBe(before.headers.get('ETag'));
  });

  it('authenticated answers are private, no-store (even on public routes), still tagged for revalidation', async () => {
    const user = await aUser();
    const me = await get('/v1/api/user/me', { token: user.token });
    expect(me.headers.get('Cache-Control')).toBe('private, no-store');
    const etag = me.headers.get('ETag')!;
    expect((await get('/v1/api/user/me', { token: user.token, headers: { 'If-None-Match': etag } })).status).toBe(304);
    const search = await get('/v1/api/annonces', { token: user.token });
    expect(search.headers.get('Cache-Control')).toBe('private, no-store');
    const refused = await get('/v1/api/user/me', { token: 'not-a-token' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('Cache-Control')).toBe('private, no-store');
    expect(refused.headers.get('ETag')).toBeNull();
  });

  it('anything else is no-store: the recipient view holds a live code', async () => {
    const { reservation } = await aReservation({ status: 'DEPOSITED' });
    const view = await get(`/v1/api/public/recipient/${reservation.recipientToken}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('Cache-Control')).toBe('no-store');
    const page = await get(`/r/${reservation.recipientToken}`);
    expect(page.headers.get('Cache-Control')).toBe('no-store');
    expect(page.headers.get('ETag')).toBeNull();
  });
});
