// Conversations between sender and carrier (CONTRACT section 17): who may read and write, when a
// conversation turns read-only, masking before payment, photos, the D1 index (listing and unread
// counts) kept from the conversation's Durable Object, and the NEW_MESSAGE notification.
import { and, asc, count, desc, eq, inArray, isNotNull, notInArray, or, sql, type Placeholder } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { announcements, conversations, files, reservations, users, type ReservationRow } from '../../db/schema';
import { compiled, runAlone, pageTotal, runBatch, withTotal, type Statement, type Placeholders } from '../../db/statements';
import type { ConversationMessage, ConversationState, MessageQuery, Side, SocketSession } from '../../durable-objects/conversation';
import { SESSION_HEADER } from '../../durable-objects/conversation';
import type { AuthUser, Deps } from '../../env';
import { invalidArgument, invalidState, notFound, validationError, type FieldError } from '../../errors';
import { offsetOf, type PageParams } from '../../lib/pagination';
import { consumeRateLimit, POLICIES } from '../../middleware/rate-limit';
import { staffOfAnnouncement } from '../../access/agency-scope';
import { admittedSide, assertSide, carrierSideCondition, counterpartIds } from '../../access/reservation-access';
import { isOwnUpload } from '../../access/uploads';
import { auditInsert } from '../audit/audit';
import { notify, reservationRef, type Notification } from '../deliveries/notify';
import { maskContactDetails } from './masking';
import { msg } from '../../messages';

export type { ConversationMessage };

export const MAX_BODY_LENGTH = 2000;
export const MAX_FILES_PER_MESSAGE = 10;
/** Read-only this long after the reservation ends (CONTRACT section 17). */
export const OPEN_AFTER_DELIVERY_MS = 30 * 24 * 60 * 60 * 1000;
export const OPEN_AFTER_CANCELLATION_MS = 7 * 24 * 60 * 60 * 1000;
/** A reservation in these statuses without any message is not listed (it never became a conversation). */
const ENDED_UNUSED: ReservationRow['status'][] = ['EXPIRED', 'CANCELLED', 'REJECTED'];

export const conversationObject = (env: Env, reservationId: number) => env.CONVERSATION.get(env.CONVERSATION.idFromName(String(reservationId)));

const FIELDS = {
  id: reservations.id,
  reservationNumber: reservations.reservationNumber,
  senderId: reservations.senderId,
  carrierId: reservations.carrierId,
  agencyId: reservations.agencyId,
  announcementId: reservations.announcementId,
  status: reservations.status,
  paidAt: reservations.paidAt,
  deliveredAt: reservations.deliveredAt,
  cancelledAt: reservations.cancelledAt,
  paymentDeadline: reservations.paymentDeadline,
  updatedAt: reservations.updatedAt,
  /** The trip's branch: an agency employee takes part only for their own branch's trips. */
  branchId: announcements.branchId,
};
type ConversationReservation = Pick<ReservationRow, Exclude<keyof typeof FIELDS, 'branchId'>> & { branchId: number | null };

// The reservation alone (the super-admin's audited reading): no hot path, built per call.
const reservationById = (db: Db, id: number) =>
  db.select(FIELDS).from(reservations).innerJoin(announcements, eq(announcements.id, reservations.announcementId)).where(eq(reservations.id, id));
// The caller's display name, read by the party's statement itself.
const callerName = (p: { me: number | Placeholder }) => ({
  callerName: sql<string | null>`(SELECT trim(${users.firstName} || ' ' || ${users.lastName}) FROM ${users} WHERE ${users.id} = ${p.me})`,
});
/** The reservation with the caller's name: one statement (a page's read, built per call). */
const partyRead = (db: Db, p: { id: number; me: number }) =>
  db
    .select({ ...FIELDS, ...callerName(p) })
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .where(eq(reservations.id, p.id));
// The statements of every post, compiled once (db/statements.ts): a message is the busiest write.
/**
 * A post's read, one statement: the reservation, the caller's name and the carrier side's staff
 * on an agency trip (owner, the trip's branch's employees), who are told like the carrier.
 */
