// Fuzzing from the OpenAPI document: for every operation the service documents, generated
// requests with wrong types, missing and extra fields, huge strings, deep nesting, bad pagination
// and sort values, unknown ids, no token, a garbage token and someone else's token. Every answer
// must be a documented status (or one every route may give), never 5xx, and every error exactly
// the specification's error body. New routes are fuzzed as soon as they are in the document.
// Budget: FUZZ_RUNS generated requests per operation within FUZZ_MS_PER_OPERATION and FUZZ_TOTAL_MS
// (`npm run fuzz` raises all three).
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe } from './helpers/fake-stripe';
import { call, get } from './helpers/http';
import {
  bodyCases,
  operationsOf,
  pathValue,
  queryValue,
  responseProblems,
  type FuzzOperation,
  type OpenApiDoc,
} from './helpers/openapi-fuzz';
import { type TestUser, aUser, aCarrier, anAdmin, aSuperAdmin, aTrip, aReservation } from './helpers/factories';

const RUNS = Number(env.FUZZ_RUNS || '') || 20;
/**
 * Wall-clock caps: per operation, and for the whole generated run (shared between operations),
 * so `npm test` stays a few seconds however many routes the document gains.
 */
const MS_PER_OPERATION = Number(env.FUZZ_MS_PER_OPERATION || '') || 1_500;
const TOTAL_MS = Number(env.FUZZ_TOTAL_MS || '') || 8_000;

let doc: OpenApiDoc;
let ops: FuzzOperation[];
let specCodes: string[];
let owner: TestUser;
let stranger: TestUser;
let tokens: Record<string, string | undefined>;
let knownIds: number[];

// Outbound calls meet fakes, never the network: Stripe through the fake provider, anything else
// (social-login key sets) a network error, which the service must turn into a clean error body.
const stripe = new FakeStripe();
stripe.server.use(http.all(/^https:\/\/(?!api\.stripe\.com)/, () => HttpResponse.error()));
afterAll(() => stripe.server.close());

beforeAll(async () => {
  stripe.server.listen({ onUnhandledRequest: 'error' });
  const res = await get('/v1/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  ops = operationsOf(doc);
  specCodes = doc.components?.schemas?.ErrorResponse?.properties?.errorCode?.enum ?? [];

  // Real data owned by `owner`, so {id} routes meet existing rows as well as unknown ones.
  owner = await aUser();
  stranger = await aUser();
  const carrier = await aCarrier();
  const admin = await anAdmin();
  const superAdmin = await aSuperAdmin();
  const announcement = await aTrip(carrier);
  const { reservation: delivered } = await aReservation({ trip: announcement, sender: owner, status: 'DELIVERED' });
  const { reservation: pending } = await aReservation({ trip: announcement, sender: owner, status: 'PENDING_PAYMENT' });
  knownIds = [owner.id, carrier.id, announcement.id, delivered.id, pending.id, 1];
  tokens = {
    none: undefined,
    garbage: 'not-a-jwt',
    forged: `${owner.token.slice(0, -4)}AAAA`,
    owner: owner.token,
    stranger: stranger.token,
    carrier: carrier.token,
    admin: admin.token,
    superAdmin: superAdmin.token,
  };
});

function requestFor(op: FuzzOperation) {
  const pathParams = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, pathValue(knownIds)])));
  const query = fc.record(Object.fromEntries(op.queryParams.map((p) => [p.name, queryValue(p)])), { requiredKeys: [] });
  const extraQuery = fc.option(fc.constantFrom('unknown=1', 'page=1&page=2', 'size[]=3', '__proto__=x'), { nil: undefined });
  const body = op.method === 'GET' || op.method === 'DELETE' ? fc.constant(undefined) : bodyCases(op.bodySchema);
  const token = fc.constantFrom(...Object.keys(tokens));
  return fc.record({ pathParams, query, extraQuery, body, token });
}

type Generated = ReturnType<typeof requestFor> extends fc.Arbitrary<infer T> ? T : never;

function urlOf(op: FuzzOperation, g: Generated) {
  let path = op.path;
  for (const [name, value] of Object.entries(g.pathParams)) path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(g.query)) if (v !== undefined) search.append(k, v as string);
  let qs = search.toString();
  if (g.extraQuery) qs = qs ? `${qs}&${g.extraQuery}` : g.extraQuery;
  return { path, url: qs ? `${path}?${qs}` : path };
}

async function send(op: FuzzOperation, g: Generated) {
  const { path, url } = urlOf(op, g);
  const headers: Record<string, string> = {};
  const token = tokens[g.token];
  if (token) headers.Authorization = `Bearer ${token}`;
  if (g.body) headers['Content-Type'] = g.body.contentType;
  const res = await call(op.method, url, { raw: g.body?.raw, headers });
  // The request path as the server saw it (percent-encoding normalised by URL parsing).
  const seenPath = new URL(url, 'http://api.test').pathname;
  return { res, path: seenPath, requestPath: path };
}

