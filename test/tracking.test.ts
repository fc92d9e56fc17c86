// Tracking (CONTRACT section 9): who may post and read positions and when, validation of points,
// the first point starting the transit, bounded history, and the live WebSocket feed.
import { env, exports } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { notifications } from '../src/db/schema';
import { MAX_STORED_POSITIONS, ReservationTracking } from '../src/durable-objects/reservation-tracking';
import { BASE, errorBody, get, post } from './helpers/http';
import { secondsFromNow, minutesFromNow, aUser, aCarrier, anAdmin, aReservation } from './helpers/factories';
import { reservationStatus, trackingStub } from './helpers/db';

const point = (overrides: Record<string, unknown> = {}) => ({
  lat: 48.8566,
  lng: 2.3522,
  accuracy: 12,
  speed: 20,
  heading: 90,
  recordedAt: secondsFromNow(-5),
  ...overrides,
});

const postPositions = (id: number, body: unknown, token: string) => post(`/v1/api/tracking/${id}/positions`, body, { token });

/** Opens the live feed through the worker and collects the JSON messages it receives. */
async function openLive(id: number, auth: { token?: string; recipientToken?: string; protocol?: string }) {
  const url = `${BASE}/v1/api/tracking/${id}/live${auth.recipientToken ? `?token=${auth.recipientToken}` : ''}`;
  const headers: Record<string, string> = { Upgrade: 'websocket' };
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (auth.protocol) headers['Sec-WebSocket-Protocol'] = auth.protocol;
  const res = await exports.default.fetch(new Request(url, { headers }));
  const messages: any[] = [];
  const ws = res.webSocket;
  const waiters: Array<() => void> = [];
  if (ws) {
    ws.accept();
    ws.addEventListener('message', (event) => {
      const text = event.data as string;
      messages.push(text === 'pong' ? text : JSON.parse(text));
      waiters.splice(0).forEach((w) => w());
    });
  }
  const next = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (messages.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return messages;
  };
  return { res, ws, messages, next };
}

