// Conversations between sender and carrier (CONTRACT section 17): posting, pages and catch-up,
// masking before payment, photos, refusals, rate limit, read-only, unread counts and the listing,
// the NEW_MESSAGE notification, the live WebSocket feed (auth, broadcast, catch-up, hibernation,
// expiry and logout), the super-admin read and the dispute view.
import { env, exports } from 'cloudflare:workers';
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agencyEmployees, auditLogs, conversations, disputes, files, notifications } from '../src/db/schema';
import { CLOSE, Conversation } from '../src/durable-objects/conversation';
import { HIDDEN } from '../src/features/conversations/masking';
import { ACCESS_TOKEN_TTL_SECONDS, signToken } from '../src/lib/jwt';
import { registerUser } from './helpers/auth';
import { fakeStripeForThisFile } from './helpers/money';
import { db } from './helpers/db';
import { aBranch, aCarrier, aFile, anAdmin, anAgency, aReservation, aSuperAdmin, aTrip, aUser, daysFromToday, FIFTY_EUR } from './helpers/factories';
import { BASE, call, errorBody, get, post, put, type ApiResponse } from './helpers/http';

const NOW_ISO = () => new Date().toISOString();
const stripe = fakeStripeForThisFile();
const conversationStub = (id: number) => env.CONVERSATION.get(env.CONVERSATION.idFromName(String(id)));
const messagesPath = (id: number) => `/v1/api/bookings/${id}/messages`;
const send = (id: number, token: string, body: unknown) => post(messagesPath(id), body, { token });
const page = (id: number, token: string, query = '') => get(`${messagesPath(id)}${query}`, { token });

/** A reservation with its parties; paid (paidAt set) unless PENDING_PAYMENT. */
async function aConversation(status: 'PENDING_PAYMENT' | 'CONFIRMED' | 'DELIVERED' | 'CANCELLED' | 'DEPOSITED' = 'CONFIRMED', set = {}) {
  const paid = status !== 'PENDING_PAYMENT';
  return aReservation({ status, set: { ...(paid ? { paidAt: NOW_ISO() } : {}), ...set } });
}

async function storedMessages(id: number) {
  return runInDurableObject(conversationStub(id), (instance: Conversation) =>
    instance.messages({ reservationId: id, order: 'asc', limit: 1000, offset: 0 }),
  );
}

async function newMessageNotes(userId: number) {
  return db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'NEW_MESSAGE')));
}

interface Live {
  res: Response;
  ws: WebSocket | null;
  frames: any[];
  closed: Promise<{ code: number; reason: string }>;
  next: (count: number) => Promise<any[]>;
}

/** Opens the live conversation through the worker, the token as the subprotocol, and collects the frames. */
async function openLive(id: number, token: string | null, query = '', extra: Record<string, string> = {}): Promise<Live> {
  const headers: Record<string, string> = { Upgrade: 'websocket', ...extra };
  if (token && !extra['Sec-WebSocket-Protocol']) headers['Sec-WebSocket-Protocol'] = `bearer.${token}`;
  const res = await exports.default.fetch(new Request(`${BASE}${messagesPath(id)}/live${query}`, { headers }));
  const frames: any[] = [];
  const waiters: Array<() => void> = [];
  const ws = res.webSocket;
  let onClose: (v: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClose = resolve));
  if (ws) {
    ws.accept();
    ws.addEventListener('message', (event) => {
      const data = event.data as string;
      frames.push(data.startsWith('{') ? JSON.parse(data) : data);
      waiters.splice(0).forEach((w) => w());
    });
    ws.addEventListener('close', (event) => onClose({ code: event.code, reason: event.reason }));
  }
  const next = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (frames.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return frames;
  };
  return { res, ws, frames, closed, next };
}

const within = <T>(p: Promise<T>, ms = 5_000) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms))]);

afterEach(() => {
  vi.useRealTimers();
});

