// Dashboards of carriers, senders and agencies (CONTRACT section 14): counts by status, upcoming
// trips, money from the ledger (wallet balance) and the transactions history (earnings, spending),
// ratings from user_ratings / reviews. One db.batch() per dashboard.
import { and, asc, count, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
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

/** Sums of an owner's transactions of a type: all time and since the first of this month. */
const transactionSums = (db: Db, owner: Owner, ...types: TransactionType[]) =>
  db
    .select({
      allTime: sumCents(transactions.amountCents),
      thisMonth: sumCents(sql`CASE WHEN ${transactions.createdAt} >= ${monthStart()} THEN ${transactions.amountCents} ELSE 0 END`),
    })
    .from(transactions)
    .where(and(eq(transactions.ownerType, owner.type as OwnerType), eq(transactions.ownerId, owner.id), inArray(transactions.type, types)));

/** The wallet in the platform's main currency (EUR unless configured): the dashboard's figures are of one currency. */
const walletBalance = (db: Db, owner: Owner, currency = 'EUR') =>
  db.select({ balance: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(eq(ledgerAccounts.key, accountKey(walletAccount(owner), currency)));

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
    .select({ cents: sumCents(reservations.carrierAmountCents) })
    .from(reservations)
    .where(and(where, inArray(reservations.status, IN_ESCROW_STATUSES)));

const ratingOf = (db: Db, userId: number) =>
  db.select({ count: userRatings.reviewCount, sum: userRatings.ratingSum }).from(userRatings).where(eq(userRatings.userId, userId));

const rating = (rows: { count: number; sum: number }[]) => ({ average: averageOf(rows[0]?.sum ?? 0, rows[0]?.count ?? 0), count: rows[0]?.count ?? 0 });

/** A carrier's or an agency's earnings: earned (all time, this month), still in escrow, in its wallet. */
const earningsFigures = (earnings: { allTime: number; thisMonth: number }[], escrow: { cents: number }[], balance: { balance: number }[]) => ({
  totalEarnedCents: Number(earnings[0]?.allTime ?? 0),
  thisMonthCents: Number(earnings[0]?.thisMonth ?? 0),
  pendingInEscrowCents: Number(escrow[0]?.cents ?? 0),
  walletBalanceCents: balance[0]?.balance ?? 0,
});

export async function carrierDashboard(deps: Deps, userId: number) {
  const { db } = deps;
  const owner: Owner = { type: 'USER', id: userId };
  // Trips published for an agency pay the agency: the carrier's own money figures cover private trips.
  const own = and(eq(reservations.carrierId, userId), isNull(reservations.agencyId));
  const [annRows, resRows, upcoming, earnings, balance, escrow, ratings] = await db.batch([
    db.select({ status: announcements.status, n: count() }).from(announcements).where(eq(announcements.carrierId, userId)).groupBy(announcements.status),
    db.select({ status: reservations.status, n: count() }).from(reservations).where(eq(reservations.carrierId, userId)).groupBy(reservations.status),
    upcomingTrips(db, eq(announcements.carrierId, userId)),
    transactionSums(db, owner, ...EARNING_TYPES),
    walletBalance(db, owner),
    escrowSum(db, own),
    ratingOf(db, userId),
  ]);
  return {
    announcements: tally(ANNOUNCEMENT_STATUSES, annRows),
    reservations: tally(RESERVATION_STATUSES, resRows),
    upcomingTrips: upcoming,
    earnings: earningsFigures(earnings, escrow, balance),
    rating: rating(ratings),
  };
}

export async function senderDashboard(deps: Deps, userId: number) {
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
  // Payments are negative from the sender's point of view, refunds and released holds positive.
  const spent = -Number(payments[0]?.allTime ?? 0);
  const refunded = Number(refunds[0]?.allTime ?? 0);
  const released = Number(releases[0]?.allTime ?? 0);
  return {
    reservations: tally(RESERVATION_STATUSES, resRows),
    upcomingShipments: upcoming,
    spending: {
      totalSpentCents: spent,
      totalRefundedCents: refunded,
      totalReleasedCents: released,
      netSpentCents: spent - refunded - released,
      thisMonthCents: -Number(payments[0]?.thisMonth ?? 0) - Number(refunds[0]?.thisMonth ?? 0) - Number(releases[0]?.thisMonth ?? 0),
    },
    rating: rating(ratings),
  };
}

export async function agencyDashboard(deps: Deps, agencyId: number) {
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
    earnings: earningsFigures(earnings, escrow, balance),
    staff: { branches: branches[0]?.total ?? 0, activeBranches: Number(branches[0]?.active ?? 0), employees: employees[0]?.n ?? 0 },
    rating: rating(ratings.map((r) => ({ count: r.count, sum: Number(r.sum) }))),
  };
}
