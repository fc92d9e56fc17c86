// Offers and counter-offers through the real worker (CONTRACT 22): making an offer (checked like a
// booking), the carrier's accept / decline / counter, the sender's answer to a counter, the
// reservation at the agreed price with the capacity held atomically, notices to the other side
// (notifications and the outbox), the expiry by the cron, the listing, and the chat afterwards.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agencyEmployees, announcements, deliveries, notifications, offers, reservations } from '../src/db/schema';
import { depsOf } from '../src/env';
import { runOfferExpiry } from '../src/features/offers/offers.jobs';
import { agreedPricePerKg, offerExpiry, offerStep, OFFER_TTL_MS } from '../src/features/offers/offers.rules';
import { del, errorBody, get, post } from './helpers/http';
import { aBranch, aCarrier, aCategory, anAdmin, anAgency, aTrip, aUser, daysFromToday, type TestUser, type TripOverrides } from './helpers/factories';
import { db, runCron, tripRow } from './helpers/db';
import { toldTo } from './helpers/notices';
import { formatMoneyIn } from '../src/lib/money';

const eur = (minor: number, locale: 'fr' | 'en') => formatMoneyIn(minor, 'EUR', locale);

async function setup(trip: TripOverrides = {}) {
  const carrier = await aCarrier({ firstName: 'Carla', lastName: 'Carrier' });
  const sender = await aUser({ firstName: 'Sid', lastName: 'Sender' });
  const category = await aCategory({ name: 'Books' });
  const t = await aTrip(carrier, { pricePerKgCents: 1_000, totalWeightG: 20_000, ...trip });
  return { carrier, sender, category, trip: t };
}

/** The body of POST /annonces/{id}/offers: the booking details plus the proposed price. */
const offerInput = (categoryId: number, reservedWeight = 4, pricePerKg: number = 8.5, extra: Record<string, unknown> = {}) => ({
  reservedWeight,
  pricePerKg,
  message: 'Bonjour, 8,50 € le kilo ?',
  contentInfo: 'Clothes',
  items: [{ categoryId, name: 'Shirts', reservedQuantity: 2, weight: Math.min(1.5, reservedWeight) }],
  recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67', city: 'Dakar' },
  declarations: { noProhibitedItems: true },
  ...extra,
});

const makeOffer = (user: TestUser, tripId: number, body: unknown, headers: Record<string, string> = {}) =>
  post(`/v1/api/annonces/${tripId}/offers`, body, { token: user.token, headers });
const act = (user: TestUser, id: number, action: string, body?: unknown) => post(`/v1/api/offers/${id}/${action}`, body, { token: user.token });

const notesOf = (userId: number, type: string) =>
  db().select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
const outboxOf = (userId: number, template: string) =>
  db().select().from(deliveries).where(and(eq(deliveries.userId, userId), eq(deliveries.template, template)));
const offerRow = async (id: number) => (await db().select().from(offers).where(eq(offers.id, id)))[0];

