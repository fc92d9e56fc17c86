// Reservations through the real worker: booking with capacity taken atomically, Idempotency-Key,
// listings, detail with masked codes, accept / reject / cancel, recipient link, cron expiry and
// the super-admin detail (CONTRACT section 7).
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agencyEmployees, notifications, reservationItems, reservations } from '../src/db/schema';
import { depsOf } from '../src/env';
import { AppError } from '../src/errors';
import { seedDemoBooking } from '../src/features/dev/seed/bookings';
import { createBooking } from '../src/features/bookings/create-booking';
import { freeCancellationAfterTripChange } from '../src/features/bookings/booking-rules';
import { cancellationOutcome } from '../src/features/bookings/cancellation-policy';
import worker from '../src/index';
import { BASE, errorBody, get, post, put } from './helpers/http';
import { TripOverrides, daysFromToday, aUser, aCarrier, anAdmin, aSuperAdmin, aCategory, aTrip, aBranch, anAgency, bookingInput, bookThroughApi } from './helpers/factories';
import { db, reservationRow, tripRow, setReservation, runCron } from './helpers/db';

const RESERVATION_FIELDS = [
  'id', 'reservationNumber', 'announcementId', 'senderId', 'carrierId', 'status', 'reservedWeight', 'contentInfo',
  'depositCode', 'deliveryCode', 'departureCity', 'arrivalCity', 'departureDate', 'arrivalDate', 'pickupPoint',
  'deliveryPoint', 'pricePerKg', 'totalAmount', 'platformCommission', 'carrierAmount', 'currency', 'paymentId', 'authorizationId',
  'captureId', 'refundId', 'paymentStatus', 'paymentDate', 'paymentApprovalUrl', 'senderName', 'senderEmail',
  'carrierName', 'carrierEmail', 'invoiceId', 'invoiceUrl', 'items', 'recipient', 'declarations', 'reservationDate',
].sort();

async function setup(options: TripOverrides = {}) {
  const carrier = await aCarrier({ firstName: 'Carla', lastName: 'Carrier' });
  const sender = await aUser({ firstName: 'Sid', lastName: 'Sender' });
  const category = await aCategory({ name: 'Books' });
  const trip = await aTrip(carrier, options);
  return { carrier, sender, category, trip };
}

async function notificationsOf(userId: number) {
  return db().select().from(notifications).where(eq(notifications.userId, userId));
}

/** An unpaid reservation as its carrier reads it, from the body the sender got: no codes, the sender's and recipient's contacts hidden, the carrier's own address shown. */
const asCarrierSees = (bySender: Record<string, any>, carrier: { email: string }) => ({
  ...bySender,
  depositCode: null,
  deliveryCode: null,
  senderEmail: null,
  carrierEmail: carrier.email,
  recipient: { ...bySender.recipient, phone: null, email: null },
});

