// The daily reconciliation job (CONTRACT section 27, docs/OPERATIONS.md "Reconciliation"): for one
// UTC day, Stripe's charges, refunds and transfers (listed with a `created` range, every page) and
// each mobile-money rail's operations (checked one by one by id, then the rail's statement where it
// lists one: docs/decisions-reconciliation.md) against our rows; one report per day and provider,
// replaced in one batch when run again.
import { and, eq, gte, inArray, isNotNull, lt, ne, not, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  ledgerEntries,
  MONEY_BACK_TYPES,
  mobileMoneyOperations,
  paymentSessions,
  reconciliationDifferences,
  reconciliationReports,
  reservations,
  transactions,
  withdrawals,
  type Locale,
  type ReconciliationReportRow,
} from '../../../db/schema';
import { inSlices, qualified, rowExists } from '../../../db/statements';
import type { Deps } from '../../../env';
import { reportCaught } from '../../../error-tracking';
import { STATEMENT_CAP, type MobileMoneyRail, type OperationResult } from '../../../providers/mobile-money';
import { LISTING_CAP, type CreatedRange } from '../../../providers/payment';
import { msg, type Message } from '../../../messages';
import { renderText } from '../../../lib/message-text';
import { chargedCents } from '../ledger/posting-rules';
import { isMobileDestination } from '../withdrawals/mobile-payout';
import { compareCharges, compareOperation, compareRefunds, compareTransfers, type Difference, type OurCardPayment, type OurTransfer } from './reconciliation.rules';
import { compareStatement, matchStatement, type StatementOperation } from './statement.rules';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Our timestamps and the provider's differ by the seconds between its answer and our write: matched over the day and an hour either side. */
const MARGIN_MS = 60 * 60 * 1000;
/** Mobile-money operations checked per rail and day (each a status call); the report says when more were left. */
export const OPERATIONS_CHECKED_CAP = 500;
/** Differences per multi-row INSERT: 11 columns and the report id (2 parameters) each, under D1's 100 bound parameters. */
const ROWS_PER_INSERT = 7;

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** The UTC day before `at`'s: what the daily run reconciles. */
export const previousDay = (at: Date) => dayOf(new Date(at.getTime() - DAY_MS));
const bounds = (day: string) => {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return { start, end: start + DAY_MS, from: new Date(start).toISOString(), to: new Date(start + DAY_MS).toISOString() };
};

interface Compared {
  differences: Difference[];
  providerRecords: number;
  ourRecords: number;
  /** How the provider was read, part by part: stored as keys (said in the reader's language) and in English. */
  note: Message[];
}

/** French puts a space before a semicolon. */
const joinNote = (note: Message[], locale: Locale) => note.map((m) => renderText(m, locale)).join(locale === 'fr' ? ' ; ' : '; ');

