// The pending views of GET /superadmin/reconciliation and the console (CONTRACT section 27): card
// payments authorised but not captured, money going back that the provider has not confirmed, and
// payouts pending or failed (not retried yet); each with its age, amount and provider, oldest first.
import { and, eq, inArray, notExists, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { ledgerEntries, MONEY_BACK_TYPES, mobilePayoutAccounts, paymentSessions, reservations, transactions, withdrawals, type ReservationRow, type WithdrawalRow } from '../../../db/schema';
import { readPage } from '../../../db/statements';
import { PAYMENT_STATUS } from '../../../db/schema/reservations';
import { orderBy, toPage, type PageParams } from '../../../lib/pagination';
import { CAPTURE_BEFORE_MS } from '../escrow';
import { chargedCents } from '../ledger/posting-rules';
import { isMobileDestination, payoutAccountIdOf } from '../withdrawals/mobile-payout';

export const PENDING_KINDS = ['captures', 'refunds', 'payouts'] as const;
export type PendingKind = (typeof PENDING_KINDS)[number];

const minutesSince = (at: string, now: Date) => Math.max(0, Math.floor((now.getTime() - Date.parse(at)) / 60_000));

/** The provider of each payment (its checkout session's: stripe, sandbox, wave, pawapay), upper-cased. */
async function providersOf(db: Db, paymentIds: string[]): Promise<Map<string, string>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db.select({ id: paymentSessions.sessionId, provider: paymentSessions.provider }).from(paymentSessions).where(inArray(paymentSessions.sessionId, paymentIds.slice(0, 90)));
  return new Map(rows.map((r) => [r.id, r.provider.toUpperCase()]));
}

/** What goes back to the payer of each reservation (the ledger's money-back line). */
async function moneyBackOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: transactions.reservationId, amount: sql<number>`SUM(${transactions.amountCents})` })
    .from(transactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, transactions.ledgerEntryId))
    .where(and(inArray(transactions.reservationId, ids), inArray(transactions.type, [...MONEY_BACK_TYPES]), eq(ledgerEntries.reservationId, transactions.reservationId)))
    .groupBy(transactions.reservationId);
  return new Map(rows.map((r) => [r.id!, Number(r.amount)]));
}

/** The one sort of the pending views: by when it started waiting (`since,asc`: the oldest first). */
export const PENDING_SORT_FIELDS = ['since'] as const;
type PendingPage = PageParams<(typeof PENDING_SORT_FIELDS)[number]>;

const reservationPage = (db: Db, where: SQL, since: SQL | typeof reservations.updatedAt, q: PendingPage) =>
  readPage(db, reservations, where, orderBy(q.sort, { since }, reservations.id), q);

const base = (r: ReservationRow, provider: string | undefined, since: string, now: Date) => ({
  reservationId: r.id,
  reservationNumber: r.reservationNumber,
  provider: provider ?? 'STRIPE',
  currency: r.currency,
  paymentStatus: r.paymentStatus,
  since,
  ageMinutes: minutesSince(since, now),
});

/** Authorised card payments not captured yet (and partial captures not confirmed), with the capture deadline. */
export async function pendingCaptures(db: Db, now: Date, q: PendingPage) {
  const where = inArray(reservations.paymentStatus, [PAYMENT_STATUS.AUTHORIZED, PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING]);
  const { rows, total } = await reservationPage(db, where, sql`COALESCE(${reservations.paidAt}, ${reservations.updatedAt})`, q);
  const providers = await providersOf(db, rows.map((r) => r.paymentId ?? '').filter(Boolean));
  const content = rows.map((r) => ({
    ...base(r, providers.get(r.paymentId ?? ''), r.paidAt ?? r.updatedAt, now),
    amountMinor: chargedCents(r),
    captureBefore: r.paidAt ? new Date(Date.parse(r.paidAt) + CAPTURE_BEFORE_MS).toISOString() : null,
  }));
  return toPage(content, total, q);
}

/** Money going back (refund, void, partial capture) the provider has not confirmed; a refused refund says why and can be retried. */
export async function pendingRefunds(db: Db, now: Date, q: PendingPage) {
  const where = inArray(reservations.paymentStatus, [PAYMENT_STATUS.REFUND_PENDING, PAYMENT_STATUS.VOID_PENDING, PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING]);
  const { rows, total } = await reservationPage(db, where, reservations.updatedAt, q);
  const [providers, back] = await Promise.all([providersOf(db, rows.map((r) => r.paymentId ?? '').filter(Boolean)), moneyBackOf(db, rows.map((r) => r.id))]);
  const content = rows.map((r) => ({
    ...base(r, providers.get(r.paymentId ?? ''), r.updatedAt, now),
    amountMinor: back.get(r.id) ?? 0,
    attempt: r.refundAttempt,
    failure: r.settlementError,
    retryable: isRetryableRefund(r),
  }));
  return toPage(content, total, q);
}

/** A refund the provider refused (recorded by the settlement), still pending: what an operator may retry. */
export const isRetryableRefund = (r: Pick<ReservationRow, 'paymentStatus' | 'settlementError'>) => r.paymentStatus === PAYMENT_STATUS.REFUND_PENDING && r.settlementError !== null;

const retries = alias(withdrawals, 'retries');
/** Not retried yet: no withdrawal names it as the one it retries. */
const notRetried = (db: Db) => notExists(db.select({ id: retries.id }).from(retries).where(eq(retries.retryOf, withdrawals.id)));

/** Payouts still pending, and failed ones not retried yet. */
export async function pendingPayouts(db: Db, now: Date, q: PendingPage) {
  const where = or(eq(withdrawals.status, 'PENDING'), and(eq(withdrawals.status, 'FAILED'), notRetried(db)))!;
  const { rows, total } = await readPage(db, withdrawals, where, orderBy(q.sort, { since: withdrawals.createdAt }, withdrawals.id), q);
  const operators = await payoutOperators(db, rows);
  const content = rows.map((w) => ({
    withdrawalId: w.id,
    ownerType: w.ownerType,
    ownerId: w.ownerId,
    provider: isMobileDestination(w.destinationAccountId) ? (operators.get(payoutAccountIdOf(w.destinationAccountId)) ?? 'MOBILE_MONEY') : 'STRIPE',
    amountMinor: w.amountCents,
    currency: w.currency,
    status: w.status,
    since: w.createdAt,
    ageMinutes: minutesSince(w.createdAt, now),
    failure: w.failureReason,
    retryable: w.status === 'FAILED',
  }));
  return toPage(content, total, q);
}

/** The operator (WAVE, MTN_MOMO_CMR, ...) of each mobile payout's wallet. */
async function payoutOperators(db: Db, rows: WithdrawalRow[]): Promise<Map<number, string>> {
  const ids = rows.filter((w) => isMobileDestination(w.destinationAccountId)).map((w) => payoutAccountIdOf(w.destinationAccountId));
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: mobilePayoutAccounts.id, provider: mobilePayoutAccounts.provider }).from(mobilePayoutAccounts).where(inArray(mobilePayoutAccounts.id, ids));
  return new Map(found.map((a) => [a.id, a.provider]));
}