describe('posting and reading messages', () => {
  it('a party posts; both parties read the same message, newest first, in the generic page shape', async () => {
    const { sender, carrier, reservation } = await aConversation();
    const res = await send(reservation.id, sender.token, { body: '  Bonjour, le colis fait 3 kg.  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: 1,
      reservationId: reservation.id,
      authorId: sender.id,
      authorName: expect.stringMatching(/^First\d+ Last\d+$/),
      body: 'Bonjour, le colis fait 3 kg.',
      fileIds: [],
      createdAt: expect.any(String),
    });
    const reply = await send(reservation.id, carrier.token, { body: 'Parfait, à demain.' });
    expect(reply.body.id).toBe(2);

    for (const reader of [sender, carrier]) {
      const list = await page(reservation.id, reader.token);
      expect(list.status).toBe(200);
      expect(list.body.content.map((m: any) => m.id)).toEqual([2, 1]);
      expect(list.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    }
    expect(await storedMessages(reservation.id)).toMatchObject({ total: 2, messages: [{ id: 1 }, { id: 2 }] });
  });

  it('paging: pages do not overlap; catch-up from the last id seen returns what followed, in order, without gaps or duplicates', async () => {
    const { sender, carrier, reservation } = await aConversation();
    for (let i = 1; i <= 7; i++) expect((await send(reservation.id, i % 2 ? sender.token : carrier.token, { body: `m${i}` })).status).toBe(201);

    const first = await page(reservation.id, sender.token, '?size=3');
    const second = await page(reservation.id, sender.token, '?size=3&page=1');
    expect(first.body.content.map((m: any) => m.body)).toEqual(['m7', 'm6', 'm5']);
    expect(second.body.content.map((m: any) => m.body)).toEqual(['m4', 'm3', 'm2']);
    expect(first.body.page).toEqual({ number: 0, size: 3, totalElements: 7, totalPages: 3 });

    // A client that saw up to id 3 catches up forward; a message arriving meanwhile lands on a later page.
    const catchUp1 = await page(reservation.id, carrier.token, '?afterId=3&sort=id,asc&size=2');
    await send(reservation.id, sender.token, { body: 'm8' });
    const catchUp2 = await page(reservation.id, carrier.token, '?afterId=3&sort=id,asc&size=2&page=1');
    const catchUp3 = await page(reservation.id, carrier.token, '?afterId=3&sort=id,asc&size=2&page=2');
    const seen = [...catchUp1.body.content, ...catchUp2.body.content, ...catchUp3.body.content].map((m: any) => m.id);
    expect(seen).toEqual([4, 5, 6, 7, 8]);

    const older = await page(reservation.id, sender.token, '?beforeId=3');
    expect(older.body.content.map((m: any) => m.id)).toEqual([2, 1]);
  });

  it('bad input is refused with the specification error body and nothing is stored', async () => {
    const { sender, reservation } = await aConversation();
    const empty = await send(reservation.id, sender.token, { body: '   ' });
    expect(empty.status).toBe(400);
    expect(errorBody(empty)).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      path: messagesPath(reservation.id),
      fieldErrors: [expect.objectContaining({ field: 'body' })],
    });
    const long = await send(reservation.id, sender.token, { body: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(errorBody(long)).toMatchObject({ errorCode: 'VALIDATION_ERROR', fieldErrors: [expect.objectContaining({ field: 'body' })] });
    // 2,000 characters after trimming is the limit.
    expect((await send(reservation.id, sender.token, { body: ` ${'y'.repeat(2000)} ` })).status).toBe(201);
    const missing = await send(reservation.id, sender.token, {});
    expect(missing.status).toBe(400);
    const malformed = await call('POST', messagesPath(reservation.id), { raw: '{"body":', token: sender.token, headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(errorBody(malformed)).toMatchObject({ errorCode: 'INVALID_ARGUMENT' });
    const badId = await page(0 as never, sender.token);
    expect(badId.status).toBe(400);
    expect((await storedMessages(reservation.id)).total).toBe(1);
  });

  it('a stranger, an admin and an unknown reservation are refused (403, 403, 404); no token is 401', async () => {
    const { sender, reservation } = await aConversation();
    await send(reservation.id, sender.token, { body: 'hello' });
    const stranger = await aUser();
    const admin = await anAdmin();
    for (const who of [stranger, admin]) {
      const read = await page(reservation.id, who.token);
      expect(read.status).toBe(403);
      expect(errorBody(read)).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED', path: messagesPath(reservation.id) });
      expect((await send(reservation.id, who.token, { body: 'intrusion' })).status).toBe(403);
      expect((await put(`${messagesPath(reservation.id)}/read`, undefined, { token: who.token })).status).toBe(403);
    }
    const unknown = await page(999_999, sender.token);
    expect(unknown.status).toBe(404);
    expect(errorBody(unknown)).toMatchObject({ errorCode: 'RESOURCE_NOT_FOUND' });
    expect((await get(messagesPath(reservation.id))).status).toBe(401);
    expect((await storedMessages(reservation.id)).total).toBe(1);
  });

  it("the agency's owner and the employees of the trip's branch take part on the carrier side; another branch's employee does not", async () => {
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const agency = await anAgency(owner);
    const [branch, otherBranch] = [await aBranch(agency), await aBranch(agency)];
    const employee = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    const elsewhere = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    await db()
      .insert(agencyEmployees)
      .values([
        { userId: employee.id, agencyId: agency.id, branchId: branch.id },
        { userId: elsewhere.id, agencyId: agency.id, branchId: otherBranch.id },
      ]);
    const carrier = await aCarrier();
    const trip = await aTrip(carrier, { agencyId: agency.id, branchId: branch.id });
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED', trip, agencyId: agency.id, set: { paidAt: NOW_ISO() } });
    await send(reservation.id, sender.token, { body: 'Bonjour agence' });
    expect((await send(reservation.id, owner.token, { body: 'Bonjour, ici le gérant' })).status).toBe(201);
    expect((await send(reservation.id, employee.token, { body: 'Bonjour, ici l’agence' })).status).toBe(201);
    const refused = await send(reservation.id, elsewhere.token, { body: 'Autre agence' });
    expect(refused.status).toBe(403);
    expect(errorBody(refused)).toMatchObject({ errorCode: 'ACCESS_DENIED' });

    for (const staff of [owner, employee]) {
      const list = await get('/v1/api/conversations', { token: staff.token });
      expect(list.body.content).toEqual([
        expect.objectContaining({ reservationId: reservation.id, counterpart: { id: sender.id, name: expect.any(String) }, unreadCount: 1 }),
      ]);
    }
    expect((await get('/v1/api/conversations', { token: elsewhere.token })).body.content).toEqual([]);
  });
});

describe('masking before payment', () => {
  it('phone numbers, e-mail addresses and links are hidden until the reservation is paid, then pass', async () => {
    const { sender, carrier, reservation } = await aConversation('PENDING_PAYMENT');
    const text = 'Appelle-moi au 06 12 34 56 78 ou jean.dupont@gmail.com, voir https://exemple.fr/colis. RDV 12/05/2026 à 14h30, 12.50 €';
    const before = await send(reservation.id, sender.token, { body: text });
    expect(before.body.body).toBe(`Appelle-moi au ${HIDDEN} ou ${HIDDEN}, voir ${HIDDEN} RDV 12/05/2026 à 14h30, 12.50 €`);
    const spelled = await send(reservation.id, carrier.token, { body: 'zero six twelve thirty four fifty six seventy eight' });
    expect(spelled.body.body).toBe(HIDDEN);
    // What was stored is the masked text: nobody reads the original, not even over the socket later.
    expect((await storedMessages(reservation.id)).messages.map((m) => m.body)).toEqual([before.body.body, HIDDEN]);

    const { reservation: paid, sender: payer } = await aConversation('CONFIRMED');
    const after = await send(paid.id, payer.token, { body: text });
    expect(after.body.body).toBe(text);
  });
});

describe('photos', () => {
  it("the author's PARCEL_IMAGE joins the reservation, and only its parties (and admins) can read it", async () => {
    const { sender, carrier, reservation } = await aConversation();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0]);
    const form = new FormData();
    form.append('file', new File([bytes], 'parcel.png', { type: 'image/png' }));
    form.append('purpose', 'PARCEL_IMAGE');
    const upload = await call('POST', '/v1/api/files', { raw: form, token: sender.token });
    expect(upload.status).toBe(201);
    const fileId = upload.body.id;

    const res = await send(reservation.id, sender.token, { body: 'Voici le colis', fileIds: [fileId] });
    expect(res.status).toBe(201);
    expect(res.body.fileIds).toEqual([fileId]);
    const [row] = await db().select().from(files).where(eq(files.id, fileId));
    expect(row.reservationId).toBe(reservation.id);
    expect((await get(`/v1/api/files/${fileId}`, { token: carrier.token })).status).toBe(200);
    expect((await get(`/v1/api/files/${fileId}`, { token: (await aUser()).token })).status).toBe(403);
    expect((await get(`/v1/api/files/${fileId}`, { token: (await anAdmin()).token })).status).toBe(200);
  });

  it("someone else's file, another purpose or an unknown id is a validation error naming the field; nothing stored", async () => {
    const { sender, carrier, reservation } = await aConversation();
    const theirs = await aFile(carrier, { purpose: 'PARCEL_IMAGE' });
    const kyc = await aFile(sender, { purpose: 'KYC_DOCUMENT' });
    const elsewhere = await aFile(sender, { purpose: 'PARCEL_IMAGE', reservationId: (await aConversation()).reservation.id });
    const mine = await aFile(sender, { purpose: 'PARCEL_IMAGE' });
    const res = await send(reservation.id, sender.token, { body: 'photos', fileIds: [mine.id, theirs.id, kyc.id, elsewhere.id, 987_654] });
    expect(res.status).toBe(400);
    expect(errorBody(res)).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [
        { field: 'fileIds[1]', message: expect.any(String), rejectedValue: theirs.id },
        { field: 'fileIds[2]', message: expect.any(String), rejectedValue: kyc.id },
        { field: 'fileIds[3]', message: expect.any(String), rejectedValue: elsewhere.id },
        { field: 'fileIds[4]', message: expect.any(String), rejectedValue: 987_654 },
      ],
    });
    expect((await storedMessages(reservation.id)).total).toBe(0);
    const [untouched] = await db().select().from(files).where(eq(files.id, mine.id));
    expect(untouched.reservationId).toBeNull();
  });
});

