// The document tells the truth (CONTRACT section 23): the parcel lifecycle of `npm run e2e` (and a
// little more: sign-in, conversations, tracking, wallet, money history, notifications, review),
// every request body and every response, error bodies included, validated against the
// production OpenAPI document: statuses declared, bodies of the declared schema, null only where
// the document says nullable, no field the document does not show. 0 mismatches.
import { createExecutionContext } from 'cloudflare:test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import worker from '../src/index';
import { aCarrier, aCategory, aUser, bookingInput, publishTrip } from './helpers/factories';
import { registerUser, PASSWORD } from './helpers/auth';
import { reservationRow } from './helpers/db';
import { call, del, get, observeCalls, post, put } from './helpers/http';
import { fakeStripeForThisFile, sendPaymentEvent } from './helpers/money';
import { DocumentValidator } from './helpers/openapi-validate';
import { PRODUCTION_ENV } from './helpers/production';

const stripe = fakeStripeForThisFile();
let validator: DocumentValidator;

beforeAll(async () => {
  // The production document: what client teams generate their code from.
  const res = await worker.fetch(new Request('https://api.test/v1/api/openapi.json'), PRODUCTION_ENV, createExecutionContext());
  validator = new DocumentValidator(await res.json());
  observeCalls((e) => {
    // A request the server accepted must be one the document accepts (what a validating proxy
    // checks); the refused ones of the error test are wrong on purpose.
    if (e.requestBody !== undefined && e.status < 400) validator.request(e.method, e.path, e.requestBody);
    validator.response(e.method, e.path, e.status, e.contentType, e.body);
  });
});
beforeEach(() => {
  validator?.mismatches.splice(0);
});
afterAll(() => observeCalls(undefined));

const ok = <T = any>(res: { status: number; body: T }, status: number): T => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

