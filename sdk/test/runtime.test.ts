// The SDK's runtime against a fake server (node --test, no worker): refresh, bookmark, idempotency,
// retries, typed errors, sockets. The same behaviours run against the worker in test/worker/.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, NetworkError, backoffDelay, createMarketplaceClient, randomKey, unwrap } from '../dist/index.js';
import { FakeSocket, errorBody, fakeClock, fakeFetch, json, tick, tokenPair, type Handler } from './fakes.ts';

const USER = { id: 7, email: 'awa@example.com' };
const BASE = 'http://api.test';

/** A client on a fake server that answers login and refresh (numbered pairs) and `other` for the rest. */
function setup(other: Handler, options: { expiresIn?: number; refresh?: Handler } = {}) {
  const clock = fakeClock();
  let pairs = 0;
  const server = fakeFetch((req, i) => {
    if (req.path === '/v1/api/auth/login') return json({ ...tokenPair(++pairs, options.expiresIn), user: USER });
    if (req.path === '/v1/api/auth/refresh') return options.refresh ? options.refresh(req, i) : json(tokenPair(++pairs, options.expiresIn));
    return other(req, i);
  });
  const stored: unknown[] = [];
  const client = createMarketplaceClient({
    baseUrl: BASE,
    fetch: server.fetch,
    now: clock.now,
    sleep: clock.sleep,
    setTimer: clock.setTimer,
    random: () => 0.5,
    onTokens: (t) => stored.push(t),
    idempotencyKey: (() => {
      let n = 0;
      return () => `key-${++n}`;
    })(),
  });
  const refreshes = () => server.seen.filter((r) => r.path === '/v1/api/auth/refresh');
  return { client, server, clock, stored, refreshes };
}

const ok = () => json({ content: [], page: 0, size: 20, totalElements: 0, totalPages: 0 });
const listBookings = (c: ReturnType<typeof setup>['client']) => c.api.GET('/v1/api/bookings/as-sender', {});

describe('session', () => {
  it('signs in, keeps the tokens and sends the access token', async () => {
    const t = setup(ok);
    const user = await t.client.signIn('awa@example.com', 'secret-password');
    assert.equal(user.id, 7);
    await listBookings(t.client);
    assert.equal(t.server.seen[0].headers.get('Authorization'), null);
    assert.equal(t.server.seen[1].headers.get('Authorization'), 'Bearer access-1');
    assert.equal((t.stored[0] as { accessExpiresAt: number }).accessExpiresAt, t.clock.now() + 900_000);
  });

  it('refreshes once, ahead of expiry, for 20 parallel requests', async () => {
    const t = setup(ok);
    await t.client.signIn('a@b.c', 'x');
    t.clock.advance(900_000 - 29_000); // inside the 30 s margin
    const results = await Promise.all(Array.from({ length: 20 }, () => listBookings(t.client)));
    assert.equal(t.refreshes().length, 1);
    assert.deepEqual(JSON.parse(t.refreshes()[0].body), { refreshToken: 'refresh-1' });
    assert.ok(results.every((r) => r.response.status === 200));
    const sent = t.server.seen.filter((r) => r.path.startsWith('/v1/api/bookings'));
    assert.ok(sent.every((r) => r.headers.get('Authorization') === 'Bearer access-2'));
  });

  it('refreshes once when 20 parallel requests get 401, then retries each once', async () => {
    const t = setup((req) => (req.headers.get('Authorization') === 'Bearer access-1' ? errorBody(401, 'UNAUTHORIZED', 'expired') : ok()));
    await t.client.signIn('a@b.c', 'x');
    const results = await Promise.all(Array.from({ length: 20 }, () => listBookings(t.client)));
    assert.equal(t.refreshes().length, 1);
    assert.ok(results.every((r) => r.response.status === 200));
    assert.equal(t.server.seen.filter((r) => r.path.startsWith('/v1/api/bookings')).length, 40);
  });

  it('a refused refresh signs out: the tokens are forgotten and the 401 reaches the caller', async () => {
    const t = setup(() => errorBody(401, 'UNAUTHORIZED', 'revoked'), { refresh: () => errorBody(401, 'UNAUTHORIZED', 'spent') });
    await t.client.signIn('a@b.c', 'x');
    const r = await listBookings(t.client);
    assert.equal(r.response.status, 401);
    assert.equal(t.client.signedIn, false);
    assert.equal(t.stored.at(-1), null);
    assert.equal(t.refreshes().length, 1);
  });

  it('signs out: logout with the refresh token, then no token is sent', async () => {
    const t = setup((req) => (req.path === '/v1/api/auth/logout' ? json({ message: 'ok' }) : ok()));
    await t.client.signIn('a@b.c', 'x');
    await t.client.signOut();
    const logout = t.server.seen.find((r) => r.path === '/v1/api/auth/logout')!;
    assert.equal(logout.headers.get('Authorization'), 'Bearer access-1');
    assert.deepEqual(JSON.parse(logout.body), { refreshToken: 'refresh-1' });
    await listBookings(t.client);
    assert.equal(t.server.seen.at(-1)!.headers.get('Authorization'), null);
  });

  it('signing out with an expired access token refreshes first and logs out the live refresh token', async () => {
    const t = setup((req) => (req.path === '/v1/api/auth/logout' ? json({ message: 'ok' }) : ok()));
    await t.client.signIn('a@b.c', 'x');
    t.clock.advance(900_000);
    await t.client.signOut();
    const logout = t.server.seen.find((r) => r.path === '/v1/api/auth/logout')!;
    assert.equal(logout.headers.get('Authorization'), 'Bearer access-2');
    assert.deepEqual(JSON.parse(logout.body), { refreshToken: 'refresh-2' });
    assert.equal(t.refreshes().length, 1);
  });
});

