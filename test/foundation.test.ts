// The service foundation: the error model of CONTRACT section 2 from every layer, pagination
// rules, the OpenAPI document, cross-cutting headers and health.
import { createRoute, z } from '@hono/zod-openapi';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { createRouter } from '../src/env';
import { errorResponses, jsonBody, jsonContent } from '../src/lib/openapi';
import { fromBase64Url, randomBase64Url, randomHex, sha256Hex, toBase64Url, toHex } from '../src/lib/digest';
import { pageQuery, toPage, toReservationPage } from '../src/lib/pagination';
import { documentedOnly, IdParams } from '../src/validation';
import { invalidState, msg } from '../src/errors';
import { errorBody, get, post, call } from './helpers/http';

// A probe router built with the same plumbing as every feature, mounted on a fresh app, so each
// layer's failure can be provoked on purpose.
const ItemSchema = z.object({
  name: z.string().min(1).max(50),
  weight: z.number().positive(),
  email: z.email(),
  tags: z.array(z.string()).max(3).optional(),
});
const probe = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/probe/items/{id}',
      request: { params: IdParams },
      responses: { 200: jsonContent(z.object({ id: z.number() }), 'ok'), ...errorResponses(404) },
    }),
    (c) => c.json({ id: c.req.valid('param').id }, 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/probe/items',
      request: { query: pageQuery({ sortable: ['name', 'createdAt'], defaultSort: 'createdAt,desc' }) },
      responses: { 200: jsonContent(z.any(), 'ok') },
    }),
    (c) => {
      const q = c.req.valid('query');
      return c.json({ ...toPage([], 0, q), sort: q.sort }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/probe/carrier',
      request: { query: pageQuery({ sortable: ['reservationDate'], defaultSort: 'reservationDate,desc', defaultSize: 5 }) },
      responses: { 200: jsonContent(z.any(), 'ok') },
    }),
    (c) => c.json(toReservationPage([{ id: 1 }], 11, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/probe/search',
      request: { query: z.object({ q: z.string().min(2), limit: z.coerce.number().int().optional() }) },
      responses: { 200: jsonContent(z.any(), 'ok') },
    }),
    (c) => c.json(c.req.valid('query'), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/probe/items',
      request: { body: jsonBody(ItemSchema) },
      responses: { 201: jsonContent(ItemSchema, 'created') },
    }),
    (c) => c.json(c.req.valid('json'), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/probe/documented-header',
      // Would refuse any request without the header if it were validated: documentation only.
      request: { headers: documentedOnly(z.object({ 'X-Probe': z.string().min(3).openapi({ param: { name: 'X-Probe', in: 'header' } }) })) },
      responses: { 200: jsonContent(z.any(), 'ok') },
    }),
    (c) => c.json({ probe: c.req.header('X-Probe') ?? null }, 200),
  )
  .openapi(
    createRoute({ method: 'get', path: '/probe/boom', responses: { 200: jsonContent(z.any(), 'never') } }),
    () => {
      throw new Error('secret sauce: SELECT * FROM users');
    },
  )
  .openapi(
    createRoute({ method: 'get', path: '/probe/conflict', responses: { 200: jsonContent(z.any(), 'never'), ...errorResponses(409) } }),
    (c) => {
      // A domain error whose cause quotes secrets: debugInfo shows the cause, never the secrets.
      const cause = new Error(
        `provider refused key ${c.env.STRIPE_SECRET_KEY} signed with ${c.env.QR_SIGNING_SECRET}; header Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl`,
      );
      throw invalidState(msg('error.external', { text: 'The reservation is not in a state that allows this' }), { cause });
    },
  );

const probeApp = createApp();
probeApp.route('/v1/api', probe);

