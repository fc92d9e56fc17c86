// CONTRACT 25: an agency's trip is acted on by the agency. Its carrier side is its acting staff
// (the owner, the current employees of the trip's branch), read per request; the employee who
// published the trip and then moved to another branch or left the agency is a stranger to it:
// chat (REST and both sockets, an open socket closed within the sweep), trip edit and cancel
// (audited when staff act), tracking (the owner posts too), handover, reviews, disputes, offers and
// the notifications of each.
import { env, exports } from 'cloudflare:workers';
import { runDurableObjectAlarm } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agencies, agencyEmployees, auditLogs, notifications, reservations } from '../src/db/schema';
import { CLOSE } from '../src/durable-objects/conversation';
import { CLOSE_NO_LONGER_PARTY } from '../src/durable-objects/reservation-tracking';
import { depsOf } from '../src/env';
import { buildArchive } from '../src/features/privacy/archive';
import { expireReservations } from '../src/features/bookings/expire-bookings';
import { db } from './helpers/db';
import { aBranch, aCategory, anAdmin, anAgency, aReservation, aTrip, aUser, bookThroughApi, daysFromToday, makeAvailable, type TestUser } from './helpers/factories';
import { fakeStripeForThisFile } from './helpers/money';
import { BASE, del, errorBody, get, post, put } from './helpers/http';

const NOW_ISO = () => new Date().toISOString();
const stripe = fakeStripeForThisFile();
const staffUser = (role: 'ROLE_AGENCY_OWNER' | 'ROLE_AGENCY_EMPLOYEE') => aUser({ roles: ['ROLE_CLIENT', role] });

/**
 * An agency with two branches: the owner; `publisher` (branch A, publishes the trip, then is moved
 * to branch B or removed); `colleague` (branch A, stays); `elsewhere` (branch B).
 */
async function anAgencyTrip(then: 'moved' | 'removed', status: 'CONFIRMED' | 'DEPOSITED' | 'DELIVERED' = 'CONFIRMED') {
  const owner = await staffUser('ROLE_AGENCY_OWNER');
  const agency = await anAgency(owner);
  const [branchA, branchB] = [await aBranch(agency), await aBranch(agency)];
  const [publisher, colleague, elsewhere] = await Promise.all([1, 2, 3].map(() => staffUser('ROLE_AGENCY_EMPLOYEE')));
  await db()
    .insert(agencyEmployees)
    .values([
      { userId: publisher.id, agencyId: agency.id, branchId: branchA.id },
      { userId: colleague.id, agencyId: agency.id, branchId: branchA.id },
      { userId: elsewhere.id, agencyId: agency.id, branchId: branchB.id },
    ]);
  const trip = await aTrip(publisher, { agencyId: agency.id, branchId: branchA.id });
  const { sender, reservation } = await aReservation({ status, trip, agencyId: agency.id, set: { paidAt: NOW_ISO(), deliveredAt: status === 'DELIVERED' ? NOW_ISO() : null } });
  await leave(publisher, then, branchB.id);
  return { owner, agency, branchA, branchB, publisher, colleague, elsewhere, trip, sender, reservation };
}

async function leave(user: { id: number }, how: 'moved' | 'removed', toBranch: number) {
  if (how === 'moved') await db().update(agencyEmployees).set({ branchId: toBranch }).where(eq(agencyEmployees.userId, user.id));
  else await db().delete(agencyEmployees).where(eq(agencyEmployees.userId, user.id));
}

const notesOf = (userId: number, type: string) =>
  db().select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
const counts = async (users: { id: number }[], type: string) => Promise.all(users.map(async (u) => (await notesOf(u.id, type)).length));