describe('POST /annonces/{id}/offers', () => {
  it('creates a PENDING offer in the trip currency, expiring in 48 hours, and tells the carrier (notification and outbox)', async () => {
    const { carrier, sender, category, trip } = await setup();
    const before = Date.now();
    const res = await makeOffer(sender, trip.id, offerInput(category.id, 4, 8.5));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      announcementId: trip.id,
      senderId: sender.id,
      carrierId: carrier.id,
      agencyId: null,
      reservedWeight: 4,
      pricePerKg: 8.5,
      counterPricePerKg: null,
      currency: 'EUR',
      status: 'PENDING',
      message: 'Bonjour, 8,50 € le kilo ?',
      contentInfo: 'Clothes',
      reservationId: null,
      recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221771234567', city: 'Dakar', email: null },
      declarations: { noProhibitedItems: true, acknowledgedRestrictions: [] },
    });
    // The sender's view of the recipient: every field present, null when not given.
    expect(res.body.recipient).toEqual({ firstName: 'Awa', lastName: 'Diop', phone: '+221771234567', city: 'Dakar', email: null, address: null, postalCode: null, instructions: null });
    expect(res.body.items).toEqual([
      { categoryId: category.id, name: 'Shirts', reservedQuantity: 2, description: null, weight: 1.5, lengthCm: null, widthCm: null, heightCm: null, isFragile: false, containsLiquids: false, imageUrl: null },
    ]);
    const expires = Date.parse(res.body.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(OFFER_TTL_MS - 1000);
    expect(expires).toBeLessThanOrEqual(OFFER_TTL_MS + 5000);

    const row = await offerRow(res.body.id);
    expect(row).toMatchObject({ status: 'PENDING', reservedWeightG: 4_000, pricePerKgMinor: 850, currency: 'EUR', carrierId: carrier.id });
    // An offer holds no capacity until it is accepted.
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);

    const [note] = await notesOf(carrier.id, 'OFFER_RECEIVED');
    expect(note.data).toEqual({ offerId: res.body.id, announcementId: trip.id });
    // The price per kg, the weight and the total, in the reader's language, in the app and the e-mail alike.
    const told = await toldTo(carrier.id, 'OFFER_RECEIVED');
    const fr = `Un expéditeur propose ${eur(850, 'fr')}/kg pour 4 kg (${eur(3400, 'fr')}) sur votre trajet ${trip.departureCity} - ${trip.arrivalCity}. Acceptez, refusez ou faites une contre-offre sous 48 heures.`;
    expect(told).toMatchObject({ key: 'notice.offerReceived', fr, sentFr: [['EMAIL', fr]] });
    expect(told.en).toBe(`A sender offers 8.50 EUR/kg for 4 kg (34.00 EUR) on your trip ${trip.departureCity} - ${trip.arrivalCity}. Accept, decline or counter within 48 hours.`);
    expect(told.emailFr).toContain(fr);
    expect((await outboxOf(carrier.id, 'OFFER_RECEIVED')).map((d) => d.channel)).toEqual(['EMAIL']); // no device: no push

    // The carrier sees it without the recipient's details.
    const seen = await get(`/v1/api/offers/${res.body.id}`, { token: carrier.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: res.body.id, status: 'PENDING', recipient: null });
  });

  it('refuses what a booking refuses: more than the remaining weight, one’s own trip, a departed or closed trip, a prohibited item', async () => {
    const { carrier, sender, category, trip } = await setup({ totalWeightG: 5_000 });
    const tooHeavy = await makeOffer(sender, trip.id, offerInput(category.id, 6));
    expect(errorBody(tooHeavy)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'CAPACITY_EXCEEDED',
      message: 'Not enough remaining capacity on this announcement',
      path: `/v1/api/annonces/${trip.id}/offers`,
      suggestions: ['Remaining capacity: 5 kg'],
    });
    const fr = await makeOffer(sender, trip.id, offerInput(category.id, 6), { 'Accept-Language': 'fr' });
    expect(fr.body.message).toBe('Capacité restante insuffisante sur cette annonce');

    const own = await makeOffer(carrier, trip.id, offerInput(category.id, 2));
    expect(errorBody(own)).toMatchObject({ status: 422, errorCode: 'BUSINESS_RULE_VIOLATION', message: 'You cannot book your own announcement' });

    const departed = await aTrip(carrier, { departureDate: daysFromToday(-1), arrivalDate: daysFromToday(0) });
    expect(errorBody(await makeOffer(sender, departed.id, offerInput(category.id, 2)))).toMatchObject({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      message: `Announcement ${departed.id} has already departed`,
    });
    const closed = await aTrip(carrier, { status: 'CLOSED' });
    expect(errorBody(await makeOffer(sender, closed.id, offerInput(category.id, 2)))).toMatchObject({
      status: 422,
      message: `Announcement ${closed.id} is closed and takes no more bookings`,
    });
    const weapons = await aCategory({ prohibited: true, name: 'Weapons' });
    expect((await makeOffer(sender, trip.id, offerInput(weapons.id, 2))).body.message).toBe('Prohibited content cannot be shipped: Weapons');
    expect(errorBody(await makeOffer(sender, 999_999, offerInput(category.id, 2)))).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
    expect(await db().select().from(offers).where(eq(offers.announcementId, trip.id))).toHaveLength(0);
  });

  it("refuses a price with more decimals than the trip's currency, a price of zero, and items heavier than the weight", async () => {
    const { sender, category, trip } = await setup();
    const cents = await makeOffer(sender, trip.id, offerInput(category.id, 2, 8.555));
    expect(errorBody(cents)).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR' });
    expect(cents.body.fieldErrors).toEqual([expect.objectContaining({ field: 'pricePerKg', rejectedValue: 8.555 })]);

    const xofTrip = await aTrip((await aCarrier()), { currency: 'XOF', pricePerKgCents: 6_000 });
    const xof = await makeOffer(sender, xofTrip.id, offerInput(category.id, 2, 5500.5));
    expect(errorBody(xof)).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR' });
    expect(xof.body.fieldErrors).toEqual([expect.objectContaining({ field: 'pricePerKg', rejectedValue: 5500.5 })]);
    const whole = await makeOffer(sender, xofTrip.id, offerInput(category.id, 2, 5500));
    expect(whole.status).toBe(201);
    expect(whole.body).toMatchObject({ pricePerKg: 5500, currency: 'XOF' });

    const zero = await makeOffer(sender, trip.id, offerInput(category.id, 2, 0));
    expect(zero.status).toBe(400);
    expect(zero.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['pricePerKg']);
    const heavy = await makeOffer(sender, trip.id, offerInput(category.id, 1, 8, { items: [{ categoryId: category.id, weight: 3 }] }));
    expect(heavy.status).toBe(400);
    expect(heavy.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['items']);
  });

  it('allows one open offer per sender and trip (409 ALREADY_EXISTS), a new one once it is answered', async () => {
    const { carrier, sender, category, trip } = await setup();
    const first = await makeOffer(sender, trip.id, offerInput(category.id));
    const second = await makeOffer(sender, trip.id, offerInput(category.id));
    expect(errorBody(second)).toEqual({
      status: 409,
      errorCode: 'ALREADY_EXISTS',
      reason: 'OFFER_ALREADY_OPEN',
      message: `You already have an open offer (${first.body.id}) on this announcement: withdraw it or wait for its answer`,
      path: `/v1/api/annonces/${trip.id}/offers`,
      suggestions: ['See your offers'],
    });
    expect((await act(carrier, first.body.id, 'decline')).status).toBe(200);
    expect((await makeOffer(sender, trip.id, offerInput(category.id))).status).toBe(201);
  });
});