describe('read-only after the grace periods', () => {
  it.each([
    ['DELIVERED', { deliveredAt: daysFromToday(-31) + 'T00:00:00.000Z' }, true],
    ['DELIVERED', { deliveredAt: daysFromToday(-29) + 'T00:00:00.000Z' }, false],
    ['CANCELLED', { cancelledAt: daysFromToday(-8) + 'T00:00:00.000Z' }, true],
    ['CANCELLED', { cancelledAt: daysFromToday(-6) + 'T00:00:00.000Z' }, false],
  ] as const)('%s %o: read-only %s', async (status, set, readOnly) => {
    const { sender, reservation } = await aConversation(status, set);
    const res = await send(reservation.id, sender.token, { body: 'still there?' });
    if (readOnly) {
      expect(res.status).toBe(409);
      expect(errorBody(res)).toMatchObject({ status: 409, errorCode: 'INVALID_STATE', message: expect.stringContaining('read-only') });
      expect((await storedMessages(reservation.id)).total).toBe(0);
      expect((await page(reservation.id, sender.token)).status).toBe(200);
    } else {
      expect(res.status).toBe(201);
    }
  });
});

describe('rate limit', () => {
  it('more than 30 messages a minute from one user in one conversation: 429 with Retry-After; the other party still writes', async () => {
    const { sender, carrier, reservation } = await aConversation();
    const served: ApiResponse[] = [];
    let refused: ApiResponse | undefined;
    // Fixed 60 s windows: a run straddling a boundary may pass more than 30, never fewer.
    for (let i = 0; i <= 60 && !refused; i++) {
      const res = await send(reservation.id, sender.token, { body: `n${i}` });
      if (res.status === 429) refused = res;
      else served.push(res);
    }
    expect(served.length).toBeGreaterThanOrEqual(30);
    expect(served.every((r) => r.status === 201)).toBe(true);
    expect(refused!.headers.get('Retry-After')).toBe('60');
    expect(errorBody(refused!)).toMatchObject({ status: 429, errorCode: 'BUSINESS_RULE_VIOLATION', message: 'Too many messages in this conversation; retry later' });
    expect((await storedMessages(reservation.id)).total).toBe(served.length);
    expect((await send(reservation.id, carrier.token, { body: 'me too' })).status).toBe(201);
  });
});