describe('restored tokens and headers', () => {
  it('uses tokens kept from an earlier run, refreshes them when expired, and hands the new ones to onTokens', async () => {
    const clock = fakeClock();
    const server = fakeFetch((req) => (req.path === '/v1/api/auth/refresh' ? json(tokenPair(9)) : ok()));
    const stored: unknown[] = [];
    const client = createMarketplaceClient({
      baseUrl: BASE,
      fetch: server.fetch,
      now: clock.now,
      setTimer: clock.setTimer,
      language: 'fr',
      tokens: { accessToken: 'old', refreshToken: 'old-refresh', accessExpiresAt: clock.now() - 1, refreshExpiresAt: clock.now() + 1e9 },
      onTokens: (t) => stored.push(t),
    });
    await listBookings(client);
    assert.deepEqual(JSON.parse(server.seen[0].body), { refreshToken: 'old-refresh' });
    assert.equal(server.seen[1].headers.get('Authorization'), 'Bearer access-9');
    assert.equal(server.seen[1].headers.get('Accept-Language'), 'fr');
    assert.equal((stored.at(-1) as { refreshToken: string }).refreshToken, 'refresh-9');
  });

  it('sends a JSON body on every attempt and none on GET', async () => {
    let n = 0;
    const t = setup(() => (++n === 1 ? new Response('{}', { status: 503 }) : json({ id: 1 }, 201)));
    await t.client.api.POST('/v1/api/bookings', { body: { announcementId: 3 } as never });
    assert.deepEqual(t.server.seen.map((s) => JSON.parse(s.body)), [{ announcementId: 3 }, { announcementId: 3 }]);
    await listBookings(t.client);
    assert.equal(t.server.seen.at(-1)!.body, '');
  });

  it('random keys are UUID v4 and differ', () => {
    const a = randomKey();
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(a, randomKey());
  });
});

describe('bookmark and idempotency', () => {
  it('carries the x-d1-bookmark of each answer to the next request', async () => {
    const t = setup((_req, i) => json({ content: [] }, 200, { 'x-d1-bookmark': `bm-${i}` }));
    await listBookings(t.client);
    await listBookings(t.client);
    assert.equal(t.server.seen[0].headers.get('x-d1-bookmark'), null);
    assert.equal(t.server.seen[1].headers.get('x-d1-bookmark'), 'bm-0');
    assert.equal(t.client.bookmark, 'bm-1');
  });

  it('puts an Idempotency-Key on writes that accept one, and resends the same key after a dropped answer', async () => {
    let calls = 0;
    const t = setup(() => {
      if (++calls === 1) throw new TypeError('fetch failed');
      return json({ id: 1 }, 201);
    });
    const r = await t.client.api.POST('/v1/api/bookings', { body: {} as never });
    assert.equal(r.response.status, 201);
    const keys = t.server.seen.map((s) => s.headers.get('Idempotency-Key'));
    assert.deepEqual(keys, ['key-1', 'key-1']);
    assert.equal(t.clock.sleeps.length, 1);
  });

  it('sends no key where the operation takes none, and does not repeat such a write after a network error', async () => {
    const t = setup(() => {
      throw new TypeError('fetch failed');
    });
    await assert.rejects(t.client.api.PUT('/v1/api/user/me', { body: {} as never }), NetworkError);
    assert.equal(t.server.seen.length, 4); // PUT is idempotent: retried up to maxAttempts
    await assert.rejects(t.client.api.POST('/v1/api/user/me/phone/verification', { body: {} as never }), NetworkError);
    assert.equal(t.server.seen.at(-1)!.headers.get('Idempotency-Key'), null);
    assert.equal(t.server.seen.length, 5); // a POST without a key: sent once
  });
});