describe('regressions found by fuzzing', () => {
  it('a body nested 100,000 levels deep is a 400 VALIDATION_ERROR with a bounded rejected value, not a 500', async () => {
    // Echoing the rejected value serialised it recursively: the stack overflowed and the 400 became a 500.
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    for (const raw of [deep(100_000), `{"reservationId":${deep(10_000)},"rating":3}`]) {
      const res = await call('POST', '/v1/api/reviews', { raw, token: owner.token, headers: { 'Content-Type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('VALIDATION_ERROR');
      const rejected = JSON.stringify(res.body.fieldErrors[0].rejectedValue);
      expect(rejected).toContain('[nested too deeply]');
      expect(rejected.length).toBeLessThan(100);
    }
  });

  it('shallow rejected values are still echoed exactly', async () => {
    const res = await call('POST', '/v1/api/reviews', { body: { reservationId: [[1, 2], { a: [3] }], rating: 3 }, token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual([{ field: 'reservationId', message: expect.any(String), rejectedValue: [[1, 2], { a: [3] }] }]);
  });
});

describe('the response checker', () => {
  const ok = { status: 400, errorCode: 'TYPE_MISMATCH', message: 'm', timestamp: new Date().toISOString(), path: '/x', suggestions: [], fieldErrors: [] };
  const { fieldErrors: _omitted, ...withoutFieldErrors } = ok;
  const check = (status: number, body: unknown, documented = [200, 400]) =>
    responseProblems({ status, contentType: 'application/json', body }, '/x', new Set(documented), specCodes);

  it('accepts the exact error body and refuses every deviation the fuzzer looks for', () => {
    expect(check(400, ok)).toEqual([]);
    expect(check(500, { ...withoutFieldErrors, status: 500, errorCode: 'INTERNAL_ERROR' }, [200, 400, 500])).toContain('server error 500');
    expect(check(422, { ...ok, status: 422 })).toEqual(expect.arrayContaining(['undocumented status 422', 'errorCode TYPE_MISMATCH with status 422', 'fieldErrors on a 422']));
    expect(check(400, { ...ok, errorCode: 'NOPE' })).toContain('errorCode NOPE not in the spec');
    expect(check(400, withoutFieldErrors)).toContain('400 without fieldErrors');
    expect(check(400, { ...ok, debugInfo: 'stack' })).toContain('unexpected keys debugInfo');
    expect(check(400, { ...ok, path: '/y' })).toContain('path /y != /x');
    expect(check(400, { ...ok, timestamp: 'yesterday' })).toContain('timestamp invalid');
    expect(check(404, { ...withoutFieldErrors, status: 404, errorCode: 'RESOURCE_NOT_FOUND' })).toEqual([]);
  });
});

describe('OpenAPI fuzzing', () => {
  it('the document lists operations and the error codes of the specification', () => {
    expect(ops.length).toBeGreaterThan(3);
    expect(specCodes).toContain('VALIDATION_ERROR');
    expect(specCodes).toHaveLength(17);
  });

  it('every operation answers generated bad input with a documented status and the exact error body', async () => {
    const failures: string[] = [];
    let requests = 0;
    const perOperation = Math.max(150, Math.min(MS_PER_OPERATION, TOTAL_MS / ops.length));
    for (const op of ops) {
      const result = await fc.check(
        fc.asyncProperty(requestFor(op), async (g) => {
          requests += 1;
          const { res, path } = await send(op, g);
          const problems = responseProblems(
            { status: res.status, contentType: res.headers.get('Content-Type'), body: res.body },
            path,
            op.documented,
            specCodes,
          );
          if (problems.length) throw new Error(`${problems.join('; ')} <- ${JSON.stringify(res.body).slice(0, 300)}`);
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: perOperation, markInterruptAsFailure: false, endOnFailure: true },
      );
      // A run cut short by the time budget (a loaded machine) is not a finding; a counterexample is.
      if (result.failed && result.counterexample) {
        const g = result.counterexample?.[0] as Generated | undefined;
        const where = g ? `${op.method} ${urlOf(op, g).url.slice(0, 200)} token=${g.token} body=${g.body ? `${g.body.kind}: ${g.body.raw.slice(0, 120)}` : 'none'}` : `${op.method} ${op.path}`;
        failures.push(`${where}\n    ${String((result.errorInstance as Error | undefined)?.message ?? 'interrupted').slice(0, 600)}`);
      }
    }
    expect(requests).toBeGreaterThan(ops.length);
    expect(failures, failures.join('\n')).toEqual([]);
    // The budget bounds the run (at least 150 ms per operation); the timeout only guards a hang.
  }, 2 * Math.max(TOTAL_MS, 60_000));

  it('a stranger never reads or changes what belongs to someone else through an {id} route', async () => {
    // The owner's rows addressed with the stranger's token: never a success that exposes them.
    const problems: string[] = [];
    for (const op of ops.filter((o) => o.pathParams.length > 0 && o.op.security?.length !== 0)) {
      for (const id of knownIds.slice(0, 5)) {
        let path = op.path;
        for (const p of op.pathParams) path = path.replace(`{${p.name}}`, String(id));
        const res = await call(op.method, path, { token: stranger.token, ...(op.bodySchema ? { body: {} } : {}) });
        if (res.status >= 500) problems.push(`${op.method} ${path}: ${res.status}`);
        if (res.status < 300 && JSON.stringify(res.body).includes(`"senderId":${owner.id}`)) problems.push(`${op.method} ${path} exposed the owner's reservation`);
      }
    }
    expect(problems).toEqual([]);
  });
});
