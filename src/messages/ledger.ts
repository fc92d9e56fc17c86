// The lines of the money history (a transaction's description): what moved and why, written when
// the money moves as a key with its values (transactions.description_text) and rendered in the
// reader's language when read (money/ledger/ledger-text.ts). `{number}` is a reservation number,
// the other values amounts already written in that language.
import type { Entries } from './types';

export const LEDGER_MESSAGES = {
  'ledger.paymentEscrowed': {
    en: 'Payment for reservation {number} held in escrow',
    fr: 'Paiement de la réservation {number} conservé sous séquestre',
  },
  'ledger.paymentEscrowedProtected': {
    en: 'Payment for reservation {number} held in escrow, protection {premium}',
    fr: 'Paiement de la réservation {number} conservé sous séquestre, protection {premium}',
  },
  'ledger.escrowReleased': {
    en: "Reservation {number} delivered: escrow released, the carrier's share held during the dispute window",
    fr: 'Réservation {number} livrée : séquestre libéré, la part du transporteur retenue pendant le délai de litige',
  },
  'ledger.shareAvailableRepaying': {
    en: 'Reservation {number}: share available, {recovered} of it repays what is owed',
    fr: 'Réservation {number} : part disponible, dont {recovered} rembourse ce qui est dû',
  },
  'ledger.shareAvailable': {
    en: 'Reservation {number}: share available after the dispute window',
    fr: 'Réservation {number} : part disponible après le délai de litige',
  },
  'ledger.refunded': {
    en: 'Reservation {number}: {back} refunded to the payment method',
    fr: 'Réservation {number} : {back} remboursés sur le moyen de paiement',
  },
  'ledger.refundedPart': {
    en: 'Reservation {number}: {back} refunded to the payment method, {kept} kept',
    fr: 'Réservation {number} : {back} remboursés sur le moyen de paiement, {kept} retenus',
  },
  'ledger.holdReleased': {
    en: 'Reservation {number}: card hold of {back} released, nothing charged',
    fr: "Réservation {number} : blocage de {back} sur la carte levé, rien n'a été débité",
  },
  'ledger.holdCapturedPart': {
    en: 'Reservation {number}: {kept} of the card hold captured (kept), the other {back} released',
    fr: 'Réservation {number} : {kept} du blocage sur la carte débités (retenus), les {back} restants libérés',
  },
  'ledger.premiumEarned': {
    en: 'Reservation {number}: protection premium of {premium} earned by the reserve',
    fr: 'Réservation {number} : prime de protection de {premium} acquise à la réserve',
  },
  'ledger.withdrawal': {
    en: 'Withdrawal to the connected payout account',
    fr: 'Retrait vers le compte de versement connecté',
  },
  'ledger.withdrawalReversed': {
    en: 'Withdrawal {id} failed: amount returned to the wallet',
    fr: 'Le retrait {id} a échoué : le montant est revenu dans le portefeuille',
  },
  'ledger.disputeFreeze': {
    en: 'Reservation {number} disputed: payout held',
    fr: 'Réservation {number} en litige : versement retenu',
  },
  'ledger.disputeResolved': {
    en: 'Reservation {number}: dispute resolved',
    fr: 'Réservation {number} : litige résolu',
  },
  'ledger.protectionPayout': {
    en: 'Reservation {number}: protection payout of {amount}',
    fr: 'Réservation {number} : indemnisation de la protection de {amount}',
  },
} as const satisfies Entries;