describe('retries', () => {
  it('retries a 429 without Retry-After after the backoff, then succeeds', async () => {
    const t = setup((_r, i) => (i === 0 ? errorBody(429, 'BUSINESS_RULE_VIOLATION', 'slow down') : ok()));
    const r = await listBookings(t.client);
    assert.equal(r.response.status, 200);
    // errorBody() carries no Retry-After: the backoff's first delay (300 ms, half jittered)
    assert.deepEqual(t.clock.sleeps, [backoffDelay({ baseDelayMs: 300, maxDelayMs: 10_000 }, 1, () => 0.5)]);
  });

  it('honours Retry-After in seconds and as a date; a wait longer than allowed returns the 429', async () => {
    let n = 0;
    const t = setup(() => {
      n++;
      if (n === 1) return new Response('{}', { status: 429, headers: { 'Retry-After': '2' } });
      if (n === 2) return new Response('{}', { status: 503, headers: { 'Retry-After': new Date(1_000_000 + 2000 + 5000).toUTCString() } });
      if (n === 3) return ok();
      return new Response('{}', { status: 429, headers: { 'Retry-After': '3600' } });
    });
    const r = await listBookings(t.client);
    assert.equal(r.response.status, 200);
    assert.equal(t.clock.sleeps[0], 2000 + 125);
    assert.ok(t.clock.sleeps[1] >= 4000 && t.clock.sleeps[1] <= 5250, String(t.clock.sleeps[1]));
    const long = await listBookings(t.client);
    assert.equal(long.response.status, 429);
    assert.equal(t.clock.sleeps.length, 2);
  });

  it('gives up after maxAttempts and returns the last answer', async () => {
    const t = setup(() => new Response('{}', { status: 503 }));
    const r = await listBookings(t.client);
    assert.equal(r.response.status, 503);
    assert.equal(t.server.seen.length, 4);
  });

  it('backoff grows and is jittered within [half, full] of the exponential delay, capped', () => {
    const p = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(backoffDelay(p, 1, () => 0), 50);
    assert.equal(backoffDelay(p, 1, () => 1), 100);
    assert.equal(backoffDelay(p, 3, () => 1), 400);
    assert.equal(backoffDelay(p, 10, () => 1), 1000);
  });
});

describe('errors', () => {
  it('unwrap throws an ApiError with status, errorCode, message, fieldErrors and the request id', async () => {
    const t = setup(() =>
      errorBody(400, 'VALIDATION_ERROR', 'Données invalides', { fieldErrors: [{ field: 'reservedWeight', message: 'trop lourd', rejectedValue: 99 }] }),
    );
    const error = await unwrap(t.client.api.POST('/v1/api/bookings', { body: {} as never })).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.equal(error.errorCode, 'VALIDATION_ERROR');
    assert.equal(error.message, 'Données invalides');
    assert.equal(error.fieldError('reservedWeight'), 'trop lourd');
    assert.equal(error.requestId, 'req-1');
  });

  it('a body that is not the error body still gives an ApiError (errorCode UNKNOWN)', async () => {
    const t = setup(() => new Response('<html>bad gateway</html>', { status: 502 }));
    const error = await unwrap(listBookings(t.client)).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 502);
    assert.equal(error.errorCode, 'UNKNOWN');
    assert.equal(error.reason, null);
  });

  it("ApiError.reason carries the body's reason, so an app tells capacity from a prohibited item", async () => {
    const t = setup(() => errorBody(422, 'BUSINESS_RULE_VIOLATION', 'Capacité restante insuffisante', { reason: 'CAPACITY_EXCEEDED' }));
    const error = await unwrap(t.client.api.POST('/v1/api/bookings', { body: {} as never })).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.reason, 'CAPACITY_EXCEEDED');
    const plain = await unwrap(setup(() => errorBody(403, 'ACCESS_DENIED', 'Accès refusé')).client.api.POST('/v1/api/bookings', { body: {} as never })).catch((e: unknown) => e);
    assert.equal((plain as ApiError).reason, null);
  });
});

