// Money documents (CONTRACT section 19): the invoice is issued when money is captured, for the
// amount captured; a refund after capture issues a credit note for the amount refunded, referencing
// the invoice. Each is numbered from its year's gap-free sequence (`F-2026-000123`,
// `A-2026-000045`) in the batch that writes it: the counter moves only if the document is inserted
// (same condition, same batch), so a failed or losing batch never consumes a number.
// These are statement builders for the batch of the money step that causes the document
// (escrow.ts markCaptured, refundEffects; the dispute settlement); receipts read the rows.
import { and, eq, isNull, not, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { invoiceSequences, ledgerEntries, moneyDocuments, reservations, transactions, type MoneyDocumentKind, type MoneyDocumentRow } from '../../../db/schema';
import { guardedInsert, rowExists, type Statement } from '../../../db/statements';
import type { Deps } from '../../../env';

const PREFIX: Record<MoneyDocumentKind, string> = { INVOICE: 'F', CREDIT_NOTE: 'A' };
const DIGITS = 6;

/** The series of a document issued at `issuedAt` (ISO): its kind's letter and the UTC year. */
export const documentSeries = (kind: MoneyDocumentKind, issuedAt: string) => `${PREFIX[kind]}-${issuedAt.slice(0, 4)}`;
/** `F-2026`, 123 -> `F-2026-000123`. */
export const documentNumber = (series: string, n: number) => `${series}-${String(n).padStart(DIGITS, '0')}`;

export const invoiceKey = (reservationId: number) => `invoice:${reservationId}`;
/** A credit note per ledger entry that returned money after capture. */
export const creditNoteKey = (entryKey: string) => `credit:${entryKey}`;

const documentExists = (db: Db, key: string) => rowExists(db, moneyDocuments, eq(moneyDocuments.key, key));
const invoiceColumn = <C extends typeof moneyDocuments.id | typeof moneyDocuments.number | typeof moneyDocuments.transactionId | typeof moneyDocuments.totalCents>(
  db: Db,
  reservationId: number,
  column: C,
): SQL => sql`(${db.select({ v: column }).from(moneyDocuments).where(eq(moneyDocuments.key, invoiceKey(reservationId)))})`;

/** VAT included in `gross` at `rate` (SQL; the same arithmetic as lib/money.ts vatIncluded). */
const vatOf = (gross: SQL | number, rate: SQL | number): SQL => sql`CAST(ROUND((${gross}) * (${rate}) / (1 + (${rate}))) AS INTEGER)`;

type DocumentValues = Omit<typeof moneyDocuments.$inferInsert, 'id' | 'kind' | 'number' | 'key' | 'issuedAt'>;

/**
 * Takes the next number of the document's series and inserts the document, both only when `when`
 * holds and no document with `key` exists yet: in this order, in one batch.
 */
function numberedDocument(db: Db, kind: MoneyDocumentKind, key: string, issuedAt: string, values: { [K in keyof DocumentValues]: DocumentValues[K] | SQL }, when: SQL | undefined): Statement[] {
  const series = documentSeries(kind, issuedAt);
  const issuing = and(not(documentExists(db, key)), when);
  const last = db.select({ n: invoiceSequences.lastNumber }).from(invoiceSequences).where(eq(invoiceSequences.series, series));
  return [
    db.insert(invoiceSequences).values({ series, lastNumber: 0 }).onConflictDoNothing(),
    db
      .update(invoiceSequences)
      .set({ lastNumber: sql`${invoiceSequences.lastNumber} + 1` })
      .where(and(eq(invoiceSequences.series, series), issuing)),
    guardedInsert(
      db,
      moneyDocuments,
      { ...(values as DocumentValues), kind, key, issuedAt, number: sql`${`${series}-`} || printf(${`%0${DIGITS}d`}, (${last}))` },
      undefined,
      issuing,
    ),
  ];
}

/**
 * The invoice of a capture, for the batch that records it (`capturedStatus` CAPTURED or
 * PARTIALLY_CAPTURED): issued only if the reservation is in that status now and has none yet. It
 * states what was captured: the reservation's carrier amount and commission at that moment (the
 * whole price, or after a partial capture the kept share, which refundEffects has already written
 * there), and makes `invoiceStatus` ISSUED with `invoiceId` and the PAYMENT transaction behind
 * `invoiceUrl`.
 */
export function invoiceAtCapture(db: Db, reservationId: number, capturedStatus: string, vatRate: number, issuedAt = new Date().toISOString()): Statement[] {
  const r = reservations;
  const row = (column: typeof r.carrierAmountCents | typeof r.platformCommissionCents) => sql`(${db.select({ v: column }).from(r).where(eq(r.id, reservationId))})`;
  const captured = rowExists(db, r, and(eq(r.id, reservationId), eq(r.paymentStatus, capturedStatus)));
  return invoiceStatements(db, reservationId, { carrier: row(r.carrierAmountCents), commission: row(r.platformCommissionCents) }, vatRate, captured, issuedAt);
}

/**
 * The invoice of a capture our rows never recorded (it raced a void or partial capture, which the
 * provider then refused: escrow.ts turns the settlement into a refund): the whole price was
 * captured, split as booked (`split`), in the batch that relabels the money back as a refund.
 */
export function invoiceOfRacedCapture(db: Db, reservationId: number, split: { carrierCents: number; commissionCents: number }, vatRate: number, when: SQL): Statement[] {
  return invoiceStatements(db, reservationId, { carrier: split.carrierCents, commission: split.commissionCents }, vatRate, when, new Date().toISOString());
}

function invoiceStatements(db: Db, reservationId: number, lines: { carrier: SQL | number; commission: SQL | number }, vatRate: number, when: SQL, issuedAt: string): Statement[] {
  const r = reservations;
  const key = invoiceKey(reservationId);
  const payment = sql`(${db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.reservationId, reservationId), eq(transactions.type, 'PAYMENT')))
    .limit(1)})`;
  const currency = sql`(${db.select({ v: r.currency }).from(r).where(eq(r.id, reservationId))})`;
  // The premium is captured whole with any capture: only a full refund of the price gives it back.
  const premium = sql`(${db.select({ v: r.protectionPremiumCents }).from(r).where(eq(r.id, reservationId))})`;
  return [
    ...numberedDocument(
      db,
      'INVOICE',
      key,
      issuedAt,
      {
        reservationId,
        transactionId: payment,
        currency,
        totalCents: sql`(${lines.carrier}) + (${lines.commission})`,
        carrierCents: sql`${lines.carrier}`,
        commissionCents: sql`${lines.commission}`,
        vatCents: vatOf(sql`${lines.commission}`, vatRate),
        vatRate,
        protectionCents: premium,
      },
      when,
    ),
    db
      .update(r)
      .set({
        invoiceId: invoiceColumn(db, reservationId, moneyDocuments.number),
        invoiceTransactionId: invoiceColumn(db, reservationId, moneyDocuments.transactionId),
        invoiceStatus: 'ISSUED',
      })
      .where(and(eq(r.id, reservationId), isNull(r.invoiceStatus), documentExists(db, key))),
  ];
}

export interface MoneyBack {
  /** The ledger entry returning the money, by this attempt's token. */
  token: string;
  refundCents: number;
  /** What the carrier and the platform keep once it is back (they add up to the price minus the refund). */
  carrierCents: number;
  commissionCents: number;
}

/**
 * The documents side of money going back, for the batch that posts it (guarded on that posting):
 * the reservation's `carrierAmount` and `platformCommission` become what is kept. A refund after
 * capture has its credit note only once the provider confirms it (creditNoteAtRefund).
 */
export function moneyBackDocuments(db: Db, reservationId: number, back: MoneyBack): Statement[] {
  if (back.refundCents <= 0) return [];
  const posted = rowExists(db, ledgerEntries, eq(ledgerEntries.token, back.token));
  return [
    db
      .update(reservations)
      .set({ carrierAmountCents: back.carrierCents, platformCommissionCents: back.commissionCents })
      .where(and(eq(reservations.id, reservationId), posted)),
  ];
}

/** A sender's refund line waiting for the provider, with what its credit note needs. */
export interface PendingRefund {
  /** The REFUND transaction (PENDING) and the key of the ledger entry that wrote it. */
  transactionId: number;
  entryKey: string;
  /** The line's amount: the price refunded plus the premium going back with it. */
  amountCents: number;
}

/** What a confirmed refund credits: the price part (the price minus what is kept) and the premium part. */
export function creditedParts(r: { totalAmountCents: number; carrierAmountCents: number; platformCommissionCents: number }, lineCents: number) {
  const priceCents = r.totalAmountCents - r.carrierAmountCents - r.platformCommissionCents;
  return { priceCents, premiumCents: lineCents - priceCents };
}

/**
 * The credit note of a refund the provider confirmed (CONTRACT 19, 26), for the batch that records
 * the confirmation, when `when` holds: the invoice's lines minus what is kept (the reservation's
 * figures, written when the money went back), `invoiceStatus` PARTIALLY_CREDITED or CREDITED.
 * Nothing without an invoice (nothing was captured).
 */
export function creditNoteAtRefund(
  db: Db,
  r: { id: number; totalAmountCents: number; carrierAmountCents: number; platformCommissionCents: number },
  refund: PendingRefund,
  when: SQL,
  issuedAt = new Date().toISOString(),
): Statement[] {
  const key = creditNoteKey(refund.entryKey);
  const invoice = (column: typeof moneyDocuments.carrierCents | typeof moneyDocuments.commissionCents | typeof moneyDocuments.vatCents | typeof moneyDocuments.vatRate | typeof moneyDocuments.currency) =>
    sql`(${db.select({ v: column }).from(moneyDocuments).where(eq(moneyDocuments.key, invoiceKey(r.id)))})`;
  const carrier = sql`${invoice(moneyDocuments.carrierCents)} - ${r.carrierAmountCents}`;
  const commission = sql`${invoice(moneyDocuments.commissionCents)} - ${r.platformCommissionCents}`;
  const { priceCents, premiumCents } = creditedParts(r, refund.amountCents);
  return [
    ...numberedDocument(
      db,
      'CREDIT_NOTE',
      key,
      issuedAt,
      {
        reservationId: r.id,
        transactionId: refund.transactionId,
        invoiceDocumentId: invoiceColumn(db, r.id, moneyDocuments.id),
        currency: invoice(moneyDocuments.currency),
        totalCents: sql`(${carrier}) + (${commission})`,
        carrierCents: carrier,
        commissionCents: commission,
        // The VAT credited: the invoice's minus the VAT of the commission still kept.
        vatCents: sql`${invoice(moneyDocuments.vatCents)} - ${vatOf(sql`${r.platformCommissionCents}`, invoice(moneyDocuments.vatRate))}`,
        vatRate: invoice(moneyDocuments.vatRate),
        protectionCents: premiumCents,
      },
      and(when, documentExists(db, invoiceKey(r.id))),
    ),
    db
      .update(reservations)
      .set({
        invoiceStatus: sql`CASE WHEN ${priceCents} >= ${invoiceColumn(db, r.id, moneyDocuments.totalCents)} THEN 'CREDITED' ELSE 'PARTIALLY_CREDITED' END`,
      })
      .where(and(eq(reservations.id, r.id), documentExists(db, key), when)),
  ];
}

/** The document whose receipt a transaction is (its invoice or credit note), with the invoice number a credit note credits. */
export async function documentOfTransaction(deps: Deps, transactionId: number): Promise<(MoneyDocumentRow & { creditedInvoice: string | null }) | null> {
  const credited = alias(moneyDocuments, 'credited');
  const [row] = await deps.db
    .select({ doc: moneyDocuments, creditedInvoice: credited.number })
    .from(moneyDocuments)
    .leftJoin(credited, eq(credited.id, moneyDocuments.invoiceDocumentId))
    .where(eq(moneyDocuments.transactionId, transactionId))
    .limit(1);
  return row ? { ...row.doc, creditedInvoice: row.creditedInvoice } : null;
}
