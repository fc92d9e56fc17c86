// The words of a receipt, an invoice and a credit note, in English and French: apart from the
// document's layout (receipt-document.ts) so a translation never moves a line. An invoice
// addressed to a customer in France is written in French; the reader's language picks one.
import type { Locale, TransactionType } from '../../../db/schema';

type Kind = 'INVOICE' | 'CREDIT_NOTE' | 'RECEIPT';

export interface ReceiptTexts {
  /** A label and its value: `Label: value` in English, `Libellé : valeur` in French. */
  field: (label: string, value: string) => string;
  title: Record<Kind, string>;
  number: Record<Exclude<Kind, 'RECEIPT'>, string>;
  date: Record<Exclude<Kind, 'RECEIPT'>, string>;
  creditsInvoice: string;
  transaction: string;
  dateOfMovement: string;
  issuedByMarketplace: string;
  issuedBy: string;
  vatNumber: string;
  companyRegistration: string;
  carrier: string;
  customer: string;
  type: string;
  /** The movement's type as the reader knows it; the code stays beside it in French for support. */
  typeName: (type: TransactionType) => string;
  description: string;
  reservation: string;
  weight: (kg: string, pricePerKg: string) => string;
  transport: (credited: boolean) => string;
  noVatByPlatform: string;
  feeExclVat: (credited: boolean) => string;
  vatOnFee: (rate: string, credited: boolean) => string;
  feeInclVat: (credited: boolean) => string;
  protection: (credited: boolean) => string;
  noVat: string;
  refundReference: string;
  paymentReference: string;
  totalRefunded: string;
  totalPaid: string;
  amount: string;
  /** The PDF's title: the document and its number, or the receipt and its transaction. */
  documentTitle: (kind: Kind, reference: string) => string;
}

const EN: ReceiptTexts = {
  field: (label, value) => `${label}: ${value}`,
  title: { INVOICE: 'Invoice', CREDIT_NOTE: 'Credit note', RECEIPT: 'Transaction receipt' },
  number: { INVOICE: 'Invoice number', CREDIT_NOTE: 'Credit note number' },
  date: { INVOICE: 'Invoice date', CREDIT_NOTE: 'Credit note date' },
  creditsInvoice: 'Credits invoice',
  transaction: 'Transaction',
  dateOfMovement: 'Date',
  issuedByMarketplace: 'Issued by the platform, acting as marketplace on behalf of the carrier:',
  issuedBy: 'Issued by:',
  vatNumber: 'VAT number',
  companyRegistration: 'Company registration',
  carrier: 'Carrier (supplier of the transport)',
  customer: 'Customer',
  type: 'Type',
  typeName: (type) => type,
  description: 'Description',
  reservation: 'Reservation',
  weight: (kg, price) => `Weight: ${kg} kg at ${price}/kg`,
  transport: (credited) => `Transport by the carrier${credited ? ' credited' : ''}`,
  noVatByPlatform: '(no VAT charged by the platform)',
  feeExclVat: (credited) => `Platform service fee excl. VAT${credited ? ' credited' : ''}`,
  vatOnFee: (rate, credited) => `VAT ${rate} on the platform service fee${credited ? ' credited' : ''}`,
  feeInclVat: (credited) => `Platform service fee incl. VAT${credited ? ' credited' : ''}`,
  protection: (credited) => `Protection of the declared value${credited ? ' credited' : ''}`,
  noVat: '(no VAT)',
  refundReference: 'Refund reference',
  paymentReference: 'Payment reference',
  totalRefunded: 'Total refunded',
  totalPaid: 'Total paid',
  amount: 'Amount',
  documentTitle: (kind, reference) => (kind === 'RECEIPT' ? `Receipt ${reference}` : `${EN.title[kind]} ${reference}`),
};

const FR_TYPES: Record<TransactionType, string> = {
  PAYMENT: 'Paiement',
  REFUND: 'Remboursement',
  HOLD_RELEASE: 'Blocage de la carte levé',
  EARNING: 'Gain',
  WITHDRAWAL: 'Retrait',
  WITHDRAWAL_REVERSAL: 'Retrait annulé',
  DISPUTE_HOLD: 'Retenue pour litige',
  DISPUTE_HOLD_RELEASE: 'Fin de la retenue pour litige',
  PROTECTION_PAYOUT: 'Indemnisation de la protection',
};

// French puts a (non-breaking) space before a colon, and "avoir" (credit note) is masculine.
const FR: ReceiptTexts = {
  field: (label, value) => `${label}\u00a0: ${value}`,
  title: { INVOICE: 'Facture', CREDIT_NOTE: 'Avoir', RECEIPT: 'Reçu de transaction' },
  number: { INVOICE: 'Numéro de facture', CREDIT_NOTE: "Numéro d'avoir" },
  date: { INVOICE: 'Date de facture', CREDIT_NOTE: "Date d'avoir" },
  creditsInvoice: 'Avoir sur la facture',
  transaction: 'Transaction',
  dateOfMovement: 'Date',
  issuedByMarketplace: 'Émis par la plateforme, agissant en qualité de place de marché pour le compte du transporteur\u00a0:',
  issuedBy: 'Émis par\u00a0:',
  vatNumber: 'Numéro de TVA',
  companyRegistration: 'Immatriculation',
  carrier: 'Transporteur (prestataire du transport)',
  customer: 'Client',
  type: 'Type',
  typeName: (type) => `${FR_TYPES[type]} (${type})`,
  description: 'Libellé',
  reservation: 'Réservation',
  weight: (kg, price) => `Poids\u00a0: ${kg} kg à ${price}/kg`,
  transport: (credited) => `Transport par le transporteur${credited ? ', crédité' : ''}`,
  noVatByPlatform: '(pas de TVA facturée par la plateforme)',
  feeExclVat: (credited) => `Frais de service de la plateforme HT${credited ? ', crédités' : ''}`,
  vatOnFee: (rate, credited) => `TVA ${rate} sur les frais de service de la plateforme${credited ? ', créditée' : ''}`,
  feeInclVat: (credited) => `Frais de service de la plateforme TTC${credited ? ', crédités' : ''}`,
  protection: (credited) => `Protection de la valeur déclarée${credited ? ', créditée' : ''}`,
  noVat: '(sans TVA)',
  refundReference: 'Référence du remboursement',
  paymentReference: 'Référence du paiement',
  totalRefunded: 'Total remboursé',
  totalPaid: 'Total payé',
  amount: 'Montant',
  documentTitle: (kind, reference) => (kind === 'RECEIPT' ? `Reçu ${reference}` : `${FR.title[kind]} ${reference}`),
};

export const receiptTexts = (locale: Locale): ReceiptTexts => (locale === 'fr' ? FR : EN);
