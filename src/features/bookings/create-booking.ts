// Booking a trip: every check in one read, then capacity taken atomically with the reservation,
// its items and the carrier's notice in one batch. Offers book through here too (agreed terms).
import { and, eq, getTableColumns, gte, inArray, ne, or, sql, type Placeholder } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  agencies,
  agencyEmployees,
  announcements,
  offers,
  categories,
  reservationItems,
  reservations,
  users,
  type AnnouncementRow,
  type RecipientInfo,
  type ReservationRow,
} from '../../db/schema';
import { aliasedColumns, compiled, runAlone, compiledShapes, guardedInsert, rowExists, rowsAsJson } from '../../db/statements';
import { publishedBy } from '../../access/trip-access';
import { actingStaffOfTrip } from '../../access/agency-scope';
import { carrierSideFrom } from '../../access/reservation-access';
import type { AuthUser, Deps } from '../../env';
import { accessDenied, businessRule, invalidState, notFound, validationError, type AppError, type FieldError, msg, type Text } from '../../errors';
import { inEachLanguage } from '../../messages';
import { fieldPath } from '../../validation';
import { categoryName } from '../categories/categories.service';
import { splitPrice, toGrams, type PriceSplit } from '../../lib/money';
import { renderText, textAmount } from '../../lib/message-text';
import { idempotencyConflict } from '../../middleware/idempotency';
import { assertChargeable } from '../money';
import { compiledNotify } from '../deliveries/notify';
import { termsOf, TRIP_TERM_FIELDS } from '../reservations/reservation-terms';
import { agencyContactColumns, PARTY_FIELDS, type ItemView, type ReservationView } from '../reservations/reservation-views';
import { fitsCapacity, remainingCapacityG, remainingCapacitySql } from '../announcements/capacity';
import { carrierAvailableCondition, isCarrierAvailable } from '../announcements/carrier-availability';
import { newRecipientToken, newReservationNumber, newSixDigitCode, PAYMENT_WINDOW_MS, declarationsOf, normaliseRecipient } from './booking-rules';
import { appConfig } from '../../config';
import { today } from './booking-ending';
import type { AgreedTerms } from './agreed-terms';
import type { CreateBookingInput, ItemInput } from './bookings.schemas';
import { addedItemRules, assertCorridorAllows } from '../reference/prohibited-items.service';
import { declaredValuesMinor } from '../reservations/declared-value';
import { bookingProtection, type ProtectionColumns } from '../protection/protection.rules';

// The reads of a booking, compiled once (see db/statements.ts): the trip with its carrier and the
// status of the agency it belongs to, if any.
const bookingSender = alias(users, 'booking_sender');
// Everything a booking checks, in one statement: the trip with its carrier and agency's status, the
// sender (null when the account is gone; PARTY_FIELDS holds `enabled`, checked below) and the
// categories of its items as a JSON column, compiled once per number of distinct categories (c0, c1, ...).
const bookingRead = compiledShapes((shape: { n: number }) =>
  compiled((db, p: Record<string, Placeholder>) =>
    db
      .select({
        a: aliasedColumns(announcements, 'a'),
        carrier: aliasedColumns(users, 'k', PARTY_FIELDS),
        agencyStatus: agencies.status,
        agency: agencyContactColumns(announcements.agencyId),
        // The caller owns or works for the trip's agency (any branch): no member books its trips.
        senderIsMember: sql<number>`(${or(
          eq(agencies.ownerId, p.senderId),
          rowExists(db, agencyEmployees, and(eq(agencyEmployees.agencyId, announcements.agencyId), eq(agencyEmployees.userId, p.senderId))),
        )})`.mapWith(Boolean),
        sender: aliasedColumns(bookingSender, 's', PARTY_FIELDS),
        categories: rowsAsJson(categories, inArray(categories.id, Array.from({ length: shape.n }, (_, k) => p[`c${k}`]))).as('categories_json'),
      })
      .from(announcements)
      .innerJoin(users, eq(users.id, announcements.carrierId))
      .leftJoin(agencies, eq(agencies.id, announcements.agencyId))
      .leftJoin(bookingSender, eq(bookingSender.id, p.senderId))
      .where(eq(announcements.id, p.id)),
  ),
);