describe('POST /bookings', () => {
  it('creates a PENDING_PAYMENT reservation with the split price, codes for the sender and the carrier notified', async () => {
    const { carrier, sender, category, trip } = await setup({ pricePerKgCents: 1250, totalWeightG: 20_000 });
    const before = Date.now();
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2.345), { token: sender.token });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(Object.keys(b).sort()).toEqual(RESERVATION_FIELDS);
    expect(b.reservationNumber).toMatch(/^PX-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(b.depositCode).toMatch(/^\d{6}$/);
    expect(b.deliveryCode).toMatch(/^\d{6}$/);
    expect(b).toMatchObject({
      announcementId: trip.id,
      senderId: sender.id,
      carrierId: carrier.id,
      status: 'PENDING_PAYMENT',
      reservedWeight: 2.345,
      contentInfo: 'Clothes and books',
      departureCity: 'Paris',
      arrivalCity: 'Dakar',
      departureDate: trip.departureDate,
      arrivalDate: trip.arrivalDate,
      pickupPoint: 'Gare de Lyon',
      pricePerKg: 12.5,
      // 2.345 kg * 12.50 = 29.3125 -> 29.31; 15 % = 4.3965 -> 4.40; carrier 24.91
      totalAmount: 29.31,
      platformCommission: 4.4,
      carrierAmount: 24.91,
      paymentId: null,
      paymentStatus: null,
      senderName: 'Sid Sender',
      senderEmail: sender.email,
      carrierName: 'Carla Carrier',
      // Hidden from the sender until paid (CONTRACT 25).
      carrierEmail: null,
      items: [
        {
          categoryId: category.id,
          code: category.code,
          name: 'Books',
          reservedQuantity: 3,
          description: null,
          weight: 1.5,
          lengthCm: null,
          widthCm: null,
          heightCm: null,
          isFragile: false,
          containsLiquids: false,
          imageUrl: null,
        },
      ],
      recipient: {
        firstName: 'Awa',
        lastName: 'Diop',
        email: null,
        // Stored as E.164, however it was written (CONTRACT 26).
        phone: '+221771234567',
        address: null,
        city: 'Dakar',
        postalCode: null,
        instructions: null,
      },
    });

    const stored = await reservationRow(b.id);
    expect(stored.reservedWeightG).toBe(2345);
    expect(stored.recipientToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored.createdAt).toBe(b.reservationDate);
    const deadline = Date.parse(stored.paymentDeadline) - Date.parse(stored.createdAt);
    expect(deadline).toBe(30 * 60 * 1000);
    expect(Date.parse(stored.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(2345);
    const items = await db().select().from(reservationItems).where(eq(reservationItems.reservationId, b.id));
    expect(items).toHaveLength(1);
    const carrierNotes = await notificationsOf(carrier.id);
    expect(carrierNotes.map((n) => n.type)).toEqual(['RESERVATION_CREATED']);
    expect(carrierNotes[0].data).toEqual({ reservationId: b.id, reservationNumber: b.reservationNumber, announcementId: trip.id });
  });

  it('never overbooks under many parallel bookings; the trip ends FULL and every refusal is 422', async () => {
    const carrier = await aCarrier();
    const category = await aCategory();
    const trip = await aTrip(carrier, { totalWeightG: 20_000 });
    const senders = await Promise.all(Array.from({ length: 25 }, () => aUser()));
    const results = await Promise.all(
      senders.map((s) => post('/v1/api/bookings', bookingInput(trip.id, category.id, 2), { token: s.token })),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.status).toBe(422);
      expect(errorBody(r)).toEqual({
        status: 422,
        errorCode: 'BUSINESS_RULE_VIOLATION',
        reason: 'CAPACITY_EXCEEDED',
        message: 'Not enough remaining capacity on this announcement',
        path: '/v1/api/bookings',
        suggestions: ['Remaining capacity: 0 kg'],
      });
    }
    const after = await tripRow(trip.id);
    expect(after.reservedWeightG).toBe(20_000);
    expect(after.status).toBe('FULL');
    const [{ held, n }] = await db()
      .select({ held: sql<number>`sum(${reservations.reservedWeightG})`, n: sql<number>`count(*)` })
      .from(reservations)
      .where(eq(reservations.announcementId, trip.id));
    expect(held).toBe(20_000);
    expect(n).toBe(10);
    // Refused bookings left nothing behind: one carrier notification per booking made.
    expect(await notificationsOf(carrier.id)).toHaveLength(10);
  });

  it("a booking whose total is below the payment provider's minimum is refused with the minimum, and leaves nothing (issue 14)", async () => {
    const { carrier, sender, category, trip } = await setup({ pricePerKgCents: 100, totalWeightG: 20_000 });
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 0.3), { token: sender.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'AMOUNT_BELOW_MINIMUM',
      message: 'The booking total 0.30 EUR is below the payment minimum of 0.50 EUR',
      path: '/v1/api/bookings',
      suggestions: ['Book more weight so that the total reaches 0.50 EUR'],
    });
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
    expect(await db().select().from(reservations).where(eq(reservations.announcementId, trip.id))).toEqual([]);
    expect(await notificationsOf(carrier.id)).toEqual([]);
    // At the minimum itself it is accepted.
    const atMinimum = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 0.5), { token: sender.token });
    expect(atMinimum.status).toBe(201);
    expect(atMinimum.body.totalAmount).toBe(0.5);
  });

  it('takes capacity up to the last gram, then refuses', async () => {
    const { category, trip } = await setup({ totalWeightG: 5000, reservedWeightG: 4500 });
    const other = await aUser();
    const tooMuch = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 0.501), { token: other.token });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.suggestions).toEqual(['Remaining capacity: 0.5 kg']);
    expect((await tripRow(trip.id)).status).toBe('ACTIVE');
    await bookThroughApi(other, trip.id, category.id, 0.5);
    expect(await tripRow(trip.id)).toMatchObject({ reservedWeightG: 5000, status: 'FULL' });
  });

  it('refuses booking your own trip, prohibited and unaccepted categories, closed and departed trips (422)', async () => {
    const { carrier, sender, category, trip } = await setup();
    const own = await post('/v1/api/bookings', bookingInput(trip.id, category.id), { token: carrier.token });
    expect(errorBody(own)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'OWN_TRIP',
      message: 'You cannot book your own announcement',
      path: '/v1/api/bookings',
      suggestions: [],
    });

    const weapons = await aCategory({ prohibited: true, name: 'Weapons' });
    const prohibited = await post('/v1/api/bookings', bookingInput(trip.id, weapons.id), { token: sender.token });
    expect(prohibited.status).toBe(422);
    expect(prohibited.body.message).toBe('Prohibited content cannot be shipped: Weapons');

    const food = await aCategory({ name: 'Food' });
    const picky = await aTrip(carrier, { acceptedCategoryIds: [food.id] });
    const notAccepted = await post('/v1/api/bookings', bookingInput(picky.id, category.id), { token: sender.token });
    expect(notAccepted.status).toBe(422);
    expect(notAccepted.body.message).toBe('This trip does not accept: Books');
    expect((await post('/v1/api/bookings', bookingInput(picky.id, food.id), { token: sender.token })).status).toBe(201);

    const closed = await aTrip(carrier, { status: 'CLOSED' });
    const closedRes = await post('/v1/api/bookings', bookingInput(closed.id, category.id), { token: sender.token });
    expect(closedRes.status).toBe(422);
    expect(closedRes.body.errorCode).toBe('BUSINESS_RULE_VIOLATION');

    const departed = await aTrip(carrier, { departureDate: daysFromToday(-1), arrivalDate: daysFromToday(0) });
    const departedRes = await post('/v1/api/bookings', bookingInput(departed.id, category.id), { token: sender.token });
    expect(departedRes.status).toBe(422);
    expect(departedRes.body.message).toBe(`Announcement ${departed.id} has already departed`);

    const missing = await post('/v1/api/bookings', bookingInput(999_999, category.id), { token: sender.token });
    expect(errorBody(missing)).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND', message: 'Announcement 999999 not found' });
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
  });

  it('validates the body: weight, items, categories, recipient contact', async () => {
    const { sender, category, trip } = await setup();
    const cases: [Record<string, unknown>, string[]][] = [
      [bookingInput(trip.id, category.id, 0), ['reservedWeight']],
      [bookingInput(trip.id, category.id, 1.2345), ['reservedWeight']],
      [bookingInput(trip.id, category.id, 1, { items: [] }), ['items']],
      [bookingInput(trip.id, category.id, 1, { recipient: { firstName: 'A', lastName: 'B' } }), ['recipient.phone']],
      [bookingInput(trip.id, category.id, 1, { recipient: { firstName: '', lastName: 'B', email: 'nope' } }), ['recipient.email', 'recipient.firstName']],
      // The "phone or email" rule is listed with the recipient's other invalid fields, in one round.
      [bookingInput(trip.id, category.id, 1, { recipient: { firstName: '', lastName: 'B' } }), ['recipient.firstName', 'recipient.phone']],
      [bookingInput(trip.id, category.id, 0, { recipient: { firstName: 'A', lastName: 'B', city: 42 } }), ['recipient.city', 'recipient.phone', 'reservedWeight']],
    ];
    for (const [body, fields] of cases) {
      const res = await post('/v1/api/bookings', body, { token: sender.token });
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('VALIDATION_ERROR');
      expect(res.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(fields);
    }
    const unknownCategory = await post('/v1/api/bookings', bookingInput(trip.id, 987_654), { token: sender.token });
    expect(errorBody(unknownCategory)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: unknown category',
      path: '/v1/api/bookings',
      suggestions: ['Choose one of the parcel categories'],
      fieldErrors: [{ field: 'items[0].categoryId', message: 'Unknown category', rejectedValue: 987_654 }],
    });
    const anonymous = await post('/v1/api/bookings', bookingInput(trip.id, category.id));
    expect(anonymous.status).toBe(401);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
  });
});