const postRead = compiled((db, p: Placeholders<{ id: number; me: number }>) => {
  const staff = staffOfAnnouncement(db, sql`${reservations.agencyId}`, sql`${announcements.branchId}`).as('staff');
  return db
    .select({
      ...FIELDS,
      ...callerName(p),
      staffIds: sql`(SELECT json_group_array(${staff.userId}) FROM ${staff})`.mapWith((text: string) => JSON.parse(text) as number[]),
    })
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .where(eq(reservations.id, p.id));
});
/** What the conversation's index row binds: driver values (the last message as its JSON text). */
type IndexValues = { reservationId: number; version: number; lastMessage: string | null; lastMessageAt: string | null; senderUnread: number; carrierUnread: number };
const indexUpsert = compiled((db, p: Placeholders<IndexValues>) => {
  // Bound as given (sql`` takes no column encoder): the caller passes driver values.
  const values = {
    version: sql`${p.version}`,
    lastMessage: sql`${p.lastMessage}`,
    lastMessageAt: sql`${p.lastMessageAt}`,
    senderUnread: sql`${p.senderUnread}`,
    carrierUnread: sql`${p.carrierUnread}`,
  };
  return db
    .insert(conversations)
    .values({ reservationId: sql`${p.reservationId}`, ...values })
    .onConflictDoUpdate({ target: conversations.reservationId, set: values, setWhere: sql`${conversations.version} < ${p.version}` });
});

async function load(db: Db, id: number): Promise<ConversationReservation> {
  const [row] = await runAlone(reservationById(db, id));
  if (!row) throw notFound('Reservation', id);
  return row;
}

/** When the conversation stops taking messages, or null while the reservation is not over. */
export function readOnlyFrom(r: ConversationReservation): Date | null {
  const after = (at: string | null, ms: number) => new Date(Date.parse(at ?? r.updatedAt) + ms);
  switch (r.status) {
    case 'DELIVERED':
      return after(r.deliveredAt, OPEN_AFTER_DELIVERY_MS);
    case 'REFUNDED':
      return after(r.updatedAt, OPEN_AFTER_DELIVERY_MS);
    case 'CANCELLED':
    case 'REJECTED':
      return after(r.cancelledAt, OPEN_AFTER_CANCELLATION_MS);
    case 'EXPIRED':
      return after(r.paymentDeadline, OPEN_AFTER_CANCELLATION_MS);
    default:
      return null;
  }
}

const isPaid = (r: ConversationReservation) => r.paidAt !== null;

type PartyRow = ConversationReservation & { callerName: string | null };

/** The reservation read with the caller's name: the caller's side (or 403) and display name. */
async function asParty(deps: Deps, auth: AuthUser, id: number, row: PartyRow | undefined) {
  if (!row) throw notFound('Reservation', id);
  const { callerName: name, ...r } = row;
  // The carrier side of an agency trip is its acting staff now (access/, CONTRACT 25).
  const side = await assertSide(deps, auth, r, 'conversation.onlySenderCarrierReservation');
  return { r, side, name: name ?? '' };
}

/** The reservation, the caller's side and display name: one statement. */
async function loadForParty(deps: Deps, auth: AuthUser, id: number) {
  const { db } = deps;
  const [row] = await runAlone(partyRead(db, { id, me: auth.id }));
  return asParty(deps, auth, id, row);
}

/** The statement that brings the D1 index up to the object's state; an older state never wins. */
export function indexStatement(db: Db, reservationId: number, state: ConversationState): Statement {
  return indexUpsert(db, {
    reservationId,
    version: state.version,
    // Bound as the driver value: the JSON column's encoding, NULL as NULL.
    lastMessage: state.lastMessage === null ? null : JSON.stringify(state.lastMessage),
    lastMessageAt: state.lastMessage?.createdAt ?? null,
    senderUnread: state.unread.SENDER,
    carrierUnread: state.unread.CARRIER,
  });
}

/** Each file must be one of the author's PARCEL_IMAGE uploads, free or already on this reservation. */
async function checkFiles(db: Db, auth: AuthUser, reservationId: number, fileIds: number[]) {
  if (fileIds.length === 0) return;
  const rows = await db
    .select({ id: files.id, ownerId: files.ownerId, purpose: files.purpose, reservationId: files.reservationId })
    .from(files)
    .where(inArray(files.id, fileIds));
  const byId = new Map(rows.map((f) => [f.id, f]));
  const fieldErrors = fileIds.flatMap((fileId, i): FieldError[] => {
    const f = byId.get(fileId);
    return isOwnUpload(auth.id, f, 'PARCEL_IMAGE', reservationId) ? [] : [{ field: `fileIds[${i}]`, message: 'conversation.mustParcelImageFile', rejectedValue: fileId }];
  });
  if (fieldErrors.length > 0) {
    throw validationError('announcement.validationFailedFields', { fieldErrors: fieldErrors.map((e) => e.field).join(', ') }, {
      fieldErrors,
      suggestions: ['conversation.uploadPhotoPostFiles'],
    });
  }
}

