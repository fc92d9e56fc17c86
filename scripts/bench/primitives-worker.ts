// Benchmark-only worker: one route per primitive the API is built from, using the app's own
// modules (drizzle schema, jwt, password) against the same seeded D1, so an endpoint's CPU per
// request can be compared with the sum of the primitives it needs, measured the same way.
import { DurableObject } from 'cloudflare:workers';
import { count, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { database } from '../../src/db/client';
import { notifications, reservations, users } from '../../src/db/schema';
import { ACCESS_TOKEN_TTL_SECONDS, signToken, verifyToken } from '../../src/lib/jwt';
import { verifyPassword } from '../../src/lib/password';
import { openSignedClaims, signClaims } from '../../src/lib/signed-claims';
import { pageStatements, searchConditions } from '../../src/features/announcements/announcements.service';

interface BenchEnv {
  DB: D1Database;
  KV: KVNamespace;
  UPLOADS: R2Bucket;
  BENCH_COUNTER: DurableObjectNamespace<BenchCounter>;
  BENCH_RATE_LIMITER: RateLimit;
  BENCH_QUEUE: Queue<{ id: number }>;
  JWT_KEYS: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  /** Highest seeded user id and the precomputed hash of BENCH_PASSWORD (set by the harness). */
  BENCH_USERS: string;
  BENCH_PASSWORD: string;
  BENCH_PASSWORD_HASH: string;
}

/** A Durable Object doing what the API's objects do per call: read and write its own storage. */
export class BenchCounter extends DurableObject {
  async increment(): Promise<number> {
    const next = ((await this.ctx.storage.get<number>('n')) ?? 0) + 1;
    await this.ctx.storage.put('n', next);
    return next;
  }
}

const randomId = (env: BenchEnv) => 1 + Math.floor(Math.random() * Number(env.BENCH_USERS || '1'));

let accessToken: string | undefined;

/**
 * The raw references (scripts/bench/lib/callgrind.mjs): per endpoint, the D1 round trips each of
 * its captured requests made (scripts/bench/capture-worker.ts), loaded once by the harness.
 */
interface RoundTrip {
  batch: boolean;
  endpoint: string;
  statements: { sql: string; params: unknown[] }[];
}
const fixtures = new Map<string, RoundTrip[][]>();

/**
 * Replayed inserts would collide with the captured request's rows on unique values the app draws
 * per request (a reservation number, a token, a code). A string parameter of an insert is taken
 * as drawn when it differs in every captured request of the endpoint (constants such as a status
 * or a currency repeat) and is not a date; each replay gives it a fresh tail of the same length,
 * the same one wherever it appears in the request's statements.
 */
const drawnValues = new Map<string, Set<string>>();
function findDrawn(list: RoundTrip[][]): Set<string> {
  const drawn = new Set<string>();
  const first = list[0] ?? [];
  first.forEach((trip, t) =>
    trip.statements.forEach((s, k) => {
      if (!/^\s*insert/i.test(s.sql)) return;
      s.params.forEach((_, p) => {
        const values = list.map((r) => r[t]?.statements[k]?.params[p]);
        if (!values.every((v) => typeof v === 'string' && v.length >= 6 && !/^\d{4}-\d{2}-\d{2}/.test(v))) return;
        if (list.length > 1 && new Set(values).size !== values.length) return;
        for (const v of values as string[]) drawn.add(v);
      });
    }),
  );
  return drawn;
}
let drawnCount = 0;
function freshen(roundTrips: RoundTrip[], drawn: Set<string> | undefined): RoundTrip[] {
  if (!drawn?.size) return roundTrips;
  const fresh = new Map<string, string>();
  const swap = (p: unknown) => {
    if (typeof p !== 'string' || !drawn.has(p)) return p;
    if (!fresh.has(p)) {
      const tail = (++drawnCount).toString(36).padStart(6, '0');
      fresh.set(p, p.length > tail.length ? p.slice(0, p.length - tail.length) + tail : tail);
    }
    return fresh.get(p);
  };
  return roundTrips.map((t) => ({ ...t, statements: t.statements.map((s) => ({ sql: s.sql, params: s.params.map(swap) })) }));
}

/** The same statements through the binding, in a session opened as the API opens its own. */
async function replay(env: BenchEnv, write: boolean, captured: RoundTrip[], drawn: Set<string> | undefined): Promise<number> {
  const session = env.DB.withSession(write ? 'first-primary' : 'first-unconstrained');
  const roundTrips = write ? freshen(captured, drawn) : captured;
  let rows = 0;
  for (const trip of roundTrips) {
    const statements = trip.statements.map((s) => session.prepare(s.sql).bind(...s.params));
    if (trip.batch) for (const r of await session.batch(statements)) rows += r.results?.length ?? 0;
    else if (trip.endpoint === '/execute') await statements[0].run();
    else rows += (await statements[0].raw()).length;
  }
  return rows;
}

/**
 * The read every authenticated request makes (src/lib/token-revocation.ts): one KV bulk get of the
 * token's blacklist key and its user's cut-off, both absent as they usually are.
 */
const kvBulkGet = (env: BenchEnv) => env.KV.get(['bl:00000000-0000-4000-8000-000000000000', 'rv:1'], 'text');

/** A signed token of lib/signed-claims.ts (a QR payload's shape), checked as the handover checks one. */
const HMAC_SECRET = 'bench-qr-signing-secret-0123456789abcdef';
let signedPayload: string | undefined;
async function hmacVerify() {
  signedPayload ??= await signClaims(HMAC_SECRET, { rid: 1, car: 1, pur: 'DEPOSIT', non: crypto.randomUUID(), exp: Date.now() + 3_600_000 });
  return openSignedClaims(HMAC_SECRET, signedPayload);
}

/** The non-D1 primitives an endpoint also uses, each done once as its own primitive route does it. */
const REFERENCE_PRIMITIVES: Record<string, (env: BenchEnv) => Promise<unknown>> = {
  jwt_verify: async (env) => {
    accessToken ??= (await signToken(env, { sub: '1', typ: 'access', roles: ['ROLE_CLIENT'] }, ACCESS_TOKEN_TTL_SECONDS)).token;
    return verifyToken(env, accessToken, 'access');
  },
  jwt_sign: (env) => signToken(env, { sub: '1', typ: 'access', roles: ['ROLE_CLIENT'] }, ACCESS_TOKEN_TTL_SECONDS),
  kv_get: (env) => env.KV.get('bench:key'),
  kv_bulk_get: (env) => kvBulkGet(env),
  hmac_verify: () => hmacVerify(),
  r2_head: (env) => env.UPLOADS.head('bench/probe'),
  do_call: (env) => env.BENCH_COUNTER.get(env.BENCH_COUNTER.idFromName(`counter-${Math.floor(Math.random() * 100)}`)).increment(),
  rate_limit: (env) => env.BENCH_RATE_LIMITER.limit({ key: `bench:ip:${Math.floor(Math.random() * 1e9)}` }),
  queue_send: (env) => env.BENCH_QUEUE.sendBatch([{ body: { id: Math.floor(Math.random() * 1e9) }, contentType: 'json' }]),
  pbkdf2: (env) => verifyPassword(env.BENCH_PASSWORD, env.BENCH_PASSWORD_HASH),
};

const app = new Hono<{ Bindings: BenchEnv }>()
  .get('/bare', (c) => c.json({ ok: true }))
  .get('/d1/read', async (c) => {
    const [row] = await database(c.env.DB).select().from(users).where(eq(users.id, randomId(c.env)));
    return c.json({ id: row?.id ?? null });
  })
  .get('/d1/page', async (c) => {
    // A page of 20 and its count in one round trip, as every listing does.
    const db = database(c.env.DB);
    const carrierId = randomId(c.env);
    const [rows, [{ total }]] = await db.batch([
      db.select().from(reservations).where(eq(reservations.carrierId, carrierId)).orderBy(desc(reservations.createdAt)).limit(20),
      db.select({ total: count() }).from(reservations).where(eq(reservations.carrierId, carrierId)),
    ]);
    return c.json({ size: rows.length, total });
  })
  .post('/d1/batch', async (c) => {
    const db = database(c.env.DB);
    const userId = randomId(c.env);
    await db.batch([
      db.insert(notifications).values({ userId, type: 'BENCH', title: 'bench', message: 'bench' }),
      db.update(users).set({ updatedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` }).where(eq(users.id, userId)),
    ]);
    return c.json({ ok: true });
  })
  // Query building alone (no I/O): drizzle turns a query into SQL on every request.
  .get('/js/select-sql', (c) => {
    const query = database(c.env.DB).select().from(users).where(eq(users.id, randomId(c.env))).toSQL();
    return c.json({ length: query.sql.length });
  })
  .get('/js/search-sql', (c) => {
    // What the search built per request before it was compiled: page (3-table join) and count.
    const where = searchConditions({ departureCity: 'Paris', arrivalCity: 'Dakar' }, '2026-01-01');
    const { page, total } = pageStatements(database(c.env.DB), where, { page: 0, size: 20, sort: { field: 'departureDate', direction: 'asc' } });
    return c.json({ length: page.toSQL().sql.length + total.toSQL().sql.length });
  })
  .get('/kv/get', async (c) => c.json({ value: await c.env.KV.get('bench:key') }))
  .get('/kv/bulk-get', async (c) => c.json({ found: (await kvBulkGet(c.env)).size }))
  .get('/hmac/verify', async (c) => c.json({ ok: (await hmacVerify()).ok }))
  .get('/r2/head', async (c) => c.json({ found: (await c.env.UPLOADS.head('bench/probe')) !== null }))
  .get('/do/call', async (c) => {
    const stub = c.env.BENCH_COUNTER.get(c.env.BENCH_COUNTER.idFromName(`counter-${Math.floor(Math.random() * 100)}`));
    return c.json({ n: await stub.increment() });
  })
  // What a guarded route pays per request (middleware/rate-limit.ts): one limit() on a key.
  .get('/ratelimit', async (c) => {
    const { success } = await c.env.BENCH_RATE_LIMITER.limit({ key: `bench:ip:${Math.floor(Math.random() * 1e9)}` });
    return c.json({ success });
  })
  // What a request that committed deliveries pays after its response (deliveries/outbox.ts): one sendBatch().
  .get('/queue/send', async (c) => {
    await c.env.BENCH_QUEUE.sendBatch([{ body: { id: Math.floor(Math.random() * 1e9) }, contentType: 'json' }]);
    return c.json({ ok: true });
  })
  .get('/jwt/sign', async (c) => {
    const { token } = await signToken(c.env, { sub: '1', typ: 'access', roles: ['ROLE_CLIENT'] }, ACCESS_TOKEN_TTL_SECONDS);
    return c.json({ length: token.length });
  })
  .get('/jwt/verify', async (c) => {
    accessToken ??= (await signToken(c.env, { sub: '1', typ: 'access', roles: ['ROLE_CLIENT'] }, ACCESS_TOKEN_TTL_SECONDS)).token;
    const claims = await verifyToken(c.env, accessToken, 'access');
    return c.json({ valid: claims !== null });
  })
  // Harness helper, not a primitive: runs a batch of parameterised statements atomically, so the
  // seed costs one HTTP round trip per hundred statements instead of two proxy calls per statement.
  .post('/__sql/batch', async (c) => {
    const statements = await c.req.json<{ sql: string; params: unknown[] }[]>();
    const results = await c.env.DB.batch(statements.map((s) => c.env.DB.prepare(s.sql).bind(...s.params)));
    return c.json({ changes: results.reduce((n, r) => n + (r.meta?.changes ?? 0), 0) });
  })
  // Harness helper: the captured round trips of each endpoint ({ name: RoundTrip[][] }).
  .post('/__ref/load', async (c) => {
    for (const [name, list] of Object.entries(await c.req.json<Record<string, RoundTrip[][]>>())) {
      fixtures.set(name, list);
      drawnValues.set(name, findDrawn(list));
    }
    return c.json({ loaded: fixtures.size });
  })
  // The raw reference of an endpoint: its i-th captured request's D1 round trips replayed through
  // the binding, plus its other primitives (p=kv_get,jwt_verify,...), and a small JSON answer.
  .get('/ref', async (c) => {
    const list = fixtures.get(c.req.query('e') ?? '');
    if (!list?.length) return c.json({ error: 'no fixture' }, 404);
    const roundTrips = list[Number(c.req.query('i') ?? 0) % list.length];
    for (const name of (c.req.query('p') ?? '').split(',')) if (name) await REFERENCE_PRIMITIVES[name](c.env);
    const rows = await replay(c.env, c.req.query('w') === '1', roundTrips, drawnValues.get(c.req.query('e') ?? ''));
    return c.json({ rows });
  })
  .get('/pbkdf2', async (c) => {
    const { valid } = await verifyPassword(c.env.BENCH_PASSWORD, c.env.BENCH_PASSWORD_HASH);
    return c.json({ valid });
  });

export default { fetch: app.fetch } satisfies ExportedHandler<BenchEnv>;
