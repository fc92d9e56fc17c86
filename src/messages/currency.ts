// Error texts of currencies and amounts at the edge (lib/amount.ts): each key's English and
// French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const CURRENCY_MESSAGES = {
  'amount.tooManyDecimals': {
    en: 'An amount in {currency} has at most {decimals} decimals',
    fr: 'Un montant en {currency} a au plus {decimals} décimales',
  },
  'amount.wholeUnitsOnly': {
    en: '{currency} has no decimals: send a whole amount',
    fr: "Le {currency} n'a pas de décimales : envoyez un montant entier",
  },
  'amount.outOfRange': { en: 'The amount in {currency} is out of range', fr: 'Le montant en {currency} est hors limites' },
  'currency.unknown': {
    en: 'Unknown currency: send an ISO 4217 code such as EUR or XOF',
    fr: 'Devise inconnue : envoyez un code ISO 4217 comme EUR ou XOF',
  },
  'currency.notEnabled': {
    en: '{currency} is not offered on this platform; use one of {enabled}',
    fr: "Le {currency} n'est pas proposé sur cette plateforme ; utilisez l'une de ces devises : {enabled}",
  },
} as const satisfies Entries;