describe('posting positions', () => {
  it('the first point moves DEPOSITED to IN_TRANSIT and notifies the sender', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    const p = point();
    const res = await postPositions(reservation.id, p, carrier.token);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      reservationId: reservation.id,
      status: 'IN_TRANSIT',
      accepted: 1,
      lastPosition: { ...p, receivedAt: expect.any(String) },
    });
    expect(await reservationStatus(reservation.id)).toBe('IN_TRANSIT');
    const notes = await database(env.DB).select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(notes.map((n) => n.type)).toEqual(['RESERVATION_IN_TRANSIT']);

    // Later points keep it IN_TRANSIT; a batch is stored in recording order.
    const batch = [point({ lat: 45.76, lng: 4.83, recordedAt: secondsFromNow(-1) }), point({ lat: 46.2, lng: 4.9, recordedAt: secondsFromNow(-3) })];
    const more = await postPositions(reservation.id, { positions: batch }, carrier.token);
    expect(more.body).toMatchObject({ status: 'IN_TRANSIT', accepted: 2, lastPosition: { lat: 45.76, lng: 4.83 } });
    const history = await get(`/v1/api/tracking/${reservation.id}`, { token: sender.token });
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ reservationId: reservation.id, status: 'IN_TRANSIT', lastPosition: { lat: 45.76 } });
    expect(history.body.positions.map((x: { lat: number }) => x.lat)).toEqual([48.8566, 46.2, 45.76]);
    const notesAfter = await database(env.DB).select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(notesAfter).toHaveLength(1);
  });

  it('two first points at once: both are stored, the transit starts once, the sender is told once', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    const results = await Promise.all([point({ lat: 1 }), point({ lat: 2 })].map((p) => postPositions(reservation.id, p, carrier.token)));
    expect(results.map((r) => [r.status, r.body.status])).toEqual([
      [201, 'IN_TRANSIT'],
      [201, 'IN_TRANSIT'],
    ]);
    const notes = await database(env.DB).select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(notes.map((n) => n.type)).toEqual(['RESERVATION_IN_TRANSIT']);
    expect((await trackingStub(reservation.id).history()).positions).toHaveLength(2);
  });

  it('only the carrier of the reservation may post: 403', async () => {
    const { sender, reservation } = await aReservation({ status: 'DEPOSITED' });
    for (const user of [sender, await aCarrier(), await anAdmin()]) {
      const res = await postPositions(reservation.id, point(), user.token);
      expect(res.body).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
    }
    expect(await reservationStatus(reservation.id)).toBe('DEPOSITED');
    expect((await post(`/v1/api/tracking/${reservation.id}/positions`, point())).status).toBe(401);
  });

  it('positions are refused outside DEPOSITED and IN_TRANSIT: 409', async () => {
    for (const status of ['CONFIRMED', 'PAID', 'DELIVERED', 'CANCELLED'] as const) {
      const { carrier, reservation } = await aReservation({ status });
      const res = await postPositions(reservation.id, point(), carrier.token);
      expect(errorBody(res)).toEqual({
        status: 409,
        errorCode: 'INVALID_STATE',
        reason: 'RESERVATION_STATUS',
        message: `Positions are accepted only once the parcel is handed over and until it is delivered (status ${status})`,
        path: `/v1/api/tracking/${reservation.id}/positions`,
        suggestions: [],
      });
      expect(await reservationStatus(reservation.id)).toBe(status);
    }
    const { carrier } = await aReservation({ status: 'DEPOSITED' });
    expect((await postPositions(999_999, point(), carrier.token)).body).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('validates ranges, timestamps and batch size, naming every failing field', async () => {
    const { carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const ranges = await postPositions(reservation.id, point({ lat: 91, lng: -181, heading: 360, speed: -1, accuracy: -2 }), carrier.token);
    expect(ranges.status).toBe(400);
    expect(ranges.body.errorCode).toBe('VALIDATION_ERROR');
    expect(ranges.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(
      ['accuracy', 'heading', 'lat', 'lng', 'speed'],
    );
    expect(ranges.body.fieldErrors.find((f: { field: string }) => f.field === 'lat')).toEqual({
      field: 'lat',
      message: expect.any(String),
      rejectedValue: 91,
    });
    const inBatch = await postPositions(reservation.id, { positions: [point(), point({ lng: 200 })] }, carrier.token);
    expect(inBatch.body.fieldErrors).toEqual([{ field: 'positions[1].lng', message: expect.any(String), rejectedValue: 200 }]);
    const future = minutesFromNow(5);
    const old = minutesFromNow(-25 * 60);
    const times = await postPositions(reservation.id, { positions: [point(), point({ recordedAt: future }), point({ recordedAt: old })] }, carrier.token);
    expect(errorBody(times)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: "A position's time is out of range",
      path: `/v1/api/tracking/${reservation.id}/positions`,
      suggestions: ['Send points recorded within the last 24 hours'],
      fieldErrors: [
        { field: 'positions[1].recordedAt', message: "The position's time is in the future", rejectedValue: future },
        { field: 'positions[2].recordedAt', message: "The position's time is more than 24 hours ago", rejectedValue: old },
      ],
    });
    const badDate = await postPositions(reservation.id, point({ recordedAt: 'yesterday' }), carrier.token);
    expect(badDate.body.fieldErrors).toEqual([{ field: 'recordedAt', message: 'Invalid ISO datetime', rejectedValue: 'yesterday' }]);
    const futureAlone = await postPositions(reservation.id, point({ recordedAt: future }), carrier.token);
    expect(futureAlone.body.fieldErrors).toEqual([{ field: 'recordedAt', message: "The position's time is in the future", rejectedValue: future }]);
    const tooMany = await postPositions(reservation.id, { positions: Array.from({ length: 101 }, () => point()) }, carrier.token);
    expect(tooMany.body).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'positions' })] });
    const empty = await postPositions(reservation.id, { positions: [] }, carrier.token);
    expect(empty.body).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR' });
    // Nothing was stored by the refused requests.
    expect((await get(`/v1/api/tracking/${reservation.id}`, { token: carrier.token })).body.positions).toEqual([]);
  });

  it('keeps only the most recent points', async () => {
    const { reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const base = Date.now() - 60 * 60_000;
    const stub = trackingStub(reservation.id);
    for (let chunk = 0; chunk < 11; chunk++) {
      await stub.append(
        Array.from({ length: 100 }, (_, i) => ({ lat: 10, lng: 0, recordedAt: new Date(base + (chunk * 100 + i) * 1000).toISOString() })),
      );
    }
    const count = await runInDurableObject(stub, (instance: ReservationTracking, state) =>
      state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM positions').one().n,
    );
    expect(count).toBe(MAX_STORED_POSITIONS);
    const { positions } = await stub.history();
    expect(positions).toHaveLength(MAX_STORED_POSITIONS);
    expect(positions[0].recordedAt).toBe(new Date(base + 100 * 1000).toISOString());
  });

  it('the last position is the latest by recording time, also when points arrive late or get trimmed', async () => {
    const { carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const first = await postPositions(reservation.id, point({ lat: 1, recordedAt: at(5) }), carrier.token);
    expect(first.body.lastPosition).toMatchObject({ lat: 1, recordedAt: at(5) });
    // Recorded offline earlier, sent later: stored, but not the last position.
    const late = await postPositions(reservation.id, { positions: [point({ lat: 2, recordedAt: at(30) })] }, carrier.token);
    expect(late.status).toBe(201);
    expect(late.body.lastPosition).toMatchObject({ lat: 1, recordedAt: at(5) });
    expect((await get(`/v1/api/tracking/${reservation.id}`, { token: carrier.token })).body.lastPosition).toMatchObject({ lat: 1 });

    // The latest point by time was inserted first; once retention trims it, the next latest is reported.
    const stub = trackingStub(reservation.id);
    const base = Date.now() - 4 * 60 * 60_000;
    for (let chunk = 0; chunk < 10; chunk++) {
      const result = await stub.append(
        Array.from({ length: 100 }, (_, i) => ({ lat: 3, lng: 0, recordedAt: new Date(base + (chunk * 100 + i) * 1000).toISOString() })),
      );
      expect(result.lastPosition?.lat).toBe(chunk < 9 ? 1 : 3);
    }
    expect((await stub.history()).lastPosition?.recordedAt).toBe(new Date(base + 999 * 1000).toISOString());
  });
});