describe('unread counts, read receipts and the listing', () => {
  it('unread counts per party, mark read, and GET /conversations latest activity first', async () => {
    const sender = await aUser();
    const { reservation: r1, carrier: c1 } = await aReservation({ status: 'CONFIRMED', sender, set: { paidAt: NOW_ISO() } });
    const { reservation: r2, carrier: c2 } = await aReservation({ status: 'CONFIRMED', sender, set: { paidAt: NOW_ISO() } });
    // An expired booking without messages is not a conversation.
    await aReservation({ status: 'EXPIRED', sender });

    await send(r1.id, c1.token, { body: 'one' });
    await send(r1.id, c1.token, { body: 'two' });
    await send(r2.id, c2.token, { body: 'three' });
    await send(r2.id, sender.token, { body: 'my own does not count' });

    expect((await get('/v1/api/conversations/unread-count', { token: sender.token })).body).toEqual({ count: 3 });
    const list = await get('/v1/api/conversations', { token: sender.token });
    expect(list.status).toBe(200);
    expect(list.body.page).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    expect(list.body.content).toEqual([
      {
        reservationId: r2.id,
        reservationNumber: r2.reservationNumber,
        counterpart: { id: c2.id, name: expect.any(String) },
        lastMessage: expect.objectContaining({ body: 'my own does not count', authorId: sender.id }),
        unreadCount: 1,
      },
      expect.objectContaining({ reservationId: r1.id, unreadCount: 2, lastMessage: expect.objectContaining({ body: 'two' }) }),
    ]);
    // The carrier sees the sender as counterpart and nothing unread.
    const carrierList = await get('/v1/api/conversations', { token: c2.token });
    expect(carrierList.body.content).toEqual([expect.objectContaining({ reservationId: r2.id, counterpart: { id: sender.id, name: expect.any(String) }, unreadCount: 1 })]);

    const read = await put(`${messagesPath(r1.id)}/read`, undefined, { token: sender.token });
    expect(read.status).toBe(200);
    expect(Date.parse(read.body.readAt)).not.toBeNaN();
    expect((await get('/v1/api/conversations/unread-count', { token: sender.token })).body).toEqual({ count: 1 });
    const [indexed] = await db().select().from(conversations).where(eq(conversations.reservationId, r1.id));
    expect(indexed).toMatchObject({ senderUnread: 0, carrierUnread: 0, lastMessage: expect.objectContaining({ id: 2 }) });

    // A new message moves r1 to the top.
    await send(r1.id, c1.token, { body: 'three again' });
    const again = await get('/v1/api/conversations', { token: sender.token });
    expect(again.body.content.map((c: any) => [c.reservationId, c.unreadCount])).toEqual([
      [r1.id, 1],
      [r2.id, 1],
    ]);
    const bad = await get('/v1/api/conversations?sort=name,asc', { token: sender.token });
    expect(bad.status).toBe(400);
    expect(errorBody(bad)).toMatchObject({ errorCode: 'INVALID_ARGUMENT' });
  });
});

