// Handover (CONTRACT sections 7 and 8): deposit and delivery by dynamic QR and by manual code, every
// refused case with its exact error, one-time use under concurrency, the code lockout, and the
// recipient's page and JSON twin.
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../src/db/client';
import { announcements, notifications, reservations, users } from '../src/db/schema';
import { ReservationQr } from '../src/durable-objects/reservation-qr';
import { runSeed } from '../src/features/dev/seed';
import { DEMO_RECIPIENT_TOKEN } from '../src/features/dev/seed/handover';
import { signQrPayload } from '../src/lib/qr-payload';
import { errorBody, get, post } from './helpers/http';
import { aUser, tokenFor, aCarrier, anAdmin, aReservation } from './helpers/factories';
import { reservationStatus, qrStub } from './helpers/db';
import { depsOf } from '../src/env';

afterEach(() => {
  vi.useRealTimers();
});

const db = database(env.DB);
const depositQr = (id: number, token: string) => get(`/v1/api/bookings/${id}/qrcode/deposit`, { token });
const scanDeposit = (payload: unknown, token: string) => post('/v1/api/qrcode/process/depot', { payload }, { token });
const scanDelivery = (payload: unknown, token: string) => post('/v1/api/qrcode/process/livraison', { payload }, { token });

async function deliveryPayload(recipientToken: string): Promise<string> {
  const res = await get(`/v1/api/public/recipient/${recipientToken}`);
  expect(res.status).toBe(200);
  return res.body.deliveryQr.payload;
}

