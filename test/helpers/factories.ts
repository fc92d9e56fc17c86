// The one place test fixtures are made: dates, users, categories, trips (announcements),
// reservations in any status of the state machine, payout accounts, and request bodies.
//
// Rows go straight into D1 (the feature that would create them is another feature's test);
// `publishTrip` and `bookThroughApi` go through the HTTP API for the tests of those routes.
// A reservation made with `payment: stripe` really goes through the payment (a signed
// provider webhook answered by the fake Stripe) and the transitions, so its escrow and ledger
// entries exist; without it the row is inserted in the wanted status and no money moved.
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { database } from '../../src/db/client';
import {
  agencies,
  agencyBranches,
  announcements,
  categories,
  deliveries,
  files,
  payoutAccounts,
  reservations,
  users,
  type AnnouncementRow,
  type DeliveryRow,
  type ReservationRow,
} from '../../src/db/schema';
import { depsOf } from '../../src/env';
import { captureLoaded, releaseEffects, releaseHeldShares, type ReservationMoney } from '../../src/features/money';
import { commitTransition, loadReservation, type TransitionPlan } from '../../src/features/reservations/lifecycle';
import type { ReservationStatus } from '../../src/features/reservations/reservation-state';
import { termsOf } from '../../src/features/reservations/reservation-terms';
import { ACCESS_TOKEN_TTL_SECONDS, signToken } from '../../src/lib/jwt';
import { splitPrice } from '../../src/lib/money';
import type { FakeStripe } from './fake-stripe';
import { sendPaymentEvent } from './money';
import { post } from './http';

const db = () => database(env.DB);
let counter = 0;
const next = () => (counter += 1);
const shortId = () => crypto.randomUUID().slice(0, 8);

// ---- Dates ---------------------------------------------------------------------------------