describe('NEW_MESSAGE notification', () => {
  it('a party without an open socket is told once per conversation per 10 minutes; with a socket open, not at all', async () => {
    const { sender, carrier, reservation } = await aConversation();
    await send(reservation.id, sender.token, { body: 'first' });
    await send(reservation.id, sender.token, { body: 'second' });
    const notes = await newMessageNotes(carrier.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 'NEW_MESSAGE', data: { reservationId: reservation.id, messageId: 1 } });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    await send(reservation.id, sender.token, { body: 'later' });
    expect(await newMessageNotes(carrier.id)).toHaveLength(2);
    vi.useRealTimers();

    // The sender has a socket open: the carrier's reply makes no notification for them.
    const live = await openLive(reservation.id, sender.token);
    expect(live.res.status).toBe(101);
    await send(reservation.id, carrier.token, { body: 'reply' });
    expect(await newMessageNotes(sender.id)).toHaveLength(0);
    live.ws!.close(1000, 'done');
  });
});

describe('NEW_MESSAGE on an agency trip (the staff act for the carrier)', () => {
  it("the sender's message tells the carrier, the agency's owner and the trip's branch employees without a socket open; not another branch's; a staff reply tells the sender only", async () => {
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const agency = await anAgency(owner);
    const [branch, otherBranch] = [await aBranch(agency), await aBranch(agency)];
    const staff = () => aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    const [carrier, colleague, online, elsewhere] = [await staff(), await staff(), await staff(), await staff()];
    await db()
      .insert(agencyEmployees)
      .values([
        ...[carrier, colleague, online].map((u) => ({ userId: u.id, agencyId: agency.id, branchId: branch.id })),
        { userId: elsewhere.id, agencyId: agency.id, branchId: otherBranch.id },
      ]);
    // The employee who published the trip is its carrier.
    const trip = await aTrip(carrier, { agencyId: agency.id, branchId: branch.id });
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED', trip, agencyId: agency.id, set: { paidAt: NOW_ISO() } });
    const live = await openLive(reservation.id, online.token);
    expect(live.res.status).toBe(101);

    expect((await send(reservation.id, sender.token, { body: 'Bonjour agence' })).status).toBe(201);
    expect((await send(reservation.id, sender.token, { body: 'Encore moi' })).status).toBe(201);
    const told = async () => Promise.all([carrier, owner, colleague, online, elsewhere, sender].map(async (u) => (await newMessageNotes(u.id)).length));
    expect(await told()).toEqual([1, 1, 1, 0, 0, 0]);
    expect((await newMessageNotes(owner.id))[0]).toMatchObject({ data: { reservationId: reservation.id, messageId: 1 } });

    expect((await send(reservation.id, colleague.token, { body: 'Bonjour, ici l’agence' })).status).toBe(201);
    expect(await told()).toEqual([1, 1, 1, 0, 0, 1]);
    live.ws!.close(1000, 'done');
  });

  it("a trip of the agency without a branch: the owner is told, no employee, and not its publisher who is no staff (CONTRACT 25)", async () => {
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const agency = await anAgency(owner);
    const branch = await aBranch(agency);
    const employee = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    await db().insert(agencyEmployees).values({ userId: employee.id, agencyId: agency.id, branchId: branch.id });
    const carrier = await aCarrier();
    const trip = await aTrip(carrier, { agencyId: agency.id, branchId: null });
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED', trip, agencyId: agency.id, set: { paidAt: NOW_ISO() } });
    expect((await send(reservation.id, sender.token, { body: 'Bonjour' })).status).toBe(201);
    expect(await Promise.all([carrier, owner, employee].map(async (u) => (await newMessageNotes(u.id)).length))).toEqual([0, 1, 0]);
  });
});