describe('deposit by QR', () => {
  it('the sender gets a signed 60 s payload with an SVG image', async () => {
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED' });
    const before = Date.now();
    const res = await depositQr(reservation.id, sender.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'payload', 'svg']);
    expect(res.body.payload).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const claims = JSON.parse(atob(res.body.payload.split('.')[0].replace(/-/g, '+').replace(/_/g, '/')));
    expect(claims).toMatchObject({ rid: reservation.id, pur: 'DEPOSIT' });
    const ttl = Date.parse(res.body.expiresAt) - before;
    expect(ttl).toBeGreaterThan(58_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
    expect(res.body.svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
  });

  it('the carrier scans it: CONFIRMED becomes DEPOSITED, the Reservation is returned, the sender is notified', async () => {
    // Paid (contacts shown to both: CONTRACT 25).
    const { sender, carrier, reservation, trip: announcement } = await aReservation({ status: 'CONFIRMED', set: { paidAt: new Date().toISOString() } });
    const { body: qr } = await depositQr(reservation.id, sender.token);
    const res = await scanDeposit(qr.payload, carrier.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: reservation.id,
      reservationNumber: reservation.reservationNumber,
      announcementId: reservation.announcementId,
      senderId: sender.id,
      carrierId: carrier.id,
      status: 'DEPOSITED',
      reservedWeight: 2,
      departureCity: 'Paris',
      arrivalCity: 'Dakar',
      departureDate: announcement.departureDate,
      arrivalDate: announcement.arrivalDate,
      pricePerKg: 10,
      totalAmount: 20,
      platformCommission: 3,
      carrierAmount: 17,
      carrierEmail: carrier.email,
      senderEmail: sender.email,
      items: [],
      recipient: { firstName: 'Rita', lastName: 'Recipient' },
    });
    // The carrier never sees the codes.
    expect(res.body.depositCode).toBeNull();
    expect(res.body.deliveryCode).toBeNull();
    expect(await reservationStatus(reservation.id)).toBe('DEPOSITED');
    const notes = await database(env.DB).select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(notes.map((n) => n.type)).toEqual(['RESERVATION_DEPOSITED']);
    // The notice names the reservation by number too: the sender's French list says which parcel.
    expect(notes[0].data).toEqual({ reservationId: reservation.id, reservationNumber: reservation.reservationNumber });
    const french = await get('/v1/api/notifications', { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(french.body.content[0]).toMatchObject({
      title: 'Colis remis au transporteur',
      message: `Le colis de votre réservation ${reservation.reservationNumber} a été remis au transporteur.`,
    });
  });

  it('a used payload is refused: 409 INVALID_STATE', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const { body: qr } = await depositQr(reservation.id, sender.token);
    expect((await scanDeposit(qr.payload, carrier.token)).status).toBe(200);
    const again = await scanDeposit(qr.payload, carrier.token);
    expect(errorBody(again)).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'CODE_ALREADY_USED',
      message: 'This QR code has already been used',
      path: '/v1/api/qrcode/process/depot',
      suggestions: [],
    });
  });

  it('two simultaneous scans of one payload give exactly one success', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const { body: qr } = await depositQr(reservation.id, sender.token);
    const results = await Promise.all([scanDeposit(qr.payload, carrier.token), scanDeposit(qr.payload, carrier.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errorCode).toBe('INVALID_STATE');
    const notes = await database(env.DB).select().from(notifications).where(eq(notifications.userId, sender.id));
    expect(notes).toHaveLength(1);
  });

  it('a replaced payload is refused once a newer one was issued', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const { body: first } = await depositQr(reservation.id, sender.token);
    const { body: second } = await depositQr(reservation.id, sender.token);
    expect(second.payload).not.toBe(first.payload);
    const res = await scanDeposit(first.payload, carrier.token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message: 'This QR code was replaced by a newer one' });
    expect((await scanDeposit(second.payload, carrier.token)).status).toBe(200);
  });

  it('an expired payload is refused: 400 INVALID_ARGUMENT', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    const { body: qr } = await depositQr(reservation.id, sender.token);
    vi.setSystemTime(Date.now() + 61_000);
    const res = await scanDeposit(qr.payload, carrier.token);
    expect(errorBody(res)).toEqual({
      status: 400,
      errorCode: 'INVALID_ARGUMENT',
      message: 'QR code has expired',
      path: '/v1/api/qrcode/process/depot',
      suggestions: ['Ask for a fresh QR code and scan it again'],
      fieldErrors: [],
    });
    expect(await reservationStatus(reservation.id)).toBe('CONFIRMED');
  });

  it('forged and malformed payloads are refused: 400 INVALID_ARGUMENT', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const { body: qr } = await depositQr(reservation.id, sender.token);
    const [claims, mac] = qr.payload.split('.');
    // Claims rewritten to another reservation with the old signature.
    const tampered = btoa(JSON.stringify({ rid: reservation.id + 1, car: carrier.id, pur: 'DEPOSIT', non: 'x', exp: Date.now() + 60_000 }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const signedWithOtherKey = await signQrPayload('not-the-secret', { rid: reservation.id, car: carrier.id, pur: 'DEPOSIT', non: 'n', exp: Date.now() + 60_000 });
    for (const [payload, message] of [
      [`${tampered}.${mac}`, 'QR payload signature is invalid'],
      [signedWithOtherKey, 'QR payload signature is invalid'],
      [`${claims}.${mac}.extra`, 'Malformed QR payload'],
      ['not a qr code', 'Malformed QR payload'],
      [claims, 'Malformed QR payload'],
    ]) {
      const res = await scanDeposit(payload, carrier.token);
      expect(res.status, payload).toBe(400);
      expect(res.body, payload).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message });
    }
    const empty = await scanDeposit('', carrier.token);
    expect(empty.status).toBe(400);
    expect(empty.body.errorCode).toBe('VALIDATION_ERROR');
    expect(await reservationStatus(reservation.id)).toBe('CONFIRMED');
  });

  it('a delivery payload cannot be used as a deposit one (wrong purpose): 400 INVALID_ARGUMENT', async () => {
    const { carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    const payload = await deliveryPayload(reservation.recipientToken);
    const res = await scanDeposit(payload, carrier.token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message: 'This QR code is for delivery, not deposit' });
    // Nor the other way round.
    const confirmed = await aReservation({ status: 'CONFIRMED' });
    const { body: qr } = await depositQr(confirmed.reservation.id, confirmed.sender.token);
    const back = await scanDelivery(qr.payload, confirmed.carrier.token);
    expect(back.body).toMatchObject({ status: 400, errorCode: 'INVALID_ARGUMENT', message: 'This QR code is for deposit, not delivery' });
  });

  it("another reservation's carrier is refused: 403 ACCESS_DENIED, and the payload stays usable", async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const other = await aReservation({ status: 'CONFIRMED' });
    const { body: qr } = await depositQr(reservation.id, sender.token);
    for (const token of [other.carrier.token, sender.token, (await anAdmin()).token]) {
      const res = await scanDeposit(qr.payload, token);
      expect(res.status).toBe(403);
      expect(res.body.errorCode).toBe('ACCESS_DENIED');
    }
    expect((await scanDeposit(qr.payload, carrier.token)).status).toBe(200);
  });

  it('neither the carrier nor a stranger gets the deposit QR: 403 ACCESS_DENIED', async () => {
    const { carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const stranger = await aUser();
    for (const token of [carrier.token, stranger.token]) {
      expect((await depositQr(reservation.id, token)).body).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
    }
  });

  it('the sender gets no deposit QR before the carrier accepted: 409 INVALID_STATE', async () => {
    const paid = await aReservation({ status: 'PAID' });
    const res = await depositQr(paid.reservation.id, paid.sender.token);
    expect(res.body).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: 'Cannot deposit a reservation in status PAID' });
  });

  it('the deposit QR of an unknown reservation is 404 RESOURCE_NOT_FOUND', async () => {
    const sender = await aUser();
    expect((await depositQr(999_999, sender.token)).body).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('the deposit QR needs a token: 401', async () => {
    const { reservation } = await aReservation({ status: 'CONFIRMED' });
    expect((await get(`/v1/api/bookings/${reservation.id}/qrcode/deposit`)).status).toBe(401);
  });

  it('a valid payload for a reservation no longer CONFIRMED is refused: 409 INVALID_STATE', async () => {
    const { carrier, reservation } = await aReservation({ status: 'CANCELLED' });
    // Issued by the object directly: the route would not hand one out in this status.
    const qr = await qrStub(reservation.id).issue({ reservationId: reservation.id, carrierId: carrier.id }, 'DEPOSIT');
    const res = await scanDeposit(qr.payload, carrier.token);
    expect(res.body).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: 'Cannot deposit a reservation in status CANCELLED' });
    expect(await reservationStatus(reservation.id)).toBe('CANCELLED');
  });
});