describe('items heavier than the booking (CONTRACT section 19)', () => {
  it('a 1 kg booking declaring 500 kg of items is 400 VALIDATION_ERROR on items, and takes nothing', async () => {
    const { sender, category, trip } = await setup();
    const items = [
      { categoryId: category.id, name: 'Books', weight: 250 },
      { categoryId: category.id, name: 'Tools', weight: 250 },
    ];
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1, { items }), { token: sender.token });
    expect(errorBody(res)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: items',
      path: '/v1/api/bookings',
      suggestions: ['Correct the fields listed and try again'],
      fieldErrors: [{ field: 'items', message: 'The weights of the items add up to more than the weight booked', rejectedValue: items }],
    });
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
  });

  it('items that add up to exactly the booked kilos, or carry no weight, are accepted', async () => {
    const { sender, category, trip } = await setup();
    const exact = [
      { categoryId: category.id, name: 'Books', reservedQuantity: 2, weight: 0.7 },
      { categoryId: category.id, name: 'Tea', weight: 0.3 },
      { categoryId: category.id, name: 'Letters' },
    ];
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1, { items: exact }), { token: sender.token });
    expect(res.status).toBe(201);
    const over = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1, { items: [{ categoryId: category.id, weight: 1.001 }] }), { token: sender.token });
    expect(over.status).toBe(400);
  });
});

describe('item images (CONTRACT section 19)', () => {
  it("an item's imageUrl, shown to the carrier, is https only: javascript:, data:, file: and http: are 400 on it", async () => {
    const { sender, category, trip } = await setup();
    for (const imageUrl of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'file:///etc/passwd', 'http://example.com/p.jpg']) {
      const items = [{ categoryId: category.id, name: 'Books', weight: 0.5, imageUrl }];
      const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1, { items }), { token: sender.token });
      expect(res.status, imageUrl).toBe(400);
      expect([...new Set(res.body.fieldErrors.map((f: { field: string }) => f.field))], imageUrl).toEqual(['items[0].imageUrl']);
    }
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
    const items = [{ categoryId: category.id, name: 'Books', weight: 0.5, imageUrl: 'https://cdn.example.com/p.jpg' }];
    expect((await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1, { items }), { token: sender.token })).status).toBe(201);
  });
});

describe('control characters (CONTRACT section 19)', () => {
  it('refuses control characters in any string, and line breaks outside free text; free text keeps its lines and tabs', async () => {
    const { sender, category, trip } = await setup();
    const recipient = { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67', city: 'Dakar' };
    const bad = bookingInput(trip.id, category.id, 1, {
      contentInfo: 'Books\u0000',
      recipient: { ...recipient, firstName: 'Awa\nDiop', instructions: 'Ring\u0007twice' },
    });
    const res = await post('/v1/api/bookings', bad, { token: sender.token });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('VALIDATION_ERROR');
    expect(res.body.fieldErrors).toEqual([
      { field: 'contentInfo', message: 'Control characters are not allowed in this field', rejectedValue: 'Books\u0000' },
      { field: 'recipient.firstName', message: 'Control characters are not allowed in this field', rejectedValue: 'Awa\nDiop' },
      { field: 'recipient.instructions', message: 'Control characters are not allowed in this field', rejectedValue: 'Ring\u0007twice' },
    ]);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);

    const lines = 'Second floor\n\tcode 1234\r\nRing twice';
    const ok = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1, { contentInfo: 'Books\nand tea', recipient: { ...recipient, instructions: lines } }), { token: sender.token });
    expect(ok.status).toBe(201);
    expect(ok.body.recipient.instructions).toBe(lines);
    expect(ok.body.contentInfo).toBe('Books\nand tea');
  });
});

describe('Idempotency-Key on POST /bookings', () => {
  it('replays the first response for the same key and body, 409 for another body', async () => {
    const { sender, category, trip } = await setup();
    const headers = { 'Idempotency-Key': `k-${crypto.randomUUID()}` };
    const first = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: sender.token, headers });
    const again = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: sender.token, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    const other = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 2), { token: sender.token, headers });
    expect(errorBody(other)).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'IDEMPOTENCY_KEY_REUSED',
      message: 'Idempotency-Key was already used with another request body',
      path: '/v1/api/bookings',
      suggestions: ['Use a new Idempotency-Key for a different request'],
    });
    const mine = await db().select().from(reservations).where(eq(reservations.senderId, sender.id));
    expect(mine).toHaveLength(1);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(1000);

    // The key is scoped to the caller: another user with the same key books normally.
    const someoneElse = await aUser();
    const theirs = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: someoneElse.token, headers });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
  });

  it('replays a refusal too, with its status', async () => {
    const { carrier, category, trip } = await setup();
    const headers = { 'Idempotency-Key': 'own-trip' };
    const first = await post('/v1/api/bookings', bookingInput(trip.id, category.id), { token: carrier.token, headers });
    const again = await post('/v1/api/bookings', bookingInput(trip.id, category.id), { token: carrier.token, headers });
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
  });

  it('behind the KV record, the database refuses a second reservation with the same key (409, nothing taken)', async () => {
    const { sender, category, trip } = await setup();
    const auth = { id: sender.id, roles: sender.roles, jti: 'test', exp: 0 };
    const input = bookingInput(trip.id, category.id, 1) as Parameters<typeof createBooking>[2];
    await createBooking(depsOf(env), auth, input, 'same-key');
    const second = await createBooking(depsOf(env), auth, input, 'same-key').catch((err: unknown) => err);
    expect(second).toBeInstanceOf(AppError);
    expect((second as AppError).errorCode).toBe('INVALID_STATE');
    expect((await tripRow(trip.id)).reservedWeightG).toBe(1000);
    expect(await db().select().from(reservations).where(eq(reservations.senderId, sender.id))).toHaveLength(1);
  });

  it('refuses an over-long key', async () => {
    const { sender, category, trip } = await setup();
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), {
      token: sender.token,
      headers: { 'Idempotency-Key': 'k'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('INVALID_ARGUMENT');
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
  });

  it('concurrent duplicates create one reservation', async () => {
    const { sender, category, trip } = await setup();
    const headers = { 'Idempotency-Key': `dup-${crypto.randomUUID()}` };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: sender.token, headers })),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.errorCode).toBe('INVALID_STATE');
    }
    const mine = await db().select().from(reservations).where(eq(reservations.senderId, sender.id));
    expect(mine).toHaveLength(1);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(1000);
  });
});