/** Every provider's report for `day`, stored (replacing an earlier run's); a provider that cannot be read gets a FAILED report. */
export async function runReconciliation(deps: Deps, day: string): Promise<ReconciliationReportRow[]> {
  const runs: [string, () => Promise<Compared>][] = [
    ['STRIPE', () => stripeCompared(deps, day)],
    ...deps.providers.mobileMoney.all.map((rail) => [rail.code, () => railCompared(deps, day, rail)] as [string, () => Promise<Compared>]),
  ];
  const out: ReconciliationReportRow[] = [];
  for (const [provider, compare] of runs) {
    let result: Compared | { error: string };
    try {
      result = await compare();
    } catch (err) {
      reportCaught(deps.env, err, { msg: 'reconciliation failed', job: 'reconciliation', provider, day });
      result = { error: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
    }
    out.push(await storeReport(deps.db, day, provider, result));
  }
  return out;
}

/** The report and its differences in one batch: a run again replaces them, two at once leave one set. */
async function storeReport(db: Db, day: string, provider: string, result: Compared | { error: string }): Promise<ReconciliationReportRow> {
  const runAt = new Date().toISOString();
  const failed = 'error' in result;
  const values = failed
    ? { status: 'FAILED' as const, providerRecords: 0, ourRecords: 0, differences: 0, note: null, noteText: null, error: result.error }
    : {
        status: result.differences.length > 0 ? ('DIFFERENCES' as const) : ('MATCHED' as const),
        providerRecords: result.providerRecords,
        ourRecords: result.ourRecords,
        differences: result.differences.length,
        note: joinNote(result.note, 'en'),
        noteText: result.note,
        error: null,
      };
  const reportId = sql`(SELECT ${reconciliationReports.id} FROM ${reconciliationReports} WHERE ${reconciliationReports.day} = ${day} AND ${reconciliationReports.provider} = ${provider})`;
  const diffs = failed ? [] : result.differences;
  const inserts = [];
  for (let i = 0; i < diffs.length; i += ROWS_PER_INSERT) {
    inserts.push(db.insert(reconciliationDifferences).values(diffs.slice(i, i + ROWS_PER_INSERT).map((d) => ({ ...d, reportId }))));
  }
  const key = and(eq(reconciliationReports.day, day), eq(reconciliationReports.provider, provider));
  await db.batch([
    db
      .insert(reconciliationReports)
      .values({ day, provider, ...values, runAt })
      .onConflictDoUpdate({ target: [reconciliationReports.day, reconciliationReports.provider], set: { ...values, runAt, runs: sql`${reconciliationReports.runs} + 1` } }),
    db.delete(reconciliationDifferences).where(sql`${reconciliationDifferences.reportId} = ${reportId}`),
    ...inserts,
  ]);
  const [row] = await db.select().from(reconciliationReports).where(key);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Stripe

/** Paid by card: not through a mobile-money checkout (its payment session's method). */
const paidByCard = (db: Db) => not(rowExists(db, paymentSessions, and(eq(paymentSessions.sessionId, reservations.paymentId), eq(paymentSessions.method, 'MOBILE_MONEY'))));

/** Our card payments matching `where`, with what went back to the payer. */
async function cardPayments(db: Db, where: SQL | undefined): Promise<OurCardPayment[]> {
  // Every column qualified: in the fields of a one-table select drizzle drops the table, and an
  // unqualified "id" inside the subquery would be the transaction's or the entry's, not the reservation's.
  const [t, l, outerId] = [transactions, ledgerEntries, qualified(reservations.id)];
  const back = sql<number>`(SELECT COALESCE(SUM(${qualified(t.amountCents)}), 0) FROM ${t} WHERE ${qualified(t.reservationId)} = ${outerId} AND ${inArray(t.type, [...MONEY_BACK_TYPES])} AND ${qualified(t.ledgerEntryId)} IN (SELECT ${qualified(l.id)} FROM ${l} WHERE ${qualified(l.reservationId)} = ${outerId}))`;
  const rows = await db
    .select({
      id: reservations.id,
      authorizationId: reservations.authorizationId,
      totalAmountCents: reservations.totalAmountCents,
      protectionPremiumCents: reservations.protectionPremiumCents,
      currency: reservations.currency,
      paymentStatus: reservations.paymentStatus,
      refundId: reservations.refundId,
      back,
    })
    .from(reservations)
    .where(and(isNotNull(reservations.authorizationId), paidByCard(db), where));
  return rows.map((r) => ({
    reservationId: r.id,
    authorizationId: r.authorizationId!,
    chargedMinor: chargedCents(r),
    backMinor: Number(r.back),
    currency: r.currency,
    paymentStatus: r.paymentStatus,
    refundId: r.refundId,
  }));
}


async function stripeCompared(deps: Deps, day: string): Promise<Compared> {
  const { db } = deps;
  const provider = deps.providers.payment;
  const { start, end, from, to } = bounds(day);
  const wide: CreatedRange = { from: Math.floor((start - MARGIN_MS) / 1000), to: Math.floor((end + MARGIN_MS) / 1000) };
  const [charges, refunds, transfers] = await Promise.all([provider.listCharges(wide), provider.listRefunds(wide), provider.listTransfers(wide)]);
  const inDay = <T extends { created: number }>(list: T[]) => list.filter((x) => x.created * 1000 >= start && x.created * 1000 < end);
  const [dayCharges, dayRefunds, dayTransfers] = [inDay(charges), inDay(refunds), inDay(transfers)];
  const intents = [...dayCharges, ...dayRefunds].map((x) => x.paymentIntentId).filter((id): id is string => Boolean(id));
  // 80 at a time: the card-payment statement binds its own parameters beside the slice.
  const named = await inSlices(intents, (slice) => cardPayments(db, inArray(reservations.authorizationId, slice)), 80);
  const paidOfDay = await cardPayments(db, and(gte(reservations.paidAt, from), lt(reservations.paidAt, to)));
  const refundedOfDay = await cardPayments(db, and(gte(reservations.refundedAt, from), lt(reservations.refundedAt, to), isNotNull(reservations.refundId)));
  const byIntent = new Map(named.map((p) => [p.authorizationId, p]));
  const byRefundId = new Map(named.filter((p) => p.refundId).map((p) => [p.refundId!, p]));
  const withdrawalIds = dayTransfers.map((t) => t.withdrawalId).filter((id): id is number => id !== null);
  const transferRows = await inSlices(withdrawalIds, (slice) => ourTransfers(db, inArray(withdrawals.id, slice)));
  const transfersOfDay = (await ourTransfers(db, and(eq(withdrawals.status, 'COMPLETED'), gte(withdrawals.completedAt, from), lt(withdrawals.completedAt, to)))).filter((w) => w.transferId);
  const differences = [
    ...compareCharges(dayCharges, byIntent, paidOfDay, new Set(charges.map((c) => c.paymentIntentId ?? ''))),
    ...compareRefunds(dayRefunds, byRefundId, byIntent, refundedOfDay, new Set(refunds.map((r) => r.id))),
    ...compareTransfers(dayTransfers, new Map(transferRows.map((w) => [w.withdrawalId, w])), transfersOfDay, new Set(transfers.map((t) => t.id))),
  ];
  const capped = [charges, refunds, transfers].some((l) => l.length >= LISTING_CAP);
  return {
    differences,
    providerRecords: dayCharges.length + dayRefunds.length + dayTransfers.length,
    ourRecords: paidOfDay.length + refundedOfDay.length + transfersOfDay.length,
    note: [
      msg('reconciliation.listed', { charges: dayCharges.length, refunds: dayRefunds.length, transfers: dayTransfers.length }),
      ...(capped ? [msg('reconciliation.listingCapped', { cap: LISTING_CAP })] : []),
    ],
  };
}

/** Our withdrawals paid by Stripe transfer (not to a mobile wallet). */
async function ourTransfers(db: Db, where: SQL | undefined): Promise<OurTransfer[]> {
  const rows = await db.select().from(withdrawals).where(where);
  return rows
    .filter((w) => !isMobileDestination(w.destinationAccountId))
    .map((w) => ({ withdrawalId: w.id, transferId: w.transferId, amountMinor: w.amountCents, currency: w.currency, status: w.status }));
}

// ---------------------------------------------------------------------------------------------
// Mobile-money rails

/** What the rail says of one operation of ours (its status call, by our id). */
function statusOf(rail: MobileMoneyRail, op: { id: string; kind: string; ref: string | null }): Promise<OperationResult | null> {
  if (op.kind === 'PAYIN') return rail.payInStatus(op.id, op.ref);
  if (op.kind === 'REFUND') return rail.refundStatus(op.id, op.ref);
  return rail.payoutStatus(op.id, op.ref);
}

async function railCompared(deps: Deps, day: string, rail: MobileMoneyRail): Promise<Compared> {
  const { from, to } = bounds(day);
  // NEW: recorded but never sent, so nothing to ask.
  const ops = await deps.db
    .select()
    .from(mobileMoneyOperations)
    .where(and(eq(mobileMoneyOperations.rail, rail.code), gte(mobileMoneyOperations.createdAt, from), lt(mobileMoneyOperations.createdAt, to), ne(mobileMoneyOperations.status, 'NEW')))
    .orderBy(mobileMoneyOperations.createdAt)
    .limit(OPERATIONS_CHECKED_CAP + 1);
  const checked = ops.slice(0, OPERATIONS_CHECKED_CAP);
  const differences: Difference[] = [];
  const reported = new Set<string>();
  let known = 0;
  for (let i = 0; i < checked.length; i += 5) {
    const results = await Promise.all(checked.slice(i, i + 5).map((op) => statusOf(rail, op)));
    results.forEach((result, j) => {
      if (result) known += 1;
      const d = compareOperation(checked[i + j], result);
      if (d) (differences.push(d), reported.add(checked[i + j].id));
    });
  }
  const note = [
    msg('reconciliation.checkedById', { count: checked.length }),
    ...(ops.length > OPERATIONS_CHECKED_CAP ? [msg('reconciliation.operationsLeft', { cap: OPERATIONS_CHECKED_CAP })] : []),
  ];
  if (!rail.statement) return { differences, providerRecords: known, ourRecords: checked.length, note };
  const statement = await statementCompared(deps.db, day, rail, checked, reported);
  return { differences: [...differences, ...statement.differences], providerRecords: statement.lines, ourRecords: checked.length, note: [...note, ...statement.note] };
}

/**
 * The rail's statement of the day (and of the next, up to today, for our operations completed
 * across midnight) against the operations its lines name and ours of the day.
 */
async function statementCompared(db: Db, day: string, rail: MobileMoneyRail, ofDay: StatementOperation[], reported: Set<string>) {
  const { start, end } = bounds(day);
  const days = [day, dayOf(new Date(end))].filter((d) => d <= dayOf(new Date()));
  const listings = await Promise.all(days.map((d) => rail.statement!(d)));
  const entries = listings.flatMap((l) => l.entries).sort((a, b) => a.at - b.at);
  const ofRail = (where: SQL) => db.select().from(mobileMoneyOperations).where(and(eq(mobileMoneyOperations.rail, rail.code), where));
  const named = [
    ...(await inSlices(entries.flatMap((e) => (e.ref ? [e.ref] : [])), (slice) => ofRail(inArray(mobileMoneyOperations.ref, slice)))),
    ...(await inSlices(entries.flatMap((e) => (e.reference ? [e.reference] : [])), (slice) => ofRail(inArray(mobileMoneyOperations.reference, slice)))),
  ];
  const ops = [...new Map([...ofDay, ...named].map((o) => [o.id, o])).values()];
  const inDay = (e: { at: number }) => e.at >= start && e.at < end;
  const differences = compareStatement(matchStatement(entries, ops), inDay, ofDay, reported);
  const dayEntries = entries.filter(inDay);
  const others = dayEntries.filter((e) => e.kind === 'OTHER').length;
  const note = [
    msg('reconciliation.statement', { lines: dayEntries.length, others }),
    ...(listings.some((l) => l.capped) ? [msg('reconciliation.statementCapped', { cap: STATEMENT_CAP })] : []),
  ];
  return { differences, lines: dayEntries.length, note };
}

// ---------------------------------------------------------------------------------------------
// Reading the reports

/** The reports of `day` (default: the latest day reported), each with its differences, their notes in `locale`. */
export async function reportsOf(db: Db, day?: string, locale: Locale = 'en') {
  const [latest] = day ? [{ day }] : await db.select({ day: reconciliationReports.day }).from(reconciliationReports).orderBy(sql`${reconciliationReports.day} DESC`).limit(1);
  if (!latest) return { day: null, reports: [] };
  const [reports, differences] = await db.batch([
    db.select().from(reconciliationReports).where(eq(reconciliationReports.day, latest.day)).orderBy(reconciliationReports.provider),
    db
      .select()
      .from(reconciliationDifferences)
      .where(inArray(reconciliationDifferences.reportId, db.select({ id: reconciliationReports.id }).from(reconciliationReports).where(eq(reconciliationReports.day, latest.day))))
      .orderBy(reconciliationDifferences.id),
  ]);
  return {
    day: latest.day,
    // The note in `locale`; reports stored before the keys keep their English one.
    reports: reports.map(({ noteText, ...r }) => ({ ...r, note: noteText ? joinNote(noteText as Message[], locale) : r.note, items: differences.filter((d) => d.reportId === r.id) })),
  };
}