async function openChat(id: number, token: string) {
  const headers = { Upgrade: 'websocket', 'Sec-WebSocket-Protocol': `bearer.${token}` };
  return socket(await exports.default.fetch(new Request(`${BASE}/v1/api/bookings/${id}/messages/live`, { headers })));
}
async function openTracking(id: number, token: string) {
  const headers = { Upgrade: 'websocket', Authorization: `Bearer ${token}` };
  return socket(await exports.default.fetch(new Request(`${BASE}/v1/api/tracking/${id}/live`, { headers })));
}
function socket(res: Response) {
  const ws = res.webSocket;
  let onClose: (v: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClose = resolve));
  if (ws) {
    ws.accept();
    ws.addEventListener('close', (event) => onClose({ code: event.code, reason: event.reason }));
  }
  return { res, ws, closed };
}
const within = <T>(p: Promise<T>, ms = 5_000) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms))]);

describe('the chat of an agency trip', () => {
  for (const how of ['moved', 'removed'] as const) {
    it(`a publisher ${how} away reads, posts and lists nothing; the owner and the branch's employees do`, async () => {
      const { owner, publisher, colleague, elsewhere, sender, reservation } = await anAgencyTrip(how);
      const path = `/v1/api/bookings/${reservation.id}/messages`;
      expect((await post(path, { body: 'private: door code 4521' }, { token: sender.token })).status).toBe(201);
      for (const stranger of [publisher, elsewhere]) {
        const read = await get(path, { token: stranger.token });
        expect(read.status).toBe(403);
        expect(errorBody(read)).toMatchObject({ errorCode: 'ACCESS_DENIED' });
        expect((await post(path, { body: 'still here' }, { token: stranger.token })).status).toBe(403);
        expect((await put(`${path}/read`, undefined, { token: stranger.token })).status).toBe(403);
        expect((await get('/v1/api/conversations', { token: stranger.token })).body.content).toEqual([]);
      }
      for (const staff of [owner, colleague]) {
        expect((await get(path, { token: staff.token })).body.content.map((m: { body: string }) => m.body)).toEqual(['private: door code 4521']);
        expect((await get('/v1/api/conversations', { token: staff.token })).body.content).toHaveLength(1);
      }
      expect((await post(path, { body: 'Ici le gérant' }, { token: owner.token })).status).toBe(201);
    });
  }

  it("the sender's message tells the owner and the branch's employees, never the publisher who moved", async () => {
    const { owner, publisher, colleague, elsewhere, sender, reservation } = await anAgencyTrip('moved');
    expect((await post(`/v1/api/bookings/${reservation.id}/messages`, { body: 'Bonjour' }, { token: sender.token })).status).toBe(201);
    expect(await counts([owner, colleague, publisher, elsewhere], 'NEW_MESSAGE')).toEqual([1, 1, 0, 0]);
  });

  it('a socket opened afterwards is refused at the handshake (403); one already open is closed with 4403 at the next sweep', async () => {
    const late = await anAgencyTrip('removed');
    const refused = await openChat(late.reservation.id, late.publisher.token);
    expect(refused.res.status).toBe(403);
    expect(refused.ws).toBeNull();

    // Still in the branch: the socket opens; moved away: the object's sweep closes it.
    const { reservation, publisher, branchA, branchB, colleague } = await anAgencyTrip('moved');
    await db().update(agencyEmployees).set({ branchId: branchA.id }).where(eq(agencyEmployees.userId, publisher.id));
    const open = await openChat(reservation.id, publisher.token);
    const stays = await openChat(reservation.id, colleague.token);
    expect([open.res.status, stays.res.status]).toEqual([101, 101]);
    await leave(publisher, 'moved', branchB.id);
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(String(reservation.id)));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await within(open.closed)).toEqual({ code: CLOSE.TOKEN_REVOKED, reason: 'No longer a party of this reservation' });
    // The colleague's socket stays open: the object plans its next sweep (within 60 s).
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    stays.ws!.close(1000, 'done');
  });
});