describe('listings', () => {
  it("GET /bookings/as-carrier lists an agency trip's bookings to its publisher only while they act for the trip", async () => {
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const agency = await anAgency(owner);
    const [branchA, branchB] = [await aBranch(agency), await aBranch(agency)];
    const alice = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    await db().insert(agencyEmployees).values({ userId: alice.id, agencyId: agency.id, branchId: branchA.id });
    const category = await aCategory();
    const trip = await aTrip(alice, { agencyId: agency.id, branchId: branchA.id });
    const ownTrip = await aTrip(alice);
    const sender = await aUser();
    const onAgencyTrip = await bookThroughApi(sender, trip.id, category.id, 1);
    const onOwnTrip = await bookThroughApi(sender, ownTrip.id, category.id, 1);
    const listed = async () => {
      const res = await get('/v1/api/bookings/as-carrier?size=10', { token: alice.token });
      expect(res.status).toBe(200);
      return { ids: res.body.data.map((r: { id: number }) => r.id), total: res.body.total };
    };
    expect(await listed()).toEqual({ ids: [onOwnTrip.id, onAgencyTrip.id], total: 2 });
    // Moved to another branch: the trip is branch A's, so are its bookings (the detail is 403 too).
    await db().update(agencyEmployees).set({ branchId: branchB.id }).where(eq(agencyEmployees.userId, alice.id));
    expect(await listed()).toEqual({ ids: [onOwnTrip.id], total: 1 });
    expect((await get(`/v1/api/bookings/${onAgencyTrip.id}`, { token: alice.token })).status).toBe(403);
    // Back on branch A, then gone from the agency.
    await db().update(agencyEmployees).set({ branchId: branchA.id }).where(eq(agencyEmployees.userId, alice.id));
    expect(await listed()).toEqual({ ids: [onOwnTrip.id, onAgencyTrip.id], total: 2 });
    await db().delete(agencyEmployees).where(eq(agencyEmployees.userId, alice.id));
    expect(await listed()).toEqual({ ids: [onOwnTrip.id], total: 1 });
    // Its status filter obeys the same rule.
    const pending = await get('/v1/api/bookings/as-carrier?status=PENDING_PAYMENT', { token: alice.token });
    expect(pending.body.data.map((r: { id: number }) => r.id)).toEqual([onOwnTrip.id]);
  });

  it('GET /bookings/as-carrier is the Reservation page: default 5, newest first, cap 100, status filter, codes hidden', async () => {
    const carrier = await aCarrier();
    const category = await aCategory();
    const tripA = await aTrip(carrier);
    const tripB = await aTrip(carrier);
    const sender = await aUser();
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await bookThroughApi(sender, i % 2 ? tripA.id : tripB.id, category.id, 1));
    await setReservation(made[0].id, { status: 'PAID' });
    // Another carrier's booking never shows.
    const other = await setup();
    await bookThroughApi(other.sender, other.trip.id, other.category.id, 1);

    const page0 = await get('/v1/api/bookings/as-carrier', { token: carrier.token });
    expect(page0.status).toBe(200);
    expect(Object.keys(page0.body).sort()).toEqual(['data', 'limit', 'page', 'total', 'totalPages']);
    expect(page0.body).toMatchObject({ page: 0, limit: 5, total: 7, totalPages: 2 });
    expect(page0.body.data.map((r: { id: number }) => r.id)).toEqual(made.slice(2).reverse().map((r) => r.id));
    const first = page0.body.data[0];
    expect(Object.keys(first).sort()).toEqual(RESERVATION_FIELDS);
    // Unpaid: the sender's contact and the recipient's hidden from the carrier (CONTRACT 25), the carrier's own shown.
    expect(first).toEqual(asCarrierSees(made[6], carrier));

    const page1 = await get('/v1/api/bookings/as-carrier?page=1', { token: carrier.token });
    expect(page1.body).toMatchObject({ page: 1, limit: 5, total: 7, totalPages: 2 });
    expect(page1.body.data.map((r: { id: number }) => r.id)).toEqual([made[1].id, made[0].id]);

    const capped = await get('/v1/api/bookings/as-carrier?size=500', { token: carrier.token });
    expect(capped.body).toMatchObject({ page: 0, limit: 100, total: 7, totalPages: 1 });
    expect(capped.body.data).toHaveLength(7);

    const paid = await get('/v1/api/bookings/as-carrier?status=PAID', { token: carrier.token });
    expect(paid.body).toMatchObject({ page: 0, limit: 5, total: 1, totalPages: 1 });
    expect(paid.body.data[0]).toMatchObject({ id: made[0].id, status: 'PAID', depositCode: null, deliveryCode: null });

    const nobody = await aUser();
    expect((await get('/v1/api/bookings/as-carrier', { token: nobody.token })).body).toEqual({
      data: [],
      page: 0,
      limit: 5,
      total: 0,
      totalPages: 0,
    });
    const bad = await get('/v1/api/bookings/as-carrier?status=SHIPPED', { token: carrier.token });
    expect(bad.status).toBe(400);
    expect((await get('/v1/api/bookings/as-carrier')).status).toBe(401);
  });

  it('GET /bookings/as-sender is a generic page of the caller\'s bookings, with codes', async () => {
    const { sender, category, trip } = await setup();
    const a = await bookThroughApi(sender, trip.id, category.id, 1);
    const b = await bookThroughApi(sender, trip.id, category.id, 1);
    const res = await get('/v1/api/bookings/as-sender', { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    expect(res.body.content).toEqual([b, a]);
    const sorted = await get('/v1/api/bookings/as-sender?sort=createdAt,asc&size=1', { token: sender.token });
    expect(sorted.body.content.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect(sorted.body.page).toEqual({ number: 0, size: 1, totalElements: 2, totalPages: 2 });
    const badSort = await get('/v1/api/bookings/as-sender?sort=password,asc', { token: sender.token });
    expect(badSort.status).toBe(400);
    expect(badSort.body.errorCode).toBe('INVALID_ARGUMENT');
  });
});

describe('GET /bookings/{id}', () => {
  /** A reservation booked through the API, and its stored row. */
  async function booked() {
    const { carrier, sender, category, trip } = await setup();
    const created = await bookThroughApi(sender, trip.id, category.id, 1);
    return { carrier, sender, created, stored: await reservationRow(created.id) };
  }

  it('the sender reads the reservation with its codes', async () => {
    const { sender, created, stored } = await booked();
    const asSender = await get(`/v1/api/bookings/${created.id}`, { token: sender.token });
    expect(asSender.status).toBe(200);
    expect(asSender.body).toEqual(created);
    expect(asSender.body.depositCode).toBe(stored.depositCode);
    expect(asSender.body.deliveryCode).toBe(stored.deliveryCode);
  });

  it('the carrier reads the reservation with the codes masked', async () => {
    const { carrier, created } = await booked();
    const asCarrier = await get(`/v1/api/bookings/${created.id}`, { token: carrier.token });
    expect(asCarrier.body).toEqual(asCarrierSees(created, carrier));
  });

  it('an admin reads the reservation with the codes masked', async () => {
    const { created } = await booked();
    const admin = await anAdmin();
    const asAdmin = await get(`/v1/api/bookings/${created.id}`, { token: admin.token });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.depositCode).toBeNull();
  });

  it('a stranger cannot read the reservation: 403 ACCESS_DENIED', async () => {
    const { created } = await booked();
    const stranger = await aUser();
    const denied = await get(`/v1/api/bookings/${created.id}`, { token: stranger.token });
    expect(errorBody(denied)).toEqual({
      status: 403,
      errorCode: 'ACCESS_DENIED',
      message: 'You are not allowed to access this resource',
      path: `/v1/api/bookings/${created.id}`,
      suggestions: [],
    });
  });

  it('an unknown reservation is 404 RESOURCE_NOT_FOUND', async () => {
    const sender = await aUser();
    const missing = await get('/v1/api/bookings/999999', { token: sender.token });
    expect(errorBody(missing)).toEqual({
      status: 404,
      errorCode: 'RESOURCE_NOT_FOUND',
      message: 'Reservation 999999 not found',
      path: '/v1/api/bookings/999999',
      suggestions: [],
    });
  });

  it('a non-numeric id is 400 TYPE_MISMATCH', async () => {
    const sender = await aUser();
    const typo = await get('/v1/api/bookings/abc', { token: sender.token });
    expect(typo.status).toBe(400);
    expect(typo.body.errorCode).toBe('TYPE_MISMATCH');
  });

  it('a stranger gets 403 ACCESS_DENIED on every reservation route', async () => {
    const { sender, category, trip } = await setup();
    const created = await bookThroughApi(sender, trip.id, category.id, 1);
    await setReservation(created.id, { status: 'PAID', paidAt: new Date().toISOString() });
    const stranger = await aUser();
    const admin = await anAdmin();
    const routes: [string, string, { token: string }][] = [
      ['GET', `/v1/api/bookings/${created.id}`, stranger],
      ['POST', `/v1/api/bookings/${created.id}/accept`, stranger],
      ['POST', `/v1/api/bookings/${created.id}/reject`, stranger],
      ['POST', `/v1/api/bookings/${created.id}/cancel`, stranger],
      ['GET', `/v1/api/bookings/${created.id}/recipient-link`, stranger],
      ['GET', '/v1/api/superadmin/reservations', stranger],
      ['GET', `/v1/api/superadmin/reservations/${created.id}`, stranger],
      // Admins read reservations but act on none, and the super-admin area is not theirs.
      ['POST', `/v1/api/bookings/${created.id}/accept`, admin],
      ['POST', `/v1/api/bookings/${created.id}/cancel`, admin],
      ['GET', `/v1/api/bookings/${created.id}/recipient-link`, admin],
      ['GET', `/v1/api/superadmin/reservations/${created.id}`, admin],
    ];
    for (const [method, path, who] of routes) {
      const res = method === 'GET' ? await get(path, { token: who.token }) : await post(path, undefined, { token: who.token });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.errorCode).toBe('ACCESS_DENIED');
    }
    expect((await reservationRow(created.id)).status).toBe('PAID');
  });
});

