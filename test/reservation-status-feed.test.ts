// The reservation's status feed (CONTRACT 28, GET /bookings/{id}/status/live): the first frame is the
// current state, then a frame per change of status or payment status, pushed from where the change
// is committed (the lifecycle, the payment provider's entry points, the cron), through the worker
// and the real Durable Object; strangers refused with the error body; a closed reservation says so.
import { env, exports } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { ReservationStatusFeed } from '../src/durable-objects/reservation-status';
import { publishStatusChanges, statusChanged } from '../src/features/reservations/status-feed';
import * as errorTracking from '../src/error-tracking';
import { revokeUserTokensBefore } from '../src/lib/token-revocation';
import { db, reservationRow, runCron, setReservation } from './helpers/db';
import { aReservation, aUser, anAdmin, FIFTY_EUR, minutesFromNow, type TestUser } from './helpers/factories';
import { BASE, errorBody, get, post } from './helpers/http';
import { fakeStripeForThisFile, sendPaymentEvent } from './helpers/money';

const stripe = fakeStripeForThisFile();

/** Opens the feed through the worker (the token as the subprotocol, as browsers do) and collects its frames and close. */
async function openFeed(id: number, token?: string) {
  const headers: Record<string, string> = { Upgrade: 'websocket' };
  if (token) headers['Sec-WebSocket-Protocol'] = `bearer.${token}`;
  const res = await exports.default.fetch(new Request(`${BASE}/v1/api/bookings/${id}/status/live`, { headers }));
  const frames: any[] = [];
  let closed: { code: number; reason: string } | null = null;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const ws = res.webSocket;
  if (ws) {
    ws.accept();
    ws.addEventListener('message', (event) => {
      const text = event.data as string;
      frames.push(text === 'pong' ? text : JSON.parse(text));
      wake();
    });
    ws.addEventListener('close', (event) => {
      closed = { code: event.code, reason: event.reason };
      wake();
    });
  }
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 5_000;
    while (!done() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  return {
    res,
    ws,
    frames,
    next: async (count: number) => (await until(() => frames.length >= count), frames),
    closed: async () => (await until(() => closed !== null), closed as { code: number; reason: string } | null),
  };
}

const unpaid = async (sender?: TestUser) => aReservation({ sender, ...FIFTY_EUR });
const frameOf = async (id: number) => {
  const r = await reservationRow(id);
  return { type: 'status', reservationId: id, status: r.status, paymentStatus: r.paymentStatus, updatedAt: r.updatedAt, closed: false };
};

describe('GET /bookings/{id}/status/live', () => {
  it('starts with the current state, then pushes the authorisation the webhook records (stable JSON, in this key order)', async () => {
    const { sender, reservation } = await unpaid();
    const feed = await openFeed(reservation.id, sender.token);
    expect(feed.res.status).toBe(101);
    expect(feed.res.headers.get('Sec-WebSocket-Protocol')).toBe(`bearer.${sender.token}`);
    const [first] = await feed.next(1);
    expect(first).toEqual({ ...(await frameOf(reservation.id)), status: 'PENDING_PAYMENT', paymentStatus: null });
    // Opening the checkout is pushed too (PENDING).
    const opened = await post('/v1/api/payments/checkout', { reservationId: reservation.id }, { token: sender.token });
    expect(opened.status).toBe(200);
    expect((await feed.next(2))[1]).toEqual({ ...(await frameOf(reservation.id)), paymentStatus: 'PENDING' });

    const { session } = stripe.completeCheckout(opened.body.paymentId);
    expect((await sendPaymentEvent(stripe.event('checkout.session.completed', session))).status).toBe(200);

    const frames = await feed.next(3);
    expect(frames).toHaveLength(3);
    expect(frames[2]).toEqual({ ...(await frameOf(reservation.id)), status: 'PAID', paymentStatus: 'AUTHORIZED' });
    expect(Object.keys(frames[2])).toEqual(['type', 'reservationId', 'status', 'paymentStatus', 'updatedAt', 'closed']);
    // A repeated event changes nothing: no frame.
    await sendPaymentEvent(stripe.event('checkout.session.completed', session));
    feed.ws!.send('ping');
    expect((await feed.next(4))[3]).toBe('pong');
    expect(feed.frames).toHaveLength(4);
    feed.ws!.close(1000, 'done');
  });

  it('the carrier side and admins may watch too; a failed payment (no status change) is pushed to every socket', async () => {
    const { sender, carrier, reservation } = await unpaid();
    const admin = await anAdmin();
    const feeds = [await openFeed(reservation.id, sender.token), await openFeed(reservation.id, carrier.token), await openFeed(reservation.id, admin.token)];
    for (const feed of feeds) expect((await feed.next(1))[0]).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: null, closed: false });

    await sendPaymentEvent(stripe.event('payment_intent.payment_failed', { id: 'pi_feed_failed', object: 'payment_intent', metadata: { reservationId: String(reservation.id) } }));

    for (const feed of feeds) {
      expect((await feed.next(2))[1]).toEqual({ ...(await frameOf(reservation.id)), paymentStatus: 'FAILED' });
      feed.ws!.close(1000, 'done');
    }
  });

  it('a cancellation says the reservation is closed, then the server closes the socket (1000)', async () => {
    const { sender, reservation } = await unpaid();
    const feed = await openFeed(reservation.id, sender.token);
    await feed.next(1);
    expect((await post(`/v1/api/bookings/${reservation.id}/cancel`, {}, { token: sender.token })).status).toBe(200);
    expect((await feed.next(2))[1]).toEqual({ ...(await frameOf(reservation.id)), status: 'CANCELLED', closed: true });
    expect(await feed.closed()).toEqual({ code: 1000, reason: 'Reservation closed' });
  });

  it('an expiry by the cron reaches the feed (the cron run publishes what it changed)', async () => {
    const { sender, reservation } = await unpaid();
    const feed = await openFeed(reservation.id, sender.token);
    await feed.next(1);
    await setReservation(reservation.id, { paymentDeadline: minutesFromNow(-1) });
    await runCron();
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'EXPIRED' });
    expect((await feed.next(2))[1]).toMatchObject({ type: 'status', status: 'EXPIRED', closed: true });
    expect((await feed.closed())?.code).toBe(1000);
  });

  it('an already closed reservation: one frame saying so, then 1000', async () => {
    const { sender, reservation } = await aReservation({ status: 'CANCELLED' });
    const feed = await openFeed(reservation.id, sender.token);
    expect(feed.res.status).toBe(101);
    expect(await feed.next(1)).toEqual([{ ...(await frameOf(reservation.id)), status: 'CANCELLED', closed: true }]);
    expect(await feed.closed()).toEqual({ code: 1000, reason: 'Reservation closed' });
  });

  it('refuses strangers (403), unknown reservations (404), no token (401) and plain requests (400) with the error body', async () => {
    const { sender, reservation } = await unpaid();
    const stranger = await openFeed(reservation.id, (await aUser()).token);
    expect(stranger.res.status).toBe(403);
    expect(stranger.res.webSocket).toBeNull();
    expect(await stranger.res.json()).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED', path: `/v1/api/bookings/${reservation.id}/status/live` });
    const unknown = await openFeed(99_999_999, sender.token);
    expect(unknown.res.status).toBe(404);
    expect(await unknown.res.json()).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
    expect((await openFeed(reservation.id)).res.status).toBe(401);
    const plain = await get(`/v1/api/bookings/${reservation.id}/status/live`, { token: sender.token });
    expect(plain.status).toBe(400);
    expect(errorBody(plain)).toMatchObject({ errorCode: 'INVALID_ARGUMENT' });
  });

  it('answers any frame but "ping" with an error frame and stays open', async () => {
    const { sender, reservation } = await unpaid();
    const feed = await openFeed(reservation.id, sender.token);
    await feed.next(1);
    feed.ws!.send('{"status":"PAID"}');
    expect((await feed.next(2))[1]).toEqual({ type: 'error', errorCode: 'INVALID_ARGUMENT', message: 'This feed is read-only: a text frame other than "ping" is not accepted; send only "ping"' });
    expect(await reservationRow(reservation.id)).toMatchObject({ status: 'PENDING_PAYMENT' });
    feed.ws!.close(1000, 'done');
  });

  it('a failed publish never fails the change: it is reported, and the sweep still delivers the state', async () => {
    const { sender, reservation } = await unpaid();
    const feed = await openFeed(reservation.id, sender.token);
    await feed.next(1);
    const reported = vi.spyOn(errorTracking, 'reportCaught');
    const broken = { ...env, RESERVATION_STATUS: { idFromName: () => { throw new Error('object unreachable'); } } } as unknown as Env;
    const work = db();
    statusChanged(work, reservation.id);
    await expect(publishStatusChanges({ db: work, env: broken })).resolves.toBeUndefined();
    expect(reported).toHaveBeenCalledWith(broken, expect.objectContaining({ message: 'object unreachable' }), { msg: 'status feed not refreshed', reservationId: reservation.id });
    reported.mockRestore();
    // A change nobody published (written behind the lifecycle's back) arrives with the sweep.
    await setReservation(reservation.id, { paymentStatus: 'PENDING', updatedAt: new Date().toISOString() });
    const stub = env.RESERVATION_STATUS.get(env.RESERVATION_STATUS.idFromName(String(reservation.id)));
    await runInDurableObject(stub, async (instance: ReservationStatusFeed) => instance.alarm());
    expect((await feed.next(2))[1]).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING' });
    feed.ws!.close(1000, 'done');
  });

  it("the sweep closes a revoked session's socket (4403) and keeps the others", async () => {
    const { sender, carrier, reservation } = await unpaid();
    const senderFeed = await openFeed(reservation.id, sender.token);
    const carrierFeed = await openFeed(reservation.id, carrier.token);
    await senderFeed.next(1);
    await carrierFeed.next(1);
    // Every token the sender holds is revoked (a password change); tokens are issued in whole seconds.
    await revokeUserTokensBefore(env.KV, sender.id, Math.floor(Date.now() / 1000) + 1);
    const stub = env.RESERVATION_STATUS.get(env.RESERVATION_STATUS.idFromName(String(reservation.id)));
    await runInDurableObject(stub, async (instance: ReservationStatusFeed) => instance.alarm());
    expect(await senderFeed.closed()).toEqual({ code: 4403, reason: 'Access token revoked' });
    carrierFeed.ws!.send('ping');
    expect((await carrierFeed.next(2))[1]).toBe('pong');
    carrierFeed.ws!.close(1000, 'done');
  });
});
