// Offers (CONTRACT 22): a sender proposes a weight and a price per kg with the booking details;
// the carrier side (the carrier, or its agency branch's staff) accepts, declines or counters; the
// sender answers a counter or withdraws. Accepting books through the one booking path
// (create-booking.ts createBooking, with the agreed terms), so the capacity is held exactly as a
// booking holds it. Every step notifies the other side in the batch that makes it.
import { and, asc, eq, inArray, lte, not, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { announcements, offers, reservations, type OfferRow, type OfferStatus } from '../../db/schema';
import { guardedInsert, readPage, rowExists, runBatch, type Statement } from '../../db/statements';
import type { AuthUser, Deps } from '../../env';
import { alreadyExists, invalidState, notFound } from '../../errors';
import { assertCanRead, assertSide, carrierSideCondition, carrierSideIds } from '../../access/reservation-access';
import { appConfig } from '../../config';
import { formatMoney, splitPrice, toGrams } from '../../lib/money';
import type { CurrencyCode } from '../../lib/currency';
import { orderBy, type PageParams } from '../../lib/pagination';
import { assertChargeable } from '../money';
import { notify, type Notification } from '../deliveries/notify';
import { pricePerKgMinor } from '../announcements/trip-currency';
import { checkBooking, createBooking } from '../bookings/create-booking';
import type { CreateBookingInput, ItemInput } from '../bookings/bookings.schemas';
import { declarationsOf, normaliseRecipient } from '../bookings/booking-rules';
import { agreedPricePerKg, isPastExpiry, offerExpiry, offerStep, OPEN_OFFER_STATUSES, type OfferAction, type OfferSide } from './offers.rules';
import { msg, type Message } from '../../messages';
import { textAmount } from '../../lib/message-text';
import { priceMinor } from '../../lib/splits';

export interface MakeOfferInput extends Omit<CreateBookingInput, 'announcementId'> {
  pricePerKg: number;
  message?: string | null;
}

/** An offer with what its messages and answers need of its trip. */
export interface OfferView {
  offer: OfferRow;
  trip: { departureCity: string; arrivalCity: string; departureDate: string };
}

const TRIP_OF_OFFER = { departureCity: announcements.departureCity, arrivalCity: announcements.arrivalCity, departureDate: announcements.departureDate };

/** What an offer's notices say of it: the route, the weight, the price per kg and the total, at `pricePerKg` (minor units). */
const termsOf = (offer: Pick<OfferRow, 'reservedWeightG' | 'currency'>, trip: Pick<OfferView['trip'], 'departureCity' | 'arrivalCity'>, pricePerKg: number) => ({
  from: trip.departureCity,
  to: trip.arrivalCity,
  kg: offer.reservedWeightG / 1000,
  price: textAmount(pricePerKg, offer.currency),
  total: textAmount(priceMinor(offer.reservedWeightG, pricePerKg), offer.currency),
});
const dataOf = (offer: Pick<OfferRow, 'id' | 'announcementId'>) => ({ offerId: offer.id, announcementId: offer.announcementId });

/**
 * A sender's offer on a trip: checked like a booking (the trip takes bookings and has the room,
 * not one's own, the items and the corridor), the price in the trip currency's decimals, the
 * total chargeable. One open offer per sender and trip. The carrier is told in the same batch.
 */
export async function makeOffer(deps: Deps, auth: AuthUser, announcementId: number, input: MakeOfferInput): Promise<OfferView> {
  const { db, env } = deps;
  const now = new Date();
  const { a } = await checkBooking(deps, auth, { ...input, announcementId }, now);
  const priceMinor = pricePerKgMinor(input.pricePerKg, a.currency as CurrencyCode);
  const weightG = toGrams(input.reservedWeight);
  assertChargeable(splitPrice(weightG, priceMinor, appConfig(env).platform.commissionRate).totalAmountCents, a.currency);

  const at = now.toISOString();
  const mine = and(eq(offers.senderId, auth.id), eq(offers.announcementId, announcementId));
  const open = and(mine, inArray(offers.status, [...OPEN_OFFER_STATUSES]));
  const values = {
    announcementId,
    senderId: auth.id,
    carrierId: a.carrierId,
    agencyId: a.agencyId,
    reservedWeightG: weightG,
    pricePerKgMinor: priceMinor,
    currency: a.currency,
    details: {
      contentInfo: input.contentInfo ?? null,
      items: input.items as unknown as Record<string, unknown>[],
      recipient: normaliseRecipient(input.recipient, [a.arrivalCountry, a.departureCountry]),
      acknowledgedRestrictions: declarationsOf(input)?.acknowledgedRestrictions ?? [],
      declarations: input.declarations ?? null,
    },
    message: input.message ?? null,
    expiresAt: offerExpiry(now, a.departureDate),
    createdAt: at,
    updatedAt: at,
  };
  // The carrier side is told: the carrier, or an agency trip's acting staff now (CONTRACT 25).
  const carrierSide = await carrierSideIds(deps, { carrierId: a.carrierId, agencyId: a.agencyId, announcementId });
  const note = (userId: number): Notification => ({
    userId,
    type: 'OFFER_RECEIVED',
    text: msg('notice.offerReceived', termsOf({ reservedWeightG: weightG, currency: a.currency }, a, priceMinor)),
    data: sql`json_object('offerId', ${offers.id}, 'announcementId', ${announcementId})`,
    createdAt: at,
  });
  const results = await db.batch([
    guardedInsert(db, offers, values, undefined, not(rowExists(db, offers, open))).returning(),
    ...notify(db, carrierSide.map(note), and(mine, eq(offers.createdAt, at)), offers),
  ]);
  const [row] = results[0] as OfferRow[];
  if (!row) {
    const [existing] = await db.select({ id: offers.id }).from(offers).where(open);
    throw alreadyExists('offer.alreadyOpen', { id: existing?.id ?? '' }, { suggestions: ['offer.seeOffers'] });
  }
  return { offer: row, trip: { departureCity: a.departureCity, arrivalCity: a.arrivalCity, departureDate: a.departureDate } };
}

/** The offer with its trip's route and date, or 404. */
export async function loadOffer(db: Db, id: number): Promise<OfferView> {
  const [found] = await db.select({ offer: offers, trip: TRIP_OF_OFFER }).from(offers).innerJoin(announcements, eq(announcements.id, offers.announcementId)).where(eq(offers.id, id));
  if (!found) throw notFound('Offer', id);
  return found;
}

/** Its sender, its carrier side (the carrier, or the agency branch's staff, like a reservation's) and admins read an offer. */
export async function getOffer(deps: Deps, auth: AuthUser, id: number): Promise<OfferView> {
  const view = await loadOffer(deps.db, id);
  await assertCanRead(deps, auth, view.offer);
  return view;
}

export type OfferSort = 'createdAt' | 'expiresAt';

/**
 * The caller's offers as sender, or as carrier: those on their own trips and, for agency staff,
 * on their agency's trips (an employee: their branch's), newest first by default.
 */
export async function listOffers(deps: Deps, auth: AuthUser, role: 'sender' | 'carrier', status: OfferStatus | undefined, page: PageParams<OfferSort>) {
  const { db } = deps;
  // An agency trip's offers are the agency's (access/): whoever acts for it now sees them, not the
  // staff member who published the trip once they moved branch or left.
  const party = role === 'carrier' ? carrierSideCondition(db, sql`${auth.id}`, offers) : eq(offers.senderId, auth.id);
  const where = and(party, status ? eq(offers.status, status) : undefined);
  const { rows, total } = await readPage(db, offers, where, orderBy(page.sort, { createdAt: offers.createdAt, expiresAt: offers.expiresAt }, offers.id), page);
  return { rows, total };
}

/**
 * Accept, decline, counter (with the carrier's price) or withdraw an offer, by the rules of
 * offers.rules.ts offerStep; an offer past its time is answered 409 even before the cron marks it.
 */
export async function answerOffer(deps: Deps, auth: AuthUser, id: number, action: OfferAction, counterPricePerKg?: number): Promise<OfferView> {
  const view = await loadOffer(deps.db, id);
  const { offer } = view;
  // A stranger (admins included: they read, never answer) gets 403.
  const side = await assertSide(deps, auth, offer);
  const step = offerStep(offer, action, side);
  if ('error' in step) throw step.error;
  const now = new Date();
  if (isPastExpiry(offer, now)) throw invalidState('offer.expired', { id, expiresAt: offer.expiresAt });
  if (step.to === 'ACCEPTED') return acceptOffer(deps, view, side, now);
  const counter = counterPricePerKg === undefined ? undefined : pricePerKgMinor(counterPricePerKg, offer.currency as CurrencyCode);
  if (counter !== undefined) {
    assertChargeable(splitPrice(offer.reservedWeightG, counter, appConfig(deps.env).platform.commissionRate).totalAmountCents, offer.currency);
  }
  return changeOffer(deps, view, step.to, side, now, counter);
}

/** The other side of an offer: the sender, or the carrier side now (an agency trip's acting staff). */
const otherSide = async (deps: Deps, offer: OfferRow, side: OfferSide) => (side === 'SENDER' ? carrierSideIds(deps, offer) : [offer.senderId]);

/** The notices of an answer for the other side. */
function answerNotes(view: OfferView, others: number[], to: OfferStatus, side: OfferSide, counter?: number): Notification[] {
  const { offer, trip } = view;
  // The price the answer is about: the counter made now, else the one on the table.
  const terms = termsOf(offer, trip, counter ?? agreedPricePerKg(offer));
  const texts: Partial<Record<OfferStatus, [Notification['type'], Message]>> = {
    COUNTERED: ['OFFER_COUNTERED', msg('notice.offerCountered', terms)],
    DECLINED: ['OFFER_DECLINED', msg(side === 'CARRIER' ? 'notice.offerDeclinedByCarrier' : 'notice.offerDeclinedBySender', terms)],
    WITHDRAWN: ['OFFER_WITHDRAWN', msg('notice.offerWithdrawn', terms)],
  };
  const [type, text] = texts[to]!;
  return others.map((userId) => ({ userId, type, text, data: dataOf(offer) }));
}

/** Decline, counter or withdraw: one conditional update on the status read, with the other side's notice under it. */
async function changeOffer(deps: Deps, view: OfferView, to: OfferStatus, side: OfferSide, now: Date, counter?: number): Promise<OfferView> {
  const { db } = deps;
  const { offer, trip } = view;
  const others = await otherSide(deps, offer, side);
  const at = now.toISOString();
  const set = {
    status: to,
    answeredAt: at,
    updatedAt: at,
    ...(to === 'COUNTERED' ? { counterPricePerKgMinor: counter, expiresAt: offerExpiry(now, trip.departureDate) } : {}),
  };
  const [changed] = await db.batch([
    db.update(offers).set(set).where(and(eq(offers.id, offer.id), eq(offers.status, offer.status))).returning(),
    ...notify(db, answerNotes(view, others, to, side, counter), rowExists(db, offers, and(eq(offers.id, offer.id), eq(offers.status, to), eq(offers.updatedAt, at)))),
  ]);
  if (changed.length === 1) return { offer: changed[0], trip };
  const current = await loadOffer(db, offer.id);
  throw invalidState('offer.notOpen', { id: offer.id, status: current.offer.status });
}

/** The booking an offer stands for, as POST /bookings would have taken it. */
const bookingOf = (offer: OfferRow): CreateBookingInput => ({
  announcementId: offer.announcementId,
  reservedWeight: offer.reservedWeightG / 1000,
  contentInfo: offer.details.contentInfo,
  items: offer.details.items as unknown as ItemInput[],
  recipient: offer.details.recipient,
  acknowledgedRestrictions: offer.details.acknowledgedRestrictions,
  ...(offer.details.declarations ? { declarations: offer.details.declarations } : {}),
});

/**
 * Accepting books the offer through createBooking at the agreed price, for the sender: the same
 * checks, the capacity held by the same conditional insert (two acceptances on the last kilos
 * never both succeed), and in that batch the offer marked ACCEPTED with its reservation and the
 * other side told, all guarded on the reservation being written.
 */
async function acceptOffer(deps: Deps, view: OfferView, side: OfferSide, now: Date): Promise<OfferView> {
  const { offer, trip } = view;
  const { db } = deps;
  const at = now.toISOString();
  const agreed = agreedPricePerKg(offer);
  const others = await otherSide(deps, offer, side);
  const text = (number: string) => msg(side === 'CARRIER' ? 'notice.offerAcceptedByCarrier' : 'notice.offerAcceptedBySender', { ...termsOf(offer, trip, agreed), number });
  const alongside = (d: Db, reservationNumber: string): Statement[] => {
    const booked = eq(reservations.reservationNumber, reservationNumber);
    return [
      d
        .update(offers)
        .set({ status: 'ACCEPTED', reservationId: sql`(${d.select({ id: reservations.id }).from(reservations).where(booked)})`, answeredAt: at, updatedAt: at })
        .where(and(eq(offers.id, offer.id), eq(offers.status, offer.status), rowExists(d, reservations, booked))),
      ...notify(
        d,
        others.map((userId) => ({
          userId,
          type: 'OFFER_ACCEPTED' as const,
          text: text(reservationNumber),
          data: sql`json_object('offerId', ${offer.id}, 'announcementId', ${offer.announcementId}, 'reservationId', ${reservations.id}, 'reservationNumber', ${reservationNumber})`,
          createdAt: at,
        })),
        booked,
        reservations,
      ),
    ];
  };
  const refusal = async () => {
    const current = await loadOffer(db, offer.id);
    return current.offer.status === offer.status ? null : invalidState('offer.notOpen', { id: offer.id, status: current.offer.status });
  };
  await createBooking(deps, { id: offer.senderId }, bookingOf(offer), null, { pricePerKgMinor: agreed, offerId: offer.id, offerStatus: offer.status, alongside, refusal });
  return loadOffer(db, offer.id);
}

// ---------------------------------------------------------------------------------------------
// Cron expiry

/** Offers expired per run: each takes about five statements (the update, two notices with their deliveries). */
const EXPIRY_BATCH = 20;

/**
 * Open offers past their time, or whose trip departs today or has departed: EXPIRED, both sides
 * told. Each update is guarded on the status read, so a run that races an answer, or a second
 * run, changes nothing twice.
 */
export async function expireOffers(deps: Deps, now = new Date()): Promise<number> {
  const { db } = deps;
  const at = now.toISOString();
  const due = await db
    .select({ offer: offers, trip: TRIP_OF_OFFER })
    .from(offers)
    .innerJoin(announcements, eq(announcements.id, offers.announcementId))
    .where(and(inArray(offers.status, [...OPEN_OFFER_STATUSES]), or(lte(offers.expiresAt, at), lte(announcements.departureDate, at.slice(0, 10)))))
    .orderBy(asc(offers.expiresAt))
    .limit(EXPIRY_BATCH);
  if (due.length === 0) return 0;
  // Both sides told: the sender, and the carrier side now (an agency trip's acting staff).
  const carrierSides = new Map(await Promise.all(due.map(async ({ offer }) => [offer.id, await carrierSideIds(deps, offer)] as const)));
  return expireEach(db, due, at, (offer, trip) => {
    const text = msg('notice.offerExpired', termsOf(offer, trip, agreedPricePerKg(offer)));
    return [offer.senderId, ...(carrierSides.get(offer.id) ?? [])].map((userId) => ({ userId, type: 'OFFER_EXPIRED', text, data: dataOf(offer) }));
  });
}

/**
 * Open offers on a trip the moderation removed (a report closed with HIDE_ANNOUNCEMENT): EXPIRED
 * at once, the sender told why (the carrier has the trip's own notice). Accepting one would be
 * refused anyway (the trip takes no booking); this ends the wait. Returns how many expired.
 */
export async function expireOffersOfRemovedTrip(deps: Deps, announcementId: number, now = new Date()): Promise<number> {
  const { db } = deps;
  const at = now.toISOString();
  let expired = 0;
  // Rounds of EXPIRY_BATCH; an offer answered meanwhile is not read again (it is no longer open).
  for (let round = 0; round < 10; round++) {
    const due = await db
      .select({ offer: offers, trip: TRIP_OF_OFFER })
      .from(offers)
      .innerJoin(announcements, eq(announcements.id, offers.announcementId))
      .where(and(eq(offers.announcementId, announcementId), inArray(offers.status, [...OPEN_OFFER_STATUSES])))
      .orderBy(asc(offers.id))
      .limit(EXPIRY_BATCH);
    if (due.length === 0) break;
    expired += await expireEach(db, due, at, (offer, trip) => [
      {
        userId: offer.senderId,
        type: 'OFFER_EXPIRED',
        text: msg('notice.offerClosedTripRemoved', { from: trip.departureCity, to: trip.arrivalCity }),
        data: { ...dataOf(offer), reason: 'TRIP_REMOVED' },
      },
    ]);
    if (due.length < EXPIRY_BATCH) break;
  }
  return expired;
}

/** Each offer EXPIRED if still in the status read, with its notices under that: one batch; how many expired. */
async function expireEach(db: Db, due: OfferView[], at: string, notesOf: (offer: OfferRow, trip: OfferView['trip']) => Notification[]): Promise<number> {
  const updates: number[] = [];
  const statements: Statement[] = [];
  for (const { offer, trip } of due) {
    updates.push(statements.length);
    statements.push(
      db.update(offers).set({ status: 'EXPIRED', updatedAt: at }).where(and(eq(offers.id, offer.id), eq(offers.status, offer.status))).returning({ id: offers.id }),
      ...notify(db, notesOf(offer, trip), rowExists(db, offers, and(eq(offers.id, offer.id), eq(offers.status, 'EXPIRED'), eq(offers.updatedAt, at)))),
    );
  }
  const results = (await runBatch(db, statements)) as unknown[][];
  // What this run expired (an offer answered meanwhile is left as it is).
  return updates.filter((i) => results[i].length === 1).length;
}