describe('a reservation keeps its terms (CONTRACT section 19)', () => {
  it("a booking copies the trip's route, countries, dates, points and price into the reservation", async () => {
    const { sender, category, trip } = await setup({ pricePerKgCents: 1250 });
    const created = await bookThroughApi(sender, trip.id, category.id, 1);
    expect(await reservationRow(created.id)).toMatchObject({
      departureCity: trip.departureCity,
      departureCountry: trip.departureCountry,
      arrivalCity: trip.arrivalCity,
      arrivalCountry: trip.arrivalCountry,
      departureDate: trip.departureDate,
      arrivalDate: trip.arrivalDate,
      pickupPoint: trip.pickupPoint,
      deliveryPoint: trip.deliveryPoint,
      pricePerKgCents: 1250,
      tripChangedAt: null,
    });
  });
});

describe('accept, reject, cancel', () => {
  async function paidBooking(options: TripOverrides = {}, weight = 1) {
    const s = await setup(options);
    const created = await bookThroughApi(s.sender, s.trip.id, s.category.id, weight);
    await setReservation(created.id, { status: 'PAID', paidAt: new Date().toISOString() });
    return { ...s, created };
  }

  it('the carrier accepts a paid booking: CONFIRMED, codes masked for the carrier, confirmedAt set', async () => {
    const { carrier, created } = await paidBooking();
    const res = await post(`/v1/api/bookings/${created.id}/accept`, undefined, { token: carrier.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: 'CONFIRMED', depositCode: null, deliveryCode: null });
    expect((await reservationRow(created.id)).confirmedAt).not.toBeNull();
  });

  it('the sender is told when the carrier accepts (RESERVATION_CONFIRMED)', async () => {
    const { carrier, sender, created } = await paidBooking();
    await post(`/v1/api/bookings/${created.id}/accept`, undefined, { token: carrier.token });
    expect((await notificationsOf(sender.id)).map((n) => n.type)).toEqual(['RESERVATION_CONFIRMED']);
  });

  it('the sender cannot accept their own booking: 403', async () => {
    const { sender, created } = await paidBooking();
    const bySender = await post(`/v1/api/bookings/${created.id}/accept`, undefined, { token: sender.token });
    expect(bySender.status).toBe(403);
    expect((await reservationRow(created.id)).status).toBe('PAID');
  });

  it('a booking already accepted cannot be accepted again: 409 INVALID_STATE, allowed from PAID', async () => {
    const { carrier, created } = await paidBooking();
    await post(`/v1/api/bookings/${created.id}/accept`, undefined, { token: carrier.token });
    const twice = await post(`/v1/api/bookings/${created.id}/accept`, undefined, { token: carrier.token });
    expect(errorBody(twice)).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'RESERVATION_STATUS',
      message: 'Cannot accept a reservation in status CONFIRMED',
      path: `/v1/api/bookings/${created.id}/accept`,
      suggestions: ['Allowed from: PAID'],
    });
  });

  it('accepting an unknown booking is 404', async () => {
    const carrier = await aCarrier();
    const missing = await post('/v1/api/bookings/999999/accept', undefined, { token: carrier.token });
    expect(missing.status).toBe(404);
  });

  it('an unpaid booking cannot be accepted or rejected (409)', async () => {
    const { carrier, sender, category, trip } = await setup();
    const created = await bookThroughApi(sender, trip.id, category.id, 1);
    for (const action of ['accept', 'reject']) {
      const res = await post(`/v1/api/bookings/${created.id}/${action}`, undefined, { token: carrier.token });
      expect(res.status).toBe(409);
      expect(res.body.errorCode).toBe('INVALID_STATE');
    }
    expect((await reservationRow(created.id)).status).toBe('PENDING_PAYMENT');
  });

  it('reject gives the capacity back and reopens a FULL trip', async () => {
    const { carrier, sender, trip, created } = await paidBooking({ totalWeightG: 3000 }, 3);
    expect((await tripRow(trip.id)).status).toBe('FULL');
    const res = await post(`/v1/api/bookings/${created.id}/reject`, undefined, { token: carrier.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    expect(await tripRow(trip.id)).toMatchObject({ reservedWeightG: 0, status: 'ACTIVE' });
    expect((await notificationsOf(sender.id)).map((n) => n.type)).toEqual(['RESERVATION_REJECTED']);
  });

  it('two concurrent transitions of one reservation never both succeed', async () => {
    for (let round = 0; round < 5; round++) {
      const { carrier, sender, trip, created } = await paidBooking({ totalWeightG: 10_000 }, 4);
      // Accept and reject both start from PAID: whichever lands first makes the others invalid.
      const actions = round % 2 ? ['accept', 'reject', 'accept', 'reject'] : ['reject', 'accept', 'reject', 'accept'];
      const results = await Promise.all(
        actions.map((action) => post(`/v1/api/bookings/${created.id}/${action}`, undefined, { token: carrier.token })),
      );
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(409);
        expect(r.body.errorCode).toBe('INVALID_STATE');
      }
      const final = await reservationRow(created.id);
      expect(final.status).toBe(ok[0].body.status);
      // Capacity released at most once, and only by the releasing outcome.
      const expected = final.status === 'CONFIRMED' ? 4000 : 0;
      expect((await tripRow(trip.id)).reservedWeightG).toBe(expected);
      const told = [...(await notificationsOf(sender.id)), ...(await notificationsOf(carrier.id))].filter(
        (n) => n.type !== 'RESERVATION_CREATED',
      );
      // Told once per party concerned: a rejection tells both (CONTRACT section 26), an acceptance the sender.
      expect(told).toHaveLength(final.status === 'REJECTED' ? 2 : 1);
    }
  });

  it('the sender cancels an unpaid booking: capacity back, FULL trip reopened, carrier told', async () => {
    const { carrier, sender, category, trip } = await setup({ totalWeightG: 2000 });
    const created = await bookThroughApi(sender, trip.id, category.id, 2);
    expect((await tripRow(trip.id)).status).toBe('FULL');
    const res = await post(`/v1/api/bookings/${created.id}/cancel`, { reason: 'Changed my plans' }, { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('CANCELLED');
    expect(await tripRow(trip.id)).toMatchObject({ reservedWeightG: 0, status: 'ACTIVE' });
    const stored = await reservationRow(created.id);
    expect(stored).toMatchObject({ cancelledBy: sender.id, cancellationReason: 'Changed my plans' });
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, carrier.id), eq(notifications.type, 'RESERVATION_CANCELLED')));
    expect(told).toHaveLength(1);
    expect(told[0].data).toMatchObject({ reservationId: created.id, cancelledBy: 'SENDER', refundAmount: 0 });
  });

  it('the sender cancelling a confirmed booking is refunded minus the commission (STRICT, 72 h or more before departure)', async () => {
    const first = await paidBooking({ pricePerKgCents: 1000 }, 2);
    await setReservation(first.created.id, { status: 'CONFIRMED', cancellationPolicy: 'STRICT' });
    const bySender = await post(`/v1/api/bookings/${first.created.id}/cancel`, undefined, { token: first.sender.token });
    expect(bySender.status).toBe(200);
    const [note] = (await notificationsOf(first.carrier.id)).filter((n) => n.type === 'RESERVATION_CANCELLED');
    expect(note.data).toMatchObject({ cancelledBy: 'SENDER', refundAmount: 17 });
  });

  it('the carrier cancelling a confirmed booking refunds the sender in full', async () => {
    const second = await paidBooking({ pricePerKgCents: 1000 }, 2);
    await setReservation(second.created.id, { status: 'CONFIRMED' });
    const byCarrier = await post(`/v1/api/bookings/${second.created.id}/cancel`, {}, { token: second.carrier.token });
    expect(byCarrier.status).toBe(200);
    const [told] = (await notificationsOf(second.sender.id)).filter((n) => n.type === 'RESERVATION_CANCELLED');
    expect(told.data).toMatchObject({ cancelledBy: 'CARRIER', refundAmount: 20 });
  });

  it('after a change of the trip\'s dates (TRIP_CHANGED) the sender cancels a confirmed booking with a full refund', async () => {
    const first = await paidBooking({ pricePerKgCents: 1000 }, 2);
    await setReservation(first.created.id, { status: 'CONFIRMED' });
    const moved = await put(`/v1/api/annonces/${first.trip.id}`, { departureDate: daysFromToday(12), arrivalDate: daysFromToday(13) }, { token: first.carrier.token });
    expect(moved.status).toBe(200);
    expect((await notificationsOf(first.sender.id)).map((n) => n.type)).toEqual(['TRIP_CHANGED']);
    const bySender = await post(`/v1/api/bookings/${first.created.id}/cancel`, undefined, { token: first.sender.token });
    expect(bySender.status).toBe(200);
    expect(bySender.body).toMatchObject({ status: 'CANCELLED', departureDate: daysFromToday(12), arrivalDate: daysFromToday(13) });
    const [note] = (await notificationsOf(first.carrier.id)).filter((n) => n.type === 'RESERVATION_CANCELLED');
    expect(note.data).toMatchObject({ cancelledBy: 'SENDER', refundAmount: 20 });
  });

  it('the free cancellation after a trip change lasts until departure, the departure day included (pure rule)', () => {
    const today = daysFromToday(0);
    expect(freeCancellationAfterTripChange({ tripChangedAt: null, departureDate: daysFromToday(3) }, today)).toBe(false);
    expect(freeCancellationAfterTripChange({ tripChangedAt: new Date().toISOString(), departureDate: daysFromToday(3) }, today)).toBe(true);
    expect(freeCancellationAfterTripChange({ tripChangedAt: new Date().toISOString(), departureDate: today }, today)).toBe(true);
    expect(freeCancellationAfterTripChange({ tripChangedAt: new Date().toISOString(), departureDate: daysFromToday(-1) }, today)).toBe(false);
    const money = { totalCents: 2000, commissionCents: 300, carrierCents: 1700 };
    const cancel = (tripChanged: boolean) => cancellationOutcome({ policy: 'FLEXIBLE', by: 'SENDER', status: 'CONFIRMED', msBeforeDeparture: 3_600_000, tripChanged, money });
    expect(cancel(false)).toMatchObject({ paid: true, refundCents: 1700, keptCents: 300, rule: 'DEPARTURE_UNDER_24H' });
    expect(cancel(true)).toMatchObject({ paid: true, refundCents: 2000, keptCents: 0, rule: 'TRIP_CHANGED' });
  });

  it('cannot cancel once deposited (409)', async () => {
    const { sender, created } = await paidBooking();
    await setReservation(created.id, { status: 'DEPOSITED' });
    const res = await post(`/v1/api/bookings/${created.id}/cancel`, undefined, { token: sender.token });
    expect(res.status).toBe(409);
    expect(res.body.errorCode).toBe('INVALID_STATE');
  });
});