describe('the tracking of an agency trip', () => {
  const point = () => ({ lat: 14.7, lng: -17.4, recordedAt: new Date(Date.now() - 5_000).toISOString() });

  it('the owner posts points (the reservation goes IN_TRANSIT); the publisher who left cannot', async () => {
    const { owner, publisher, reservation } = await anAgencyTrip('removed', 'DEPOSITED');
    const refused = await post(`/v1/api/tracking/${reservation.id}/positions`, point(), { token: publisher.token });
    expect(refused.status).toBe(403);
    expect((await get(`/v1/api/tracking/${reservation.id}`, { token: publisher.token })).status).toBe(403);
    const posted = await post(`/v1/api/tracking/${reservation.id}/positions`, point(), { token: owner.token });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ reservationId: reservation.id, status: 'IN_TRANSIT', accepted: 1 });
  });

  it("the live feed: refused at the handshake once moved; an open one closed with 4403 at the object's sweep", async () => {
    const { reservation, publisher, branchA, branchB, sender } = await anAgencyTrip('moved', 'DEPOSITED');
    expect((await openTracking(reservation.id, publisher.token)).res.status).toBe(403);
    await db().update(agencyEmployees).set({ branchId: branchA.id }).where(eq(agencyEmployees.userId, publisher.id));
    const open = await openTracking(reservation.id, publisher.token);
    const senders = await openTracking(reservation.id, sender.token);
    expect([open.res.status, senders.res.status]).toEqual([101, 101]);
    await leave(publisher, 'moved', branchB.id);
    const stub = env.RESERVATION_TRACKING.get(env.RESERVATION_TRACKING.idFromName(String(reservation.id)));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await within(open.closed)).toEqual({ code: CLOSE_NO_LONGER_PARTY, reason: 'No longer a party of this reservation' });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    senders.ws!.close(1000, 'done');
  });
});

describe('the trip itself', () => {
  it('the publisher who moved can neither edit nor cancel it; a colleague edits and the owner cancels, each audited by name', async () => {
    const { owner, publisher, colleague, trip } = await anAgencyTrip('moved');
    const edit = await put(`/v1/api/annonces/${trip.id}`, { description: 'Meet me privately at 5 rue ...' }, { token: publisher.token });
    expect(edit.status).toBe(403);
    expect((await del(`/v1/api/annonces/${trip.id}`, { token: publisher.token })).status).toBe(403);

    const fresh = await aTrip(owner, { agencyId: trip.agencyId, branchId: trip.branchId });
    const edited = await put(`/v1/api/annonces/${fresh.id}`, { description: 'Départ 8h' }, { token: colleague.token, headers: { 'CF-Connecting-IP': '203.0.113.9' } });
    expect(edited.status).toBe(200);
    expect(edited.body.description).toBe('Départ 8h');
    expect((await del(`/v1/api/annonces/${fresh.id}`, { token: owner.token })).status).toBe(204);
    const entries = await db().select().from(auditLogs).where(and(eq(auditLogs.targetType, 'ANNOUNCEMENT'), eq(auditLogs.targetId, String(fresh.id))));
    expect(entries.map((e) => [e.action, e.actorId, e.ip])).toEqual([
      ['ANNOUNCEMENT_UPDATED', colleague.id, '203.0.113.9'],
      ['ANNOUNCEMENT_CANCELLED', owner.id, null],
    ]);
    expect(entries[0].details).toMatchObject({ agencyId: trip.agencyId, branchId: trip.branchId, fields: ['description'] });
    // Refused edits leave no entry.
    expect(await db().select().from(auditLogs).where(and(eq(auditLogs.targetType, 'ANNOUNCEMENT'), eq(auditLogs.targetId, String(trip.id))))).toEqual([]);
  });
});

