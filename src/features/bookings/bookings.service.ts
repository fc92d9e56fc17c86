// Reservations: booking with capacity taken atomically, the views (listings, detail), the
// lifecycle actions (accept, reject, cancel) and the cron expiry. Every status change goes
// through transitionStatement(), batched with its side effects guarded on the same status.
import { and, asc, count, eq, exists, getTableColumns, gte, inArray, lte, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  agencies,
  announcements,
  categories,
  reservationItems,
  reservations,
  users,
  type AnnouncementRow,
  type RecipientInfo,
  type ReservationItemRow,
  type ReservationRow,
  type UserRow,
} from '../../db/schema';
import type { AuthUser } from '../../env';
import { AppError, businessRule, invalidState, notFound } from '../../errors';
import { commissionRate, splitPrice, toGrams } from '../../lib/money';
import { offsetOf } from '../../lib/pagination';
import { assertReservationAccess } from './reservation-access';
import { idempotencyConflict } from '../../middleware/idempotency';
import { guardedNotificationInsert, type NewNotification } from '../notifications/notify';
import {
  CARRIER_ANSWER_WINDOW_MS,
  newRecipientToken,
  newReservationNumber,
  newSixDigitCode,
  PAYMENT_WINDOW_MS,
  refundForCancellation,
  type CancellationActor,
} from './booking-rules';
import { applyTransition, TRANSITIONS, type ReservationAction, type ReservationStatus } from './reservation-state';
import { aliasedColumns, guardedInsert } from '../../db/batch-sql';
import { compiledQuery, perShape } from '../../db/compiled-query';
import { releaseForReservation } from '../payments/escrow.service';
import { loadReservation, transitionStatement } from './reservation-transition';


// ---------------------------------------------------------------------------------------------
// Views

const senderUser = alias(users, 'sender_user');
const carrierUser = alias(users, 'carrier_user');

/** What a reservation view needs of its trip and of its two parties (D1 caps a result at 100 columns). */
const TRIP_FIELDS = ['departureCity', 'arrivalCity', 'departureDate', 'arrivalDate', 'pickupPoint', 'deliveryPoint'] as const;
const PARTY_FIELDS = [
  'id',
  'firstName',
  'lastName',
  'username',
  'phoneNumber',
  'nationality',
  'email',
  'birthDate',
  'connectedAccountId',
  'enabled',
] as const;
export type TripFields = Pick<AnnouncementRow, (typeof TRIP_FIELDS)[number]>;
export type PartyFields = Pick<UserRow, (typeof PARTY_FIELDS)[number]>;

export interface ReservationView {
  r: ReservationRow;
  a: TripFields;
  sender: PartyFields;
  carrier: PartyFields;
  items: ItemView[];
}

export type ItemView = Omit<ReservationItemRow, 'id' | 'reservationId'>;

function viewSelect(db: Db) {
  return db
    .select({
      r: aliasedColumns(reservations, 'r'),
      a: aliasedColumns(announcements, 'a', TRIP_FIELDS),
      sender: aliasedColumns(senderUser, 's', PARTY_FIELDS),
      carrier: aliasedColumns(carrierUser, 'k', PARTY_FIELDS),
    })
    .from(reservations)
    .innerJoin(announcements, eq(announcements.id, reservations.announcementId))
    .innerJoin(senderUser, eq(senderUser.id, reservations.senderId))
    .innerJoin(carrierUser, eq(carrierUser.id, reservations.carrierId));
}

function attachItems(rows: Omit<ReservationView, 'items'>[], items: ReservationItemRow[]): ReservationView[] {
  const byReservation = new Map<number, ItemView[]>();
  for (const { id: _id, reservationId, ...item } of items) {
    const list = byReservation.get(reservationId) ?? [];
    list.push(item);
    byReservation.set(reservationId, list);
  }
  return rows.map((row) => ({ ...row, items: byReservation.get(row.r.id) ?? [] }));
}

const viewById = compiledQuery((db, p: Record<'id', Placeholder>) => viewSelect(db).where(eq(reservations.id, p.id)));
const itemsOf = compiledQuery((db, p: Record<'id', Placeholder>) =>
  db.select().from(reservationItems).where(eq(reservationItems.reservationId, p.id)).orderBy(asc(reservationItems.id)),
);