/** YYYY-MM-DD, `days` from today (UTC); negative for the past. */
export function daysFromToday(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** An ISO timestamp `seconds` from now (the clock, faked or not); negative for the past. */
export const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/** An ISO timestamp `minutes` from now; negative for the past. */
export const minutesFromNow = (minutes: number) => secondsFromNow(minutes * 60);

/** A city name no other test uses, so searches by city see only this test's trips. */
export const uniqueCity = (base = 'Town') => `${base} ${shortId()}`;

// ---- Users ---------------------------------------------------------------------------------

export interface TestUser {
  id: number;
  email: string;
  roles: string[];
  token: string;
}

export interface UserOptions {
  email?: string;
  firstName?: string;
  lastName?: string;
  roles?: string[];
  kycStatus?: 'NOT_VERIFIED' | 'PENDING' | 'VERIFIED';
  enabled?: boolean;
  passwordHash?: string | null;
  /** When the account was registered (now by default). */
  createdAt?: string;
}

/** A user inserted straight into D1 with a real access token (no login flow). */
export async function aUser(options: UserOptions = {}): Promise<TestUser> {
  const n = next();
  const email = options.email ?? `user${n}-${shortId()}@test.local`;
  const roles = options.roles ?? ['ROLE_CLIENT'];
  const [row] = await db()
    .insert(users)
    .values({
      email,
      firstName: options.firstName ?? `First${n}`,
      lastName: options.lastName ?? `Last${n}`,
      roles,
      kycStatus: options.kycStatus ?? (roles.includes('ROLE_VERIFIED_USER') ? 'VERIFIED' : 'NOT_VERIFIED'),
      enabled: options.enabled ?? true,
      emailVerified: true,
      passwordHash: options.passwordHash ?? null,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    })
    .returning({ id: users.id });
  return { id: row.id, email, roles, token: await tokenFor(row.id, roles) };
}

export async function tokenFor(userId: number, roles: string[]): Promise<string> {
  const { token } = await signToken(env, { sub: String(userId), typ: 'access', roles }, ACCESS_TOKEN_TTL_SECONDS);
  return token;
}

/** A verified user, who may publish trips and carry parcels. */
export const aCarrier = (options: UserOptions = {}) => aUser({ roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], ...options });
export const anAdmin = (options: UserOptions = {}) => aUser({ roles: ['ROLE_CLIENT', 'ROLE_ADMIN'], ...options });
export const aSuperAdmin = (options: UserOptions = {}) => aUser({ roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'], ...options });

// ---- Agencies -----------------------------------------------------------------------------

/** An agency row of `owner` (straight into D1: the owner's role and scope are not changed). */
export async function anAgency(owner: { id: number }, overrides: Partial<typeof agencies.$inferInsert> = {}) {
  const [row] = await db().insert(agencies).values({ ownerId: owner.id, name: `Agency ${next()}`, ...overrides }).returning();
  return row;
}

export async function aBranch(agency: { id: number }, overrides: Partial<typeof agencyBranches.$inferInsert> = {}) {
  const [row] = await db()
    .insert(agencyBranches)
    .values({ agencyId: agency.id, name: `Branch ${next()}`, ...overrides } as typeof agencyBranches.$inferInsert)
    .returning();
  return row;
}

// ---- Files --------------------------------------------------------------------------------

/** A stored file's row (no bytes in R2): 10 bytes of PNG kept as dispute evidence by default. */
export async function aFile(owner: { id: number }, overrides: Partial<typeof files.$inferInsert> = {}) {
  const [row] = await db()
    .insert(files)
    .values({ ownerId: owner.id, purpose: 'DISPUTE_EVIDENCE', contentType: 'image/png', sizeBytes: 10, storageKey: `test/${crypto.randomUUID()}`, ...overrides })
    .returning();
  return row;
}

// ---- Deliveries ----------------------------------------------------------------------------

/**
 * An outbox row as the queue consumer left it: by default a verification e-mail given up on
 * (DEAD after five attempts, with the provider's reason). Never enqueued: only a retry sends it.
 */
export async function aDeadDelivery(overrides: Partial<typeof deliveries.$inferInsert> = {}): Promise<DeliveryRow> {
  const user = await aUser();
  const [row] = await db()
    .insert(deliveries)
    .values({
      userId: user.id,
      channel: 'EMAIL',
      to: `jeanne.${shortId()}@example.com`,
      template: 'EMAIL_VERIFICATION',
      locale: 'fr',
      payload: { firstName: 'Jeanne', path: '/verify-email?token=secret-token-value' },
      status: 'DEAD',
      attempts: 5,
      lastError: 'E_DELIVERY_FAILED: upstream mail server unavailable',
      ...overrides,
    })
    .returning();
  return row;
}

// ---- Categories ----------------------------------------------------------------------------

export async function aCategory(overrides: Partial<typeof categories.$inferInsert> = {}) {
  const n = next();
  const [row] = await db()
    .insert(categories)
    .values({ code: `CAT_${n}_${shortId().toUpperCase()}`, name: `Category ${n}`, ...overrides })
    .returning();
  return row;
}

// ---- Trips (announcements) -----------------------------------------------------------------

export type TripOverrides = Partial<typeof announcements.$inferInsert>;

/** A trip of `carrier` inserted into D1: Paris to Dakar in 10 days, 20 kg at 10.00 EUR/kg, ACTIVE. */
export async function aTrip(carrier: { id: number }, overrides: TripOverrides = {}): Promise<AnnouncementRow> {
  const [row] = await db()
    .insert(announcements)
    .values({
      carrierId: carrier.id,
      departureCity: 'Paris',
      departureCountry: 'FR',
      arrivalCity: 'Dakar',
      arrivalCountry: 'SN',
      departureCityKey: 'paris',
      arrivalCityKey: 'dakar',
      departureDate: daysFromToday(10),
      arrivalDate: daysFromToday(11),
      totalWeightG: 20_000,
      pricePerKgCents: 1_000,
      currency: 'EUR',
      transportMode: 'PLANE',
      pickupPoint: 'Gare de Lyon',
      deliveryPoint: 'Place de l’Indépendance',
      description: 'Two suitcases of spare room',
      ...overrides,
    })
    .returning();
  return row;
}

/** The body of POST /annonces (the API's units: kg and EUR). */
export const tripInput = (overrides: Record<string, unknown> = {}) => ({
  departureCity: 'Paris',
  departureCountry: 'FR',
  arrivalCity: 'Dakar',
  arrivalCountry: 'SN',
  departureDate: daysFromToday(10),
  arrivalDate: daysFromToday(11),
  totalWeight: 20,
  pricePerKg: 8.5,
  pickupPoint: 'Gare de Lyon',
  deliveryPoint: 'Plateau',
  description: 'Two suitcases of spare room',
  transportMode: 'PLANE',
  acceptedCategoryIds: [],
  ...overrides,
});

/** Publishes a trip through POST /annonces as `carrier` and returns the Announcement body. */
export async function publishTrip(carrier: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await post('/v1/api/annonces', tripInput(overrides), { token: carrier.token });
  if (res.status !== 201) throw new Error(`publishTrip: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---- Reservations --------------------------------------------------------------------------

export interface ReservationOptions {
  /** The status to reach; PENDING_PAYMENT by default. */
  status?: ReservationStatus;
  sender?: TestUser | { id: number };
  carrier?: TestUser | { id: number };
  /**
   * Book on this trip, at its price (its carrier is then the reservation's carrier); by default
   * a new trip of the carrier, holding the reserved weight.
   */
  trip?: { id: number };
  /** With `trip`: also add the reserved weight to the trip's reserved weight (left as it is otherwise). */
  reserveOnTrip?: boolean;
  weightG?: number;
  /** Price of the new trip (ignored with `trip`). */
  pricePerKgCents?: number;
  agencyId?: number | null;
  /** Any other column of the reservation row. */
  set?: Partial<typeof reservations.$inferInsert>;
  /**
   * Pay for real: the fake Stripe authorises the card through the signed webhook (escrow
   * booked), then the transitions and escrow steps run to reach `status`.
   */
  payment?: FakeStripe;
  /**
   * With `status: 'DELIVERED'` and `payment`: the dispute window has passed, the carrier's share is
   * released from held to the wallet (withdrawable), as the cron does after 72 hours.
   */
  available?: boolean;
}

export interface ReservationFixture<S = TestUser, C = TestUser> {
  sender: S;
  /** With `trip` and no `carrier`, only the trip's carrier id. */
  carrier: C;
  trip: AnnouncementRow;
  reservation: ReservationRow;
  /** The authorised PaymentIntent, with `payment` only. */
  pi?: Record<string, any>;
}

/** The money tests' usual reservation: 4 kg at 12.50 EUR/kg = 50.00 EUR (carrier 42.50, commission 7.50). */
export const FIFTY_EUR = { weightG: 4_000, pricePerKgCents: 1_250 } as const;

const sixDigits = () => String(100000 + Math.floor(Math.random() * 900000));
const PAID_STAGES: ReservationStatus[] = ['PENDING_PAYMENT', 'PAID', 'CONFIRMED', 'DEPOSITED', 'IN_TRANSIT', 'DELIVERED'];

type Parties<S, C> = { sender?: S; carrier?: C };

/** A reservation in any status (see ReservationOptions); sender and carrier are made when not given. */
export async function aReservation<S extends { id: number } = TestUser, C extends { id: number } = TestUser>(
  options: ReservationOptions & Parties<S, C> & { payment: FakeStripe },
): Promise<ReservationFixture<S, C> & { pi: Record<string, any> }>;
export async function aReservation<S extends { id: number } = TestUser, C extends { id: number } = TestUser>(
  options?: ReservationOptions & Parties<S, C>,
): Promise<ReservationFixture<S, C>>;
export async function aReservation<S extends { id: number } = TestUser, C extends { id: number } = TestUser>(
  options: ReservationOptions & Parties<S, C> = {},
): Promise<ReservationFixture<S, C>> {
  const n = next();
  const status = options.status ?? 'PENDING_PAYMENT';
  const sender = (options.sender ?? (await aUser())) as S;
  const given = options.trip ? await tripRow(options.trip.id) : null;
  const carrier = (options.carrier ?? (given ? { id: given.carrierId } : await aCarrier())) as C;
  const weightG = options.set?.reservedWeightG ?? options.weightG ?? 2_000;
  const agencyId = options.agencyId ?? null;
  const trip =
    given ??
    (await aTrip(carrier, {
      pricePerKgCents: options.pricePerKgCents ?? 1_000,
      totalWeightG: Math.max(20_000, weightG),
      reservedWeightG: weightG,
      agencyId,
    }));
  let depositCode = sixDigits();
  let deliveryCode = sixDigits();
  while (deliveryCode === depositCode) deliveryCode = sixDigits();
  if (options.payment && !PAID_STAGES.includes(status)) throw new Error(`aReservation: cannot pay into ${status}`);

  const [inserted] = await db()
    .insert(reservations)
    .values({
      reservationNumber: `R-TEST-${n}-${shortId()}`,
      announcementId: trip.id,
      senderId: sender.id,
      carrierId: trip.carrierId,
      agencyId,
      status: options.payment ? 'PENDING_PAYMENT' : status,
      reservedWeightG: weightG,
      contentInfo: 'Books',
      depositCode,
      deliveryCode,
      recipient: { firstName: 'Rita', lastName: 'Recipient', email: 'rita@example.com', phone: '+221700000000' },
      recipientToken: `rt_${crypto.randomUUID().replace(/-/g, '')}${crypto.randomUUID().replace(/-/g, '')}`,
      pricePerKgCents: trip.pricePerKgCents,
      ...termsOf(trip),
      ...splitPrice(weightG, trip.pricePerKgCents, 0.15),
      currency: 'EUR',
      paymentDeadline: minutesFromNow(30),
      ...options.set,
    })
    .returning();
  if (given && options.reserveOnTrip) {
    await db()
      .update(announcements)
      .set({ reservedWeightG: sql`${announcements.reservedWeightG} + ${weightG}` })
      .where(eq(announcements.id, trip.id));
  }
  const fullTrip = given ? await tripRow(trip.id) : trip;
  if (!options.payment || status === 'PENDING_PAYMENT') return { sender, carrier, trip: fullTrip, reservation: inserted };

  const stripe = options.payment;
  const id = inserted.id;
  // The checkout charges the price and the protection premium together (CONTRACT 21).
  const pi = stripe.authorizedPaymentIntent(inserted.totalAmountCents + inserted.protectionPremiumCents, inserted.currency.toLowerCase(), { reservationId: String(id) });
  expect((await sendPaymentEvent(stripe.event('payment_intent.amount_capturable_updated', pi))).status).toBe(200);
  const stage = PAID_STAGES.indexOf(status);
  const reached = (s: ReservationStatus) => stage >= PAID_STAGES.indexOf(s);
  if (reached('CONFIRMED')) await advance({ id, action: 'ACCEPT' });
  if (reached('DEPOSITED')) {
    await advance({ id, action: 'DEPOSIT' });
    await captureLoaded(depsOf(env), await loadReservation(db(), id));
  }
  if (status === 'IN_TRANSIT') await advance({ id, action: 'START_TRANSIT' });
  if (status === 'DELIVERED') await deliverWithRelease(id);
  if (status === 'DELIVERED' && options.available) await makeAvailable(id);
  const [reservation] = await db().select().from(reservations).where(eq(reservations.id, id));
  return { sender, carrier, trip: fullTrip, reservation, pi };
}

async function tripRow(id: number) {
  const [row] = await db().select().from(announcements).where(eq(announcements.id, id));
  return row;
}

/** The body of POST /bookings (the API's units: kg). */
export function bookingInput(announcementId: number, categoryId: number, reservedWeight = 2, extra: Record<string, unknown> = {}) {
  return {
    announcementId,
    reservedWeight,
    contentInfo: 'Clothes and books',
    // The items' weights fit in the booked kilos (CONTRACT section 19).
    items: [{ categoryId, name: 'Books', reservedQuantity: 3, weight: reservedWeight > 0 ? Math.min(1.5, reservedWeight) : 1.5, isFragile: false }],
    recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67', city: 'Dakar' },
    ...extra,
  };
}

/** Books through POST /bookings and returns the created Reservation body. */
export async function bookThroughApi(sender: TestUser, announcementId: number, categoryId: number, reservedWeight = 2) {
  const res = await post('/v1/api/bookings', bookingInput(announcementId, categoryId, reservedWeight), { token: sender.token });
  if (res.status !== 201) throw new Error(`bookThroughApi: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The money side of a reservation, for the pure ledger and dispute rules: 50.00 EUR, split 42.50 / 7.50. */
export const aReservationMoney = (overrides: Partial<ReservationMoney> = {}): ReservationMoney => ({
  id: 7,
  reservationNumber: 'R-7',
  senderId: 1,
  carrierId: 2,
  agencyId: null,
  totalAmountCents: 5000,
  platformCommissionCents: 750,
  carrierAmountCents: 4250,
  currency: 'EUR',
  ...overrides,
});

// ---- Payout accounts -----------------------------------------------------------------------

/** Links (or relinks) a connected payout account to a user or an agency. */
export async function aPayoutAccount(owner: { id: number }, providerAccountId: string, enabled = true, ownerType: 'USER' | 'AGENCY' = 'USER') {
  const flags = { chargesEnabled: enabled, payoutsEnabled: enabled, detailsSubmitted: enabled };
  await db()
    .insert(payoutAccounts)
    .values({ ownerType, ownerId: owner.id, providerAccountId, ...flags })
    .onConflictDoUpdate({ target: [payoutAccounts.ownerType, payoutAccounts.ownerId], set: { providerAccountId, ...flags } });
}

/**
 * Moves a stored reservation through the lifecycle, as the feature that owns the step would (no
 * notifications unless the plan has them). A refused transition throws like the API's 409.
 */
export const advance = async (plan: TransitionPlan) => (await commitTransition(db(), plan)).row;

/** The held share of a delivered reservation released to the wallet, as the cron does once its dispute window has passed. */
export async function makeAvailable(reservationId: number) {
  const afterWindow = new Date(Date.now() + 73 * 3600 * 1000);
  expect(await releaseHeldShares(depsOf(env), afterWindow, { reservationId })).toBe(1);
}

/** DELIVERED with the escrow released to the payee, as the delivery does (captured first). */
export async function deliverWithRelease(id: number) {
  const r = await captureLoaded(depsOf(env), await loadReservation(db(), id));
  return advance({ id, from: r.status, action: 'DELIVER', set: { deliveredAt: new Date().toISOString() }, effects: releaseEffects(db(), r) });
}