describe("the trips one lists as one's own", () => {
  it('GET /annonces/mine: the publisher who moved no longer lists the agency trip; back in its branch, they do', async () => {
    const { publisher, trip, branchA } = await anAgencyTrip('moved');
    const own = await aTrip(publisher, { departureDate: daysFromToday(12) });
    const ids = async () => (await get('/v1/api/annonces/mine', { token: publisher.token })).body.content.map((a: { id: number }) => a.id);
    expect(await ids()).toEqual([own.id]);
    await db().update(agencyEmployees).set({ branchId: branchA.id }).where(eq(agencyEmployees.userId, publisher.id));
    expect((await ids()).sort()).toEqual([trip.id, own.id].sort());
  });
});

describe('handover, reviews and disputes', () => {
  it("the publisher who left cannot scan the sender's deposit QR; the colleague can", async () => {
    const { publisher, colleague, sender, reservation } = await anAgencyTrip('removed');
    const qr = await get(`/v1/api/bookings/${reservation.id}/qrcode/deposit`, { token: sender.token });
    expect(qr.status).toBe(200);
    const refused = await post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: publisher.token });
    expect(refused.status).toBe(403);
    const scanned = await post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: colleague.token });
    expect(scanned.status).toBe(200);
    expect(scanned.body.status).toBe('DEPOSITED');
  });

  it('the owner reviews the customer as CARRIER; the publisher who moved cannot', async () => {
    const { owner, publisher, reservation } = await anAgencyTrip('moved', 'DELIVERED');
    const refused = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 1, comment: 'Bad' }, { token: publisher.token });
    expect(refused.status).toBe(403);
    const review = await post('/v1/api/reviews', { reservationId: reservation.id, rating: 5, comment: 'Client parfait' }, { token: owner.token });
    expect(review.status).toBe(201);
    expect(review.body).toMatchObject({ reviewerRole: 'CARRIER' });
  });

  it("a dispute: the publisher who moved cannot open it; the sender's opening tells the acting staff, not them", async () => {
    const { owner, publisher, colleague, elsewhere, sender, reservation } = await anAgencyTrip('moved', 'DELIVERED');
    const body = { reservationId: reservation.id, reason: 'DAMAGED', description: 'The parcel arrived broken.' };
    expect((await post('/v1/api/disputes', body, { token: publisher.token })).status).toBe(403);
    expect((await post('/v1/api/disputes', body, { token: sender.token })).status).toBe(201);
    expect(await counts([owner, colleague, publisher, elsewhere], 'DISPUTE_OPENED')).toEqual([1, 1, 0, 0]);
    const listed = async (u: TestUser) => (await get('/v1/api/disputes/mine', { token: u.token })).body.content.length;
    expect([await listed(owner), await listed(colleague), await listed(publisher), await listed(elsewhere)]).toEqual([1, 1, 0, 0]);
  });

  it("the carrier dashboard of the publisher who moved no longer counts the agency's trip or its bookings; back in the branch, it does", async () => {
    const { publisher, branchA } = await anAgencyTrip('moved');
    const totals = async () => {
      const { body } = await get('/v1/api/dashboard/carrier', { token: publisher.token });
      return [body.announcements.total, body.reservations.total, body.upcomingTrips.length];
    };
    expect(await totals()).toEqual([0, 0, 0]);
    await db().update(agencyEmployees).set({ branchId: branchA.id }).where(eq(agencyEmployees.userId, publisher.id));
    expect(await totals()).toEqual([1, 1, 1]);
  });
});