describe('deposit by code', () => {
  it('the right code moves CONFIRMED to DEPOSITED', async () => {
    const { carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const res = await post(`/v1/api/bookings/${reservation.id}/deposit`, { depositCode: reservation.depositCode }, { token: carrier.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reservation.id, status: 'DEPOSITED' });
    expect(await reservationStatus(reservation.id)).toBe('DEPOSITED');
  });

  it('a wrong deposit code is 400 INVALID_ARGUMENT, telling the attempts left', async () => {
    const { carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const wrong = await post(`/v1/api/bookings/${reservation.id}/deposit`, { depositCode: reservation.deliveryCode }, { token: carrier.token });
    expect(errorBody(wrong)).toEqual({
      status: 400,
      errorCode: 'INVALID_ARGUMENT',
      message: 'Wrong code',
      path: `/v1/api/bookings/${reservation.id}/deposit`,
      suggestions: ['4 attempts left before code entry is locked'],
      fieldErrors: [],
    });
    expect(await reservationStatus(reservation.id)).toBe('CONFIRMED');
  });

  it("another carrier cannot deposit the reservation, even with its code: 403 ACCESS_DENIED", async () => {
    const { reservation } = await aReservation({ status: 'CONFIRMED' });
    const other = await aCarrier();
    const stranger = await post(`/v1/api/bookings/${reservation.id}/deposit`, { depositCode: reservation.depositCode }, { token: other.token });
    expect(stranger.body).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
  });

  it('a deposit code that is not 6 digits is 400 VALIDATION_ERROR', async () => {
    const { carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    const malformed = await post(`/v1/api/bookings/${reservation.id}/deposit`, { depositCode: '12ab' }, { token: carrier.token });
    expect(malformed.body).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [{ field: 'depositCode', message: 'Must be a 6-digit code', rejectedValue: '12ab' }],
    });
  });

  it('a carrier cannot deposit a reservation they have not accepted: 409 INVALID_STATE, it stays PAID', async () => {
    const paid = await aReservation({ status: 'PAID' });
    const early = await post(`/v1/api/bookings/${paid.reservation.id}/deposit`, { depositCode: paid.reservation.depositCode }, { token: paid.carrier.token });
    expect(early.body).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    expect(await reservationStatus(paid.reservation.id)).toBe('PAID');
  });

  it('5 wrong codes lock code entry for 15 minutes (429 with Retry-After), then it opens again', async () => {
    const { carrier, reservation } = await aReservation({ status: 'CONFIRMED' });
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    vi.setSystemTime(start);
    const wrongCode = reservation.depositCode === '000000' ? '111111' : '000000';
    const url = `/v1/api/bookings/${reservation.id}/deposit`;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(url, { depositCode: wrongCode }, { token: carrier.token }));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    expect(answers.map((a) => a.body.suggestions[0])).toEqual([
      '4 attempts left before code entry is locked',
      '3 attempts left before code entry is locked',
      '2 attempts left before code entry is locked',
      '1 attempts left before code entry is locked',
      'Scan the QR code instead, or retry later',
    ]);
    expect(answers[4].body.message).toBe('Wrong code: code entry is now locked for 15 minutes');

    // Locked: even the right code is refused, for deposit and delivery alike.
    const locked = await post(url, { depositCode: reservation.depositCode }, { token: carrier.token });
    expect(errorBody(locked)).toEqual({
      status: 429,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'TOO_MANY_ATTEMPTS',
      message: 'Too many wrong codes: code entry is locked',
      path: url,
      suggestions: ['Retry in 15 minutes, or scan the QR code instead'],
    });
    expect(locked.headers.get('Retry-After')).toBe('900');
    const state = await runInDurableObject(qrStub(reservation.id), (instance: ReservationQr) => instance.codeAttempts());
    expect(state).toEqual({ failures: 5, lockedUntil: start + 15 * 60_000 });

    vi.setSystemTime(start + 14 * 60_000);
    const stillLocked = await post(url, { depositCode: reservation.depositCode }, { token: carrier.token });
    expect(stillLocked.status).toBe(429);
    expect(stillLocked.headers.get('Retry-After')).toBe('60');

    vi.setSystemTime(start + 15 * 60_000 + 1);
    // The first access token has expired by now (15 min): a fresh one, as after a refresh.
    const fresh = await tokenFor(carrier.id, carrier.roles);
    const open = await post(url, { depositCode: reservation.depositCode }, { token: fresh });
    expect(open.status).toBe(200);
    expect(open.body.status).toBe('DEPOSITED');
    const after = await runInDurableObject(qrStub(reservation.id), (instance: ReservationQr) => instance.codeAttempts());
    expect(after).toEqual({ failures: 0, lockedUntil: 0 });
  });

  it('a right code resets the count of wrong ones', async () => {
    const { reservation } = await aReservation({ status: 'CONFIRMED' });
    const stub = qrStub(reservation.id);
    for (let i = 0; i < 4; i++) expect((await stub.checkCode('000000', '123456')).result).toBe('WRONG');
    expect(await stub.checkCode('123456', '123456')).toEqual({ result: 'OK' });
    expect(await stub.checkCode('000000', '123456')).toEqual({ result: 'WRONG', remainingAttempts: 4 });
  });
});