describe('the live feed', () => {
  it('a party connects with the bearer subprotocol; a REST post reaches every open socket at once; read receipts too', async () => {
    const { sender, carrier, reservation } = await aConversation();
    const s = await openLive(reservation.id, sender.token);
    const c = await openLive(reservation.id, carrier.token, '', { 'Sec-WebSocket-Protocol': `conversation.v1, bearer.${carrier.token}` });
    expect(s.res.status).toBe(101);
    expect(s.res.headers.get('Sec-WebSocket-Protocol')).toBe(`bearer.${sender.token}`);
    expect(c.res.headers.get('Sec-WebSocket-Protocol')).toBe('conversation.v1');

    const posted = await send(reservation.id, sender.token, { body: 'live!' });
    for (const live of [s, c]) {
      await live.next(1);
      expect(live.frames[0]).toEqual({ type: 'message', message: posted.body });
    }
    const read = await put(`${messagesPath(reservation.id)}/read`, undefined, { token: carrier.token });
    await s.next(2);
    expect(s.frames[1]).toEqual({ type: 'read', userId: carrier.id, readAt: read.body.readAt });

    const sockets = await runInDurableObject(conversationStub(reservation.id), (_i: Conversation, state) =>
      state.getWebSockets().map((ws) => state.getTags(ws)),
    );
    expect(sockets.sort()).toEqual([[`user:${carrier.id}`], [`user:${sender.id}`]].sort());
    s.ws!.close(1000, 'bye');
    c.ws!.close(1000, 'bye');
  });

  it('reconnecting with afterId replays what was missed, then the live messages: no gap, no duplicate', async () => {
    const { sender, carrier, reservation } = await aConversation();
    for (const body of ['a', 'b', 'c', 'd']) await send(reservation.id, carrier.token, { body });
    const live = await openLive(reservation.id, sender.token, '?afterId=2');
    await live.next(2);
    await send(reservation.id, carrier.token, { body: 'e' });
    await live.next(3);
    expect(live.frames.map((f) => [f.type, f.message.id, f.message.body])).toEqual([
      ['message', 3, 'c'],
      ['message', 4, 'd'],
      ['message', 5, 'e'],
    ]);
    live.ws!.close(1000, 'bye');
  });

  it('after the object is evicted (hibernation), the open socket is still delivered to', async () => {
    const { sender, carrier, reservation } = await aConversation();
    const live = await openLive(reservation.id, carrier.token);
    await send(reservation.id, sender.token, { body: 'before' });
    await live.next(1);
    await evictDurableObject(conversationStub(reservation.id));
    const after = await send(reservation.id, sender.token, { body: 'after eviction' });
    await live.next(2);
    expect(live.frames.map((f) => f.message.body)).toEqual(['before', 'after eviction']);
    expect(live.frames[1].message).toEqual(after.body);
    // The socket's session survived too: it is still known as the carrier's.
    expect(await runInDurableObject(conversationStub(reservation.id), (i: Conversation) => i.isOnline(carrier.id))).toBe(true);
    live.ws!.close(1000, 'bye');
  });

  it("a stranger's token, no token, a revoked token and a missing upgrade are refused with the error body", async () => {
    const { reservation } = await aConversation();
    const stranger = await aUser();
    const denied = await openLive(reservation.id, stranger.token);
    expect(denied.res.status).toBe(403);
    expect(denied.ws).toBeNull();
    expect(errorBody({ ...denied.res, body: await denied.res.json() } as ApiResponse)).toMatchObject({ errorCode: 'ACCESS_DENIED' });

    const anonymous = await openLive(reservation.id, null);
    expect(anonymous.res.status).toBe(401);
    const forged = await openLive(reservation.id, 'not-a-jwt');
    expect(forged.res.status).toBe(401);

    const reg = await registerUser();
    const { reservation: mine } = await aReservation({ status: 'CONFIRMED', sender: { id: reg.id }, set: { paidAt: NOW_ISO() } });
    expect((await post('/v1/api/auth/logout', { refreshToken: reg.refreshToken }, { token: reg.accessToken })).status).toBe(200);
    const revoked = await openLive(mine.id, reg.accessToken);
    expect(revoked.res.status).toBe(401);
    expect(await revoked.res.json()).toMatchObject({ errorCode: 'UNAUTHORIZED', message: 'Access token has been revoked' });

    const { sender, reservation: other } = await aConversation();
    const plain = await get(`${messagesPath(other.id)}/live`, { token: sender.token });
    expect(plain.status).toBe(400);
    expect(errorBody(plain)).toMatchObject({ errorCode: 'INVALID_ARGUMENT', message: 'This endpoint needs a WebSocket upgrade' });
  });

  it('a frame the server does not take is answered with an error frame saying why, and the socket stays open; "ping" is answered "pong"', async () => {
    const { sender, carrier, reservation } = await aConversation();
    const live = await openLive(reservation.id, sender.token);
    live.ws!.send('ping');
    expect(await live.next(1)).toEqual(['pong']);
    live.ws!.send('{"type":"message","body":"over the socket"}');
    expect((await live.next(2))[1]).toEqual({
      type: 'error',
      errorCode: 'INVALID_ARGUMENT',
      message: 'Frame not accepted: a text frame other than "ping"; this feed accepts only "ping"; send messages with POST /bookings/{id}/messages',
    });
    live.ws!.send(new Uint8Array([1, 2, 3]));
    expect((await live.next(3))[2]).toEqual({ type: 'error', errorCode: 'INVALID_ARGUMENT', message: 'Frame not accepted: a binary frame; this feed accepts only "ping"' });
    expect((await storedMessages(reservation.id)).total).toBe(0);
    // Still open: a message posted afterwards reaches it.
    expect((await post(`${messagesPath(reservation.id)}`, { body: 'toujours là ?' }, { token: carrier.token })).status).toBe(201);
    expect((await live.next(4))[3]).toMatchObject({ type: 'message', message: { body: 'toujours là ?' } });
    live.ws!.close(1000, 'done');
  });

  it('the socket closes when its token expires (4401) and after logout (4403)', async () => {
    const { sender, reservation } = await aConversation();
    const { token: shortLived } = await signToken(env, { sub: String(sender.id), typ: 'access', roles: ['ROLE_CLIENT'] }, ACCESS_TOKEN_TTL_SECONDS);
    const live = await openLive(reservation.id, shortLived);
    expect(live.res.status).toBe(101);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_SECONDS + 5) * 1000);
    expect(await runDurableObjectAlarm(conversationStub(reservation.id))).toBe(true);
    vi.useRealTimers();
    expect(await within(live.closed)).toEqual({ code: CLOSE.TOKEN_EXPIRED, reason: 'Access token expired' });

    const reg = await registerUser();
    const { reservation: mine } = await aReservation({ status: 'CONFIRMED', sender: { id: reg.id }, set: { paidAt: NOW_ISO() } });
    const mineLive = await openLive(mine.id, reg.accessToken);
    expect(mineLive.res.status).toBe(101);
    expect((await post('/v1/api/auth/logout', { refreshToken: reg.refreshToken }, { token: reg.accessToken })).status).toBe(200);
    expect(await runDurableObjectAlarm(conversationStub(mine.id))).toBe(true);
    expect(await within(mineLive.closed)).toEqual({ code: CLOSE.TOKEN_REVOKED, reason: 'Access token revoked' });
  });
});

