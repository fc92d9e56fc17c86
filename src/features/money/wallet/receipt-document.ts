// What a receipt PDF says (issue 18, defect 10; CONTRACT section 19; docs/decisions-money.md).
// Every receipt names its issuer, the platform, with the legal details of the configuration. The
// receipt of a captured payment is its invoice, of a refund after capture its credit note: numbered
// and dated, issued by the platform acting as marketplace on behalf of the carrier (who supplies the
// transport), with the platform's own service (its commission, VAT included) and its VAT apart, for
// the amount the document states (captured, refunded). In the reader's language (receipt.texts.ts).
// Pure: transactions.service.ts reads the rows.
import type { Locale, MoneyDocumentRow, TransactionRow } from '../../../db/schema';
import { dateText, dateTimeText, localDecimal } from '../../../lib/locale';
import { formatMoneyIn } from '../../../lib/money';
import type { PdfLine } from '../../../lib/pdf';
import { appConfig } from '../../../config';
import { receiptTexts } from './receipt.texts';

export interface LegalDetails {
  name: string;
  address: string;
  vatNumber: string;
  companyRegistration: string;
  /** VAT rate of the platform's commission. */
  vatRate: number;
}

export const legalDetails = (env: Env): LegalDetails => ({
  name: env.PLATFORM_LEGAL_NAME,
  address: env.PLATFORM_LEGAL_ADDRESS,
  vatNumber: env.PLATFORM_VAT_NUMBER,
  companyRegistration: env.PLATFORM_COMPANY_REGISTRATION,
  vatRate: appConfig(env).platform.vatRate,
});

export interface ReceiptReservation {
  reservationNumber: string;
  reservedWeightG: number;
  pricePerKgCents: number;
  currency: string;
  authorizationId: string | null;
  refundId: string | null;
}

/** An invoice or credit note (money_documents), with the number of the invoice a credit note credits. */
export type ReceiptMoneyDocument = Pick<
  MoneyDocumentRow,
  'kind' | 'number' | 'issuedAt' | 'currency' | 'totalCents' | 'carrierCents' | 'commissionCents' | 'vatCents' | 'vatRate'
> & { protectionCents?: number } & { creditedInvoice: string | null };

export interface ReceiptInput {
  transaction: Pick<TransactionRow, 'id' | 'type' | 'amountCents' | 'currency' | 'createdAt'>;
  /** The transaction's history line, in the document's language (ledger-text.ts). */
  description: string;
  /** The transaction's invoice or credit note; null: a plain receipt of the movement. */
  document: ReceiptMoneyDocument | null;
  legal: LegalDetails;
  /** The owner of the transaction, when a person. */
  customer: { name: string; email: string } | null;
  reservation: ReceiptReservation | null;
  /** Who carries the parcel: the carrier, or the agency owning the trip. */
  carrierName: string | null;
}

const percent = (rate: number, locale: Locale) => `${localDecimal(Math.round(rate * 10_000) / 100, locale)}${locale === 'fr' ? '\u00a0%' : '%'}`;

/** The document's title and lines, top to bottom, in `locale`. */
export function receiptDocument(input: ReceiptInput, locale: Locale): { title: string; lines: PdfLine[] } {
  const { transaction: t, document: doc, legal, customer, reservation: r } = input;
  const w = receiptTexts(locale);
  const kind = doc ? doc.kind : 'RECEIPT';
  const credit = kind === 'CREDIT_NOTE';
  const lines: PdfLine[] = [{ text: w.title[kind], bold: true, size: 20 }];
  const line = (text: string, gapBefore = 0) => lines.push({ text, gapBefore });
  const field = (label: string, value: string, gapBefore = 0) => line(w.field(label, value), gapBefore);

  if (doc) {
    field(w.number[doc.kind], doc.number, 10);
    field(w.date[doc.kind], dateText(doc.issuedAt, locale));
    if (credit && doc.creditedInvoice) field(w.creditsInvoice, doc.creditedInvoice);
  } else {
    field(w.transaction, String(t.id), 10);
    field(w.dateOfMovement, dateTimeText(t.createdAt, locale));
  }
  line(doc ? w.issuedByMarketplace : w.issuedBy, 10);
  line(legal.name);
  line(legal.address);
  field(w.vatNumber, legal.vatNumber);
  field(w.companyRegistration, legal.companyRegistration);

  if (doc && input.carrierName) field(w.carrier, input.carrierName, 10);
  if (customer) field(w.customer, `${customer.name} <${customer.email}>`, doc && input.carrierName ? 0 : 10);
  if (!doc) {
    field(w.type, w.typeName(t.type));
    field(w.description, input.description);
  }
  if (r) {
    field(w.reservation, r.reservationNumber);
    line(w.weight(localDecimal((r.reservedWeightG / 1000).toFixed(3), locale), formatMoneyIn(r.pricePerKgCents, r.currency, locale)));
  }
  if (doc) {
    const money = (cents: number) => formatMoneyIn(cents, doc.currency, locale);
    field(w.transport(credit), `${money(doc.carrierCents)} ${w.noVatByPlatform}`, 10);
    field(w.feeExclVat(credit), money(doc.commissionCents - doc.vatCents));
    field(w.vatOnFee(percent(doc.vatRate, locale), credit), money(doc.vatCents));
    field(w.feeInclVat(credit), money(doc.commissionCents));
    // The protection premium is its own line, beside the transport price (CONTRACT 21).
    if (doc.protectionCents) field(w.protection(credit), `${money(doc.protectionCents)} ${w.noVat}`);
  }
  if (credit && r?.refundId) field(w.refundReference, r.refundId);
  else if (r?.authorizationId) field(w.paymentReference, r.authorizationId);
  lines.push({
    text: doc
      ? w.field(credit ? w.totalRefunded : w.totalPaid, formatMoneyIn(doc.totalCents + (doc.protectionCents ?? 0), doc.currency, locale))
      : w.field(w.amount, formatMoneyIn(Math.abs(t.amountCents), t.currency, locale)),
    bold: true,
    size: 14,
    gapBefore: 10,
  });
  return { title: w.documentTitle(kind, doc ? doc.number : String(t.id)), lines };
}
