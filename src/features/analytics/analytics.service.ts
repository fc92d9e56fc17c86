// Admin analytics (CONTRACT section 14): period figures and time series as SQL aggregates over
// indexed created_at columns (users, announcements, reservations, ledger entries). Money figures
// come from the ledger: gross volume = money taken from payers (PROVIDER_CLEARING debits), refunds
// = money returned to them after capture (PROVIDER_CLEARING credits of entries whose payer line is a
// REFUND, not a released hold), platform revenue = PLATFORM_REVENUE lines.
import { and, count, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { announcements, disputes, ledgerAccounts, ledgerEntries, ledgerLines, reservations, transactions, users } from '../../db/schema';
import type { Deps } from '../../env';
import { RESERVATION_STATUSES, type ReservationStatus } from '../reservations/reservation-state';
import { buckets, type Interval, type Metric, type Period } from './analytics.rules';

const inPeriod = (column: AnySQLiteColumn, p: Period) => and(gte(column, p.fromIso), lt(column, p.toIso));

// Figures per currency, grouped by the account's currency: never a sum across currencies (CONTRACT
// section 20). Every account of a kind has one per currency (`PROVIDER_CLEARING:XOF`, ...).
const clearing = sql`${ledgerAccounts.kind} = 'PROVIDER_CLEARING'`;
/**
 * Money back to a payer is a refund only when it was charged (its entry's payer line is a REFUND):
 * a released authorisation (HOLD_RELEASE: a void, a lapsed hold, the released part of a partial
 * capture) never was (CONTRACT section 19).
 */
const refunded = sql`${clearing} AND ${ledgerLines.amountCents} > 0 AND EXISTS (SELECT 1 FROM ${transactions} WHERE ${transactions.ledgerEntryId} = ${ledgerEntries.id} AND ${transactions.type} = 'REFUND')`;
const moneyFigures = {
  grossVolumeCents: sql<number>`coalesce(sum(CASE WHEN ${clearing} AND ${ledgerLines.amountCents} < 0 THEN -${ledgerLines.amountCents} ELSE 0 END), 0)`,
  refundsCents: sql<number>`coalesce(sum(CASE WHEN ${refunded} THEN ${ledgerLines.amountCents} ELSE 0 END), 0)`,
  refundCount: sql<number>`coalesce(sum(CASE WHEN ${refunded} THEN 1 ELSE 0 END), 0)`,
  platformRevenueCents: sql<number>`coalesce(sum(CASE WHEN ${ledgerAccounts.kind} = 'PLATFORM_REVENUE' THEN ${ledgerLines.amountCents} ELSE 0 END), 0)`,
};

/** Ledger lines of entries posted in the period, walked from the entries' created_at index. */
const ledgerMoney = (db: Db, p: Period) =>
  db
    .select({ currency: ledgerAccounts.currency, ...moneyFigures })
    .from(ledgerEntries)
    .innerJoin(ledgerLines, eq(ledgerLines.entryId, ledgerEntries.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(inPeriod(ledgerEntries.createdAt, p))
    .groupBy(ledgerAccounts.currency);

/** A money series of one currency's accounts. */
const ledgerSeries = (db: Db, p: Period, bucket: SQL<string>, value: SQL<number>, currency: string) =>
  db
    .select({ bucket: bucket.as('bucket'), value: value.as('value') })
    .from(ledgerEntries)
    .innerJoin(ledgerLines, eq(ledgerLines.entryId, ledgerEntries.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(and(inPeriod(ledgerEntries.createdAt, p), eq(ledgerAccounts.currency, currency)))
    .groupBy(bucket);

/** Disputes currently open (a state, not a period figure). */
export async function countOpenDisputes(deps: Deps): Promise<number> {
  const { db } = deps;
  const [row] = await db.select({ n: count() }).from(disputes).where(eq(disputes.status, 'OPEN'));
  return row?.n ?? 0;
}

/** The overview's queries (also EXPLAINed by the tests). */
export const overviewQueries = (db: Db, p: Period) => ({
  newUsers: db.select({ n: count() }).from(users).where(inPeriod(users.createdAt, p)),
  totalUsers: db.select({ n: count() }).from(users).where(lt(users.createdAt, p.toIso)),
  verifiedUsers: db.select({ n: count() }).from(users).where(and(eq(users.kycStatus, 'VERIFIED'), lt(users.createdAt, p.toIso))),
  announcements: db.select({ n: count() }).from(announcements).where(inPeriod(announcements.createdAt, p)),
  reservations: db
    .select({ status: reservations.status, n: count() })
    .from(reservations)
    .where(inPeriod(reservations.createdAt, p))
    .groupBy(reservations.status),
  money: ledgerMoney(db, p),
});

/** One currency's money figures of a period, in its minor units. */
export interface CurrencyFigures {
  currency: string;
  grossVolumeCents: number;
  platformRevenueCents: number;
  refunds: { count: number; amountCents: number };
}

/**
 * The per-currency rows of the ledger query, the main currency first (zero when nothing moved in
 * it), then the others by code; a currency whose figures are all zero is left out.
 */
export function figuresByCurrency(rows: readonly Record<keyof typeof moneyFigures | 'currency', unknown>[], main: string): CurrencyFigures[] {
  const of = (r: (typeof rows)[number] | undefined, currency: string): CurrencyFigures => ({
    currency,
    grossVolumeCents: Number(r?.grossVolumeCents ?? 0),
    platformRevenueCents: Number(r?.platformRevenueCents ?? 0),
    refunds: { count: Number(r?.refundCount ?? 0), amountCents: Number(r?.refundsCents ?? 0) },
  });
  const others = rows
    .map((r) => of(r, String(r.currency)))
    .filter((f) => f.currency !== main && (f.grossVolumeCents || f.platformRevenueCents || f.refunds.count || f.refunds.amountCents))
    .sort((a, b) => a.currency.localeCompare(b.currency));
  return [of(rows.find((r) => r.currency === main), main), ...others];
}

export async function overview(deps: Deps, p: Period, main: string) {
  const { db } = deps;
  const q = overviewQueries(db, p);
  const [[newUsers], [totalUsers], [verifiedUsers], [newAnnouncements], byStatus, money] = await db.batch([
    q.newUsers,
    q.totalUsers,
    q.verifiedUsers,
    q.announcements,
    q.reservations,
    q.money,
  ]);
  const reservationsByStatus = Object.fromEntries(RESERVATION_STATUSES.map((s) => [s, 0])) as Record<ReservationStatus, number>;
  for (const row of byStatus) reservationsByStatus[row.status] = row.n;
  return {
    users: { total: totalUsers.n, new: newUsers.n, verified: verifiedUsers.n },
    announcements: newAnnouncements.n,
    reservations: { total: byStatus.reduce((s, r) => s + r.n, 0), byStatus: reservationsByStatus },
    /** The main currency's figures first, then every other currency money moved in. */
    money: figuresByCurrency(money, main),
    openDisputes: await countOpenDisputes(deps),
  };
}

/** SQL of the bucket start (YYYY-MM-DD) of an ISO date-time column; matches `bucketOf`. */
export function bucketSql(column: AnySQLiteColumn, interval: Interval): SQL<string> {
  if (interval === 'day') return sql<string>`substr(${column}, 1, 10)`;
  if (interval === 'month') return sql<string>`substr(${column}, 1, 7) || '-01'`;
  return sql<string>`date(substr(${column}, 1, 10), '-6 days', 'weekday 1')`;
}

function seriesQuery(db: Db, metric: Metric, p: Period, interval: Interval, currency = 'EUR') {
  const countBy = (column: AnySQLiteColumn) => {
    const bucket = bucketSql(column, interval);
    return { bucket, fields: { bucket: bucket.as('bucket'), value: sql<number>`count(*)`.as('value') } };
  };
  switch (metric) {
    case 'users': {
      const { bucket, fields } = countBy(users.createdAt);
      return db.select(fields).from(users).where(inPeriod(users.createdAt, p)).groupBy(bucket);
    }
    case 'announcements': {
      const { bucket, fields } = countBy(announcements.createdAt);
      return db.select(fields).from(announcements).where(inPeriod(announcements.createdAt, p)).groupBy(bucket);
    }
    case 'reservations': {
      const { bucket, fields } = countBy(reservations.createdAt);
      return db.select(fields).from(reservations).where(inPeriod(reservations.createdAt, p)).groupBy(bucket);
    }
    case 'grossVolume':
    case 'refunds':
    case 'platformRevenue': {
      const bucket = bucketSql(ledgerEntries.createdAt, interval);
      const value = metric === 'grossVolume' ? moneyFigures.grossVolumeCents : metric === 'refunds' ? moneyFigures.refundsCents : moneyFigures.platformRevenueCents;
      return ledgerSeries(db, p, bucket, value, currency);
    }
  }
}

export const MONEY_METRICS: ReadonlySet<Metric> = new Set(['grossVolume', 'refunds', 'platformRevenue']);

/** One point per bucket of the period (zero where nothing happened); money values in minor units of `currency`. */
export async function timeseries(deps: Deps, metric: Metric, p: Period, interval: Interval, currency: string) {
  const { db } = deps;
  const rows = (await seriesQuery(db, metric, p, interval, currency)) as { bucket: string; value: number }[];
  const byBucket = new Map(rows.map((r) => [r.bucket, Number(r.value)]));
  return buckets(p.from, p.to, interval).map((b) => ({ periodStart: b, value: byBucket.get(b) ?? 0 }));
}

/** For the EXPLAIN QUERY PLAN test: every analytics query. */
export function analyticsQueries(db: Db, p: Period) {
  const series = Object.fromEntries(
    (['users', 'announcements', 'reservations', 'grossVolume'] as const).map((m) => [`series_${m}`, seriesQuery(db, m, p, 'week')]),
  );
  return { ...overviewQueries(db, p), ...series };
}
