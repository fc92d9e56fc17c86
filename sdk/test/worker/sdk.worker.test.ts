// The SDK against the worker (CONTRACT section 23): the SDK's fetch is the worker's own fetch, its
// WebSocket a socket opened through the worker; the clock is faked for expiries and waits.
import { env, exports } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMarketplaceClient, type ChatMessage, type MarketplaceClientOptions, type Position, type ReservationStatusFrame } from '../../src/index';
import { PASSWORD, registerUser } from '../../../test/helpers/auth';
import { aCarrier, aCategory, advance, aReservation, aTrip, bookingInput } from '../../../test/helpers/factories';
import { WorkerSocket } from './worker-socket';

const BASE = 'http://api.test';
const workerFetch = (request: Request) => exports.default.fetch(request);

/** A client on the worker, recording every request it sends. */
function sdkOn(options: Partial<MarketplaceClientOptions> = {}) {
  const sent: Request[] = [];
  const client = createMarketplaceClient({
    baseUrl: BASE,
    webSocket: (url, protocols) => new WorkerSocket(url, protocols),
    ...options,
    fetch: async (request) => {
      sent.push(request.clone());
      return (options.fetch ?? workerFetch)(request);
    },
  });
  const refreshes = () => sent.filter((r) => new URL(r.url).pathname === '/v1/api/auth/refresh').length;
  return { client, sent, refreshes };
}

const reservationCount = async (senderId: number) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM reservations WHERE sender_id = ?').bind(senderId).first<{ n: number }>())!.n;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the SDK against the worker', () => {
  it('signs in, then 20 parallel requests across the access token expiry: one refresh, all succeed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    vi.setSystemTime(start);
    const account = await registerUser();
    // The SDK's clock lags (a phone whose clock is behind): it believes the token alive, the worker does not.
    let sdkNow = start;
    const { client, sent, refreshes } = sdkOn({ now: () => sdkNow });
    const user = await client.signIn(account.email, PASSWORD);
    expect(user.id).toBe(account.id);

    vi.setSystemTime(start + 16 * 60 * 1000); // 15 minutes and the server's skew tolerance are over
    const results = await Promise.all(Array.from({ length: 20 }, () => client.api.GET('/v1/api/user/me')));
    expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(200));
    expect(results.every((r) => r.data?.id === account.id)).toBe(true);
    expect(refreshes()).toBe(1);
    const meCalls = sent.filter((r) => new URL(r.url).pathname === '/v1/api/user/me');
    expect(meCalls).toHaveLength(40); // each refused once (401), then sent again with the new token

    // Ahead of expiry by the SDK's own clock (expiresIn with the margin): one refresh before sending.
    sdkNow = start + 16 * 60 * 1000 + (15 * 60 - 20) * 1000;
    vi.setSystemTime(sdkNow);
    const before = sent.length;
    const again = await Promise.all(Array.from({ length: 20 }, () => client.api.GET('/v1/api/user/me')));
    expect(again.every((r) => r.response.status === 200)).toBe(true);
    expect(refreshes()).toBe(2);
    expect(sent.length - before).toBe(21); // the refresh and 20 requests, none refused

    // Signed out: both tokens refused afterwards.
    const tokens = client.session.current!;
    await client.signOut();
    const refresh = await workerFetch(
      new Request(`${BASE}/v1/api/auth/refresh`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refreshToken: tokens.refreshToken }) }),
    );
    expect(refresh.status).toBe(401);
  });

  it('a booking whose answer was lost after the worker handled it is retried with its key and created once', async () => {
    const account = await registerUser();
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const category = await aCategory();
    let dropped = 0;
    const { client, sent } = sdkOn({
      sleep: async () => {},
      fetch: async (request) => {
        const response = await workerFetch(request);
        if (new URL(request.url).pathname === '/v1/api/bookings' && request.method === 'POST' && dropped++ === 0) {
          throw new TypeError('network connection lost'); // the worker booked; the phone never heard
        }
        return response;
      },
    });
    await client.signIn(account.email, PASSWORD);
    const { data, response } = await client.api.POST('/v1/api/bookings', { body: bookingInput(trip.id, category.id, 2) as never });
    expect(response.status).toBe(201);
    const posts = sent.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/api/bookings');
    expect(posts).toHaveLength(2);
    expect(posts[0].headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1].headers.get('Idempotency-Key')).toBe(posts[0].headers.get('Idempotency-Key'));
    expect(await reservationCount(account.id)).toBe(1);
    expect(data!.id).toBeGreaterThan(0);
    // The bookmark of the booking's answer goes with the next read.
    const bookmark = client.bookmark;
    expect(bookmark).toBeTruthy();
    await client.api.GET('/v1/api/bookings/as-sender', {});
    expect(sent.at(-1)!.headers.get('x-d1-bookmark')).toBe(bookmark);
  });

  it('waits out a 429 for its Retry-After, then succeeds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const account = await registerUser();
    // The bookings' rate limit over a one-minute window by the (fake) clock: this client has used it up.
    const windowEnds = Date.now() + 60_000;
    vi.spyOn(env.CHECKOUT_RATE_LIMITER, 'limit').mockImplementation(async () => ({ success: Date.now() >= windowEnds }));
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const category = await aCategory();
    const waits: number[] = [];
    const { client, sent } = sdkOn({
      sleep: async (ms) => {
        waits.push(ms);
        vi.setSystemTime(Date.now() + ms);
      },
      fetch: (request) => workerFetch(withClientIp(request)),
    });
    await client.signIn(account.email, PASSWORD);
    const { response } = await client.api.POST('/v1/api/bookings', { body: bookingInput(trip.id, category.id, 1) as never });
    expect(response.status).toBe(201);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(60_000);
    expect(waits[0]).toBeLessThanOrEqual(60_250);
    const posts = sent.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/api/bookings');
    expect(posts).toHaveLength(2);
    expect(await reservationCount(account.id)).toBe(1);
  });

  it('the chat socket reconnects after the worker closes it and gets what was said meanwhile', async () => {
    const account = await registerUser();
    const { reservation, carrier } = await aReservation({ sender: { id: account.id }, status: 'CONFIRMED' });
    const { client } = sdkOn({ sleep: async () => {} });
    await client.signIn(account.email, PASSWORD);
    const got: ChatMessage[] = [];
    const states: string[] = [];
    const socket = client.chat(reservation.id, { onMessage: (m) => got.push(m), onState: (s) => states.push(s) });
    await until(() => socket.state === 'open');
    const say = (body: string) =>
      workerFetch(
        new Request(`${BASE}/v1/api/bookings/${reservation.id}/messages`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${carrier.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ body }),
        }),
      );
    await say('bonjour');
    await until(() => got.length === 1);

    // The worker closes every socket (a deploy restarting the object); a message arrives meanwhile.
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(String(reservation.id)));
    await runInDurableObject(stub, (_instance, state) => state.getWebSockets().forEach((ws) => ws.close(1012, 'restarting')));
    await until(() => states.includes('reconnecting'));
    await say('vous êtes là ?');
    await until(() => socket.connections === 2 && got.length === 2);
    await say('à demain');
    await until(() => got.length === 3);
    expect(got.map((m) => m.body)).toEqual(['bonjour', 'vous êtes là ?', 'à demain']);
    expect(new Set(got.map((m) => m.id)).size).toBe(3);
    socket.close();
  });
});