describe('answering an offer', () => {
  it('the carrier accepts: a PENDING_PAYMENT reservation for the sender at the offered price, capacity held, the sender told', async () => {
    const { carrier, sender, category, trip } = await setup();
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id, 4, 8.5))).body;
    const res = await act(carrier, offer.id, 'accept');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: offer.id, status: 'ACCEPTED', reservationId: expect.any(Number), answeredAt: expect.any(String) });

    const [r] = await db().select().from(reservations).where(eq(reservations.id, res.body.reservationId));
    expect(r).toMatchObject({ status: 'PENDING_PAYMENT', senderId: sender.id, carrierId: carrier.id, reservedWeightG: 4_000, pricePerKgCents: 850, totalAmountCents: 3_400, platformCommissionCents: 510, carrierAmountCents: 2_890, currency: 'EUR', contentInfo: 'Clothes' });
    expect(r.declarations).toEqual({ noProhibitedItems: true, acknowledgedRestrictions: [] });
    expect((await tripRow(trip.id)).reservedWeightG).toBe(4_000);

    const booking = await get(`/v1/api/bookings/${r.id}`, { token: sender.token });
    expect(booking.body).toMatchObject({ status: 'PENDING_PAYMENT', pricePerKg: 8.5, totalAmount: 34, reservedWeight: 4 });
    expect(booking.body.items).toHaveLength(1);

    const [note] = await notesOf(sender.id, 'OFFER_ACCEPTED');
    expect(note.data).toEqual({ offerId: offer.id, announcementId: trip.id, reservationId: r.id, reservationNumber: r.reservationNumber });
    expect((await outboxOf(sender.id, 'OFFER_ACCEPTED')).map((d) => d.channel)).toEqual(['EMAIL']);
    // Not the "new booking" notice: the carrier made this booking happen.
    expect(await notesOf(carrier.id, 'RESERVATION_CREATED')).toHaveLength(0);

    // Answered once: a second accept, a decline or a counter is 409.
    expect(errorBody(await act(carrier, offer.id, 'accept'))).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'OFFER_NOT_OPEN',
      message: `Offer ${offer.id} is ACCEPTED: it can no longer be answered`,
      path: `/v1/api/offers/${offer.id}/accept`,
      suggestions: [],
    });
    expect(errorBody(await act(carrier, offer.id, 'counter', { pricePerKg: 9 }))).toMatchObject({
      status: 409,
      message: `Only a PENDING offer can be countered; offer ${offer.id} is ACCEPTED`,
    });
    expect(await db().select().from(reservations).where(eq(reservations.announcementId, trip.id))).toHaveLength(1);
  });

  it('the carrier counters; the sender accepts the counter: the reservation at the counter price, the carrier told', async () => {
    const { carrier, sender, category, trip } = await setup();
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id, 2, 7))).body;

    // The sender cannot counter their own offer, nor accept it before the carrier answers.
    expect(errorBody(await act(sender, offer.id, 'counter', { pricePerKg: 6 }))).toMatchObject({
      status: 403,
      errorCode: 'ACCESS_DENIED',
      message: "Only the trip's carrier (or its branch's staff) answers this offer",
    });
    expect((await act(sender, offer.id, 'accept')).status).toBe(403);
    expect((await act(carrier, offer.id, 'counter', { pricePerKg: 9.125 })).status).toBe(400);

    const countered = await act(carrier, offer.id, 'counter', { pricePerKg: 9.25 });
    expect(countered.status).toBe(200);
    expect(countered.body).toMatchObject({ status: 'COUNTERED', pricePerKg: 7, counterPricePerKg: 9.25 });
    const [note] = await notesOf(sender.id, 'OFFER_COUNTERED');
    const counterTold = await toldTo(sender.id, 'OFFER_COUNTERED');
    const fr = `Le transporteur propose ${eur(925, 'fr')}/kg pour 2 kg (${eur(1850, 'fr')}) sur ${trip.departureCity} - ${trip.arrivalCity}. Acceptez ou refusez sous 48 heures.`;
    expect(counterTold).toMatchObject({ key: 'notice.offerCountered', fr, sentFr: [['EMAIL', fr]] });
    expect(note.message).toBe(`The carrier counters with 9.25 EUR/kg for 2 kg (18.50 EUR) on ${trip.departureCity} - ${trip.arrivalCity}. Accept or decline within 48 hours.`);
    expect((await outboxOf(sender.id, 'OFFER_COUNTERED')).map((d) => d.channel)).toEqual(['EMAIL']);

    // Now the carrier waits: accepting or countering again is not theirs to do.
    expect(errorBody(await act(carrier, offer.id, 'accept'))).toMatchObject({ status: 403, message: 'Only the sender answers a counter-offer' });
    expect(errorBody(await act(carrier, offer.id, 'counter', { pricePerKg: 10 }))).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });

    const accepted = await act(sender, offer.id, 'accept');
    expect(accepted.status).toBe(200);
    const [r] = await db().select().from(reservations).where(eq(reservations.id, accepted.body.reservationId));
    expect(r).toMatchObject({ senderId: sender.id, pricePerKgCents: 925, totalAmountCents: 1_850, status: 'PENDING_PAYMENT' });
    const [told] = await notesOf(carrier.id, 'OFFER_ACCEPTED');
    expect(told.data).toMatchObject({ offerId: offer.id, reservationId: r.id });
  });

  it('declines and withdrawals end the offer and tell the other side; the wrong side gets 403', async () => {
    const { carrier, sender, category, trip } = await setup();
    const one = (await makeOffer(sender, trip.id, offerInput(category.id))).body;
    expect(errorBody(await act(carrier, one.id, 'withdraw'))).toMatchObject({ status: 403, message: 'Only the sender may withdraw an offer' });
    const declined = await act(carrier, one.id, 'decline');
    expect(declined.body).toMatchObject({ status: 'DECLINED', reservationId: null });
    expect(await notesOf(sender.id, 'OFFER_DECLINED')).toHaveLength(1);
    expect(errorBody(await act(sender, one.id, 'withdraw'))).toMatchObject({ status: 409, message: `Offer ${one.id} is DECLINED: it can no longer be answered` });

    const two = (await makeOffer(sender, trip.id, offerInput(category.id))).body;
    await act(carrier, two.id, 'counter', { pricePerKg: 12 });
    const refused = await act(sender, two.id, 'decline');
    expect(refused.body.status).toBe('DECLINED');
    expect((await notesOf(carrier.id, 'OFFER_DECLINED'))[0].message).toContain('The sender declined your counter-offer');

    const three = (await makeOffer(sender, trip.id, offerInput(category.id))).body;
    expect((await act(sender, three.id, 'withdraw')).body.status).toBe('WITHDRAWN');
    expect(await notesOf(carrier.id, 'OFFER_WITHDRAWN')).toHaveLength(1);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(0);
  });

  it('a stranger gets 403 on reading and answering, admins read but never answer, an unknown offer is 404', async () => {
    const { carrier, sender, category, trip } = await setup();
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id))).body;
    const stranger = await aUser();
    expect(errorBody(await get(`/v1/api/offers/${offer.id}`, { token: stranger.token }))).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED' });
    for (const action of ['accept', 'decline', 'withdraw']) expect((await act(stranger, offer.id, action)).status).toBe(403);
    expect((await act(stranger, offer.id, 'counter', { pricePerKg: 5 })).status).toBe(403);
    const admin = await anAdmin();
    expect((await get(`/v1/api/offers/${offer.id}`, { token: admin.token })).status).toBe(200);
    expect((await act(admin, offer.id, 'accept')).status).toBe(403);
    expect(errorBody(await get('/v1/api/offers/999999', { token: carrier.token }))).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND', message: 'Offer 999999 not found' });
    expect(errorBody(await act(carrier, 999_999, 'accept'))).toMatchObject({ status: 404 });
    expect((await offerRow(offer.id)).status).toBe('PENDING');
  });

  it("on an agency trip the branch's staff answer for the carrier; another branch's employee gets 403", async () => {
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const agency = await anAgency(owner);
    const [branchA, branchB] = [await aBranch(agency), await aBranch(agency)];
    const alice = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    const bob = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    const ann = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    await db().insert(agencyEmployees).values([
      { userId: alice.id, agencyId: agency.id, branchId: branchA.id },
      { userId: ann.id, agencyId: agency.id, branchId: branchA.id },
      { userId: bob.id, agencyId: agency.id, branchId: branchB.id },
    ]);
    const trip = await aTrip(alice, { agencyId: agency.id, branchId: branchA.id });
    const sender = await aUser();
    const category = await aCategory();
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id, 2, 9))).body;
    expect(offer.agencyId).toBe(agency.id);
    // No member of the agency makes offers on its trips.
    expect((await makeOffer(bob, trip.id, offerInput(category.id, 2, 9))).body.message).toBe("You cannot book your own agency's announcement");

    expect((await act(bob, offer.id, 'accept')).status).toBe(403);
    expect((await get(`/v1/api/offers/${offer.id}`, { token: bob.token })).status).toBe(403);
    const mineB = await get('/v1/api/offers/mine?role=carrier', { token: bob.token });
    expect(mineB.body.page.totalElements).toBe(0);
    const mineA = await get('/v1/api/offers/mine?role=carrier', { token: ann.token });
    expect(mineA.body.content.map((o: { id: number }) => o.id)).toEqual([offer.id]);
    expect((await get('/v1/api/offers/mine?role=carrier', { token: owner.token })).body.page.totalElements).toBe(1);

    const accepted = await act(ann, offer.id, 'accept');
    expect(accepted.status).toBe(200);
    const [r] = await db().select().from(reservations).where(eq(reservations.id, accepted.body.reservationId));
    expect(r).toMatchObject({ agencyId: agency.id, carrierId: alice.id, pricePerKgCents: 900 });

    // Alice published the trip; once she leaves the agency its offers are no longer hers to list
    // (opening one is 403), while Ann, still on the branch, keeps them.
    const alicesBefore = await get('/v1/api/offers/mine?role=carrier', { token: alice.token });
    expect(alicesBefore.body.content.map((o: { id: number }) => o.id)).toEqual([offer.id]);
    await db().delete(agencyEmployees).where(eq(agencyEmployees.userId, alice.id));
    expect((await get('/v1/api/offers/mine?role=carrier', { token: alice.token })).body.page.totalElements).toBe(0);
    expect((await get(`/v1/api/offers/${offer.id}`, { token: alice.token })).status).toBe(403);
    expect((await get('/v1/api/offers/mine?role=carrier', { token: ann.token })).body.page.totalElements).toBe(1);
  });
});

