// What a receipt PDF says (issue 18, defect 10; docs/decisions-money.md). Every receipt names its
// issuer, the platform, with the legal details of the configuration. The receipt of a payment is
// the reservation's invoice: numbered and dated, issued by the platform acting as marketplace on
// behalf of the carrier (who supplies the transport), with the platform's own service (its
// commission, VAT included) and its VAT apart. Pure: transactions.service.ts reads the rows.
import type { TransactionRow } from '../../../db/schema';
import { formatMoney, vatIncluded, vatRate } from '../../../lib/money';
import type { PdfLine } from '../../../lib/pdf';

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
  vatRate: vatRate(env),
});

export interface ReceiptReservation {
  reservationNumber: string;
  invoiceId: string | null;
  reservedWeightG: number;
  pricePerKgCents: number;
  totalAmountCents: number;
  platformCommissionCents: number;
  carrierAmountCents: number;
  currency: string;
  authorizationId: string | null;
}

export interface ReceiptInput {
  transaction: Pick<TransactionRow, 'id' | 'type' | 'amountCents' | 'currency' | 'description' | 'createdAt'>;
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
  const { transaction: t, legal, customer, reservation: r } = input;
  const invoice = t.type === 'PAYMENT' && r?.invoiceId ? r : null;
  const lines: PdfLine[] = [{ text: invoice ? 'Invoice' : 'Transaction receipt', bold: true, size: 20 }];
  const line = (text: string, gapBefore = 0) => lines.push({ text, gapBefore });

  if (invoice) {
    line(`Invoice number: ${invoice.invoiceId}`, 10);
    line(`Invoice date: ${t.createdAt.slice(0, 10)}`);
  } else {
    line(`Transaction: ${t.id}`, 10);
    line(`Date: ${t.createdAt}`);
  }
  line(invoice ? 'Issued by the platform, acting as marketplace on behalf of the carrier:' : 'Issued by:', 10);
  line(legal.name);
  line(legal.address);
  line(`VAT number: ${legal.vatNumber}`);
  line(`Company registration: ${legal.companyRegistration}`);

  if (invoice && input.carrierName) line(`Carrier (supplier of the transport): ${input.carrierName}`, 10);
  if (customer) line(`Customer: ${customer.name} <${customer.email}>`, invoice && input.carrierName ? 0 : 10);
  if (!invoice) {
    line(`Type: ${t.type}`);
    line(`Description: ${t.description}`);
  }
  if (r) {
    line(`Reservation: ${r.reservationNumber}`);
    line(`Weight: ${(r.reservedWeightG / 1000).toFixed(3)} kg at ${formatMoney(r.pricePerKgCents, r.currency)}/kg`);
  }
  if (invoice) {
    const fee = vatIncluded(invoice.platformCommissionCents, legal.vatRate);
    const money = (cents: number) => formatMoney(cents, invoice.currency);
    line(`Transport by the carrier: ${money(invoice.carrierAmountCents)} (no VAT charged by the platform)`, 10);
    line(`Platform service fee excl. VAT: ${money(fee.netCents)}`);
    line(`VAT ${percent(legal.vatRate)} on the platform service fee: ${money(fee.vatCents)}`);
    line(`Platform service fee incl. VAT: ${money(invoice.platformCommissionCents)}`);
  }
  if (r?.authorizationId) line(`Payment reference: ${r.authorizationId}`);
  lines.push({
    text: `${invoice ? 'Total paid' : 'Amount'}: ${formatMoney(Math.abs(t.amountCents), t.currency)}`,
    bold: true,
    size: 14,
    gapBefore: 10,
  });
  return { title: invoice ? `Invoice ${invoice.invoiceId}` : `Receipt ${t.id}`, lines };
}