/** The two reads of one reservation's view, to run alone or at the end of a write batch. */
export function reservationViewStatements(db: Db, id: number) {
  return [viewById(db, { id }), itemsOf(db, { id })] as const;
}

/** The view from the results of reservationViewStatements, or null when the reservation does not exist. */
export function reservationViewOf(
  rows: Omit<ReservationView, 'items'>[],
  items: ReservationItemRow[],
): ReservationView | null {
  return rows.length === 0 ? null : attachItems(rows, items)[0];
}

export async function getReservationView(db: Db, id: number): Promise<ReservationView> {
  const [rows, items] = await db.batch(reservationViewStatements(db, id));
  const view = reservationViewOf(rows, items);
  if (!view) throw notFound('Reservation', id);
  return view;
}

/** One page of reservations and its total in one round trip (rows, count, items of those rows). */
export async function listReservationViews(
  db: Db,
  where: SQL | undefined,
  order: SQL[],
  p: { page: number; size: number },
): Promise<{ rows: ReservationView[]; total: number }> {
  const pageIds = db.select({ id: reservations.id }).from(reservations).where(where).orderBy(...order).limit(p.size).offset(offsetOf(p));
  const [rows, [{ total }], items] = await db.batch([
    viewSelect(db).where(where).orderBy(...order).limit(p.size).offset(offsetOf(p)),
    db.select({ total: count() }).from(reservations).where(where),
    db.select().from(reservationItems).where(inArray(reservationItems.reservationId, pageIds)).orderBy(asc(reservationItems.id)),
  ]);
  return { rows: attachItems(rows, items), total };
}

type PageKeys = 'owner' | 'status' | 'limit' | 'offset';

function compilePartyPage(party: 'carrierId' | 'senderId', byStatus: boolean, order: SQL[]) {
  const where = (p: Record<PageKeys, Placeholder>) => and(eq(reservations[party], p.owner), byStatus ? eq(reservations.status, p.status) : undefined);
  return {
    rows: compiledQuery((db, p: Record<PageKeys, Placeholder>) => viewSelect(db).where(where(p)).orderBy(...order).limit(p.limit).offset(p.offset)),
    total: compiledQuery((db, p: Record<PageKeys, Placeholder>) => db.select({ total: count() }).from(reservations).where(where(p))),
    items: compiledQuery((db, p: Record<PageKeys, Placeholder>) =>
      db
        .select()
        .from(reservationItems)
        .where(inArray(reservationItems.reservationId, db.select({ id: reservations.id }).from(reservations).where(where(p)).orderBy(...order).limit(p.limit).offset(p.offset)))
        .orderBy(asc(reservationItems.id)),
    ),
  };
}
const partyPage = perShape(compilePartyPage);

/**
 * The sender's or the carrier's page of reservations, like listReservationViews but with its
 * three statements compiled once per shape (party, status filter or not, sort): these are the
 * busiest listings. `sortKey` names `order` (one compiled shape per sort).
 */
export async function listPartyReservationViews(
  db: Db,
  party: 'carrierId' | 'senderId',
  ownerId: number,
  status: ReservationStatus | undefined,
  sort: { key: string; order: SQL[] },
  p: { page: number; size: number },
): Promise<{ rows: ReservationView[]; total: number }> {
  const shape = partyPage(`${party}:${status ? 'status' : 'all'}:${sort.key}`, party, status !== undefined, sort.order);
  const values = { owner: ownerId, status: status ?? null, limit: p.size, offset: offsetOf(p) };
  const [rows, [{ total }], items] = await db.batch([shape.rows(db, values), shape.total(db, values), shape.items(db, values)]);
  return { rows: attachItems(rows, items), total };
}

/** Parties (the agency's staff included) and admins may read a reservation; everyone else gets 403. */
export const assertCanRead = (db: Db, auth: AuthUser, r: ReservationRow) =>
  assertReservationAccess(db, auth, r, { sender: true, carrier: true, admins: true });

// ---------------------------------------------------------------------------------------------
// Creation