/** Why an announcement cannot take `weightG` more grams now, or null if it can. */
function capacityRefusal(a: AnnouncementRow, weightG: number, now: Date): AppError | null {
  if (a.status === 'CLOSED' || a.status === 'CANCELLED') return businessRule('booking.announcementTakesNoMore', { id: a.id, status: a.status.toLowerCase() });
  if (a.departureDate < today(now)) return businessRule('booking.announcementAlreadyDeparted', { id: a.id });
  if (a.status === 'FULL' || !fitsCapacity(a, weightG)) {
    return businessRule('booking.notEnoughRemainingCapacity', {
      suggestions: [msg('booking.remainingCapacityKg', { kg: remainingCapacityG(a) / 1000 })],
    });
  }
  return null;
}

/** A suspended carrier's trip (CONTRACT section 19): 422, without saying why the carrier is gone. */
const carrierUnavailable = () => businessRule('booking.tripNoLongerTakes');

const UNIQUE_IDEMPOTENCY = /UNIQUE constraint failed: reservations\.sender_id, reservations\.idempotency_key/;
const UNIQUE_NUMBER = /UNIQUE constraint failed: reservations\.(reservation_number|recipient_token)/;

/**
 * Books capacity in two D1 round trips: checkBooking's read; one batch inserting the reservation
 * only if the trip still has the room (INSERT ... SELECT ... WHERE), then the counter, the items and
 * the carrier's notice, each guarded on that reservation. A refused booking leaves nothing.
 */
export async function createBooking(
  deps: Deps,
  auth: { id: number } & Partial<AuthUser>,
  input: CreateBookingInput,
  idempotencyKey: string | null,
  agreed?: AgreedTerms,
): Promise<ReservationView> {
  const { db, env } = deps;
  const now = new Date();
  const weightG = toGrams(input.reservedWeight);
  const { a, sender, carrier, agency, items, carrierSide } = await checkBooking(deps, auth, input, now);

  const pricePerKg = agreed?.pricePerKgMinor ?? a.pricePerKgCents;
  const config = appConfig(env);
  const premium = bookingProtection(config.protection, input.protection, items.map((i) => i.declaredValueMinor), a.currency);
  const split = { ...splitPrice(weightG, pricePerKg, config.platform.commissionRate), ...premium };
  assertChargeable(split.totalAmountCents, a.currency);
  const recipient = normaliseRecipient(input.recipient, [a.arrivalCountry, a.departureCountry]);

  // A fresh number collides about once in 10^11 bookings: one retry, then a plain 500.
  for (let attempt = 0; ; attempt++) {
    const r = { ...newReservationRow({ auth, a, input, weightG, split, recipient, idempotencyKey, now }), pricePerKgCents: pricePerKg };
    try {
      const id = await insertBooking(db, r, a, { items, carrierSide }, now, agreed);
      return { r: { ...r, id }, a, sender, carrier, agency, items };
    } catch (err) {
      const message = err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : '';
      if (UNIQUE_IDEMPOTENCY.test(message)) throw idempotencyConflict();
      if (UNIQUE_NUMBER.test(message) && attempt === 0) continue;
      throw err;
    }
  }
}

/**
 * Everything a booking checks before writing, in one round trip: the trip (visible, taking
 * bookings, not departed, room left), who books it, the items and the corridor. Offers check the
 * same when they are made (offers/).
 */
