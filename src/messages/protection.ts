// Error texts of the protection option (CONTRACT section 21): booking with protection, its view,
// and the PROTECTION_PAYOUT resolution of a dispute. Each key's English and French.
import type { Entries } from './types';

export const PROTECTION_MESSAGES = {
  'protection.needsDeclaredValues': {
    en: 'Protection needs the declared value of every item, above zero in total',
    fr: 'La protection exige la valeur déclarée de chaque objet, supérieure à zéro au total',
  },
  'protection.declareItemValue': {
    en: 'Declare what this item is worth to protect the parcel',
    fr: 'Déclarez la valeur de cet objet pour protéger le colis',
  },
  'protection.addDeclaredValues': { en: "Declare what each item is worth, or book without protection", fr: "Déclarez la valeur de chaque objet, ou réservez sans protection" },
  'protection.payoutNeedsAmount': {
    en: 'A protection payout needs an amount above 0 and at most the covered value',
    fr: 'Une indemnisation par la protection exige un montant supérieur à 0 et au plus égal à la valeur couverte',
  },
  'protection.payoutBounds': { en: 'Must be > 0 and <= {coverage}', fr: 'Doit être > 0 et <= {coverage}' },
  'protection.notProtected': {
    en: 'Reservation {number} was booked without protection: no protection payout',
    fr: 'La réservation {number} a été faite sans protection : aucune indemnisation possible',
  },
  'protection.reasonNotCovered': {
    en: 'Protection covers a lost, damaged or undelivered parcel; this dispute is about {reason}',
    fr: "La protection couvre un colis perdu, endommagé ou non livré ; ce litige porte sur {reason}",
  },
  'protection.chooseAnotherResolution': { en: "Resolve it with a full refund, a partial refund or a release to the carrier", fr: "Résolvez-le par un remboursement complet, un remboursement partiel ou un versement au transporteur" },
} as const satisfies Entries;
