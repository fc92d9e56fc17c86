// Dashboards of carriers, senders and agencies (CONTRACT section 14): counts by status, upcoming
// trips, money from the ledger (wallet balance) and the transactions history (earnings, spending),
// ratings from user_ratings / reviews. One db.batch() per dashboard.
import { publishedAndActingCondition } from '../../access/trip-access';
import { and, asc, count, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  agencies,
  agencyBranches,
  agencyEmployees,
  announcements,
  ANNOUNCEMENT_STATUSES,
  EARNING_TYPES,
  ledgerAccounts,
  reservations,
  reviews,
  transactions,
  userRatings,
  type OwnerType,
  type TransactionType,
} from '../../db/schema';
import type { Deps } from '../../env';
import { notFound } from '../../errors';
import { RESERVATION_STATUSES, type ReservationStatus } from '../reservations/reservation-state';
import { accountKey, walletAccount, type Owner } from '../money';

/** Paid and not yet delivered: the carrier's share waits in escrow. */
export const IN_ESCROW_STATUSES = ['PAID', 'CONFIRMED', 'DEPOSITED', 'IN_TRANSIT', 'DISPUTED'] as const satisfies readonly ReservationStatus[];
/** A sender's shipments still to come. */
export const ACTIVE_SHIPMENT_STATUSES = ['PENDING_PAYMENT', 'PAID', 'CONFIRMED', 'DEPOSITED', 'IN_TRANSIT'] as const satisfies readonly ReservationStatus[];
export const UPCOMING_LIMIT = 5;

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${new Date().toISOString().slice(0, 7)}-01T00:00:00.000Z`;

function tally<S extends string>(statuses: readonly S[], rows: { status: S; n: number }[]) {
  const byStatus = Object.fromEntries(statuses.map((s) => [s, 0])) as Record<S, number>;
  for (const r of rows) byStatus[r.status] = r.n;
  return { total: rows.reduce((s, r) => s + r.n, 0), byStatus };
}

export const averageOf = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);

const sumCents = (column: SQL | AnySQLiteColumn) => sql<number>`coalesce(sum(${column}), 0)`;

/** Sums of an owner's transactions of a type per currency: all time and since the first of this month. */
const transactionSums = (db: Db, owner: Owner, ...types: TransactionType[]) =>
  db
    .select({
      currency: transactions.currency,
      allTime: sumCents(transactions.amountCents),
      thisMonth: sumCents(sql`CASE WHEN ${transactions.createdAt} >= ${monthStart()} THEN ${transactions.amountCents} ELSE 0 END`),
    })
    .from(transactions)
    // Money that moved: a refund the provider has not confirmed is not refunded yet.
    .where(and(eq(transactions.ownerType, owner.type as OwnerType), eq(transactions.ownerId, owner.id), inArray(transactions.type, types), eq(transactions.status, 'COMPLETED')))
    .groupBy(transactions.currency);

/**
 * The owner's wallet in every currency it has one in: the keys `WALLET:USER:12:<currency>`, read
 * as a range of the unique key index (':' is followed by ';').
 */
const walletBalance = (db: Db, owner: Owner) => {
  const prefix = accountKey(walletAccount(owner), '');
  return db
    .select({ currency: ledgerAccounts.currency, balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(and(gte(ledgerAccounts.key, prefix), lt(ledgerAccounts.key, `${prefix.slice(0, -1)};`)));
};

const upcomingTrips = (db: Db, where: SQL | undefined) =>
  db
    .select({
      id: announcements.id,
      departureCity: announcements.departureCity,
      departureCountry: announcements.departureCountry,
      arrivalCity: announcements.arrivalCity,
      arrivalCountry: announcements.arrivalCountry,
      departureDate: announcements.departureDate,
      arrivalDate: announcements.arrivalDate,
      status: announcements.status,
      totalWeightG: announcements.totalWeightG,
      reservedWeightG: announcements.reservedWeightG,
    })
    .from(announcements)
    .where(and(where, inArray(announcements.status, ['ACTIVE', 'FULL']), gte(announcements.departureDate, today())))
    .orderBy(asc(announcements.departureDate), asc(announcements.id))
    .limit(UPCOMING_LIMIT);

const escrowSum = (db: Db, where: SQL | undefined) =>
  db
    .select({ currency: reservations.currency, cents: sumCents(reservations.carrierAmountCents) })
    .from(reservations)
    .where(and(where, inArray(reservations.status, IN_ESCROW_STATUSES)))
    .groupBy(reservations.currency);

const ratingOf = (db: Db, userId: number) =>
  db.select({ count: userRatings.reviewCount, sum: userRatings.ratingSum }).from(userRatings).where(eq(userRatings.userId, userId));

const rating = (rows: { count: number; sum: number }[]) => ({ average: averageOf(rows[0]?.sum ?? 0, rows[0]?.count ?? 0), count: rows[0]?.count ?? 0 });

/** The currencies of per-currency rows, the main one first (always there), then the others by code. */
export function currenciesOf(main: string, ...groups: readonly (readonly { currency: string }[])[]): string[] {
  const others = new Set(groups.flat().map((r) => r.currency));
  others.delete(main);
  return [main, ...[...others].sort()];
}

type Sums = { currency: string; allTime: number; thisMonth: number }[];
const sumsIn = (rows: Sums, currency: string) => rows.find((r) => r.currency === currency);

/** A carrier's or an agency's earnings per currency: earned (all time, this month), still in escrow, in its wallet. */
const earningsFigures = (main: string, earnings: Sums, escrow: { currency: string; cents: number }[], balance: { currency: string; balance: number }[]) =>
  currenciesOf(main, earnings, escrow, balance).map((currency) => ({
    currency,
    totalEarnedCents: Number(sumsIn(earnings, currency)?.allTime ?? 0),
    thisMonthCents: Number(sumsIn(earnings, currency)?.thisMonth ?? 0),
    pendingInEscrowCents: Number(escrow.find((r) => r.currency === currency)?.cents ?? 0),
    walletBalanceCents: balance.find((r) => r.currency === currency)?.balance ?? 0,
  }));

/** A sender's spending per currency; payments are negative from the sender's side, refunds and released holds positive. */
const spendingFigures = (main: string, payments: Sums, refunds: Sums, releases: Sums) =>
  currenciesOf(main, payments, refunds, releases).map((currency) => {
    const [paid, back, released] = [payments, refunds, releases].map((rows) => sumsIn(rows, currency));
    const spent = -Number(paid?.allTime ?? 0);
    const refunded = Number(back?.allTime ?? 0);
    const freed = Number(released?.allTime ?? 0);
    return {
      currency,
      totalSpentCents: spent,
      totalRefundedCents: refunded,
      totalReleasedCents: freed,
      netSpentCents: spent - refunded - freed,
      thisMonthCents: -Number(paid?.thisMonth ?? 0) - Number(back?.thisMonth ?? 0) - Number(released?.thisMonth ?? 0),
    };
  });

export async function carrierDashboard(deps: Deps, userId: number, main: string) {
  const { db } = deps;
  const owner: Owner = { type: 'USER', id: userId };
  // Trips published for an agency pay the agency: the carrier's own money figures cover private trips.
  const own = and(eq(reservations.carrierId, userId), isNull(reservations.agencyId));
  const [annRows, resRows, upcoming, earnings, balance, escrow, ratings] = await db.batch([
    // The trips they published and still act for (CONTRACT 25: not an agency's trip once moved or gone).
    db.select({ status: announcements.status, n: count() }).from(announcements).where(publishedAndActingCondition(db, userId)).groupBy(announcements.status),
    db
      .select({ status: reservations.status, n: count() })
      .from(reservations)
      .where(publishedAndActingCondition(db, userId, { carrierId: reservations.carrierId, agencyId: reservations.agencyId, tripId: reservations.announcementId }))
      .groupBy(reservations.status),
    upcomingTrips(db, publishedAndActingCondition(db, userId)),
    transactionSums(db, owner, ...EARNING_TYPES),
    walletBalance(db, owner),
    escrowSum(db, own),
    ratingOf(db, userId),
  ]);
  return {
    announcements: tally(ANNOUNCEMENT_STATUSES, annRows),
    reservations: tally(RESERVATION_STATUSES, resRows),
    upcomingTrips: upcoming,
    earnings: earningsFigures(main, earnings, escrow, balance),
    rating: rating(ratings),
  };
}

export async function senderDashboard(deps: Deps, userId: number, main: string) {
  const { db } = deps;
  const owner: Owner = { type: 'USER', id: userId };
  const [resRows, upcoming, payments, refunds, releases, ratings] = await db.batch([
    db.select({ status: reservations.status, n: count() }).from(reservations).where(eq(reservations.senderId, userId)).groupBy(reservations.status),
    db
      .select({
        reservationId: reservations.id,
        reservationNumber: reservations.reservationNumber,
        reservationStatus: reservations.status,
        announcementId: reservations.announcementId,
        // The reservation's own terms (CONTRACT section 19), not the trip's current ones.
        departureCity: reservations.departureCity,
        arrivalCity: reservations.arrivalCity,
        departureDate: reservations.departureDate,
        arrivalDate: reservations.arrivalDate,
        reservedWeightG: reservations.reservedWeightG,
        totalAmountCents: reservations.totalAmountCents,
        currency: reservations.currency,
      })
      .from(reservations)
      .where(and(eq(reservations.senderId, userId), inArray(reservations.status, ACTIVE_SHIPMENT_STATUSES)))
      .orderBy(asc(reservations.departureDate), asc(reservations.id))
      .limit(UPCOMING_LIMIT),
    transactionSums(db, owner, 'PAYMENT'),
    transactionSums(db, owner, 'REFUND'),
    transactionSums(db, owner, 'HOLD_RELEASE'),
    ratingOf(db, userId),
  ]);
  return {
    reservations: tally(RESERVATION_STATUSES, resRows),
    upcomingShipments: upcoming,
    spending: spendingFigures(main, payments, refunds, releases),
    rating: rating(ratings),
  };
}

export async function agencyDashboard(deps: Deps, agencyId: number, main: string) {
  const { db } = deps;
  const owner: Owner = { type: 'AGENCY', id: agencyId };
  const [agency, annRows, resRows, upcoming, earnings, balance, escrow, branches, employees, ratings] = await db.batch([
    db.select({ id: agencies.id, status: agencies.status }).from(agencies).where(eq(agencies.id, agencyId)),
    db.select({ status: announcements.status, n: count() }).from(announcements).where(eq(announcements.agencyId, agencyId)).groupBy(announcements.status),
    db.select({ status: reservations.status, n: count() }).from(reservations).where(eq(reservations.agencyId, agencyId)).groupBy(reservations.status),
    upcomingTrips(db, eq(announcements.agencyId, agencyId)),
    transactionSums(db, owner, ...EARNING_TYPES),
    walletBalance(db, owner),
    escrowSum(db, eq(reservations.agencyId, agencyId)),
    db
      .select({ total: count(), active: sql<number>`coalesce(sum(CASE WHEN ${agencyBranches.active} THEN 1 ELSE 0 END), 0)` })
      .from(agencyBranches)
      .where(eq(agencyBranches.agencyId, agencyId)),
    db.select({ n: count() }).from(agencyEmployees).where(eq(agencyEmployees.agencyId, agencyId)),
    // The agency's rating: senders' visible reviews of reservations on the agency's trips.
    db
      .select({ count: count(), sum: sql<number>`coalesce(sum(${reviews.rating}), 0)` })
      .from(reviews)
      .innerJoin(reservations, eq(reservations.id, reviews.reservationId))
      .where(and(eq(reservations.agencyId, agencyId), eq(reviews.reviewerRole, 'SENDER'), eq(reviews.hidden, false))),
  ]);
  if (!agency[0]) throw notFound('Agency', agencyId);
  return {
    agencyId,
    agencyStatus: agency[0].status,
    announcements: tally(ANNOUNCEMENT_STATUSES, annRows),
    reservations: tally(RESERVATION_STATUSES, resRows),
    upcomingTrips: upcoming,
    earnings: earningsFigures(main, earnings, escrow, balance),
    staff: { branches: branches[0]?.total ?? 0, activeBranches: Number(branches[0]?.active ?? 0), employees: employees[0]?.n ?? 0 },
    rating: rating(ratings.map((r) => ({ count: r.count, sum: Number(r.sum) }))),
  };
}