async function request(path: string, init: RequestInit = {}, bindings: Env = env) {
  const res = await probeApp.request(`http://api.test${path}`, init, bindings);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('error model (CONTRACT section 2)', () => {
  it('an unknown route is 404 ENDPOINT_NOT_FOUND with the exact error body', async () => {
    const res = await get('/v1/api/nothing-here');
    expect(res.status).toBe(404);
    expect(errorBody(res)).toEqual({
      status: 404,
      errorCode: 'ENDPOINT_NOT_FOUND',
      message: 'No endpoint GET /v1/api/nothing-here',
      path: '/v1/api/nothing-here',
      suggestions: ['See the API reference for the paths this service answers'],
    });
  });

  it('a wrong method on a known path is 405 ENDPOINT_NOT_FOUND with Allow', async () => {
    const res = await call('DELETE', '/v1/api/health');
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, HEAD');
    expect(errorBody(res)).toEqual({
      status: 405,
      errorCode: 'ENDPOINT_NOT_FOUND',
      message: 'Method DELETE is not allowed on /v1/api/health',
      path: '/v1/api/health',
      suggestions: ['Allowed methods: GET, HEAD'],
    });
  });

  it('malformed JSON is 400 INVALID_ARGUMENT', async () => {
    const res = await request('/v1/api/probe/items', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name": "box",',
    });
    expect(res.status).toBe(400);
    const { timestamp, ...body } = res.body;
    expect(Date.parse(timestamp)).not.toBeNaN();
    expect(body).toEqual({
      status: 400,
      errorCode: 'INVALID_ARGUMENT',
      message: 'Malformed JSON in request body',
      path: '/v1/api/probe/items',
      suggestions: ['Send a well-formed JSON body with Content-Type: application/json'],
      fieldErrors: [],
    });
  });

  it('a body failing its schema lists every bad field with its rejected value', async () => {
    const res = await request('/v1/api/probe/items', json({ name: '', weight: -2, email: 'not-an-email', tags: [1] }));
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('VALIDATION_ERROR');
    expect(res.body.message).toBe('Validation failed for body: name, weight, email, tags[0]');
    expect(res.body.fieldErrors).toEqual([
      { field: 'name', message: expect.any(String), rejectedValue: '' },
      { field: 'weight', message: expect.any(String), rejectedValue: -2 },
      { field: 'email', message: expect.any(String), rejectedValue: 'not-an-email' },
      { field: 'tags[0]', message: expect.any(String), rejectedValue: 1 },
    ]);
    expect(res.body.suggestions).toEqual(['Correct the fields listed and try again']);
  });

  it('a missing body field is reported with a null rejected value', async () => {
    const res = await request('/v1/api/probe/items', json({ name: 'box', email: 'a@b.co' }));
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('VALIDATION_ERROR');
    expect(res.body.fieldErrors).toEqual([{ field: 'weight', message: expect.any(String), rejectedValue: null }]);
  });

  it('a wrong type in a path parameter is 400 TYPE_MISMATCH', async () => {
    const res = await request('/v1/api/probe/items/abc');
    expect(res.status).toBe(400);
    const { timestamp, ...body } = res.body;
    expect(body).toEqual({
      status: 400,
      errorCode: 'TYPE_MISMATCH',
      message: 'Wrong type for path parameter: id',
      path: '/v1/api/probe/items/abc',
      suggestions: ['Check the type of each value against the API reference'],
      fieldErrors: [{ field: 'id', message: expect.any(String), rejectedValue: 'abc' }],
    });
  });

  it.each(['0x10', '1e1', '+1', '1.0'])('a path id must be decimal digits: %s is TYPE_MISMATCH', async (id) => {
    const res = await request(`/v1/api/probe/items/${id}`);
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('TYPE_MISMATCH');
    expect(res.body.fieldErrors).toEqual([{ field: 'id', message: expect.any(String), rejectedValue: id }]);
  });

  it('a wrong type in a query parameter is 400 TYPE_MISMATCH', async () => {
    const res = await request('/v1/api/probe/search?q=paris&limit=ten');
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('TYPE_MISMATCH');
    expect(res.body.fieldErrors).toEqual([{ field: 'limit', message: expect.any(String), rejectedValue: 'ten' }]);
  });

  it('a missing required query parameter is 400 MISSING_PARAMETER', async () => {
    const res = await request('/v1/api/probe/search');
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('MISSING_PARAMETER');
    expect(res.body.message).toBe('Missing required query: q');
    expect(res.body.fieldErrors).toEqual([{ field: 'q', message: expect.any(String), rejectedValue: null }]);
  });

  it('an oversized body is 413 INVALID_ARGUMENT', async () => {
    const res = await request('/v1/api/probe/items', json({ name: 'x'.repeat(1024 * 1024), weight: 1, email: 'a@b.co' }));
    expect(res.status).toBe(413);
    expect(res.body.errorCode).toBe('INVALID_ARGUMENT');
    expect(res.body.message).toBe('Request body is larger than 1048576 bytes');
    expect(res.body.fieldErrors).toBeUndefined();
  });

  it('a body of another media type is refused with the error body, never accepted empty', async () => {
    const res = await request('/v1/api/probe/items', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'name=box',
    });
    expect(res.status).toBe(415);
    expect(res.body.errorCode).toBe('INVALID_ARGUMENT');
    expect(res.body.message).toBe('Unsupported media type');
  });

  it('an unexpected exception is 500 INTERNAL_ERROR with no stack trace or detail outside development', async () => {
    const res = await request('/v1/api/probe/boom');
    expect(res.status).toBe(500);
    const { timestamp, ...body } = res.body;
    expect(body).toEqual({
      status: 500,
      errorCode: 'INTERNAL_ERROR',
      message: 'An unexpected error occurred',
      path: '/v1/api/probe/boom',
      suggestions: ['Retry later; if it persists, contact support with the X-Request-Id header value'],
    });
    expect(JSON.stringify(res.body)).not.toContain('SELECT');
  });

  it('in development the 500 carries debugInfo', async () => {
    const res = await request('/v1/api/probe/boom', {}, { ...env, ENVIRONMENT: 'development' });
    expect(res.status).toBe(500);
    expect(res.body.debugInfo).toContain('secret sauce');
  });

  describe('debugInfo in development (ENVIRONMENT=development)', () => {
    const devEnv = {
      ...env,
      ENVIRONMENT: 'development',
      STRIPE_SECRET_KEY: 'sk_test_51DevOnlyKeyNeverShown',
      QR_SIGNING_SECRET: 'qr-signing-secret-never-shown',
    } as Env;

    it('is on every error: 404 route, 405, 400 validation, 400 malformed JSON, 409 domain error, 500', async () => {
      const cases: [string, RequestInit, number, string][] = [
        ['/v1/api/nothing-here', {}, 404, 'ENDPOINT_NOT_FOUND: No endpoint GET /v1/api/nothing-here'],
        ['/v1/api/health', { method: 'DELETE' }, 405, 'ENDPOINT_NOT_FOUND: Method DELETE is not allowed'],
        ['/v1/api/probe/items', json({ name: '', weight: -1, email: 'x' }), 400, 'VALIDATION_ERROR: '],
        ['/v1/api/probe/items', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{oops' }, 400, 'INVALID_ARGUMENT: '],
        ['/v1/api/probe/conflict', {}, 409, 'INVALID_STATE: The reservation is not in a state that allows this'],
        ['/v1/api/probe/boom', {}, 500, 'INTERNAL_ERROR: An unexpected error occurred'],
      ];
      for (const [path, init, status, start] of cases) {
        const res = await request(path, init, devEnv);
        expect(res.status, path).toBe(status);
        expect(typeof res.body.debugInfo, `${status} ${path}`).toBe('string');
        expect(res.body.debugInfo.startsWith(start), `${res.body.debugInfo} should start with ${start}`).toBe(true);
        // Placed where the specification lists it, between path and suggestions.
        expect(Object.keys(res.body).slice(0, 7)).toEqual(['status', 'errorCode', 'message', 'timestamp', 'path', 'debugInfo', 'suggestions']);
      }
    });

    it('a 500 names the thrown error and its stack; a domain error its cause', async () => {
      const boom = await request('/v1/api/probe/boom', {}, devEnv);
      expect(boom.body.debugInfo).toContain('thrown: Error: secret sauce: SELECT * FROM users');
      expect(boom.body.debugInfo).toMatch(/stack: .*foundation\.test/);
      const conflict = await request('/v1/api/probe/conflict', {}, devEnv);
      expect(conflict.body.debugInfo).toContain('cause: Error: provider refused key');
      expect(conflict.body.debugInfo).not.toContain('stack:');
    });

    it('never shows a secret of the environment or a token', async () => {
      const res = await request('/v1/api/probe/conflict', {}, devEnv);
      const info: string = res.body.debugInfo;
      expect(info).toContain('[redacted]');
      for (const secret of ['sk_test_51DevOnlyKeyNeverShown', 'qr-signing-secret-never-shown', 'eyJhbGciOiJIUzI1NiJ9', 'c2lnbmF0dXJl']) {
        expect(info).not.toContain(secret);
      }
    });

    it('is absent outside development', async () => {
      for (const environment of ['test', 'production']) {
        for (const path of ['/v1/api/nothing-here', '/v1/api/probe/conflict', '/v1/api/probe/boom']) {
          const res = await request(path, {}, { ...devEnv, ENVIRONMENT: environment } as Env);
          expect(res.body).not.toHaveProperty('debugInfo');
        }
      }
    });
  });
});

describe('pagination', () => {
  it('defaults to page 0, size 20 and the endpoint default sort', async () => {
    const res = await request('/v1/api/probe/items');
    expect(res.body).toEqual({
      content: [],
      page: { number: 0, size: 20, totalElements: 0, totalPages: 0 },
      sort: { field: 'createdAt', direction: 'desc' },
    });
  });

  it('caps sizes above 100 to 100', async () => {
    const res = await request('/v1/api/probe/items?size=1000&page=3');
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ number: 3, size: 100, totalElements: 0, totalPages: 0 });
  });

  it.each([
    ['page=-1', 'page', 'VALIDATION_ERROR', -1],
    ['size=-5', 'size', 'VALIDATION_ERROR', -5],
    ['size=0', 'size', 'VALIDATION_ERROR', 0],
    ['page=abc', 'page', 'TYPE_MISMATCH', 'abc'],
    ['size=1.5', 'size', 'TYPE_MISMATCH', '1.5'],
    // Only plain decimal digits: coercion would read these as 16, 0, 1000 and 5.
    ['page=0x10', 'page', 'TYPE_MISMATCH', '0x10'],
    ['page=', 'page', 'TYPE_MISMATCH', ''],
    ['size=1e3', 'size', 'TYPE_MISMATCH', '1e3'],
    ['size=%205', 'size', 'TYPE_MISMATCH', ' 5'],
  ])('rejects %s', async (query, field, code, rejected) => {
    const res = await request(`/v1/api/probe/items?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(code);
    expect(res.body.fieldErrors).toEqual([{ field, message: expect.any(String), rejectedValue: String(rejected) }]);
  });

  it('accepts a whitelisted sort field in either direction', async () => {
    const res = await request('/v1/api/probe/items?sort=name,asc');
    expect(res.body.sort).toEqual({ field: 'name', direction: 'asc' });
  });

  it.each(['password,asc', 'name,sideways', 'name,asc,extra'])('rejects sort=%s with INVALID_ARGUMENT', async (sort) => {
    const res = await request(`/v1/api/probe/items?sort=${sort}`);
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('INVALID_ARGUMENT');
    expect(res.body.message).toBe('sort must be <field>,<asc|desc> with field one of: name, createdAt');
    expect(res.body.fieldErrors).toEqual([{ field: 'sort', message: res.body.message, rejectedValue: sort }]);
  });

  it('the carrier Reservation page has its own shape and default size 5', async () => {
    const res = await request('/v1/api/probe/carrier');
    expect(res.body).toEqual({ data: [{ id: 1 }], page: 0, limit: 5, total: 11, totalPages: 3 });
    const capped = await request('/v1/api/probe/carrier?size=500');
    expect(capped.body.limit).toBe(100);
  });
});

describe('lib/digest: the one hex, base64url and SHA-256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    // UTF-8 bytes (c3 a9), not UTF-16 code units
    ['é', '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c'],
  ])('sha256Hex(%j)', async (text, hex) => {
    expect(await sha256Hex(text)).toBe(hex);
  });

  it.each([
    [[], '', ''],
    [[0x00, 0x0f, 0xff], '000fff', 'AA__'],
    [[0xfb, 0xff], 'fbff', '-_8'],
    [[0x66, 0x6f, 0x6f, 0x62], '666f6f62', 'Zm9vYg'],
  ])('bytes %j: hex %s, base64url %s (no padding) and back', (bytes, hex, b64) => {
    const raw = new Uint8Array(bytes);
    expect(toHex(raw)).toBe(hex);
    expect(toHex(raw.buffer)).toBe(hex);
    expect(toBase64Url(raw)).toBe(b64);
    if (b64) expect([...(fromBase64Url(b64) ?? [])]).toEqual(bytes);
  });

  it('refuses text that is not base64url', () => {
    for (const text of ['', 'a+b', 'a/b', 'ab==', 'a b']) expect(fromBase64Url(text)).toBeNull();
  });

  it('random tokens have the length of their bytes and differ', () => {
    expect(randomBase64Url(32)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomBase64Url(32)).not.toBe(randomBase64Url(32));
  });
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1, version 2.0.0, with bearer JWT security and the shared error body', async () => {
    const res = await get('/v1/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('2.0.0');
    expect(res.body.components.securitySchemes.bearerAuth).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: expect.any(String),
    });
    expect(Object.keys(res.body.components.schemas.ErrorResponse.properties)).toEqual([
      'status',
      'errorCode',
      'message',
      'timestamp',
      'path',
      'debugInfo',
      'suggestions',
      'fieldErrors',
      'reason',
    ]);
  });

  it('documents every route of the app, and nothing that is not a route', async () => {
    const app = (await import('../src/app')).appFor(env);
    const doc = (await get('/v1/api/openapi.json')).body;
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const routes = new Set(
      app.routes
        // The operator console's HTML pages and the browsers' icon are not API operations: deliberately outside the document.
        .filter((r) => r.method !== 'ALL' && !r.path.startsWith('/console') && r.path !== '/favicon.ico')
        .map((r) => `${r.method} ${r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`),
    );
    expect([...routes].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !routes.has(r))).toEqual([]);
    expect([...documented].filter((r) => r.includes(' /console'))).toEqual([]);
  });

  it('keeps strict integer parameters typed integer (page, size, path ids)', async () => {
    const doc = (await get('/v1/api/openapi.json')).body;
    const params = doc.paths['/v1/api/withdrawals'].get.parameters as { name: string; schema: { type: string } }[];
    expect(params.find((p) => p.name === 'page')?.schema.type).toBe('integer');
    expect(params.find((p) => p.name === 'size')?.schema.type).toBe('integer');
    const idParam = (doc.paths['/v1/api/transactions/{id}'].get.parameters as { name: string; schema: { type: string } }[]).find(
      (p) => p.name === 'id',
    );
    expect(idParam?.schema.type).toBe('integer');
  });

  it('documents a documentedOnly() header without validating it (its middleware checks it)', async () => {
    const res = await request('/v1/api/probe/documented-header', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ probe: null });
    const doc = probeApp.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'probe', version: '0' } });
    expect(doc.paths?.['/v1/api/probe/documented-header']?.post?.parameters).toEqual([
      { schema: { type: 'string', minLength: 3 }, required: true, name: 'X-Probe', in: 'header' },
    ]);
    // The Idempotency-Key of the real routes stays documented the same way.
    const booking = (await get('/v1/api/openapi.json')).body.paths['/v1/api/bookings'].post.parameters;
    expect(booking).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]);
  });

  it('serves an interactive reference', async () => {
    const res = await get('/v1/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.body).toContain('/v1/api/openapi.json');
  });
});

describe('cross-cutting', () => {
  it('health reports D1, KV and R2 reachable', async () => {
    const res = await get('/v1/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'UP',
      version: '2.0.0',
      checks: { d1: { status: 'UP' }, kv: { status: 'UP' }, r2: { status: 'UP' } },
    });
  });

  it('every response carries X-Request-Id and secure headers, errors included', async () => {
    for (const res of [await get('/v1/api/health'), await get('/v1/api/missing')]) {
      expect(res.headers.get('X-Request-Id')).toMatch(/\S{8,}/);
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(res.headers.get('X-Frame-Options')).toBe('SAMEORIGIN');
    }
  });

  it('echoes a caller-supplied request id', async () => {
    const res = await get('/v1/api/health', { headers: { 'X-Request-Id': 'req-abc-123' } });
    expect(res.headers.get('X-Request-Id')).toBe('req-abc-123');
  });

  it('allows configured CORS origins only, without credentials', async () => {
    const allowed = await call('OPTIONS', '/v1/api/health', {
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' },
    });
    expect(allowed.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:3000');
    expect(allowed.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    const refused = await call('OPTIONS', '/v1/api/health', {
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('npm start runs the cron triggers locally (wrangler dev never fires them)', () => {
  it('every cron trigger of wrangler.toml gets a local schedule with its own period', async () => {
    const { cronPeriodMs, cronTriggers, scheduledUrl } = await import('../scripts/lib/local-cron.mjs');
    const toml = (await import('../wrangler.toml?raw')).default as string;
    const crons = cronTriggers(toml);
    expect(crons).toEqual(['*/5 * * * *']);
    expect(crons.map(cronPeriodMs)).toEqual([5 * 60_000]);
    expect(scheduledUrl('http://127.0.0.1:8788', crons[0])).toBe('http://127.0.0.1:8788/cdn-cgi/local/scheduled?cron=*%2F5%20*%20*%20*%20*');
  });

  it('reads the schedules it can run and refuses the others', async () => {
    const { cronPeriodMs } = await import('../scripts/lib/local-cron.mjs');
    expect(cronPeriodMs('* * * * *')).toBe(60_000);
    expect(cronPeriodMs('*/15 * * * *')).toBe(15 * 60_000);
    expect(cronPeriodMs('0,30 * * * *')).toBe(30 * 60_000);
    expect(cronPeriodMs('0 3 * * *')).toBeNull();
    expect(cronPeriodMs('*/0 * * * *')).toBeNull();
  });
});