describe('GET /bookings/{id}/recipient-link', () => {
  it('gives the sender the public page URL and token', async () => {
    const { sender, category, trip } = await setup();
    const created = await bookThroughApi(sender, trip.id, category.id, 1);
    const stored = await reservationRow(created.id);
    const res = await get(`/v1/api/bookings/${created.id}/recipient-link`, { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: `${env.PUBLIC_BASE_URL}/r/${stored.recipientToken}`, token: stored.recipientToken });
  });

  it('the carrier does not get the recipient link: 403', async () => {
    const { carrier, sender, category, trip } = await setup();
    const created = await bookThroughApi(sender, trip.id, category.id, 1);
    expect((await get(`/v1/api/bookings/${created.id}/recipient-link`, { token: carrier.token })).status).toBe(403);
  });
});

describe('cron expiry', () => {
  afterEach(() => vi.useRealTimers());


  it('expires unpaid bookings after 30 minutes and rejects paid ones unanswered for 24 hours', async () => {
    const { carrier, sender, category, trip } = await setup({ totalWeightG: 6000 });
    const unpaid = await bookThroughApi(sender, trip.id, category.id, 2);
    const fresh = await bookThroughApi(sender, trip.id, category.id, 2);
    const paid = await bookThroughApi(sender, trip.id, category.id, 2);
    expect((await tripRow(trip.id)).status).toBe('FULL');
    const start = Date.now();
    await setReservation(unpaid.id, { paymentDeadline: new Date(start - 1000).toISOString() });
    await setReservation(paid.id, { status: 'PAID', paidAt: new Date(start - 24 * 3600_000 - 1000).toISOString() });
    await setReservation(fresh.id, { paymentDeadline: new Date(start + 29 * 60_000).toISOString() });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 1000);
    await runCron(start + 1000);

    expect((await reservationRow(unpaid.id)).status).toBe('EXPIRED');
    expect((await reservationRow(paid.id)).status).toBe('REJECTED');
    expect((await reservationRow(fresh.id)).status).toBe('PENDING_PAYMENT');
    expect(await tripRow(trip.id)).toMatchObject({ reservedWeightG: 2000, status: 'ACTIVE' });
    const senderNotes = (await notificationsOf(sender.id)).map((n) => n.type).sort();
    expect(senderNotes).toEqual(['RESERVATION_EXPIRED', 'RESERVATION_REJECTED']);
    expect((await notificationsOf(carrier.id)).filter((n) => n.type === 'RESERVATION_REJECTED')).toHaveLength(1);

    // 30 minutes later the fresh one expires too; running again changes nothing else.
    vi.setSystemTime(start + 31 * 60_000);
    await runCron(start + 31 * 60_000);
    expect((await reservationRow(fresh.id)).status).toBe('EXPIRED');
    expect(await tripRow(trip.id)).toMatchObject({ reservedWeightG: 0, status: 'ACTIVE' });
    await runCron(start + 32 * 60_000);
    expect(await tripRow(trip.id)).toMatchObject({ reservedWeightG: 0 });
    expect((await notificationsOf(sender.id)).filter((n) => n.type === 'RESERVATION_EXPIRED')).toHaveLength(2);
  });
});