describe('the e2e lifecycle against the production document', () => {
  it('every request and response of the lifecycle matches the document', async () => {
    // Sign-in as the apps do it.
    const registered = await registerUser();
    const sender = { id: registered.id, token: registered.accessToken };
    ok(await post('/v1/api/auth/login', { email: registered.email, password: PASSWORD }), 200);
    const pair = ok(await post('/v1/api/auth/refresh', { refreshToken: registered.refreshToken }), 200);
    sender.token = pair.accessToken;
    ok(await get('/v1/api/user/me', { token: sender.token }), 200);
    ok(await post('/v1/api/kyc/sessions', { documentType: 'PASSPORT' }, { token: sender.token }), 201);
    const kyc = ok(await get('/v1/api/kyc/status', { token: sender.token }), 200);
    expect(kyc.record.documentType).toBe('PASSPORT');

    // The carrier publishes, the sender finds the trip and books.
    const carrier = await aCarrier();
    const category = await aCategory();
    ok(await get('/v1/api/categories?size=100'), 200);
    ok(await get('/v1/api/reference/countries'), 200);
    const trip = await publishTrip(carrier);
    ok(await get('/v1/api/annonces?departureCity=Paris&arrivalCity=Dakar&size=100'), 200);
    ok(await get(`/v1/api/annonces/${trip.id}`), 200);
    ok(await get('/v1/api/annonces/mine', { token: carrier.token }), 200);
    const booking = ok(await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2), { token: sender.token }), 201);
    ok(await get(`/v1/api/bookings/${booking.id}`, { token: sender.token }), 200);
    ok(await get('/v1/api/bookings/as-sender', { token: sender.token }), 200);
    ok(await get(`/v1/api/bookings/${booking.id}/cancellation-quote`, { token: sender.token }), 200);

    // A conversation before any message, then the first messages (masked before payment).
    ok(await get('/v1/api/conversations', { token: sender.token }), 200);
    ok(await post(`/v1/api/bookings/${booking.id}/messages`, { body: 'Hello, call me on 06 12 34 56 78' }, { token: sender.token }), 201);
    ok(await get(`/v1/api/bookings/${booking.id}/messages`, { token: carrier.token }), 200);
    ok(await get('/v1/api/conversations', { token: carrier.token }), 200);
    ok(await get('/v1/api/conversations/unread-count', { token: carrier.token }), 200);
    ok(await put(`/v1/api/bookings/${booking.id}/messages/read`, undefined, { token: carrier.token }), 200);

    // Payment: the hosted checkout, then the provider's signed event authorises the card.
    ok(await get(`/v1/api/payments/methods?reservationId=${booking.id}`, { token: sender.token }), 200);
    ok(await post('/v1/api/payments/checkout', { reservationId: booking.id }, { token: sender.token }), 200);
    const row = await reservationRow(booking.id);
    const pi = stripe.authorizedPaymentIntent(row.totalAmountCents, 'eur', { reservationId: String(booking.id) });
    ok(await sendPaymentEvent(stripe.event('payment_intent.amount_capturable_updated', pi)), 200);
    ok(await get(`/v1/api/payments/${booking.id}/status`, { token: sender.token }), 200);

    // Accept, deposit by QR, one tracking point, delivery by the recipient page's QR.
    ok(await get('/v1/api/bookings/as-carrier', { token: carrier.token }), 200);
    ok(await post(`/v1/api/bookings/${booking.id}/accept`, undefined, { token: carrier.token }), 200);
    const link = ok(await get(`/v1/api/bookings/${booking.id}/recipient-link`, { token: sender.token }), 200);
    const before = ok(await get(`/v1/api/public/recipient/${link.token}`), 200);
    expect(before.deliveryQr).toBeNull();
    const depositQr = ok(await get(`/v1/api/bookings/${booking.id}/qrcode/deposit`, { token: sender.token }), 200);
    ok(await post('/v1/api/qrcode/process/depot', { payload: depositQr.payload }, { token: carrier.token }), 200);
    const point = { lat: 48.8566, lng: 2.3522, recordedAt: new Date(Date.now() - 5_000).toISOString() };
    ok(await post(`/v1/api/tracking/${booking.id}/positions`, point, { token: carrier.token }), 201);
    ok(await get(`/v1/api/tracking/${booking.id}`, { token: sender.token }), 200);
    const recipient = ok(await get(`/v1/api/public/recipient/${link.token}`), 200);
    ok(await post('/v1/api/qrcode/process/livraison', { payload: recipient.deliveryQr.payload }, { token: carrier.token }), 200);

    // After delivery: money, history, notifications, a review, dashboards.
    ok(await get('/v1/api/user/me/wallet', { token: carrier.token }), 200);
    const history = ok(await get('/v1/api/transactions', { token: sender.token }), 200);
    ok(await get('/v1/api/transactions/summary', { token: sender.token }), 200);
    if (history.content[0]) ok(await get(`/v1/api/transactions/${history.content[0].id}`, { token: sender.token }), 200);
    const notifications = ok(await get('/v1/api/notifications', { token: sender.token }), 200);
    ok(await get('/v1/api/notifications/unread-count', { token: sender.token }), 200);
    if (notifications.content[0]) ok(await put(`/v1/api/notifications/${notifications.content[0].id}/read`, undefined, { token: sender.token }), 200);
    ok(await put('/v1/api/notifications/read-all', undefined, { token: sender.token }), 200);
    ok(await post('/v1/api/reviews', { reservationId: booking.id, rating: 5, comment: 'On time, careful.' }, { token: sender.token }), 201);
    ok(await get(`/v1/api/users/${carrier.id}/reviews`), 200);
    ok(await get(`/v1/api/users/${carrier.id}`, { token: sender.token }), 200);
    ok(await get('/v1/api/dashboard/carrier', { token: carrier.token }), 200);
    ok(await get('/v1/api/dashboard/sender', { token: sender.token }), 200);

    expect(validator.mismatches).toEqual([]);
  });

  it('the error bodies of the lifecycle match the document too', async () => {
    const stranger = await aUser();
    ok(await get('/v1/api/bookings/as-sender'), 401);
    ok(await get('/v1/api/bookings/999999', { token: stranger.token }), 404);
    ok(await post('/v1/api/bookings', { announcementId: 'x' }, { token: stranger.token }), 400);
    ok(await post('/v1/api/auth/login', { email: 'nobody@example.test', password: 'Wrong-password-1' }), 401);
    ok(await post('/v1/api/annonces', {}, { token: stranger.token }), 403);
    ok(await call('DELETE', '/v1/api/notifications/999999', { token: stranger.token }), 404);
    ok(await del('/v1/api/devices/999999', { token: stranger.token }), 404);
    const unknownDocument = ok(await post('/v1/api/kyc/sessions', { documentType: 'SELFIE' }, { token: stranger.token }), 400);
    expect(unknownDocument).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'documentType', rejectedValue: 'SELFIE' }] });
    expect(validator.mismatches).toEqual([]);
  });

  it('the validator is not blind: a null where the document says never null is a mismatch', () => {
    const probe = new DocumentValidator({
      paths: { '/x': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/T' } } } } } } } },
      components: { schemas: { T: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } },
    });
    probe.response('GET', '/x', 200, 'application/json', { a: null });
    probe.response('GET', '/x', 200, 'application/json', { a: 'ok', hidden: 1 });
    probe.response('GET', '/x', 404, 'application/json', {});
    probe.response('GET', '/x', 200, 'application/json', { a: 'ok' });
    expect(probe.mismatches.map((m) => m.status)).toEqual([200, 200, 404]);
  });
});