// The reads of a booking, compiled once (see db/compiled-query.ts).
const tripWithCarrier = compiledQuery((db, p: Record<'id', Placeholder>) =>
  db
    .select({ a: aliasedColumns(announcements, 'a'), carrier: aliasedColumns(users, 'k') })
    .from(announcements)
    .innerJoin(users, eq(users.id, announcements.carrierId))
    .where(eq(announcements.id, p.id)),
);
const userById = compiledQuery((db, p: Record<'id', Placeholder>) => db.select().from(users).where(eq(users.id, p.id)));
const agencyStatusOfTrip = compiledQuery((db, p: Record<'id', Placeholder>) =>
  db.select({ status: agencies.status }).from(agencies).innerJoin(announcements, eq(announcements.agencyId, agencies.id)).where(eq(announcements.id, p.id)),
);

export interface ItemInput {
  categoryId: number;
  name?: string | null;
  reservedQuantity?: number;
  description?: string | null;
  weight?: number | null;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  isFragile?: boolean;
  containsLiquids?: boolean;
  imageUrl?: string | null;
}

export interface CreateBookingInput {
  announcementId: number;
  reservedWeight: number;
  contentInfo?: string | null;
  items: ItemInput[];
  recipient: RecipientInfo;
}

const today = (now: Date) => now.toISOString().slice(0, 10);

/** Why an announcement cannot take `weightG` more grams now, or null if it can. */
function capacityRefusal(a: AnnouncementRow, weightG: number, now: Date): AppError | null {
  if (a.status === 'CLOSED' || a.status === 'CANCELLED') return businessRule(`Announcement ${a.id} is ${a.status.toLowerCase()} and takes no more bookings`);
  if (a.departureDate < today(now)) return businessRule(`Announcement ${a.id} has already departed`);
  if (a.status === 'FULL' || a.reservedWeightG + weightG > a.totalWeightG) {
    return new AppError('BUSINESS_RULE_VIOLATION', 'Not enough remaining capacity on this announcement', {
      suggestions: [`Remaining capacity: ${Math.max(0, a.totalWeightG - a.reservedWeightG) / 1000} kg`],
    });
  }
  return null;
}

const UNIQUE_IDEMPOTENCY = /UNIQUE constraint failed: reservations\.sender_id, reservations\.idempotency_key/;
const UNIQUE_NUMBER = /UNIQUE constraint failed: reservations\.(reservation_number|recipient_token)/;

/**
 * Books capacity on an announcement in two D1 round trips: one batch reads the trip, the caller
 * and the categories; one batch inserts the reservation only if the trip still has the capacity
 * (INSERT ... SELECT ... WHERE), then moves the counter, inserts the items and the carrier's
 * notification, each guarded on that reservation existing. A refused booking leaves nothing.
 */
