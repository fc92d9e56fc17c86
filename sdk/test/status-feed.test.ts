// The reservation's status feed in the SDK (CONTRACT 28), against fake sockets and a clock moved by
// hand: the current state first, changes once each, a silent socket reopened that re-reads the
// current state, waitForPayment resolving or rejecting, and stopping once the reservation is closed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLOSE_SILENT, PaymentWaitError, createMarketplaceClient, type ReservationStatusFrame } from '../dist/index.js';
import { FakeSocket, fakeClock, fakeFetch, json, tick, tokenPair } from './fakes.ts';

const USER = { id: 7, email: 'awa@example.com' };

async function setup() {
  const clock = fakeClock();
  const server = fakeFetch((req) => (req.path === '/v1/api/auth/login' ? json({ ...tokenPair(1), user: USER }) : json({})));
  const sockets: FakeSocket[] = [];
  const client = createMarketplaceClient({
    baseUrl: 'http://api.test',
    fetch: server.fetch,
    now: clock.now,
    sleep: clock.sleep,
    setTimer: clock.setTimer,
    random: () => 0.5,
    webSocket: (url, protocols) => {
      const s = new FakeSocket(url, protocols);
      sockets.push(s);
      return s;
    },
  });
  await client.signIn('awa@example.com', 'x');
  return { client, clock, sockets };
}

const settle = async (n = 10) => {
  for (let i = 0; i < n; i++) await tick();
};

const frame = (status: string, paymentStatus: string | null, extra: Partial<ReservationStatusFrame> = {}) => ({
  type: 'status',
  reservationId: 42,
  status,
  paymentStatus,
  updatedAt: '2026-12-07T18:00:00.000Z',
  closed: false,
  ...extra,
});

describe('watchReservation', () => {
  it('reports the current state, then each change once; a silent socket is reopened and its first frame (the state now) reported if it changed', async () => {
    const t = await setup();
    const seen: string[] = [];
    t.client.watchReservation(42, { onStatus: (f) => seen.push(`${f.status}/${f.paymentStatus}`) });
    await settle();
    const first = t.sockets[0];
    assert.equal(first.url, 'ws://api.test/v1/api/bookings/42/status/live');
    assert.deepEqual(first.protocols, ['bearer.access-1']);
    first.open();
    first.receive(frame('PENDING_PAYMENT', 'PENDING'));
    first.receive(frame('PENDING_PAYMENT', 'PENDING')); // the same state: not reported again
    // The link dies without a close event while the payment goes through.
    t.clock.advance(45_000);
    await settle();
    assert.equal(first.closedWith, CLOSE_SILENT);
    assert.equal(t.sockets.length, 2);
    const second = t.sockets[1];
    assert.equal(second.url, 'ws://api.test/v1/api/bookings/42/status/live');
    second.open();
    second.receive(frame('PAID', 'AUTHORIZED')); // the server starts every connection with the current state
    first.receive(frame('CANCELLED', 'VOIDED')); // the dead socket is ignored
    assert.deepEqual(seen, ['PENDING_PAYMENT/PENDING', 'PAID/AUTHORIZED']);
  });

  it('stops once a frame says the reservation is closed: the SDK closes the socket and does not reopen it', async () => {
    const t = await setup();
    const states: string[] = [];
    t.client.watchReservation(42, { onStatus: () => {}, onState: (s) => states.push(s) });
    await settle();
    t.sockets[0].open();
    t.sockets[0].receive(frame('CANCELLED', 'VOIDED', { closed: true }));
    t.sockets[0].serverClose(1000);
    t.clock.advance(120_000);
    await settle();
    assert.equal(t.sockets.length, 1);
    assert.equal(t.sockets[0].closedWith, 1000);
    assert.deepEqual(states, ['open', 'closed']);
    assert.equal(t.clock.pending(), 0);
  });
});

describe('waitForPayment', () => {
  it('resolves with the frame once the payment is authorised, and closes its socket', async () => {
    const t = await setup();
    const waiting = t.client.waitForPayment(42, { timeoutMs: 60_000 });
    await settle();
    t.sockets[0].open();
    t.sockets[0].receive(frame('PENDING_PAYMENT', 'PENDING'));
    t.sockets[0].receive(frame('PAID', 'AUTHORIZED'));
    const paid = await waiting;
    assert.equal(paid.paymentStatus, 'AUTHORIZED');
    assert.equal(t.sockets[0].closedWith, 1000);
    assert.equal(t.clock.pending(), 0); // timeout and heartbeat timers cleared
  });

  it('sees a payment made while its socket was silent: the reopened socket re-reads the state', async () => {
    const t = await setup();
    const waiting = t.client.waitForPayment(42);
    await settle();
    t.sockets[0].open();
    t.sockets[0].receive(frame('PENDING_PAYMENT', 'PENDING'));
    t.clock.advance(45_000);
    await settle();
    t.sockets[1].open();
    t.sockets[1].receive(frame('PAID', 'CAPTURED')); // mobile money: captured at once
    assert.equal((await waiting).paymentStatus, 'CAPTURED');
  });

  it('rejects on a failed payment, an expired booking and on timeout, saying why, with the last state seen', async () => {
    const failed = await setup();
    const a = failed.client.waitForPayment(42);
    await settle();
    failed.sockets[0].open();
    failed.sockets[0].receive(frame('PENDING_PAYMENT', 'FAILED'));
    await assert.rejects(a, (e: unknown) => e instanceof PaymentWaitError && e.reason === 'FAILED' && e.frame?.paymentStatus === 'FAILED');

    const expired = await setup();
    const b = expired.client.waitForPayment(42);
    await settle();
    expired.sockets[0].open();
    expired.sockets[0].receive(frame('EXPIRED', 'EXPIRED', { closed: true }));
    await assert.rejects(b, (e: unknown) => e instanceof PaymentWaitError && e.reason === 'EXPIRED');

    const slow = await setup();
    const c = slow.client.waitForPayment(42, { timeoutMs: 120_000 });
    await settle();
    slow.sockets[0].open();
    slow.sockets[0].receive(frame('PENDING_PAYMENT', 'PENDING'));
    for (let i = 0; i < 8; i++) {
      slow.clock.advance(15_000);
      slow.sockets[0].receive('pong');
    }
    await assert.rejects(c, (e: unknown) => e instanceof PaymentWaitError && e.reason === 'TIMEOUT' && e.frame?.paymentStatus === 'PENDING');
    assert.equal(slow.sockets[0].closedWith, 1000);
  });

  it('rejects when the feed ends for good (access revoked: 4403) or the wait is aborted', async () => {
    const t = await setup();
    const revoked = t.client.waitForPayment(42);
    await settle();
    t.sockets[0].open();
    t.sockets[0].serverClose(4403);
    await assert.rejects(revoked, (e: unknown) => e instanceof PaymentWaitError && e.reason === 'SOCKET_CLOSED');

    const controller = new AbortController();
    const aborted = t.client.waitForPayment(42, { signal: controller.signal });
    await settle();
    controller.abort();
    await assert.rejects(aborted, (e: unknown) => e instanceof PaymentWaitError && e.reason === 'SOCKET_CLOSED');
  });
});