describe('operators', () => {
  it('a super-admin reads any conversation, and every read is audited; others get 403', async () => {
    const { sender, reservation } = await aConversation();
    await send(reservation.id, sender.token, { body: 'for the record' });
    const superadmin = await aSuperAdmin();
    const res = await get(`/v1/api/superadmin/reservations/${reservation.id}/messages`, { token: superadmin.token });
    expect(res.status).toBe(200);
    expect(res.body.content.map((m: any) => m.body)).toEqual(['for the record']);
    const logs = await db().select().from(auditLogs).where(and(eq(auditLogs.actorId, superadmin.id), eq(auditLogs.action, 'CONVERSATION_READ')));
    expect(logs).toEqual([expect.objectContaining({ targetType: 'RESERVATION', targetId: String(reservation.id) })]);
    for (const who of [sender, await anAdmin()]) {
      expect((await get(`/v1/api/superadmin/reservations/${reservation.id}/messages`, { token: who.token })).status).toBe(403);
    }
    expect((await get('/v1/api/superadmin/reservations/999999/messages', { token: superadmin.token })).status).toBe(404);
  });

  it('the dispute view shows the conversation to the admins resolving it', async () => {
    const { sender, carrier, reservation } = await aReservation({ status: 'DEPOSITED', payment: stripe, ...FIFTY_EUR });
    await send(reservation.id, sender.token, { body: 'Le colis est fragile' });
    await send(reservation.id, carrier.token, { body: 'Bien noté' });
    const opened = await post(
      '/v1/api/disputes',
      { reservationId: reservation.id, reason: 'DAMAGED', description: 'The parcel arrived broken in pieces' },
      { token: sender.token },
    );
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const admin = await anAdmin();
    const view = await get(`/v1/api/disputes/${opened.body.id}`, { token: admin.token });
    expect(view.status).toBe(200);
    expect(view.body.conversation.map((m: any) => [m.authorId, m.body])).toEqual([
      [sender.id, 'Le colis est fragile'],
      [carrier.id, 'Bien noté'],
    ]);
    const [d] = await db().select().from(disputes).where(eq(disputes.id, opened.body.id));
    expect(d.status).toBe('OPEN');
  });
});