describe('super-admin reservations', () => {
  it('GET /superadmin/reservations/{id} returns every French field of the specification', async () => {
    const { carrier, sender, category, trip } = await setup({ pricePerKgCents: 800 });
    const created = await bookThroughApi(sender, trip.id, category.id, 1.5);
    const stored = await reservationRow(created.id);
    const boss = await aSuperAdmin();
    const res = await get(`/v1/api/superadmin/reservations/${created.id}`, { token: boss.token });
    expect(res.status).toBe(200);
    const summary = (u: { id: number; email: string }, firstName: string, lastName: string) => ({
      id: u.id,
      firstName,
      lastName,
      username: null,
      phoneNumber: null,
      nationality: null,
      email: u.email,
      birthDate: null,
      connectedAccountId: null,
      enabled: true,
      walletBalance: 0,
      pendingWithdrawalAmount: 0,
      totalEarned: 0,
      totalWithdrawn: 0,
    });
    expect(res.body).toEqual({
      id: created.id,
      reservationNumber: created.reservationNumber,
      idCreateur: carrier.id,
      idExpediteur: sender.id,
      statut: 'PENDING_PAYMENT',
      annonceId: trip.id,
      poidsReserve: 1.5,
      expediteur: summary(sender, 'Sid', 'Sender'),
      createurProfil: summary(carrier, 'Carla', 'Carrier'),
      createur: 'Carla Carrier',
      lieuArrivee: 'Dakar',
      lieuDepart: 'Paris',
      dateDepart: trip.departureDate,
      dateArrivee: trip.arrivalDate,
      annonce: `Paris - Dakar (${trip.departureDate})`,
      codeDepot: stored.depositCode,
      createurEmail: carrier.email,
      infosContenu: 'Clothes and books',
      codeLivraison: stored.deliveryCode,
      pointRdv: 'Gare de Lyon',
      pointLivraison: 'Place de l’Indépendance',
      paymentId: null,
      authorizationId: null,
      captureId: null,
      refundId: null,
      paymentStatus: null,
      paymentDate: null,
      paymentApprovalUrl: null,
      reservationDate: stored.createdAt,
      items: [{ categorieId: category.id, nom: 'Books', quantiteReserve: 3, code: category.code }],
      invoiceId: null,
      invoiceUrl: null,
      invoiceStatus: null,
    });

    const missing = await get('/v1/api/superadmin/reservations/999999', { token: boss.token });
    expect(errorBody(missing)).toEqual({
      status: 404,
      errorCode: 'RESOURCE_NOT_FOUND',
      message: 'Reservation 999999 not found',
      path: '/v1/api/superadmin/reservations/999999',
      suggestions: [],
    });
  });

  it('GET /superadmin/reservations is a generic page of details, filterable by status', async () => {
    const { sender, category, trip } = await setup();
    const a = await bookThroughApi(sender, trip.id, category.id, 1);
    await setReservation(a.id, { status: 'DISPUTED' });
    const boss = await aSuperAdmin();
    const all = await get('/v1/api/superadmin/reservations?size=2', { token: boss.token });
    expect(all.status).toBe(200);
    expect(all.body.page.size).toBe(2);
    expect(all.body.page.totalElements).toBeGreaterThanOrEqual(1);
    const disputed = await get('/v1/api/superadmin/reservations?status=DISPUTED', { token: boss.token });
    expect(disputed.body.page).toEqual({ number: 0, size: 20, totalElements: 1, totalPages: 1 });
    expect(disputed.body.content[0]).toMatchObject({ id: a.id, statut: 'DISPUTED', idExpediteur: sender.id });
  });
});

describe('dev seed', () => {
  it('books once for the demo sender on a demo carrier trip, and only once', async () => {
    const { carrier, sender, trip } = await setup();
    const ctx = { ...depsOf(env, db()), password: 'x', userIds: { 'sender@demo.local': sender.id, 'carrier@demo.local': carrier.id } };
    await seedDemoBooking(ctx);
    await seedDemoBooking(ctx);
    const made = await db().select().from(reservations).where(eq(reservations.senderId, sender.id));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ announcementId: trip.id, status: 'PENDING_PAYMENT', reservedWeightG: 1000 });
  });
});