describe('the tracking socket against the worker', () => {
  it('reconnects after the worker closes it; the new connection starts from the last position', async () => {
    const account = await registerUser();
    const { reservation, carrier } = await aReservation({ sender: { id: account.id }, status: 'DEPOSITED' });
    const { client } = sdkOn({ sleep: async () => {} });
    await client.signIn(account.email, PASSWORD);
    const snapshots: (Position | null)[] = [];
    const positions: Position[] = [];
    const socket = client.tracking(reservation.id, { onSnapshot: (p) => snapshots.push(p), onPosition: (p) => positions.push(p) });
    const post = (lat: number) =>
      workerFetch(
        new Request(`${BASE}/v1/api/tracking/${reservation.id}/positions`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${carrier.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ lat, lng: 2.35, recordedAt: new Date().toISOString() }),
        }),
      );
    await until(() => snapshots.length === 1);
    expect(snapshots[0]).toBeNull();
    expect((await post(48.1)).status).toBe(201);
    await until(() => positions.length === 1);

    const stub = env.RESERVATION_TRACKING.get(env.RESERVATION_TRACKING.idFromName(String(reservation.id)));
    await runInDurableObject(stub, (_instance, state) => state.getWebSockets().forEach((ws) => ws.close(1012, 'restarting')));
    await until(() => snapshots.length === 2);
    expect(snapshots[1]?.lat).toBe(48.1);
    expect((await post(48.2)).status).toBe(201);
    await until(() => positions.length === 2);
    expect(positions.map((p) => p.lat)).toEqual([48.1, 48.2]);
    expect(socket.connections).toBe(2);
    socket.close();
  });
});

describe('the status feed against the worker', () => {
  it('waitForPayment sees a payment made while its socket was cut: the reopened socket starts from the state now', async () => {
    const account = await registerUser();
    const { reservation } = await aReservation({ sender: { id: account.id } });
    const { client } = sdkOn({ sleep: async () => {} });
    await client.signIn(account.email, PASSWORD);
    const seen: ReservationStatusFrame[] = [];
    const paid = client.waitForPayment(reservation.id, { timeoutMs: 10_000, onStatus: (f) => seen.push(f) });
    await until(() => seen.length === 1);
    expect(seen[0]).toMatchObject({ type: 'status', reservationId: reservation.id, status: 'PENDING_PAYMENT', closed: false });

    // The object drops every socket (a deploy) while the payment is committed, with no one to tell.
    const stub = env.RESERVATION_STATUS.get(env.RESERVATION_STATUS.idFromName(String(reservation.id)));
    await runInDurableObject(stub, (_instance, state) => state.getWebSockets().forEach((ws) => ws.close(1012, 'restarting')));
    await advance({ id: reservation.id, from: 'PENDING_PAYMENT', action: 'PAY', set: { paymentStatus: 'AUTHORIZED' } });
    expect(await paid).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED' });
    expect(seen.map((f) => f.paymentStatus)).toEqual([null, 'AUTHORIZED']);
  });
});

function withClientIp(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set('CF-Connecting-IP', '10.9.8.7');
  return new Request(request, { headers });
}

async function until(condition: () => boolean, ms = 5_000) {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