export async function createBooking(
  db: Db,
  env: Env,
  auth: AuthUser,
  input: CreateBookingInput,
  idempotencyKey: string | null,
): Promise<ReservationView> {
  const now = new Date();
  const weightG = toGrams(input.reservedWeight);
  const categoryIds = [...new Set(input.items.map((i) => i.categoryId))];

  const [tripRows, senderRows, categoryRows, agencyRows] = await db.batch([
    tripWithCarrier(db, { id: input.announcementId }),
    userById(db, { id: auth.id }),
    db.select().from(categories).where(inArray(categories.id, categoryIds)),
    agencyStatusOfTrip(db, { id: input.announcementId }),
  ]);
  const trip = tripRows[0];
  // A suspended agency's trips are hidden: booking one is like booking a trip that does not exist.
  if (!trip || agencyRows[0]?.status === 'SUSPENDED') throw notFound('Announcement', input.announcementId);
  const sender = senderRows[0];
  if (!sender || !sender.enabled) throw new AppError('ACCESS_DENIED', 'This account cannot book');
  const { a, carrier } = trip;
  if (a.carrierId === auth.id) throw businessRule('You cannot book your own announcement');

  const categoryById = new Map(categoryRows.map((c) => [c.id, c]));
  const unknown = input.items.flatMap((item, i) =>
    categoryById.has(item.categoryId) ? [] : [{ field: `items.${i}.categoryId`, message: 'Unknown category', rejectedValue: item.categoryId }],
  );
  if (unknown.length > 0) {
    throw new AppError('VALIDATION_ERROR', 'Validation failed for body: unknown category', {
      fieldErrors: unknown,
      suggestions: ['Use a category id from GET /v1/api/categories'],
    });
  }
  const prohibited = categoryRows.filter((c) => c.prohibited);
  if (prohibited.length > 0) throw businessRule(`Prohibited content cannot be shipped: ${prohibited.map((c) => c.name).join(', ')}`);
  const accepted = a.acceptedCategoryIds ?? [];
  const refused = accepted.length > 0 ? categoryRows.filter((c) => !accepted.includes(c.id)) : [];
  if (refused.length > 0) throw businessRule(`This trip does not accept: ${refused.map((c) => c.name).join(', ')}`);

  const early = capacityRefusal(a, weightG, now);
  if (early) throw early;

  const items: ItemView[] = input.items.map((item) => {
    const category = categoryById.get(item.categoryId)!;
    return {
      categoryId: category.id,
      code: category.code,
      name: item.name ?? category.name,
      reservedQuantity: item.reservedQuantity ?? 1,
      description: item.description ?? null,
      weight: item.weight ?? null,
      lengthCm: item.lengthCm ?? null,
      widthCm: item.widthCm ?? null,
      heightCm: item.heightCm ?? null,
      isFragile: item.isFragile ?? false,
      containsLiquids: item.containsLiquids ?? false,
      imageUrl: item.imageUrl ?? null,
    };
  });
  const split = splitPrice(weightG, a.pricePerKgCents, commissionRate(env));
  const recipient = normaliseRecipient(input.recipient);

  // A fresh number collides about once in 10^11 bookings: one retry, then a plain 500.
  for (let attempt = 0; ; attempt++) {
    const r: ReservationRow = {
      id: 0,
      reservationNumber: newReservationNumber(),
      announcementId: a.id,
      senderId: auth.id,
      carrierId: a.carrierId,
      agencyId: a.agencyId,
      status: 'PENDING_PAYMENT',
      reservedWeightG: weightG,
      contentInfo: input.contentInfo ?? null,
      depositCode: newSixDigitCode(),
      deliveryCode: newSixDigitCode(),
      recipient,
      recipientToken: newRecipientToken(),
      pricePerKgCents: a.pricePerKgCents,
      ...split,
      currency: a.currency,
      paymentId: null,
      authorizationId: null,
      captureId: null,
      refundId: null,
      paymentStatus: null,
      paymentDate: null,
      paymentApprovalUrl: null,
      invoiceId: null,
      invoiceUrl: null,
      invoiceStatus: null,
      paymentDeadline: new Date(now.getTime() + PAYMENT_WINDOW_MS).toISOString(),
      paidAt: null,
      confirmedAt: null,
      depositedAt: null,
      deliveredAt: null,
      cancelledAt: null,
      cancelledBy: null,
      cancellationReason: null,
      idempotencyKey,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      const id = await insertBooking(db, r, a, items, now);
      return { r: { ...r, id }, a, sender, carrier, items };
    } catch (err) {
      const message = err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : '';
      if (UNIQUE_IDEMPOTENCY.test(message)) throw idempotencyConflict();
      if (UNIQUE_NUMBER.test(message) && attempt === 0) continue;
      throw err;
    }
  }
}

/** Reservation columns a booking binds (the trip's own fields are copied from the trip row by SQL). */
const FROM_TRIP = ['id', 'carrierId', 'agencyId', 'pricePerKgCents', 'currency'] as const;
const BOOKED_KEYS = Object.keys(getTableColumns(reservations)).filter((k) => !(FROM_TRIP as readonly string[]).includes(k)) as (keyof ReservationRow)[];
const ITEM_KEYS = Object.keys(getTableColumns(reservationItems)).filter((k) => k !== 'id' && k !== 'reservationId') as (keyof ItemView)[];
type BookingKey = keyof ReservationRow | 'tripId' | 'today' | 'seenPrice' | 'now' | 'message';

const placeholdersFor = <K extends string>(keys: readonly K[], p: Record<string, Placeholder>) => Object.fromEntries(keys.map((k) => [k, p[k]]));

