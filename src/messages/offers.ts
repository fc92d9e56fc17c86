// Error texts of offers and counter-offers (CONTRACT 22). Each key's English and French; `{name}`
// is a value, kept as is (a status stays its API value).
import type { Entries } from './types';

export const OFFER_MESSAGES = {
  'offer.notOpen': {
    en: 'Offer {id} is {status}: it can no longer be answered',
    fr: "L'offre {id} est {status} : elle ne peut plus recevoir de réponse",
  },
  'offer.counterOnlyPending': {
    en: 'Only a PENDING offer can be countered; offer {id} is {status}',
    fr: "Seule une offre PENDING peut recevoir une contre-offre ; l'offre {id} est {status}",
  },
  'offer.expired': { en: 'Offer {id} expired at {expiresAt}', fr: "L'offre {id} a expiré le {expiresAt}" },
  'offer.carrierAnswers': {
    en: "Only the trip's carrier (or its branch's staff) answers this offer",
    fr: "Seul le transporteur du trajet (ou le personnel de son agence) répond à cette offre",
  },
  'offer.senderAnswers': {
    en: 'Only the sender answers a counter-offer',
    fr: "Seul l'expéditeur répond à une contre-offre",
  },
  'offer.senderWithdraws': { en: 'Only the sender may withdraw an offer', fr: "Seul l'expéditeur peut retirer son offre" },
  'offer.alreadyOpen': {
    en: 'You already have an open offer ({id}) on this announcement: withdraw it or wait for its answer',
    fr: "Vous avez déjà une offre en cours ({id}) sur cette annonce : retirez-la ou attendez sa réponse",
  },
  'offer.seeOffers': { en: "See your offers", fr: "Consultez vos offres" },
} as const satisfies Entries;