/** POST /bookings/{id}/messages. */
export async function postMessage(deps: Deps, auth: AuthUser, id: number, input: { body: string; fileIds?: number[] }) {
  const { db, env } = deps;
  // With the party's read, the carrier side's staff, told like the carrier (CONTRACT section 17).
  const [row] = await runAlone(postRead(db, { id, me: auth.id }));
  const { r, side, name } = await asParty(deps, auth, id, row);
  const staff = row.staffIds;
  const closedAt = readOnlyFrom(r);
  if (closedAt && closedAt.getTime() <= Date.now()) {
    throw invalidState('conversation.conversationReadOnlySince', { closedAt: closedAt.toISOString(), status: r.status });
  }
  const fileIds = [...new Set(input.fileIds ?? [])];
  await checkFiles(db, auth, id, fileIds);
  await consumeRateLimit(env, POLICIES.messages, `${auth.id}:${id}`, 'conversation.tooManyMessagesConversation');
  // Photos join the reservation, so its parties (and operators) can read them through /files.
  if (fileIds.length > 0) {
    await db.update(files).set({ reservationId: id }).where(and(inArray(files.id, fileIds), sql`${files.reservationId} IS NULL`));
  }
  const body = isPaid(r) ? input.body : maskContactDetails(input.body);
  const { message, state, notify: told } = await conversationObject(env, id).post({
    reservationId: id,
    authorId: auth.id,
    authorName: name,
    side,
    body,
    fileIds,
    // The carrier side of an agency trip is its acting staff (never the publisher once gone).
    counterpartIds: counterpartIds(side, r, staff, auth.id),
  });
  const note = (userId: number): Notification => ({
    userId,
    type: 'NEW_MESSAGE',
    text: msg('notice.newMessage', { name, number: r.reservationNumber }),
    // The author, so an erasure can take their name out of the notices others received.
    data: { ...reservationRef({ id, reservationNumber: r.reservationNumber }), messageId: message.id, authorId: auth.id },
  });
  await runBatch(db, [indexStatement(db, id, state), ...told.flatMap((userId) => notify(db, note(userId)))]);
  return message;
}

export interface MessagePage extends PageParams<'id' | 'createdAt'> {
  afterId?: number;
  beforeId?: number;
}

async function pageOf(env: Env, id: number, q: MessagePage) {
  const query: MessageQuery = {
    reservationId: id,
    afterId: q.afterId,
    beforeId: q.beforeId,
    order: q.sort.direction,
    limit: q.size,
    offset: offsetOf(q),
  };
  return conversationObject(env, id).messages(query);
}

/** GET /bookings/{id}/messages: the parties only. */
export async function listMessages(deps: Deps, auth: AuthUser, id: number, q: MessagePage) {
  await loadForParty(deps, auth, id);
  return pageOf(deps.env, id, q);
}

/** GET /superadmin/reservations/{id}/messages: every read is audited. */
export async function superadminMessages(deps: Deps, auth: AuthUser, id: number, q: MessagePage, ip: string | null) {
  const { db, env } = deps;
  await load(db, id);
  const page = await pageOf(env, id, q);
  await auditInsert(db, {
    actorId: auth.id,
    action: 'CONVERSATION_READ',
    targetType: 'RESERVATION',
    targetId: id,
    ip,
    details: { page: q.page, size: q.size, returned: page.messages.length },
  }).run();
  return page;
}

/** The conversation shown beside a dispute to the admins resolving it: the latest messages, oldest first. */
export async function conversationExcerpt(env: Env, reservationId: number, limit = 100): Promise<ConversationMessage[]> {
  const { messages } = await conversationObject(env, reservationId).messages({ reservationId, order: 'desc', limit, offset: 0 });
  return messages.reverse();
}

/** PUT /bookings/{id}/messages/read. */
export async function markRead(deps: Deps, auth: AuthUser, id: number) {
  const { db, env } = deps;
  const { side } = await loadForParty(deps, auth, id);
  const { readAt, state } = await conversationObject(env, id).markRead(id, auth.id, side);
  await runBatch(db, [indexStatement(db, id, state)]);
  return { readAt };
}