describe('offers on an agency trip', () => {
  it('an offer tells the acting staff, never the publisher who left; they cannot answer it, the owner can', async () => {
    const owner = await staffUser('ROLE_AGENCY_OWNER');
    const agency = await anAgency(owner);
    const branch = await aBranch(agency);
    const [publisher, colleague] = [await staffUser('ROLE_AGENCY_EMPLOYEE'), await staffUser('ROLE_AGENCY_EMPLOYEE')];
    await db()
      .insert(agencyEmployees)
      .values([publisher, colleague].map((u) => ({ userId: u.id, agencyId: agency.id, branchId: branch.id })));
    const trip = await aTrip(publisher, { agencyId: agency.id, branchId: branch.id, pricePerKgCents: 1_000, totalWeightG: 20_000, departureDate: daysFromToday(10) });
    await leave(publisher, 'removed', branch.id);
    const category = await aCategory({ name: `Books ${crypto.randomUUID().slice(0, 6)}` });
    const sender: TestUser = await aUser();
    const offer = await post(
      `/v1/api/annonces/${trip.id}/offers`,
      {
        reservedWeight: 4,
        pricePerKg: 8.5,
        contentInfo: 'Clothes',
        items: [{ categoryId: category.id, name: 'Shirts', reservedQuantity: 2, weight: 1.5 }],
        recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67', city: 'Dakar' },
        declarations: { noProhibitedItems: true },
      },
      { token: sender.token },
    );
    expect(offer.status).toBe(201);
    expect(await counts([owner, colleague, publisher], 'OFFER_RECEIVED')).toEqual([1, 1, 0]);
    expect((await get(`/v1/api/offers/${offer.body.id}`, { token: publisher.token })).status).toBe(403);
    expect((await post(`/v1/api/offers/${offer.body.id}/decline`, undefined, { token: publisher.token })).status).toBe(403);
    expect((await get('/v1/api/offers/mine?role=carrier', { token: publisher.token })).body.content).toEqual([]);
    expect((await post(`/v1/api/offers/${offer.body.id}/decline`, undefined, { token: owner.token })).status).toBe(200);
    expect(await counts([sender], 'OFFER_DECLINED')).toEqual([1]);
  });
});

describe('personal data of a staff member who left', () => {
  it("the export holds the messages they wrote, not the agency's reservations, trips or the customer's messages", async () => {
    const { publisher, colleague, sender, reservation, trip, branchA } = await anAgencyTrip('removed');
    // Back in the branch for a moment to write, then gone again.
    await db().insert(agencyEmployees).values({ userId: publisher.id, agencyId: trip.agencyId!, branchId: branchA.id });
    const path = `/v1/api/bookings/${reservation.id}/messages`;
    await post(path, { body: 'private: door code 4521' }, { token: sender.token });
    await post(path, { body: 'Bien reçu, ici l’agence' }, { token: publisher.token });
    await post(path, { body: 'Le collègue répond' }, { token: colleague.token });
    await leave(publisher, 'removed', branchA.id);
    const archive = await buildArchive(depsOf(env), publisher.id, new Date());
    expect(archive.reservations).toEqual([]);
    expect(archive.trips).toEqual([]);
    expect(archive.messages).toEqual([{ reservationId: reservation.id, messages: [expect.objectContaining({ authorId: publisher.id, body: 'Bien reçu, ici l’agence' })] }]);
    expect(JSON.stringify(archive)).not.toContain('4521');
    expect(JSON.stringify(archive)).not.toContain('+221700000000');
    // The sender's own export still holds the whole conversation.
    const senders = await buildArchive(depsOf(env), sender.id, new Date());
    expect((senders.messages as { messages: unknown[] }[])[0].messages).toHaveLength(3);
  });

  it("leaving the agency never blocks erasing one's account; the agency's reservation stays the agency's", async () => {
    const { publisher, owner, reservation } = await anAgencyTrip('removed', 'DEPOSITED');
    const res = await del('/v1/api/user/me', { token: publisher.token });
    expect(res.status).toBe(200);
    const stillThere = await get(`/v1/api/bookings/${reservation.id}`, { token: owner.token });
    expect(stillThere.status).toBe(200);
    expect(stillThere.body.status).toBe('DEPOSITED');
  });
});