export async function checkBooking(deps: Deps, auth: { id: number }, input: CreateBookingInput, now = new Date()) {
  const { db } = deps;
  const weightG = toGrams(input.reservedWeight);
  const categoryIds = [...new Set(input.items.map((i) => i.categoryId))];

  // The admins' prohibited items ride along (the corridor is known once the trip is read).
  // The admins' prohibited items and the trip's acting staff (told of the booking) ride along.
  const [[trip], addedRules, staff] = await db.batch([
    bookingRead({ n: categoryIds.length })(db, { id: input.announcementId, senderId: auth.id, ...Object.fromEntries(categoryIds.map((id, k) => [`c${k}`, id])) }),
    addedItemRules(db),
    actingStaffOfTrip(db, input.announcementId),
  ]);
  // A suspended agency's trips are hidden: booking one is like booking a trip that does not exist.
  if (!trip || trip.agencyStatus === 'SUSPENDED') throw notFound('Announcement', input.announcementId);
  const { a, carrier, categories: categoryRows } = trip;
  const sender = assertMayBook(auth, trip);
  const items = bookedItems(input.items, categoryRows, a.acceptedCategoryIds ?? [], declaredValuesMinor(input.items, a.currency));
  assertCorridorAllows(addedRules, a.departureCountry, a.arrivalCountry, items, input.acknowledgedRestrictions ?? []);
  const early = capacityRefusal(a, weightG, now);
  if (early) throw early;
  return { a, sender, carrier, agency: trip.agency, items, carrierSide: carrierSideFrom(a, staff) };
}

type BookingTrip = NonNullable<Awaited<ReturnType<ReturnType<typeof bookingRead>>>[number]>;

/**
 * Who may book this trip: an enabled sender, not its carrier nor one of its agency's staff, while
 * its carrier is available. Returns the sender.
 */
function assertMayBook(auth: Pick<AuthUser, 'id'>, { a, carrier, sender, senderIsMember }: BookingTrip) {
  if (!sender || !sender.enabled) throw accessDenied('booking.accountCannotBook');
  if (publishedBy(auth, a)) throw businessRule('booking.cannotBookOwnAnnouncement');
  if (!isCarrierAvailable(a, carrier.enabled)) throw carrierUnavailable();
  if (senderIsMember) throw businessRule('booking.cannotBookOwnAgency');
  return sender;
}

/**
 * The parcel's items as booked: each of a known category, none prohibited, each accepted by the
 * trip (a trip that lists no category accepts all), with their defaults filled in.
 */
function bookedItems(input: ItemInput[], categoryRows: BookingTrip['categories'], accepted: number[], declared: (number | null)[]): ItemView[] {
  const categoryById = new Map(categoryRows.map((c) => [c.id, c]));
  const unknown = input.flatMap((item, i): FieldError[] =>
    categoryById.has(item.categoryId) ? [] : [{ field: `items[${i}].categoryId`, message: 'booking.unknownCategory', rejectedValue: item.categoryId }],
  );
  if (unknown.length > 0) {
    throw validationError('booking.validationFailedBodyUnknown', {
      fieldErrors: unknown,
      suggestions: ['booking.useCategoryIdGet'],
    });
  }
  // A category prohibited everywhere, then one the trip does not take: 422 naming each item's category.
  const refusedItems = (refused: (c: BookingTrip['categories'][number]) => boolean, message: Text) =>
    input.flatMap((item, i): FieldError[] => (refused(categoryById.get(item.categoryId)!) ? [{ field: fieldPath(['items', i, 'categoryId']), message, rejectedValue: item.categoryId }] : []));
  const names = (rows: BookingTrip['categories']) => inEachLanguage((l) => rows.map((c) => categoryName(c)[l]).join(', '));
  const prohibited = categoryRows.filter((c) => c.prohibited);
  if (prohibited.length > 0) {
    throw businessRule('booking.categoryProhibited', { category: names(prohibited) }, { fieldErrors: refusedItems((c) => c.prohibited, msg('booking.categoryProhibited', { category: names(prohibited) })) });
  }
  const refused = accepted.length > 0 ? categoryRows.filter((c) => !accepted.includes(c.id)) : [];
  if (refused.length > 0) throw businessRule('booking.tripNotAccept', { refused: names(refused) }, { fieldErrors: refusedItems((c) => !accepted.includes(c.id), 'booking.categoryNotAccepted') });

  return input.map((item, i) => {
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
      declaredValueMinor: declared[i],
    };
  });
}

interface NewBooking {
  auth: Pick<AuthUser, 'id'>;
  a: AnnouncementRow;
  input: CreateBookingInput;
  weightG: number;
  split: PriceSplit & ProtectionColumns;
  recipient: RecipientInfo;
  idempotencyKey: string | null;
  now: Date;
}