describe('reading the track', () => {
  it('parties and admins read it, strangers get 403', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    for (const user of [sender, carrier, await anAdmin()]) {
      const res = await get(`/v1/api/tracking/${reservation.id}`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ reservationId: reservation.id, status: 'IN_TRANSIT', lastPosition: null, positions: [] });
    }
    const stranger = await aUser();
    expect((await get(`/v1/api/tracking/${reservation.id}`, { token: stranger.token })).body).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
    expect((await get('/v1/api/tracking/abc', { token: sender.token })).body).toMatchObject({ status: 400, errorCode: 'TYPE_MISMATCH' });
  });

  it('the recipient page shows the last position', async () => {
    const { carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    await postPositions(reservation.id, point({ lat: 14.6937, lng: -17.4441 }), carrier.token);
    const view = await get(`/v1/api/public/recipient/${reservation.recipientToken}`);
    expect(view.body).toMatchObject({ status: 'IN_TRANSIT', lastPosition: { lat: 14.6937, lng: -17.4441 } });
    const page = await get(`/r/${reservation.recipientToken}`);
    expect(page.body).toContain('Dakar, Sénégal, le ');
    expect(page.body).not.toContain('14.69');
  });
});

describe('live feed', () => {
  it('a party connected by bearer token receives a point posted after it connected', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    const live = await openLive(reservation.id, { token: sender.token });
    expect(live.res.status).toBe(101);
    expect(await live.next(1)).toEqual([{ type: 'snapshot', lastPosition: null }]);
    const p = point({ lat: 43.3, lng: 5.37 });
    expect((await postPositions(reservation.id, p, carrier.token)).status).toBe(201);
    const messages = await live.next(2);
    expect(messages[1]).toEqual({ type: 'position', position: { ...p, receivedAt: expect.any(String) } });
    const sockets = await runInDurableObject(trackingStub(reservation.id), (_i: ReservationTracking, state) => state.getWebSockets().length);
    expect(sockets).toBe(1);
    live.ws!.close(1000, 'done');
  });

  it('the recipient connects with the recipient token and gets the snapshot and new points', async () => {
    const { carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    await postPositions(reservation.id, point({ lat: 1 }), carrier.token);
    const live = await openLive(reservation.id, { recipientToken: reservation.recipientToken });
    expect(live.res.status).toBe(101);
    expect((await live.next(1))[0]).toMatchObject({ type: 'snapshot', lastPosition: { lat: 1 } });
    await postPositions(reservation.id, { positions: [point({ lat: 2 }), point({ lat: 3, recordedAt: new Date().toISOString() })] }, carrier.token);
    const messages = await live.next(3);
    expect(messages.slice(1).map((m) => m.position.lat)).toEqual([2, 3]);
    live.ws!.close(1000, 'done');
  });

  it('a party connects with the chat socket\'s subprotocol bearer.<accessToken> (browsers), and the handshake selects it', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    const live = await openLive(reservation.id, { protocol: `bearer.${sender.token}` });
    expect(live.res.status).toBe(101);
    expect(live.res.headers.get('Sec-WebSocket-Protocol')).toBe(`bearer.${sender.token}`);
    expect(await live.next(1)).toEqual([{ type: 'snapshot', lastPosition: null }]);
    expect((await postPositions(reservation.id, point(), carrier.token)).status).toBe(201);
    expect((await live.next(2))[1]).toMatchObject({ type: 'position' });
    live.ws!.close(1000, 'done');
    // Another offered subprotocol is the one selected; a bad token in it is refused like a bad header.
    const named = await openLive(reservation.id, { protocol: `tracking.v1, bearer.${carrier.token}` });
    expect(named.res.status).toBe(101);
    expect(named.res.headers.get('Sec-WebSocket-Protocol')).toBe('tracking.v1');
    named.ws!.close(1000, 'done');
    const forged = await openLive(reservation.id, { protocol: 'bearer.not-a-token' });
    expect(forged.res.status).toBe(401);
  });

  it('a frame the feed does not take is answered with an error frame, never dropped in silence', async () => {
    const { sender, reservation } = await aReservation({ status: 'DEPOSITED' });
    const live = await openLive(reservation.id, { token: sender.token });
    await live.next(1);
    live.ws!.send('{"lat":1,"lng":2}');
    expect((await live.next(2))[1]).toEqual({
      type: 'error',
      errorCode: 'INVALID_ARGUMENT',
      message: 'This feed is read-only: a text frame other than "ping" is not accepted; send only "ping"',
    });
    live.ws!.send(new Uint8Array([1]));
    expect((await live.next(3))[2]).toEqual({ type: 'error', errorCode: 'INVALID_ARGUMENT', message: 'This feed is read-only: a binary frame is not accepted; send only "ping"' });
    live.ws!.close(1000, 'done');
  });

  it('answers the SDK\'s heartbeat "ping" with "pong" by the runtime\'s auto-response, without waking the object (hibernation kept)', async () => {
    const { sender, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const live = await openLive(reservation.id, { token: sender.token });
    await live.next(1);
    live.ws!.send('ping');
    expect((await live.next(2))[1]).toBe('pong');
    const auto = await runInDurableObject(trackingStub(reservation.id), (_i: ReservationTracking, state) => {
      const pair = state.getWebSocketAutoResponse();
      // The time of the last auto-answered ping is kept per socket: the object was not woken for it.
      const socket = state.getWebSockets()[0];
      return { request: pair?.request, response: pair?.response, answeredAt: socket ? state.getWebSocketAutoResponseTimestamp(socket)?.getTime() ?? null : null };
    });
    expect(auto.request).toBe('ping');
    expect(auto.response).toBe('pong');
    expect(auto.answeredAt).toEqual(expect.any(Number));
    live.ws!.close(1000, 'done');
  });

  it('refuses strangers, wrong recipient tokens, missing credentials and plain requests', async () => {
    const { reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const other = await aReservation({ status: 'IN_TRANSIT' });
    const stranger = await openLive(reservation.id, { token: (await aUser()).token });
    expect(stranger.res.status).toBe(403);
    const wrongToken = await openLive(reservation.id, { recipientToken: other.reservation.recipientToken });
    expect(wrongToken.res.status).toBe(403);
    expect((await wrongToken.res.json<{ errorCode: string }>()).errorCode).toBe('ACCESS_DENIED');
    const anonymous = await openLive(reservation.id, {});
    expect(anonymous.res.status).toBe(401);
    const plain = await get(`/v1/api/tracking/${reservation.id}/live`, { token: other.sender.token });
    expect(plain.status).toBe(403);
    const plainOwn = await get(`/v1/api/tracking/${reservation.id}/live?token=${reservation.recipientToken}`);
    expect(plainOwn.status).toBe(400);
    expect(plainOwn.body).toMatchObject({ errorCode: 'INVALID_ARGUMENT' });
  });
});