describe('sockets', () => {
  function socketSetup() {
    const t = setup(ok);
    const sockets: FakeSocket[] = [];
    const client = createMarketplaceClient({
      baseUrl: BASE,
      fetch: t.server.fetch,
      now: t.clock.now,
      sleep: t.clock.sleep,
      setTimer: t.clock.setTimer,
      random: () => 0.5,
      webSocket: (url, protocols) => {
        const s = new FakeSocket(url, protocols);
        sockets.push(s);
        return s;
      },
    });
    return { ...t, client, sockets };
  }

  it('authenticates with the subprotocol, reconnects after a server close and resumes after the last message', async () => {
    const t = socketSetup();
    await t.client.signIn('a@b.c', 'x');
    const got: number[] = [];
    const chat = t.client.chat(42, { onMessage: (m) => got.push(m.id) });
    await tick();
    assert.equal(t.sockets[0].url, 'ws://api.test/v1/api/bookings/42/messages/live');
    assert.deepEqual(t.sockets[0].protocols, ['bearer.access-1']);
    t.sockets[0].open();
    t.sockets[0].receive({ type: 'message', message: { id: 5 } });
    t.sockets[0].receive({ type: 'message', message: { id: 6 } });
    t.sockets[0].serverClose(1006);
    await tick();
    await tick();
    assert.equal(t.sockets.length, 2);
    assert.equal(t.sockets[1].url, 'ws://api.test/v1/api/bookings/42/messages/live?afterId=6');
    t.sockets[1].open();
    t.sockets[1].receive({ type: 'message', message: { id: 6 } }); // replayed: not delivered twice
    t.sockets[1].receive({ type: 'message', message: { id: 7 } });
    assert.deepEqual(got, [5, 6, 7]);
    assert.equal(t.clock.sleeps.length, 1);
    chat.close();
    assert.equal(t.sockets[1].closedWith, 1000);
    t.sockets[1].serverClose(1000);
    await tick();
    assert.equal(t.sockets.length, 2);
  });

  it('starts after the last message the app already has', async () => {
    const t = socketSetup();
    await t.client.signIn('a@b.c', 'x');
    const got: number[] = [];
    t.client.chat(42, { afterId: 10, onMessage: (m) => got.push(m.id) });
    await tick();
    assert.equal(t.sockets[0].url, 'ws://api.test/v1/api/bookings/42/messages/live?afterId=10');
    t.sockets[0].open();
    t.sockets[0].receive({ type: 'message', message: { id: 10 } });
    t.sockets[0].receive({ type: 'message', message: { id: 11 } });
    assert.deepEqual(got, [11]);
  });

  it('on the token-expired close (4401) refreshes and reconnects with the new token, at once', async () => {
    const t = socketSetup();
    await t.client.signIn('a@b.c', 'x');
    const positions: unknown[] = [];
    t.client.tracking(9, { onPosition: (p) => positions.push(p) });
    await tick();
    t.sockets[0].open();
    t.sockets[0].receive({ type: 'position', position: { lat: 1, lng: 2 } });
    t.sockets[0].serverClose(4401);
    for (let i = 0; i < 5; i++) await tick();
    assert.equal(t.refreshes().length, 1);
    assert.equal(t.sockets.length, 2);
    assert.deepEqual(t.sockets[1].protocols, ['bearer.access-2']);
    assert.equal(t.sockets[1].url, 'ws://api.test/v1/api/tracking/9/live');
    assert.equal(t.clock.sleeps.length, 0);
    assert.deepEqual(positions, [{ lat: 1, lng: 2 }]);
  });

  it('stops on the revoked close (4403)', async () => {
    const t = socketSetup();
    await t.client.signIn('a@b.c', 'x');
    const states: string[] = [];
    const s = t.client.chat(1, { onMessage: () => {}, onState: (st) => states.push(st) });
    await tick();
    t.sockets[0].open();
    t.sockets[0].serverClose(4403);
    await tick();
    assert.equal(t.sockets.length, 1);
    assert.equal(s.state, 'closed');
    assert.deepEqual(states, ['open', 'closed']);
  });
});