describe('the booking-flow notices of an agency trip', () => {
  it('a booking over the API and its cancellation tell the acting staff, never the publisher who moved', async () => {
    const { owner, publisher, colleague, elsewhere, trip } = await anAgencyTrip('moved');
    const category = await aCategory({ name: `Books ${crypto.randomUUID().slice(0, 6)}` });
    const sender = await aUser();
    const booked = await bookThroughApi(sender, trip.id, category.id);
    expect(await counts([owner, colleague, publisher, elsewhere], 'RESERVATION_CREATED')).toEqual([1, 1, 0, 0]);
    expect((await post(`/v1/api/bookings/${booked.id}/cancel`, {}, { token: sender.token })).status).toBe(200);
    expect(await counts([owner, colleague, publisher, elsewhere], 'RESERVATION_CANCELLED')).toEqual([1, 1, 0, 0]);
  });

  it("the payment tells the acting staff; the share held, then available, is told to the owner, who holds the agency's wallet", async () => {
    const { owner, publisher, colleague, elsewhere, trip, agency } = await anAgencyTrip('removed');
    const { reservation } = await aReservation({ status: 'DELIVERED', trip, agencyId: agency.id, payment: stripe });
    expect(await counts([owner, colleague, publisher, elsewhere], 'RESERVATION_PAID')).toEqual([1, 1, 0, 0]);
    expect(await counts([owner, colleague, publisher, elsewhere], 'FUNDS_HELD')).toEqual([1, 0, 0, 0]);
    await makeAvailable(reservation.id);
    expect(await counts([owner, colleague, publisher, elsewhere], 'FUNDS_AVAILABLE')).toEqual([1, 0, 0, 0]);
  });

  it("an unpaid booking's expiry by the cron tells the acting staff now, not the publisher who moved", async () => {
    const { owner, publisher, colleague, elsewhere, trip, agency } = await anAgencyTrip('moved');
    await aReservation({ trip, agencyId: agency.id, set: { paymentDeadline: new Date(Date.now() - 60_000).toISOString() } });
    await expireReservations(depsOf(env));
    expect(await counts([owner, colleague, publisher, elsewhere], 'RESERVATION_EXPIRED')).toEqual([1, 1, 0, 0]);
  });
});

describe('contact details on a reservation', () => {
  it('before payment each party sees none of the other’s; once paid both do; administrators always', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'PENDING_PAYMENT' });
    const admin = await anAdmin();
    const path = `/v1/api/bookings/${reservation.id}`;
    const contacts = async (token: string) => {
      const { body } = await get(path, { token });
      return { senderEmail: body.senderEmail, carrierEmail: body.carrierEmail, recipientPhone: body.recipient.phone, recipientEmail: body.recipient.email };
    };
    const all = { senderEmail: sender.email, carrierEmail: carrier.email, recipientPhone: '+221700000000', recipientEmail: 'rita@example.com' };
    expect(await contacts(sender.token)).toEqual({ ...all, carrierEmail: null });
    expect(await contacts(carrier.token)).toEqual({ ...all, senderEmail: null, recipientPhone: null, recipientEmail: null });
    expect(await contacts(admin.token)).toEqual(all);
    // The carrier's list shows the same as the detail.
    const listed = (await get('/v1/api/bookings/as-carrier', { token: carrier.token })).body.data.find((r: { id: number }) => r.id === reservation.id);
    expect([listed.senderEmail, listed.recipient.phone]).toEqual([null, null]);

    await db().update(reservations).set({ status: 'PAID', paidAt: NOW_ISO() }).where(eq(reservations.id, reservation.id));
    expect(await contacts(sender.token)).toEqual(all);
    expect(await contacts(carrier.token)).toEqual(all);
  });

  it("on an agency's trip the sender sees the agency's name and contact address, never the publisher's own", async () => {
    const { agency, publisher, sender, reservation } = await anAgencyTrip('moved');
    await db().update(agencies).set({ email: 'contact@agence-teranga.sn' }).where(eq(agencies.id, agency.id));
    const { body } = await get(`/v1/api/bookings/${reservation.id}`, { token: sender.token });
    expect([body.carrierName, body.carrierEmail]).toEqual([agency.name, 'contact@agence-teranga.sn']);
    expect(JSON.stringify(body)).not.toContain(publisher.email);
  });
});