// The write batch of a booking, compiled once (see db/compiled-query.ts); each statement's guard
// is explained in insertBooking.
const bookingWrites = {
  reservation: compiledQuery((db, p: Record<BookingKey, Placeholder>) =>
    guardedInsert(
      db,
      reservations,
      {
        ...placeholdersFor(BOOKED_KEYS, p),
        carrierId: announcements.carrierId,
        agencyId: announcements.agencyId,
        pricePerKgCents: announcements.pricePerKgCents,
        currency: announcements.currency,
      },
      announcements,
      and(
        eq(announcements.id, p.tripId),
        eq(announcements.status, 'ACTIVE'),
        gte(announcements.departureDate, p.today),
        ne(announcements.carrierId, p.senderId),
        eq(announcements.pricePerKgCents, p.seenPrice),
        sql`${announcements.reservedWeightG} + ${p.reservedWeightG} <= ${announcements.totalWeightG}`,
      ),
    ).returning({ id: reservations.id }),
  ),
  capacity: compiledQuery((db, p: Record<BookingKey, Placeholder>) =>
    db
      .update(announcements)
      .set({
        reservedWeightG: sql`${announcements.reservedWeightG} + ${p.reservedWeightG}`,
        status: sql`CASE WHEN ${announcements.reservedWeightG} + ${p.reservedWeightG} >= ${announcements.totalWeightG} THEN 'FULL' ELSE ${announcements.status} END`,
        updatedAt: sql`${p.now}`,
      })
      .where(and(eq(announcements.id, p.tripId), exists(db.select({ one: sql`1` }).from(reservations).where(eq(reservations.reservationNumber, p.reservationNumber))))),
  ),
  notification: compiledQuery((db, p: Record<BookingKey, Placeholder>) =>
    guardedNotificationInsert(
      db,
      {
        userId: p.carrierId,
        type: 'RESERVATION_CREATED',
        title: 'New booking',
        message: p.message,
        data: sql`json_object('reservationId', ${reservations.id}, 'reservationNumber', ${p.reservationNumber}, 'announcementId', ${p.tripId})`,
        createdAt: p.now,
      },
      eq(reservations.reservationNumber, p.reservationNumber),
      reservations,
    ),
  ),
  trip: compiledQuery((db, p: Record<BookingKey, Placeholder>) => db.select().from(announcements).where(eq(announcements.id, p.tripId))),
  item: compiledQuery((db, p: Record<keyof ItemView | 'reservationNumber', Placeholder>) =>
    guardedInsert(db, reservationItems, { ...placeholdersFor(ITEM_KEYS, p), reservationId: reservations.id }, reservations, eq(reservations.reservationNumber, p.reservationNumber)),
  ),
};

/** Round trip 2: returns the new id, or throws the 422 (or 409 when the price moved) that explains the refusal. */
async function insertBooking(db: Db, r: ReservationRow, seen: AnnouncementRow, items: ItemView[], now: Date): Promise<number> {
  const values = {
    ...r,
    tripId: seen.id,
    today: today(now),
    seenPrice: seen.pricePerKgCents,
    now: now.toISOString(),
    message: `${r.reservedWeightG / 1000} kg booked on your trip ${seen.departureCity} - ${seen.arrivalCity} (${r.reservationNumber}), awaiting payment`,
  };
  const results = await db.batch([
    // The reservation exists only if the trip, as it is now, can take it (state, date, not one's
    // own, price unchanged, room left); everything after it happens only if it was inserted.
    bookingWrites.reservation(db, values),
    bookingWrites.capacity(db, values),
    bookingWrites.notification(db, values),
    bookingWrites.trip(db, values),
    ...items.map((item) => bookingWrites.item(db, { ...item, reservationNumber: r.reservationNumber })),
  ]);
  const inserted = results[0];
  if (inserted.length === 1) return inserted[0].id;
  const current = results[3][0];
  if (current && current.pricePerKgCents !== seen.pricePerKgCents) {
    throw invalidState('The price of this announcement changed while booking; review it and book again');
  }
  throw (current && capacityRefusal(current, r.reservedWeightG, now)) ?? businessRule('Not enough remaining capacity on this announcement');
}