describe('two acceptances on the last kilos', () => {
  it('never both succeed: exactly one reservation, the capacity exact in the database', async () => {
    const { carrier, category, trip } = await setup({ totalWeightG: 5_000 });
    const [s1, s2] = [await aUser(), await aUser()];
    const o1 = (await makeOffer(s1, trip.id, offerInput(category.id, 4, 9))).body;
    const o2 = (await makeOffer(s2, trip.id, offerInput(category.id, 4, 9.5))).body;
    const results = await Promise.all([act(carrier, o1.id, 'accept'), act(carrier, o2.id, 'accept')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = results.find((r) => r.status === 422)!;
    expect(errorBody(refused)).toMatchObject({ errorCode: 'BUSINESS_RULE_VIOLATION', message: 'Not enough remaining capacity on this announcement', suggestions: ['Remaining capacity: 1 kg'] });

    const trips = await db().select().from(announcements).where(eq(announcements.id, trip.id));
    expect(trips[0].reservedWeightG).toBe(4_000);
    const booked = await db().select().from(reservations).where(eq(reservations.announcementId, trip.id));
    expect(booked).toHaveLength(1);
    const statuses = [(await offerRow(o1.id)).status, (await offerRow(o2.id)).status].sort();
    expect(statuses).toEqual(['ACCEPTED', 'PENDING']);
  });

  it('one offer accepted twice at once books once', async () => {
    const { carrier, sender, category, trip } = await setup();
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id, 3, 9))).body;
    const results = await Promise.all([act(carrier, offer.id, 'accept'), act(carrier, offer.id, 'accept')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await db().select().from(reservations).where(eq(reservations.announcementId, trip.id))).toHaveLength(1);
    expect((await tripRow(trip.id)).reservedWeightG).toBe(3_000);
  });
});

