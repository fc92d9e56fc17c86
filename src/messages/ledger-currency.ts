// Error texts of trips, wallets and withdrawals per currency (CONTRACT section 20): each key's
// English and French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const LEDGER_CURRENCY_MESSAGES = {
  'announcement.currencyFixedOnceBooked': {
    en: 'The currency of a trip with reservations cannot change (it is {currency})',
    fr: "La devise d'un trajet qui a des réservations ne peut plus changer (c'est {currency})",
  },
} as const satisfies Entries;
