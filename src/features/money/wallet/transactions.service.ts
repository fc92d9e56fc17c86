// The money history a user sees (one row per movement that concerns them) and its PDF receipts
// (an invoice or credit note where the movement has one), generated once (src/lib/pdf.ts) and kept in R2.
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../../env';
import { textPdf } from '../../../lib/pdf';
import { readReceiptToken } from '../../../lib/receipt-token';
import { readPage } from '../../../db/statements';
import { agencies, EARNING_TYPES, moneyDocuments, reservations, transactions, users, type MoneyDocumentKind, type TransactionRow, type TransactionType } from '../../../db/schema';
import { accessDenied, notFound } from '../../../errors';
import { amountOf } from '../../../lib/money';
import { mainCurrency } from '../../../lib/main-currency';
import { orderBy, toPage, type PageParams } from '../../../lib/pagination';
import type { Owner } from '../ledger/posting-rules';
import { receiptUrl } from '../../../lib/urls';
import { documentOfTransaction } from './money-documents';
import { legalDetails, receiptDocument, type ReceiptMoneyDocument } from './receipt-document';
import { appConfig } from '../../../config';
import type { Locale } from '../../../db/schema';
import { lineText } from '../ledger/ledger-text';

/** A history line as the API answers it, its description in `locale`. */
export async function toTransaction(env: Env, t: TransactionRow, locale: Locale) {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    amount: amountOf(t.amountCents, t.currency),
    currency: t.currency,
    description: lineText(t, locale),
    reservationId: t.reservationId,
    withdrawalId: t.withdrawalId,
    receiptUrl: await receiptUrl(env, t.id),
    createdAt: t.createdAt,
  };
}

const ownerIs = (owner: Owner) => and(eq(transactions.ownerType, owner.type), eq(transactions.ownerId, owner.id));

/** `dateTo` is inclusive: everything before the next day. */
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

export interface TransactionFilters {
  type?: TransactionType;
  dateFrom?: string;
  dateTo?: string;
}

export async function listTransactions(deps: Deps, owner: Owner, q: PageParams<'createdAt' | 'amount'> & TransactionFilters, locale: Locale) {
  const db = deps.db;
  const conditions: (SQL | undefined)[] = [ownerIs(owner)];
  if (q.type) conditions.push(eq(transactions.type, q.type));
  if (q.dateFrom) conditions.push(gte(transactions.createdAt, `${q.dateFrom}T00:00:00.000Z`));
  if (q.dateTo) conditions.push(lt(transactions.createdAt, nextDay(q.dateTo)));
  const where = and(...conditions);
  const order = orderBy(q.sort, { createdAt: transactions.createdAt, amount: transactions.amountCents }, transactions.id);
  const { rows, total } = await readPage(db, transactions, where, order, q);
  return toPage(
    await Promise.all(rows.map((t) => toTransaction(deps.env, t, locale))),
    total,
    q,
  );
}

export const SUMMARY_PERIODS = ['DAY', 'WEEK', 'MONTH', 'YEAR', 'ALL'] as const;
export type SummaryPeriod = (typeof SUMMARY_PERIODS)[number];

export function periodStart(period: SummaryPeriod, now: Date): Date | null {
  const d = new Date(now);
  switch (period) {
    case 'DAY':
      return new Date(now.getTime() - 86_400_000);
    case 'WEEK':
      return new Date(now.getTime() - 7 * 86_400_000);
    case 'MONTH':
      d.setUTCMonth(d.getUTCMonth() - 1);
      return d;
    case 'YEAR':
      d.setUTCFullYear(d.getUTCFullYear() - 1);
      return d;
    default:
      return null;
  }
}

export async function transactionSummary(deps: Deps, owner: Owner, period: SummaryPeriod, now = new Date()) {
  const from = periodStart(period, now);
  // Totals of one currency, the main one: amounts of two currencies never add up (CONTRACT section 20).
  const currency = mainCurrency(appConfig(deps.env));
  const where = and(ownerIs(owner), eq(transactions.currency, currency), from ? gte(transactions.createdAt, from.toISOString()) : undefined);
  const sumOf = (...types: TransactionType[]) =>
    sql<number>`COALESCE(SUM(CASE WHEN ${inArray(transactions.type, types)} AND ${transactions.status} = 'COMPLETED' THEN ${transactions.amountCents} END), 0)`;
  const pending = sql<number>`COALESCE(SUM(CASE WHEN ${transactions.status} = 'PENDING' THEN ${transactions.amountCents} END), 0)`;
  const [row] = await deps.db
    .select({
      paid: sumOf('PAYMENT'),
      refunded: sumOf('REFUND'),
      released: sumOf('HOLD_RELEASE'),
      refundPending: pending,
      earned: sumOf(...EARNING_TYPES),
      withdrawn: sumOf('WITHDRAWAL'),
      reversed: sumOf('WITHDRAWAL_REVERSAL'),
      net: sql<number>`COALESCE(SUM(${transactions.amountCents}), 0)`,
      count: count(),
    })
    .from(transactions)
    .where(where);
  return {
    period,
    from: from?.toISOString() ?? null,
    to: now.toISOString(),
    currency,
    totalPaid: amountOf(-row.paid, currency),
    totalRefunded: amountOf(row.refunded, currency),
    totalRefundPending: amountOf(row.refundPending, currency),
    totalReleased: amountOf(row.released, currency),
    totalEarned: amountOf(row.earned, currency),
    totalWithdrawn: amountOf(-(row.withdrawn + row.reversed), currency),
    net: amountOf(row.net, currency),
    count: row.count,
  };
}