describe('expiry', () => {
  it('the cron expires open offers after 48 hours, tells both sides once; an expired offer cannot be accepted', async () => {
    const { carrier, sender, category, trip } = await setup();
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id))).body;
    const countered = (await makeOffer(await aUser(), trip.id, offerInput(category.id))).body;
    await act(carrier, countered.id, 'counter', { pricePerKg: 11 });

    await runCron(Date.now() + 47 * 3600_000);
    expect((await offerRow(offer.id)).status).toBe('PENDING');
    await runCron(Date.now() + 49 * 3600_000);
    expect((await offerRow(offer.id)).status).toBe('EXPIRED');
    expect((await offerRow(countered.id)).status).toBe('EXPIRED');
    await runCron(Date.now() + 50 * 3600_000);
    // Idempotent: nothing left to expire, nothing told twice.
    expect(await runOfferExpiry(depsOf(env), Date.now() + 51 * 3600_000)).toBe(0);
    expect(await notesOf(sender.id, 'OFFER_EXPIRED')).toHaveLength(1);
    expect(await notesOf(carrier.id, 'OFFER_EXPIRED')).toHaveLength(2);
    expect((await outboxOf(sender.id, 'OFFER_EXPIRED')).map((d) => d.channel)).toEqual(['EMAIL']);
    expect(errorBody(await act(carrier, offer.id, 'accept'))).toMatchObject({ status: 409, message: `Offer ${offer.id} is EXPIRED: it can no longer be answered` });

    // The job counts what it expired, and only what is due.
    const third = (await makeOffer(await aUser(), trip.id, offerInput(category.id))).body;
    expect(await runOfferExpiry(depsOf(env), Date.parse(third.expiresAt) - 1000)).toBe(0);
    expect(await runOfferExpiry(depsOf(env), Date.parse(third.expiresAt))).toBe(1);
    expect((await offerRow(third.id)).status).toBe('EXPIRED');
  });

  it('an offer on a trip leaving tomorrow expires at the start of the departure day; past its time it is refused before the cron runs', async () => {
    const { carrier, sender, category, trip } = await setup({ departureDate: daysFromToday(1), arrivalDate: daysFromToday(2) });
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id))).body;
    expect(offer.expiresAt).toBe(`${daysFromToday(1)}T00:00:00.000Z`);
    await db().update(offers).set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where(eq(offers.id, offer.id));
    const late = await act(carrier, offer.id, 'accept');
    expect(errorBody(late)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: expect.stringMatching(new RegExp(`^Offer ${offer.id} expired at `)) });
    expect(await db().select().from(reservations).where(eq(reservations.announcementId, trip.id))).toHaveLength(0);
  });
});