function normaliseRecipient(r: RecipientInfo): RecipientInfo {
  return {
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email ?? null,
    phone: r.phone ?? null,
    address: r.address ?? null,
    city: r.city ?? null,
    postalCode: r.postalCode ?? null,
    instructions: r.instructions ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Transitions

export interface TransitionPlan {
  reservation: ReservationRow;
  action: ReservationAction;
  set?: Partial<Pick<ReservationRow, 'confirmedAt' | 'cancelledAt' | 'cancelledBy' | 'cancellationReason'>>;
  /** Give the reserved weight back to the announcement (FULL becomes ACTIVE again). */
  releaseCapacity: boolean;
  notifications: NewNotification[];
}

/**
 * Applies many transitions in ONE atomic batch. Each plan's side effects are guarded on the
 * reservation still being in the status the plan was made for, and the transition UPDATE is
 * guarded the same way: a plan whose reservation moved meanwhile changes nothing at all.
 * Returns, per plan, the updated row or null.
 */
export async function runTransitions(db: Db, plans: TransitionPlan[]): Promise<(ReservationRow | null)[]> {
  if (plans.length === 0) return [];
  const now = new Date();
  const statements: unknown[] = [];
  const transitionIndex: number[] = [];
  for (const plan of plans) {
    const { reservation: r } = plan;
    const stillAsPlanned = and(eq(reservations.id, r.id), eq(reservations.status, r.status));
    const guard = exists(db.select({ one: sql`1` }).from(reservations).where(stillAsPlanned));
    if (plan.releaseCapacity) {
      statements.push(
        db
          .update(announcements)
          .set({
            reservedWeightG: sql`${announcements.reservedWeightG} - ${r.reservedWeightG}`,
            status: sql`CASE WHEN ${announcements.status} = 'FULL' AND ${announcements.departureDate} >= ${today(now)} THEN 'ACTIVE' ELSE ${announcements.status} END`,
            updatedAt: now.toISOString(),
          })
          .where(and(eq(announcements.id, r.announcementId), guard)),
      );
    }
    for (const n of plan.notifications) statements.push(guardedNotificationInsert(db, { ...n, createdAt: now.toISOString() }, stillAsPlanned, reservations));
    transitionIndex.push(statements.length);
    statements.push(transitionStatement(db, r.id, plan.action, plan.set ?? {}, r.status));
  }
  const results = await db.batch(statements as unknown as Parameters<typeof db.batch>[0]);
  return transitionIndex.map((i) => (results[i] as ReservationRow[])[0] ?? null);
}

/** One transition for a request: 409 INVALID_STATE if refused, including when a concurrent one won. */
async function runTransition(db: Db, plan: TransitionPlan): Promise<ReservationRow> {
  applyTransition(plan.reservation.status, plan.action);
  const [updated] = await runTransitions(db, [plan]);
  if (updated) return updated;
  const [current] = await db.select({ status: reservations.status }).from(reservations).where(eq(reservations.id, plan.reservation.id));
  if (!current) throw notFound('Reservation', plan.reservation.id);
  applyTransition(current.status, plan.action);
  throw invalidState(`The reservation changed to ${current.status} meanwhile; reload it and retry`);
}

const ref = (r: ReservationRow) => ({ reservationId: r.id, reservationNumber: r.reservationNumber });

export async function acceptReservation(db: Db, auth: AuthUser, id: number): Promise<ReservationRow> {
  const r = await loadReservation(db, id);
  await assertReservationAccess(db, auth, r, { carrier: true });
  return runTransition(db, {
    reservation: r,
    action: 'ACCEPT',
    set: { confirmedAt: new Date().toISOString() },
    releaseCapacity: false,
    notifications: [
      { userId: r.senderId, type: 'RESERVATION_CONFIRMED', title: 'Booking accepted', message: `The carrier accepted your booking ${r.reservationNumber}`, data: ref(r) },
    ],
  });
}

export async function rejectReservation(db: Db, env: Env, auth: AuthUser, id: number): Promise<ReservationRow> {
  const r = await loadReservation(db, id);
  await assertReservationAccess(db, auth, r, { carrier: true });
  applyTransition(r.status, 'REJECT');
  const decision = refundForCancellation(r.status, 'CARRIER', r);
  const updated = await runTransition(db, {
    reservation: r,
    action: 'REJECT',
    releaseCapacity: true,
    notifications: [
      { userId: r.senderId, type: 'RESERVATION_REJECTED', title: 'Booking rejected', message: `The carrier rejected your booking ${r.reservationNumber}; your payment is released in full`, data: ref(r) },
    ],
  });
  await releaseForReservation(env, updated, decision);
  return updated;
}

export async function cancelReservation(
  db: Db,
  env: Env,
  auth: AuthUser,
  id: number,
  reason: string | null,
): Promise<ReservationRow> {
  const r = await loadReservation(db, id);
  await assertReservationAccess(db, auth, r, { sender: true, carrier: true });
  const actor: CancellationActor = auth.id === r.senderId ? 'SENDER' : 'CARRIER';
  applyTransition(r.status, 'CANCEL');
  const decision = refundForCancellation(r.status, actor, r);
  const other = actor === 'CARRIER' ? r.senderId : r.carrierId;
  const refundText = decision.paid ? ` Refund: ${(decision.refundCents / 100).toFixed(2)} ${r.currency}.` : '';
  const updated = await runTransition(db, {
    reservation: r,
    action: 'CANCEL',
    set: { cancelledAt: new Date().toISOString(), cancelledBy: auth.id, cancellationReason: reason },
    releaseCapacity: true,
    notifications: [
      {
        userId: other,
        type: 'RESERVATION_CANCELLED',
        title: 'Booking cancelled',
        message: `Booking ${r.reservationNumber} was cancelled by the ${actor === 'CARRIER' ? 'carrier' : 'sender'}.${refundText}`,
        data: { ...ref(r), cancelledBy: actor, refundAmount: decision.refundCents / 100 },
      },
    ],
  });
  await releaseForReservation(env, updated, decision);
  return updated;
}

export async function recipientLink(db: Db, env: Env, auth: AuthUser, id: number) {
  const r = await loadReservation(db, id);
  await assertReservationAccess(db, auth, r, { sender: true });
  const base = (env.PUBLIC_BASE_URL ?? '').replace(/\/+$/, '');
  return { url: `${base}/r/${r.recipientToken}`, token: r.recipientToken };
}

// ---------------------------------------------------------------------------------------------
// Cron expiry

/**
 * Candidates handled per run and kind. Each plan is 3-4 statements of one batch, and every
 * statement counts against the per-invocation D1 query limit; the cron runs every 5 minutes, so a
 * backlog still drains quickly.
 */
const EXPIRY_BATCH = 25;

/**
 * Unpaid after 30 minutes: EXPIRED, capacity released, sender told. Paid and unanswered for
 * 24 hours: REJECTED, capacity released, both parties told, payment released in full.
 */
export async function expireReservations(db: Db, env: Env, now = new Date()): Promise<{ expired: number; rejected: number }> {
  const [unpaid, unanswered] = await db.batch([
    db
      .select()
      .from(reservations)
      .where(and(inArray(reservations.status, [...TRANSITIONS.EXPIRE.from]), lte(reservations.paymentDeadline, now.toISOString())))
      .orderBy(asc(reservations.paymentDeadline))
      .limit(EXPIRY_BATCH),
    db
      .select()
      .from(reservations)
      .where(
        and(
          eq(reservations.status, 'PAID'),
          lte(reservations.paidAt, new Date(now.getTime() - CARRIER_ANSWER_WINDOW_MS).toISOString()),
        ),
      )
      .orderBy(asc(reservations.paidAt))
      .limit(EXPIRY_BATCH),
  ]);
  const plans: TransitionPlan[] = [
    ...unpaid.map((r) => ({
      reservation: r,
      action: 'EXPIRE' as const,
      releaseCapacity: true,
      notifications: [
        { userId: r.senderId, type: 'RESERVATION_EXPIRED', title: 'Booking expired', message: `Booking ${r.reservationNumber} was not paid within 30 minutes and has expired`, data: ref(r) },
      ],
    })),
    ...unanswered.map((r) => ({
      reservation: r,
      action: 'REJECT' as const,
      releaseCapacity: true,
      notifications: [
        { userId: r.senderId, type: 'RESERVATION_REJECTED', title: 'Booking not answered', message: `The carrier did not answer booking ${r.reservationNumber} within 24 hours; your payment is released in full`, data: ref(r) },
        { userId: r.carrierId, type: 'RESERVATION_REJECTED', title: 'Booking rejected automatically', message: `Booking ${r.reservationNumber} was rejected because it was not answered within 24 hours`, data: ref(r) },
      ],
    })),
  ];
  const results = await runTransitions(db, plans);
  let expired = 0;
  let rejected = 0;
  for (const [i, updated] of results.entries()) {
    if (!updated) continue;
    const { reservation: before, action } = plans[i];
    if (action === 'EXPIRE') expired++;
    else rejected++;
    await releaseForReservation(env, updated, refundForCancellation(before.status, 'SYSTEM', updated));
  }
  return { expired, rejected };
}