describe('delivery', () => {
  it('by the QR on the recipient page: IN_TRANSIT becomes DELIVERED, sender and carrier are notified', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const payload = await deliveryPayload(reservation.recipientToken);
    const res = await scanDelivery(payload, carrier.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reservation.id, status: 'DELIVERED', deliveryCode: null });
    expect(await reservationStatus(reservation.id)).toBe('DELIVERED');
    const types = await database(env.DB).select({ userId: notifications.userId, type: notifications.type }).from(notifications);
    expect(types.filter((n) => [sender.id, carrier.id].includes(n.userId))).toEqual(
      expect.arrayContaining([
        { userId: sender.id, type: 'RESERVATION_DELIVERED' },
        { userId: carrier.id, type: 'RESERVATION_DELIVERED' },
      ]),
    );
    // Replay: already used.
    expect((await scanDelivery(payload, carrier.token)).body).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
  });

  it('the right delivery code moves DEPOSITED to DELIVERED', async () => {
    const { carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    const ok = await post(`/v1/api/bookings/${reservation.id}/deliver`, { deliveryCode: reservation.deliveryCode }, { token: carrier.token });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('DELIVERED');
  });

  it('another carrier cannot deliver by code: 403 ACCESS_DENIED', async () => {
    const { reservation } = await aReservation({ status: 'DEPOSITED' });
    const other = await aCarrier();
    expect((await post(`/v1/api/bookings/${reservation.id}/deliver`, { deliveryCode: reservation.deliveryCode }, { token: other.token })).body).toMatchObject({
      status: 403,
      errorCode: 'ACCESS_DENIED',
    });
  });

  it('a wrong delivery code is 400 INVALID_ARGUMENT', async () => {
    const { carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    expect((await post(`/v1/api/bookings/${reservation.id}/deliver`, { deliveryCode: reservation.depositCode }, { token: carrier.token })).body).toMatchObject({
      status: 400,
      errorCode: 'INVALID_ARGUMENT',
      message: 'Wrong code',
    });
    expect(await reservationStatus(reservation.id)).toBe('DEPOSITED');
  });

  it('a delivered reservation cannot be delivered again: 409 INVALID_STATE', async () => {
    const { carrier, reservation } = await aReservation({ status: 'DEPOSITED' });
    const url = `/v1/api/bookings/${reservation.id}/deliver`;
    expect((await post(url, { deliveryCode: reservation.deliveryCode }, { token: carrier.token })).status).toBe(200);
    const again = await post(url, { deliveryCode: reservation.deliveryCode }, { token: carrier.token });
    expect(again.body).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: 'Cannot deliver a reservation in status DELIVERED' });
  });

  it("a delivery payload scanned by another reservation's carrier: 403", async () => {
    const { reservation } = await aReservation({ status: 'DEPOSITED' });
    const other = await aReservation({ status: 'DEPOSITED' });
    const payload = await deliveryPayload(reservation.recipientToken);
    expect((await scanDelivery(payload, other.carrier.token)).body).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
    expect(await reservationStatus(reservation.id)).toBe('DEPOSITED');
  });
});