describe('GET /offers/mine and the conversation afterwards', () => {
  it('lists as sender and as carrier in the generic page shape, filters by status; the accepted booking has its chat', async () => {
    const { carrier, sender, category, trip } = await setup();
    const a = (await makeOffer(sender, trip.id, offerInput(category.id, 2, 9))).body;
    const other = await aTrip(carrier);
    const b = (await makeOffer(sender, other.id, offerInput(category.id, 2, 9))).body;
    await act(carrier, a.id, 'accept');

    const mine = await get('/v1/api/offers/mine?size=1', { token: sender.token });
    expect(mine.status).toBe(200);
    expect(mine.body.page).toEqual({ number: 0, size: 1, totalElements: 2, totalPages: 2 });
    expect(mine.body.content.map((o: { id: number }) => o.id)).toEqual([b.id]);
    const pending = await get('/v1/api/offers/mine?role=carrier&status=PENDING', { token: carrier.token });
    expect(pending.body.content.map((o: { id: number }) => o.id)).toEqual([b.id]);
    expect(pending.body.content[0].recipient).toBeNull();
    expect((await get('/v1/api/offers/mine?role=carrier', { token: sender.token })).body.page.totalElements).toBe(0);
    expect(errorBody(await get('/v1/api/offers/mine?sort=price,asc', { token: sender.token }))).toMatchObject({ status: 400, errorCode: 'INVALID_ARGUMENT' });
    expect((await get('/v1/api/offers/mine?role=owner', { token: sender.token })).status).toBe(400);

    // The offer is now a reservation: the existing conversation works for it, contact details masked before payment.
    const reservationId = (await offerRow(a.id)).reservationId!;
    const posted = await post(`/v1/api/bookings/${reservationId}/messages`, { body: 'Merci ! Appelez-moi au 06 12 34 56 78' }, { token: sender.token });
    expect(posted.status).toBe(201);
    expect(posted.body.body).toBe('Merci ! Appelez-moi au [hidden until payment]');
    const read = await get(`/v1/api/bookings/${reservationId}/messages`, { token: carrier.token });
    expect(read.body.content.map((m: { authorId: number }) => m.authorId)).toEqual([sender.id]);
  });
});