/** Reservations whose conversation the caller takes part in: sender, or the carrier side now (access/). */
function partyCondition(deps: Deps, auth: AuthUser) {
  return or(eq(reservations.senderId, auth.id), carrierSideCondition(deps.db, sql`${auth.id}`));
}

const listed = (party: ReturnType<typeof or>) =>
  and(party, or(isNotNull(conversations.lastMessageAt), notInArray(reservations.status, ENDED_UNUSED)));

/** GET /conversations: latest activity first (a conversation without messages counts from its booking). */
export async function listConversations(deps: Deps, auth: AuthUser, p: PageParams<'lastActivity'>) {
  const { db } = deps;
  const where = listed(partyCondition(deps, auth));
  const sender = alias(users, 'sender');
  const carrier = alias(users, 'carrier');
  const activity = sql`COALESCE(${conversations.lastMessageAt}, ${reservations.createdAt})`;
  const countAll = db
    .select({ total: count() })
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .leftJoin(conversations, eq(conversations.reservationId, reservations.id))
    .where(where);
  const offset = offsetOf(p);
  const rows = await db
    .select(
      withTotal(
        {
          reservationId: reservations.id,
          reservationNumber: reservations.reservationNumber,
          senderId: reservations.senderId,
          senderName: sql<string>`${sender.firstName} || ' ' || ${sender.lastName}`,
          carrierId: reservations.carrierId,
          carrierName: sql<string>`${carrier.firstName} || ' ' || ${carrier.lastName}`,
          lastMessage: conversations.lastMessage,
          senderUnread: conversations.senderUnread,
          carrierUnread: conversations.carrierUnread,
        },
        countAll,
      ),
    )
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .leftJoin(conversations, eq(conversations.reservationId, reservations.id))
    .innerJoin(sender, eq(sender.id, reservations.senderId))
    .innerJoin(carrier, eq(carrier.id, reservations.carrierId))
    .where(where)
    .orderBy(...(p.sort.direction === 'asc' ? [asc(activity), asc(reservations.id)] : [desc(activity), desc(reservations.id)]))
    .limit(p.size)
    .offset(offset);
  const total = await pageTotal(db, rows, offset, () => countAll);
  const content = rows.map((row) => {
    const asSender = admittedSide(auth.id, row) === 'SENDER';
    return {
      reservationId: row.reservationId,
      reservationNumber: row.reservationNumber,
      counterpart: asSender ? { id: row.carrierId, name: row.carrierName } : { id: row.senderId, name: row.senderName },
      lastMessage: row.lastMessage ?? null,
      unreadCount: (asSender ? row.senderUnread : row.carrierUnread) ?? 0,
    };
  });
  return { content, total };
}

/** GET /conversations/unread-count: unread messages over all the caller's conversations. */
export async function unreadCount(deps: Deps, auth: AuthUser) {
  const { db } = deps;
  const [{ count }] = await db
    .select({
      count: sql<number>`COALESCE(SUM(CASE WHEN ${reservations.senderId} = ${auth.id} THEN ${conversations.senderUnread} ELSE ${conversations.carrierUnread} END), 0)`,
    })
    .from(conversations)
    .innerJoin(reservations, eq(reservations.id, conversations.reservationId))
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .where(partyCondition(deps, auth));
  return { count: Number(count) };
}

/** GET /bookings/{id}/messages/live: a party's socket, held by the conversation's object. */
export async function openLive(deps: Deps, auth: AuthUser, id: number, request: Request, protocol: string | undefined, afterId?: number) {
  const { side } = await loadForParty(deps, auth, id);
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
    throw invalidArgument('conversation.endpointNeedsWebSocketUpgrade', {
      headers: { Upgrade: 'websocket' },
      suggestions: ['conversation.openWebSocketClientAccess'],
    });
  }
  const session: SocketSession & { reservationId: number } = {
    reservationId: id,
    userId: auth.id,
    side,
    jti: auth.jti,
    iat: auth.iat ?? 0,
    exp: auth.exp,
    protocol,
    afterId,
  };
  // A fresh request: the session header is the worker's, never the client's.
  const headers = new Headers(request.headers);
  headers.set(SESSION_HEADER, JSON.stringify(session));
  return conversationObject(deps.env, id).fetch(new Request(request.url, { headers }));
}
