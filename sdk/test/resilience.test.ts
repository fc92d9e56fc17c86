// CONTRACT section 28 against a fake server and a clock moved by hand: requests that end (timeouts,
// retried where safe), sockets that notice silence (heartbeats, reopened after 45 s, the chat
// resuming after the last message), a clear failure without WebSocket, sign-in state events, a token
// storage adapter, page iteration.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLOSE_SILENT, NetworkError, TimeoutError, createMarketplaceClient, type StoredTokens, type TokenStorage } from '../dist/index.js';
import { FakeSocket, fakeClock, fakeFetch, json, tick, tokenPair, type Handler } from './fakes.ts';

const BASE = 'http://api.test';
const USER = { id: 7, email: 'awa@example.com' };

/** A fetch that never answers unless aborted (a silent link): it rejects with the abort's reason. */
const silent = (request: Request) =>
  new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason ?? new Error('aborted'))));

function setup(other: Handler, extra: Partial<Parameters<typeof createMarketplaceClient>[0]> = {}) {
  const clock = fakeClock();
  const server = fakeFetch((req, i) => {
    if (req.path === '/v1/api/auth/login') return json({ ...tokenPair(1), user: USER });
    if (req.path === '/v1/api/auth/refresh') return json(tokenPair(2));
    return other(req, i);
  });
  const sockets: FakeSocket[] = [];
  let keys = 0;
  const client = createMarketplaceClient({
    baseUrl: BASE,
    fetch: server.fetch,
    now: clock.now,
    sleep: clock.sleep,
    setTimer: clock.setTimer,
    random: () => 0.5,
    idempotencyKey: () => `key-${++keys}`,
    webSocket: (url, protocols) => {
      const s = new FakeSocket(url, protocols);
      sockets.push(s);
      return s;
    },
    ...extra,
  });
  return { client, server, clock, sockets };
}

/** Lets the pending promise chains run (each attempt awaits a few times before it reaches fetch). */
const settle = async (n = 10) => {
  for (let i = 0; i < n; i++) await tick();
};

describe('timeouts', () => {
  it('a GET on a silent link times out after 30 s and is retried; the last timeout reaches the caller as TimeoutError', async () => {
    // The fetch sees the request the transport built (with its signal).
    const calls: Request[] = [];
    const t2 = setup(() => json({}), { fetch: (r) => (calls.push(r), silent(r)) });
    const pending = t2.client.api.GET('/v1/api/bookings/as-sender', {}).catch((e: unknown) => e);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await settle();
      assert.equal(calls.length, attempt);
      t2.clock.advance(29_999);
      await settle();
      assert.equal(calls.length, attempt, 'not given up before 30 s');
      t2.clock.advance(1);
      await settle();
    }
    const error = await pending;
    assert.ok(error instanceof TimeoutError, String(error));
    assert.ok(error instanceof NetworkError);
    assert.equal(error.timeoutMs, 30_000);
    assert.equal(error.attempts, 4);
    assert.ok(calls.every((r) => r.signal.aborted), 'each attempt was aborted, its connection let go');
  });

  it('an unkeyed POST that timed out is not sent again; a keyed one is, with the same key', async () => {
    const calls: Request[] = [];
    const t = setup(() => json({}), { fetch: (r) => (calls.push(r), calls.length === 3 ? Promise.resolve(json({ id: 1 }, 201)) : silent(r)) });
    const unkeyed = t.client.api.POST('/v1/api/user/me/phone/verification', { body: {} as never }).catch((e: unknown) => e);
    await settle();
    t.clock.advance(30_000);
    assert.ok((await unkeyed) instanceof TimeoutError);
    assert.equal(calls.length, 1);

    const keyed = t.client.api.POST('/v1/api/bookings', { body: {} as never });
    await settle();
    t.clock.advance(30_000);
    await settle();
    const r = await keyed;
    assert.equal(r.response.status, 201);
    assert.deepEqual(calls.slice(1).map((c) => c.headers.get('Idempotency-Key')), ['key-1', 'key-1']);
  });

  it('per call: withTimeout(ms) and the client-wide timeoutMs', async () => {
    const calls: Request[] = [];
    const t = setup(() => json({}), { fetch: (r) => (calls.push(r), silent(r)), timeoutMs: 10_000, retry: { maxAttempts: 1 } });
    const short = t.client.withTimeout(2_000).GET('/v1/api/bookings/as-sender', {}).catch((e: unknown) => e);
    await settle();
    t.clock.advance(2_000);
    assert.equal(((await short) as TimeoutError).timeoutMs, 2_000);
    const long = t.client.api.GET('/v1/api/bookings/as-sender', {}).catch((e: unknown) => e);
    await settle();
    t.clock.advance(9_999);
    await settle();
    t.clock.advance(1);
    assert.equal(((await long) as TimeoutError).timeoutMs, 10_000);
  });

  it('an answer whose body stalls times out too (the body is read within the timeout)', async () => {
    const t = setup(() => json({}), {
      fetch: (r) =>
        Promise.resolve(
          new Response(new ReadableStream({ start: (c) => { c.enqueue(new TextEncoder().encode('{"content":')); r.signal.addEventListener('abort', () => c.error(new Error('aborted'))); } }), {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          }),
        ),
      retry: { maxAttempts: 1 },
    });
    const pending = t.client.api.GET('/v1/api/bookings/as-sender', {}).catch((e: unknown) => e);
    await settle();
    t.clock.advance(30_000);
    assert.ok((await pending) instanceof TimeoutError);
  });

  it('a timely answer clears its timer', async () => {
    const t = setup(() => json({ content: [] }));
    await t.client.api.GET('/v1/api/bookings/as-sender', {});
    assert.equal(t.clock.pending(), 0);
  });
});