/** A booking as it is born: PENDING_PAYMENT, the trip's price and terms, fresh number, codes and recipient token. */
function newReservationRow({ auth, a, input, weightG, split, recipient, idempotencyKey, now }: NewBooking): ReservationRow {
  return {
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
    declarations: declarationsOf(input),
    recipientToken: newRecipientToken(),
    pricePerKgCents: a.pricePerKgCents,
    ...termsOf(a),
    tripChangedAt: null,
    cancellationPolicy: a.cancellationPolicy,
    ...split,
    currency: a.currency,
    paymentId: null,
    authorizationId: null,
    captureId: null,
    refundId: null,
    refundedAt: null,
    refundAttempt: 0,
    settlementError: null,
    paymentStatus: null,
    paymentDate: null,
    paymentApprovalUrl: null,
    invoiceId: null,
    invoiceTransactionId: null,
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
}

/** Reservation columns a booking binds (the trip's own fields are copied from the trip row by SQL). */
const FROM_TRIP = ['id', 'carrierId', 'agencyId', 'pricePerKgCents', 'currency', 'cancellationPolicy', ...TRIP_TERM_FIELDS] as const;
const BOOKED_KEYS = Object.keys(getTableColumns(reservations)).filter((k) => !(FROM_TRIP as readonly string[]).includes(k)) as (keyof ReservationRow)[];
const ITEM_KEYS = Object.keys(getTableColumns(reservationItems)).filter((k) => k !== 'id' && k !== 'reservationId') as (keyof ItemView)[];
type BookingKey = keyof ReservationRow | 'recipientId' | 'tripId' | 'today' | 'seenPrice' | 'now' | 'message' | 'text' | 'agreedPrice' | 'offerId' | 'offerStatus';

const placeholdersFor = <K extends string>(keys: readonly K[], p: Record<string, Placeholder>) => Object.fromEntries(keys.map((k) => [k, p[k]]));

// The write batch of a booking, compiled once (see db/statements.ts); each statement's guard
// is explained in insertBooking.
const bookingWrites = {
  reservation: compiled((db, p: Record<BookingKey, Placeholder>) =>
    guardedInsert(
      db,
      reservations,
      {
        ...placeholdersFor(BOOKED_KEYS, p),
        carrierId: announcements.carrierId,
        agencyId: announcements.agencyId,
        pricePerKgCents: sql`coalesce(${p.agreedPrice}, ${announcements.pricePerKgCents})`,
        currency: announcements.currency,
        cancellationPolicy: announcements.cancellationPolicy,
        // The terms as the trip has them when the booking is written (CONTRACT section 19).
        ...Object.fromEntries(TRIP_TERM_FIELDS.map((k) => [k, announcements[k]])),
      },
      announcements,
      and(
        eq(announcements.id, p.tripId),
        eq(announcements.status, 'ACTIVE'),
        gte(announcements.departureDate, p.today),
        ne(announcements.carrierId, p.senderId),
        // The listed price unchanged since the read, or the offer agreed on still unanswered.
        sql`((${p.agreedPrice} IS NULL AND ${eq(announcements.pricePerKgCents, p.seenPrice)} AND ${p.offerId} IS NULL)
          OR (${p.agreedPrice} IS NOT NULL AND ${rowExists(db, offers, and(eq(offers.id, p.offerId), eq(offers.status, p.offerStatus)))}))`,
        sql`${p.reservedWeightG} <= ${remainingCapacitySql()}`,
        // The carrier suspended since the read: no booking slips past the suspension's sweep.
        carrierAvailableCondition(),
      ),
    ).returning({ id: reservations.id }),
  ),
  capacity: compiled((db, p: Record<BookingKey, Placeholder>) =>
    db
      .update(announcements)
      .set({
        reservedWeightG: sql`${announcements.reservedWeightG} + ${p.reservedWeightG}`,
        status: sql`CASE WHEN ${p.reservedWeightG} >= ${remainingCapacitySql()} THEN 'FULL' ELSE ${announcements.status} END`,
        updatedAt: sql`${p.now}`,
      })
      .where(and(eq(announcements.id, p.tripId), rowExists(db, reservations, eq(reservations.reservationNumber, p.reservationNumber)))),
  ),
  notification: compiledNotify((db, p: Record<BookingKey, Placeholder>) => ({
    item: {
      userId: p.recipientId,
      type: 'RESERVATION_CREATED',
      text: { json: p.text, english: p.message },
      data: sql`json_object('reservationId', ${reservations.id}, 'reservationNumber', ${p.reservationNumber}, 'announcementId', ${p.tripId})`,
      createdAt: p.now,
    },
    guard: and(eq(reservations.reservationNumber, p.reservationNumber), sql`${p.offerId} IS NULL`),
    source: reservations,
    // An unpaid booking is news for the app, not an e-mail: the carrier is sent RESERVATION_PAID.
  }), { inAppOnly: true }),
  trip: compiled((db, p: Record<BookingKey, Placeholder>) =>
    db
      .select({ ...getTableColumns(announcements), carrierEnabled: aliasedColumns(users, 'k', ['enabled']).enabled })
      .from(announcements)
      .innerJoin(users, eq(users.id, announcements.carrierId))
      .where(eq(announcements.id, p.tripId)),
  ),
  item: compiled((db, p: Record<keyof ItemView | 'reservationNumber', Placeholder>) =>
    guardedInsert(db, reservationItems, { ...placeholdersFor(ITEM_KEYS, p), reservationId: reservations.id }, reservations, eq(reservations.reservationNumber, p.reservationNumber)),
  ),
};

/** The carrier's RESERVATION_CREATED words, bound as JSON beside their English. */
function createdNotice(r: ReservationRow, seen: AnnouncementRow) {
  const text = msg('notice.bookingCreated', {
    kg: r.reservedWeightG / 1000,
    from: seen.departureCity,
    to: seen.arrivalCity,
    number: r.reservationNumber,
    total: textAmount(r.totalAmountCents + r.protectionPremiumCents, r.currency),
  });
  return { text: JSON.stringify(text), message: renderText(text, 'en') };
}

/** Round trip 2: returns the new id, or throws the 422 (or 409 when the price moved) that explains the refusal. */
async function insertBooking(
  db: Db,
  r: ReservationRow,
  seen: AnnouncementRow,
  { items, carrierSide }: { items: ItemView[]; carrierSide: number[] },
  now: Date,
  agreed?: AgreedTerms,
): Promise<number> {
  const values = {
    ...r,
    // Bound per recipient by the notification below; the other statements do not read it.
    recipientId: r.carrierId,
    agreedPrice: agreed?.pricePerKgMinor ?? null,
    offerId: agreed?.offerId ?? null,
    offerStatus: agreed?.offerStatus ?? null,
    tripId: seen.id,
    today: today(now),
    seenPrice: seen.pricePerKgCents,
    now: now.toISOString(),
    ...createdNotice(r, seen),
  };
  const results = await db.batch([
    // The reservation exists only if the trip, as it is now, can take it (state, date, not one's
    // own, price unchanged, room left); everything after it happens only if it was inserted.
    bookingWrites.reservation(db, values),
    bookingWrites.capacity(db, values),
    // The carrier, or each member of the agency trip's acting staff (CONTRACT 25).
    ...carrierSide.flatMap((recipientId) => bookingWrites.notification(db, { ...values, recipientId })),
    ...items.map((item) => bookingWrites.item(db, { ...item, reservationNumber: r.reservationNumber })),
    ...(agreed?.alongside(db, r.reservationNumber) ?? []),
  ]);
  const inserted = results[0];
  if (inserted.length === 1) return inserted[0].id;
  const moved = await agreed?.refusal();
  if (moved) throw moved;
  // Refused (rare): the trip as it is now says why.
  const [current] = await runAlone(bookingWrites.trip(db, values));
  if (current && !isCarrierAvailable(current, current.carrierEnabled)) throw carrierUnavailable();
  if (current && !agreed && current.pricePerKgCents !== seen.pricePerKgCents) {
    throw invalidState('booking.priceAnnouncementChangedWhile');
  }
  throw (current && capacityRefusal(current, r.reservedWeightG, now)) ?? businessRule('booking.notEnoughRemainingCapacity');
}