describe('recipient page and JSON twin', () => {
  it('the JSON twin shows what the recipient needs and nothing personal', async () => {
    const { reservation, carrier, trip: announcement } = await aReservation({ status: 'DEPOSITED' });
    const res = await get(`/v1/api/public/recipient/${reservation.recipientToken}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['arrivalCity', 'arrivalDate', 'carrierName', 'deliveryQr', 'departureCity', 'lastPosition', 'reservationNumber', 'status'].sort(),
    );
    expect(res.body).toMatchObject({
      reservationNumber: reservation.reservationNumber,
      status: 'DEPOSITED',
      departureCity: 'Paris',
      arrivalCity: 'Dakar',
      arrivalDate: announcement.arrivalDate,
      lastPosition: null,
      deliveryQr: { payload: expect.any(String), expiresAt: expect.any(String), svg: expect.stringContaining('<svg') },
    });
    expect(res.body.carrierName).toMatch(/^First\d+ L\.$/);
    const text = JSON.stringify(res.body);
    for (const secret of [carrier.email, 'rita@example.com', '+221700000000', reservation.depositCode, reservation.deliveryCode]) {
      expect(text).not.toContain(secret);
    }
    // Polling viewers share the current payload while it has time left.
    const again = await get(`/v1/api/public/recipient/${reservation.recipientToken}`);
    expect(again.body.deliveryQr.payload).toBe(res.body.deliveryQr.payload);
  });

  it('hands out a new payload before the current one expires', async () => {
    const { reservation } = await aReservation({ status: 'IN_TRANSIT' });
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    vi.setSystemTime(start);
    const first = await deliveryPayload(reservation.recipientToken);
    vi.setSystemTime(start + 41_000); // less than 20 s left
    const second = await deliveryPayload(reservation.recipientToken);
    expect(second).not.toBe(first);
  });

  it('no delivery QR before deposit', async () => {
    const { reservation } = await aReservation({ status: 'CONFIRMED' });
    const res = await get(`/v1/api/public/recipient/${reservation.recipientToken}`);
    expect(res.body).toMatchObject({ status: 'CONFIRMED', deliveryQr: null });
  });

  it('an unknown recipient token is 404 RESOURCE_NOT_FOUND', async () => {
    const unknown = await get('/v1/api/public/recipient/rt_unknown_token_000000000000000000');
    expect(errorBody(unknown)).toEqual({
      status: 404,
      errorCode: 'RESOURCE_NOT_FOUND',
      message: 'Recipient link not found',
      path: '/v1/api/public/recipient/rt_unknown_token_000000000000000000',
      suggestions: [],
    });
  });

  it('the recipient link of a cancelled reservation is revoked: 404', async () => {
    const cancelled = await aReservation({ status: 'CANCELLED' });
    expect((await get(`/v1/api/public/recipient/${cancelled.reservation.recipientToken}`)).status).toBe(404);
  });

  it('GET /r/{token} renders the page with the delivery QR, logging the route but not the token', async () => {
    const { reservation } = await aReservation({ status: 'DEPOSITED' });
    const log = vi.spyOn(console, 'log');
    const res = await get(`/r/${reservation.recipientToken}`);
    expect(res.status).toBe(200);
    // The token is a secret: the request log names the route, not the token.
    const lines = log.mock.calls.map((args) => String(args[0]));
    log.mockRestore();
    expect(lines.some((l) => l.includes('"path":"/r/:token"'))).toBe(true);
    expect(lines.some((l) => l.includes(reservation.recipientToken))).toBe(false);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.body).toContain(`Colis ${reservation.reservationNumber}`);
    expect(res.body).toContain('Chez le transporteur');
    expect(res.body).toContain('name="viewport"');
    expect(res.body).toMatch(/<div id="delivery-qr"[^>]*data-payload="[A-Za-z0-9_.-]+"[^>]*><svg/);
    for (const secret of ['rita@example.com', '+221700000000', reservation.depositCode, reservation.deliveryCode]) {
      expect(res.body).not.toContain(secret);
    }
  });

  it('GET /r/{token} of an unknown token is a plain 404 page', async () => {
    const missing = await get('/r/rt_unknown_token_000000000000000000', { headers: { 'Accept-Language': 'en-GB,en;q=0.9' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('Content-Type')).toContain('text/html');
    expect(missing.body).toContain('This parcel link does not exist or is no longer valid.');
    expect((await get('/r/rt_unknown_token_000000000000000000')).body).toContain('<h1>Lien introuvable</h1>');
  });

  /** What a person sees of the page: its text, without tags, attributes or the script. */
  const visibleText = (page: string) =>
    page
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<style[\s\S]*?<\/style>/g, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ');

  it("speaks the recipient's language, that of their SMS (the arrival country, else the sender's); ?lang then Accept-Language override it (CONTRACT section 19)", async () => {
    // Paris -> Dakar: Senegal reads French, as the recipient's SMS did.
    const { reservation } = await aReservation({ status: 'DEPOSITED' });
    const fr = await get(`/r/${reservation.recipientToken}`);
    expect(fr.status).toBe(200);
    expect(fr.body).toContain('<html lang="fr">');
    expect(fr.headers.get('Content-Language')).toBe('fr');
    const text = visibleText(fr.body);
    expect(text).toContain(`Colis ${reservation.reservationNumber}`);
    expect(text).toContain('Statut Chez le transporteur');
    expect(text).toContain('Départ Paris, France');
    expect(text).toContain('Arrivée Dakar, Sénégal');
    expect(text).toContain('Montrez ce code au transporteur');
    const en = await get(`/r/${reservation.recipientToken}?lang=en`, { headers: { 'Accept-Language': 'fr' } });
    expect(en.body).toContain('<html lang="en">');
    expect(visibleText(en.body)).toContain('Status With the carrier');
    expect(visibleText(en.body)).toContain('To Dakar, Senegal');
    const browser = await get(`/r/${reservation.recipientToken}`, { headers: { 'Accept-Language': 'en-US,en;q=0.9' } });
    expect(browser.body).toContain('<html lang="en">');
    const unsupported = await get(`/r/${reservation.recipientToken}?lang=de`, { headers: { 'Accept-Language': 'de-DE' } });
    expect(unsupported.body).toContain('<html lang="fr">');

    // To a country that reads neither (or both): the sender's language, as for the SMS.
    const { reservation: toCanada, sender, trip } = await aReservation({ status: 'CONFIRMED' });
    // The page reads the reservation's own terms (CONTRACT section 19), copied from its trip at booking.
    await db.update(reservations).set({ arrivalCountry: 'CA', arrivalCity: 'Montréal' }).where(eq(reservations.id, toCanada.id));
    expect(trip.id).toBe(toCanada.announcementId);
    await db.update(users).set({ locale: 'en' }).where(eq(users.id, sender.id));
    const english = await get(`/r/${toCanada.recipientToken}`);
    expect(english.body).toContain('<html lang="en">');
    expect(visibleText(english.body)).toContain('To Montréal, Canada');
    expect((await get(`/r/${toCanada.recipientToken}?lang=fr`)).body).toContain('<html lang="fr">');
  });

  it('shows places and times as a person reads them, no coordinates or ISO strings; no position once delivered', async () => {
    const { reservation, carrier, trip } = await aReservation({ status: 'DEPOSITED' });
    await db.update(reservations).set({ arrivalDate: '2026-12-24' }).where(eq(reservations.id, reservation.id));
    expect(trip.id).toBe(reservation.announcementId);
    const recordedAt = new Date(Date.now() - 60_000);
    recordedAt.setUTCSeconds(0, 0);
    const tracked = await post(`/v1/api/tracking/${reservation.id}/positions`, { lat: 14.6937, lng: -17.4441, recordedAt: recordedAt.toISOString() }, { token: carrier.token });
    expect(tracked.status).toBe(201);
    const page = await get(`/r/${reservation.recipientToken}`);
    const text = visibleText(page.body);
    const when = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(recordedAt);
    expect(text).toContain(`Dernière position Dakar, Sénégal, le ${when} UTC`);
    expect(text).toContain('Arrivée prévue 24 décembre 2026');
    expect(text).not.toMatch(/\d+\.\d{3,}/); // no coordinates
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/); // no ISO dates or times
    // Away from a city: the distance to the nearest one.
    await post(`/v1/api/tracking/${reservation.id}/positions`, { lat: 16.0, lng: -16.0, recordedAt: new Date().toISOString() }, { token: carrier.token });
    expect(visibleText((await get(`/r/${reservation.recipientToken}?lang=en`)).body)).toMatch(/Last position \d+ km from [^,]+, (Senegal|Mauritania), /);

    // Delivered: the position is no longer shown, on the page or in its JSON twin.
    await db.update(reservations).set({ status: 'DELIVERED', deliveredAt: new Date().toISOString() }).where(eq(reservations.id, reservation.id));
    const after = await get(`/r/${reservation.recipientToken}`);
    expect(visibleText(after.body)).toContain('Dernière position Livré. Merci !');
    expect(visibleText(after.body)).not.toContain('Dakar, Sénégal, le');
    expect((await get(`/v1/api/public/recipient/${reservation.recipientToken}`)).body).toMatchObject({ status: 'DELIVERED', lastPosition: null, deliveryQr: null });
  });

  it('the link stops working 30 days after the reservation finishes: 404 RESOURCE_NOT_FOUND', async () => {
    const deliveredAt = new Date();
    const { reservation } = await aReservation({ status: 'DELIVERED', set: { deliveredAt: deliveredAt.toISOString() } });
    const day = 24 * 60 * 60 * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(deliveredAt.getTime() + 29 * day);
    expect((await get(`/r/${reservation.recipientToken}`)).status).toBe(200);
    expect((await get(`/v1/api/public/recipient/${reservation.recipientToken}`)).status).toBe(200);
    vi.setSystemTime(deliveredAt.getTime() + 30 * day + 60_000);
    expect((await get(`/r/${reservation.recipientToken}`)).status).toBe(404);
    const json = await get(`/v1/api/public/recipient/${reservation.recipientToken}`);
    expect(errorBody(json)).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
    vi.useRealTimers();
    // A reservation still running keeps its link, however old.
    const { reservation: running } = await aReservation({ status: 'IN_TRANSIT' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60 * day);
    expect((await get(`/v1/api/public/recipient/${running.recipientToken}`)).status).toBe(200);
  });

  it('both root and API routes are in the OpenAPI document', async () => {
    const doc = (await get('/v1/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/r/{recipientToken}',
        '/v1/api/public/recipient/{recipientToken}',
        '/v1/api/bookings/{id}/qrcode/deposit',
        '/v1/api/qrcode/process/depot',
        '/v1/api/bookings/{id}/deposit',
        '/v1/api/qrcode/process/livraison',
        '/v1/api/bookings/{id}/deliver',
        '/v1/api/tracking/{reservationId}/positions',
        '/v1/api/tracking/{reservationId}',
        '/v1/api/tracking/{reservationId}/live',
      ]),
    );
    expect(doc.paths['/r/{recipientToken}'].get.responses['200'].content).toHaveProperty('text/html');
    // Both bodies the server takes: one point alone, or a batch (issue 32: a validating proxy refused the single point).
    expect(doc.paths['/v1/api/tracking/{reservationId}/positions'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PositionsBody',
    });
    expect(doc.components.schemas.PositionsBody.anyOf).toEqual([
      { $ref: '#/components/schemas/PositionInput' },
      { $ref: '#/components/schemas/PositionBatch' },
    ]);
  });
});

describe('development seed', () => {
  it('creates, once, a handed-over demo reservation whose recipient page works', async () => {
    await runSeed(depsOf(env));
    await runSeed(depsOf(env));
    const rows = await database(env.DB).select().from(reservations).where(eq(reservations.recipientToken, DEMO_RECIPIENT_TOKEN));
    expect(rows.map((r) => [r.reservationNumber, r.status])).toEqual([['DEMO-HANDOVER-1', 'DEPOSITED']]);
    const view = await get(`/v1/api/public/recipient/${DEMO_RECIPIENT_TOKEN}`);
    expect(view.body).toMatchObject({ reservationNumber: 'DEMO-HANDOVER-1', carrierName: 'Carla C.', deliveryQr: { payload: expect.any(String) } });
  });
});