describe('heartbeats', () => {
  it('pings every 15 s; a pong keeps the socket; 45 s of silence closes it and reopens after the last message, without duplicates', async () => {
    const t = setup(() => json({}));
    await t.client.signIn('a@b.c', 'x');
    const got: number[] = [];
    const states: string[] = [];
    t.client.chat(42, { onMessage: (m) => got.push(m.id), onState: (s) => states.push(s) });
    await settle();
    const first = t.sockets[0];
    first.open();
    first.receive({ type: 'message', message: { id: 5 } });
    t.clock.advance(15_000);
    assert.deepEqual(first.sent, ['ping']);
    first.receive('pong');
    t.clock.advance(15_000);
    assert.deepEqual(first.sent, ['ping', 'ping']);
    // The link goes silent: no pong, no close event ever (readyState stays OPEN).
    t.clock.advance(44_999 - 15_000);
    assert.equal(first.closedWith, null);
    assert.equal(t.sockets.length, 1);
    t.clock.advance(1);
    await settle();
    assert.equal(first.closedWith, CLOSE_SILENT);
    assert.equal(t.sockets.length, 2);
    const second = t.sockets[1];
    assert.equal(second.url, 'ws://api.test/v1/api/bookings/42/messages/live?afterId=5');
    second.open();
    second.receive({ type: 'message', message: { id: 5 } }); // replayed by the server: dropped
    second.receive({ type: 'message', message: { id: 6 } }); // posted while the link was dead
    first.receive({ type: 'message', message: { id: 7 } }); // the dead socket is ignored
    assert.deepEqual(got, [5, 6]);
    assert.deepEqual(states, ['open', 'reconnecting', 'open']);
  });

  it('a socket that never opens is given up after 45 s and tried again', async () => {
    const t = setup(() => json({}));
    await t.client.signIn('a@b.c', 'x');
    t.client.tracking(9, { onPosition: () => {} });
    await settle();
    t.clock.advance(45_000);
    await settle();
    assert.equal(t.sockets[0].closedWith, CLOSE_SILENT);
    assert.equal(t.sockets.length, 2);
  });

  it('close() stops the heartbeat timers', async () => {
    const t = setup(() => json({}));
    await t.client.signIn('a@b.c', 'x');
    const s = t.client.tracking(9, { onPosition: () => {} });
    await settle();
    t.sockets[0].open();
    s.close();
    assert.equal(t.clock.pending(), 0);
  });

  it('without a global WebSocket the socket ends `failed` with a clear error, not `connecting`', async () => {
    const t = setup(() => json({}), { webSocket: undefined });
    const saved = (globalThis as { WebSocket?: unknown }).WebSocket;
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    try {
      await t.client.signIn('a@b.c', 'x');
      const seen: Array<[string, string | undefined]> = [];
      const s = t.client.chat(1, { onMessage: () => {}, onState: (state, detail) => seen.push([state, detail?.error?.message]) });
      await settle();
      assert.equal(s.state, 'failed');
      assert.equal(seen.length, 1);
      assert.equal(seen[0][0], 'failed');
      assert.match(seen[0][1]!, /no global WebSocket.*Node 22/);
      assert.equal(t.clock.pending(), 0);
    } finally {
      (globalThis as { WebSocket?: unknown }).WebSocket = saved;
    }
  });
});

