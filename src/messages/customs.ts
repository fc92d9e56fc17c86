// Error texts of declared contents and the customs declaration (CONTRACT 21). Each key's English
// and French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const CUSTOMS_MESSAGES = {
  'customs.negativeValue': {
    en: 'A declared value cannot be negative',
    fr: 'Une valeur déclarée ne peut pas être négative',
  },
  'customs.notDeclarable': {
    en: 'A reservation in status {status} has no customs declaration: it exists once the reservation is paid, for a parcel carried or to be carried',
    fr: "Une réservation au statut {status} n'a pas de déclaration en douane : elle existe une fois la réservation payée, pour un colis transporté ou à transporter",
  },
  'customs.declarableFrom': { en: 'Available in status {statuses}', fr: 'Disponible aux statuts {statuses}' },
} as const satisfies Entries;
