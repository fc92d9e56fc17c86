// Error texts of personal data (features/privacy, CONTRACT section 24): exports and erasure; each
// key's English and French.
import type { Entries } from './types';

export const PRIVACY_MESSAGES = {
  // privacy/export.service.ts
  'privacy.exportInProgress': {
    en: 'An export of your data is already being prepared ({id}); you will get an e-mail when it is ready',
    fr: 'Un export de vos données est déjà en préparation ({id}) ; vous recevrez un e-mail quand il sera prêt',
  },
  'privacy.exportsPerDay': {
    en: 'At most {limit} exports of your data a day; try again later',
    fr: 'Au plus {limit} exports de vos données par jour ; réessayez plus tard',
  },
  // users/account-deletion-guards.ts
  'user.deletionTripOpen': {
    en: 'The account cannot be deleted while a trip is open ({id}); close or cancel it first',
    fr: 'Le compte ne peut pas être supprimé tant qu’un trajet est ouvert ({id}) ; clôturez-le ou annulez-le d’abord',
  },
  // users/users.service.ts eraseAccountAsOperator (the console)
  'user.alreadyErased': {
    en: 'This account was already erased ({date})',
    fr: 'Ce compte a déjà été effacé ({date})',
  },
} as const satisfies Entries;
