// What a receipt PDF says (issue 18, defect 10; CONTRACT section 19; docs/decisions-money.md).
// Every receipt names its issuer, the platform, with the legal details of the configuration. The
// receipt of a captured payment is its invoice, of a refund after capture its credit note: numbered
// and dated, issued by the platform acting as marketplace on behalf of the carrier (who supplies the
// transport), with the platform's own service (its commission, VAT included) and its VAT apart, for
// the amount the document states (captured, refunded). Pure: transactions.service.ts reads the rows.
import type { MoneyDocumentRow, TransactionRow } from '../../../db/schema';
import { formatMoney } from '../../../lib/money';
import type { PdfLine } from '../../../lib/pdf';
import { appConfig } from '../../../config';

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
  transaction: Pick<TransactionRow, 'id' | 'type' | 'amountCents' | 'currency' | 'description' | 'createdAt'>;
  /** The transaction's invoice or credit note; null: a plain receipt of the movement. */
  document: ReceiptMoneyDocument | null;
  legal: LegalDetails;
  /** The owner of the transaction, when a person. */
  customer: { name: string; email: string } | null;
  reservation: ReceiptReservation | null;
  /** Who carries the parcel: the carrier, or the agency owning the trip. */
  carrierName: string | null;
}

const percent = (rate: number) => `${Math.round(rate * 10_000) / 100}%`;

/** The document's title and lines, top to bottom. */
export function receiptDocument(input: ReceiptInput): { title: string; lines: PdfLine[] } {
  const { transaction: t, document: doc, legal, customer, reservation: r } = input;
  const credit = doc?.kind === 'CREDIT_NOTE';
  const name = doc ? (credit ? 'Credit note' : 'Invoice') : null;
  const lines: PdfLine[] = [{ text: name ?? 'Transaction receipt', bold: true, size: 20 }];
  const line = (text: string, gapBefore = 0) => lines.push({ text, gapBefore });

  if (doc) {
    line(`${name} number: ${doc.number}`, 10);
    line(`${name} date: ${doc.issuedAt.slice(0, 10)}`);
    if (credit && doc.creditedInvoice) line(`Credits invoice: ${doc.creditedInvoice}`);
  } else {
    line(`Transaction: ${t.id}`, 10);
    line(`Date: ${t.createdAt}`);
  }
  line(doc ? 'Issued by the platform, acting as marketplace on behalf of the carrier:' : 'Issued by:', 10);
  line(legal.name);
  line(legal.address);
  line(`VAT number: ${legal.vatNumber}`);
  line(`Company registration: ${legal.companyRegistration}`);

  if (doc && input.carrierName) line(`Carrier (supplier of the transport): ${input.carrierName}`, 10);
  if (customer) line(`Customer: ${customer.name} <${customer.email}>`, doc && input.carrierName ? 0 : 10);
  if (!doc) {
    line(`Type: ${t.type}`);
    line(`Description: ${t.description}`);
  }
  if (r) {
    line(`Reservation: ${r.reservationNumber}`);
    line(`Weight: ${(r.reservedWeightG / 1000).toFixed(3)} kg at ${formatMoney(r.pricePerKgCents, r.currency)}/kg`);
  }
  if (doc) {
    const money = (cents: number) => formatMoney(cents, doc.currency);
    const credited = credit ? ' credited' : '';
    line(`Transport by the carrier${credited}: ${money(doc.carrierCents)} (no VAT charged by the platform)`, 10);
    line(`Platform service fee excl. VAT${credited}: ${money(doc.commissionCents - doc.vatCents)}`);
    line(`VAT ${percent(doc.vatRate)} on the platform service fee${credited}: ${money(doc.vatCents)}`);
    line(`Platform service fee incl. VAT${credited}: ${money(doc.commissionCents)}`);
    // The protection premium is its own line, beside the transport price (CONTRACT 21).
    if (doc.protectionCents) line(`Protection of the declared value${credited}: ${money(doc.protectionCents)} (no VAT)`);
  }
  if (credit && r?.refundId) line(`Refund reference: ${r.refundId}`);
  else if (r?.authorizationId) line(`Payment reference: ${r.authorizationId}`);
  lines.push({
    text: doc ? `${credit ? 'Total refunded' : 'Total paid'}: ${formatMoney(doc.totalCents + (doc.protectionCents ?? 0), doc.currency)}` : `Amount: ${formatMoney(Math.abs(t.amountCents), t.currency)}`,
    bold: true,
    size: 14,
    gapBefore: 10,
  });
  return { title: doc ? `${name} ${doc.number}` : `Receipt ${t.id}`, lines };
}