describe('erasure', () => {
  it("deleting the sender's account withdraws their open offer and erases its recipient and message", async () => {
    const { carrier, sender, category, trip } = await setup();
    const offer = (await makeOffer(sender, trip.id, offerInput(category.id))).body;
    expect((await del('/v1/api/user/me', { token: sender.token })).status).toBe(200);
    const row = await offerRow(offer.id);
    expect(row).toMatchObject({ status: 'WITHDRAWN', message: null });
    expect(row.details.recipient).toMatchObject({ phone: null, email: null });
    expect(row.details.recipient.firstName).not.toBe('Awa');
    expect(row.details.contentInfo).toBeNull();
    expect(row.details.items).toHaveLength(1);
    expect((await act(carrier, offer.id, 'accept')).status).toBe(409);
  });
});

describe('offer rules', () => {
  it('who answers which status, and what it leads to', () => {
    const pending = { id: 1, status: 'PENDING' as const };
    const countered = { id: 1, status: 'COUNTERED' as const };
    expect(offerStep(pending, 'ACCEPT', 'CARRIER')).toEqual({ to: 'ACCEPTED' });
    expect(offerStep(pending, 'COUNTER', 'CARRIER')).toEqual({ to: 'COUNTERED' });
    expect(offerStep(pending, 'DECLINE', 'CARRIER')).toEqual({ to: 'DECLINED' });
    expect(offerStep(countered, 'ACCEPT', 'SENDER')).toEqual({ to: 'ACCEPTED' });
    expect(offerStep(countered, 'DECLINE', 'SENDER')).toEqual({ to: 'DECLINED' });
    expect(offerStep(countered, 'WITHDRAW', 'SENDER')).toEqual({ to: 'WITHDRAWN' });
    for (const [offer, action, side, code] of [
      [pending, 'ACCEPT', 'SENDER', 'ACCESS_DENIED'],
      [countered, 'ACCEPT', 'CARRIER', 'ACCESS_DENIED'],
      [countered, 'COUNTER', 'CARRIER', 'INVALID_STATE'],
      [pending, 'WITHDRAW', 'CARRIER', 'ACCESS_DENIED'],
      [{ id: 1, status: 'EXPIRED' as const }, 'ACCEPT', 'CARRIER', 'INVALID_STATE'],
      [{ id: 1, status: 'ACCEPTED' as const }, 'WITHDRAW', 'SENDER', 'INVALID_STATE'],
    ] as const) {
      const step = offerStep(offer, action, side);
      expect('error' in step && step.error.errorCode).toBe(code);
    }
    expect(agreedPricePerKg({ status: 'COUNTERED', pricePerKgMinor: 700, counterPricePerKgMinor: 925 })).toBe(925);
    expect(agreedPricePerKg({ status: 'PENDING', pricePerKgMinor: 700, counterPricePerKgMinor: null })).toBe(700);
    const now = new Date('2026-03-01T10:00:00.000Z');
    expect(offerExpiry(now, '2026-03-10')).toBe('2026-03-03T10:00:00.000Z');
    expect(offerExpiry(now, '2026-03-02')).toBe('2026-03-02T00:00:00.000Z');
  });
});