/** A transaction of the caller; another owner's is 403, a missing one 404. */
export async function getOwnTransaction(deps: Deps, owner: Owner, id: number): Promise<TransactionRow> {
  const [row] = await deps.db.select().from(transactions).where(eq(transactions.id, id));
  if (!row) throw notFound('Transaction', id);
  if (row.ownerType !== owner.type || row.ownerId !== owner.id) throw accessDenied();
  return row;
}

/**
 * The receipt PDF in `locale`: from R2 when made before in that language, else made now and kept.
 * Each language's copy is made once and then served the same; both state the same figures. A
 * payment's receipt is its invoice, which exists only once money was captured: before (or when the
 * hold was released without a capture) there is none, 404.
 */
export async function receiptPdf(deps: Deps, t: TransactionRow, locale: Locale): Promise<ArrayBuffer> {
  const doc = await documentOfTransaction(deps, t.id);
  if (!doc && t.type === 'PAYMENT') throw notFound('Invoice of transaction', t.id);
  // The English copy keeps the key receipts always had; receipt_key names the first copy made.
  const key = `receipts/${t.ownerType.toLowerCase()}-${t.ownerId}/transaction-${t.id}${locale === 'en' ? '' : `.${locale}`}.pdf`;
  const stored = await deps.env.UPLOADS.get(key);
  if (stored) return stored.arrayBuffer();
  const bytes = await renderReceipt(deps, t, doc, locale);
  await deps.env.UPLOADS.put(key, bytes, { httpMetadata: { contentType: 'application/pdf' } });
  if (!t.receiptKey) await deps.db.update(transactions).set({ receiptKey: key }).where(eq(transactions.id, t.id));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

async function renderReceipt(deps: Deps, t: TransactionRow, document: ReceiptMoneyDocument | null, locale: Locale): Promise<Uint8Array> {
  const db = deps.db;
  const [reservation] = t.reservationId
    ? await db.select().from(reservations).where(eq(reservations.id, t.reservationId))
    : [undefined];
  const [owner] =
    t.ownerType === 'USER'
      ? await db.select({ firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, t.ownerId))
      : [undefined];
  const [carrier] = reservation
    ? reservation.agencyId
      ? await db.select({ name: sql<string>`coalesce(${agencies.legalName}, ${agencies.name})` }).from(agencies).where(eq(agencies.id, reservation.agencyId))
      : await db.select({ name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` }).from(users).where(eq(users.id, reservation.carrierId))
    : [undefined];
  const { title, lines } = receiptDocument(
    {
      transaction: t,
      description: lineText(t, locale),
      document,
      legal: legalDetails(deps.env),
      customer: owner ? { name: `${owner.firstName} ${owner.lastName}`.trim(), email: owner.email } : null,
      reservation: reservation ?? null,
      carrierName: carrier?.name ?? null,
    },
    locale,
  );
  return textPdf(title, lines);
}

/**
 * The invoice or credit note of `userId` for a reservation, for an e-mail's attachment (deliveries
 * consumer); null when there is none (nothing captured, nothing refunded after capture).
 */
export async function reservationDocumentPdf(
  deps: Deps,
  userId: number,
  reservationId: number,
  kind: MoneyDocumentKind,
  locale: Locale,
): Promise<{ filename: string; pdf: ArrayBuffer } | null> {
  const [found] = await deps.db
    .select({ t: transactions, number: moneyDocuments.number })
    .from(moneyDocuments)
    .innerJoin(transactions, eq(transactions.id, moneyDocuments.transactionId))
    .where(and(eq(moneyDocuments.reservationId, reservationId), eq(moneyDocuments.kind, kind), eq(transactions.ownerType, 'USER'), eq(transactions.ownerId, userId)))
    .orderBy(desc(moneyDocuments.id))
    .limit(1);
  if (!found) return null;
  return { filename: `${found.number}.pdf`, pdf: await receiptPdf(deps, found.t, locale) };
}

/** The transaction a signed receipt link names (403 for a bad or expired link, 404 when it is gone). */
export async function transactionOfReceiptLink(deps: Deps, token: string): Promise<TransactionRow> {
  const id = await readReceiptToken(deps.env.RECEIPT_SIGNING_SECRET, token);
  const [row] = await deps.db.select().from(transactions).where(eq(transactions.id, id));
  if (!row) throw notFound('Transaction', id);
  return row;
}