/** An in-memory storage with async answers, like a phone's secure store. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  const storage: TokenStorage = {
    getItem: async (k) => items.get(k) ?? null,
    setItem: async (k, v) => void items.set(k, v),
    removeItem: async (k) => void items.delete(k),
  };
  return { storage, items };
}

describe('sign-in state and storage', () => {
  it('reports INITIAL_SESSION, SIGNED_IN, TOKEN_REFRESHED and SIGNED_OUT, and writes the storage', async () => {
    const { storage, items } = memoryStorage();
    const t = setup((req) => (req.path === '/v1/api/auth/logout' ? json({ message: 'ok' }) : json({ content: [] })), { storage });
    const events: string[] = [];
    const off = t.client.onAuthStateChange((event, tokens) => events.push(`${event}:${tokens?.accessToken ?? null}`));
    await t.client.ready;
    await tick();
    await t.client.signIn('a@b.c', 'x');
    await t.client.session.flush();
    assert.equal(JSON.parse(items.get('parcel-marketplace.tokens')!).refreshToken, 'refresh-1');
    t.clock.advance(900_000);
    await t.client.api.GET('/v1/api/bookings/as-sender', {});
    await t.client.signOut();
    await t.client.session.flush();
    assert.equal(items.has('parcel-marketplace.tokens'), false);
    assert.deepEqual(events, ['INITIAL_SESSION:null', 'SIGNED_IN:access-1', 'TOKEN_REFRESHED:access-2', 'SIGNED_OUT:null']);
    off();
    await t.client.signIn('a@b.c', 'x');
    assert.equal(events.length, 4, 'unsubscribed');
  });

  it('restores the tokens from the storage before the first call', async () => {
    const clock = fakeClock();
    const kept: StoredTokens = { accessToken: 'kept', refreshToken: 'kept-r', accessExpiresAt: clock.now() + 600_000, refreshExpiresAt: clock.now() + 1e9 };
    const { storage } = memoryStorage({ 'app.tokens': JSON.stringify(kept) });
    const t = setup(() => json({ content: [] }), { storage, storageKey: 'app.tokens', now: clock.now });
    const events: string[] = [];
    t.client.onAuthStateChange((event, tokens) => events.push(`${event}:${tokens?.accessToken}`));
    await t.client.api.GET('/v1/api/bookings/as-sender', {});
    assert.equal(t.server.seen[0].headers.get('Authorization'), 'Bearer kept');
    assert.equal(t.client.signedIn, true);
    assert.deepEqual(events, ['INITIAL_SESSION:kept']);
  });
});

describe('pages', () => {
  it('for await walks every page from the one asked to the last, with the same filters', async () => {
    const t = setup((req) => {
      const q = new URL(BASE + req.path).searchParams;
      const n = Number(q.get('page'));
      return json({ content: [n * 10, n * 10 + 1].map((id) => ({ id })), page: { number: n, size: 2, totalElements: 6, totalPages: 3 } });
    });
    const ids: number[] = [];
    for await (const trip of t.client.items('/v1/api/annonces', { params: { query: { size: 2, departureCity: 'Dakar' } } })) ids.push(trip.id);
    assert.deepEqual(ids, [0, 1, 10, 11, 20, 21]);
    assert.deepEqual(t.server.seen.map((s) => s.path), [0, 1, 2].map((n) => `/v1/api/annonces?size=2&departureCity=Dakar&page=${n}`));
    const pages: number[] = [];
    for await (const page of t.client.pages('/v1/api/annonces', { params: { query: { page: 1, size: 2 } } })) pages.push(page.page.number);
    assert.deepEqual(pages, [1, 2]);
  });

  it('stops on an empty page and throws ApiError on a refused one', async () => {
    const t = setup((req) =>
      req.path.includes('page=0')
        ? json({ content: [{ id: 1 }], page: { number: 0, size: 1, totalElements: 5, totalPages: 5 } })
        : json({ content: [], page: { number: 1, size: 1, totalElements: 1, totalPages: 1 } }),
    );
    const ids: number[] = [];
    for await (const n of t.client.items('/v1/api/notifications', {})) ids.push(n.id);
    assert.deepEqual(ids, [1]);
    const refused = setup(() => json({ status: 403, errorCode: 'FORBIDDEN', message: 'no', timestamp: '', path: '/', suggestions: [] }, 403));
    await assert.rejects(async () => {
      for await (const _ of refused.client.pages('/v1/api/notifications', {})) void _;
    }, /no/);
  });
});
