// Error texts of protecting what is sent (CONTRACT 21): phone verification, proof of travel,
// prohibited and restricted items. Each key's English and French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const PROTECT_MESSAGES = {
  'phone.codeFormat': { en: 'the 6-digit code received by SMS', fr: 'le code à 6 chiffres reçu par SMS' },
  'phone.tooManyCodes': {
    en: 'At most {limit} codes an hour can be sent',
    fr: 'Au plus {limit} codes peuvent être envoyés par heure',
  },
  'phone.waitBeforeNewCode': {
    en: 'Use the last code received, or wait {seconds} seconds before asking for a new one',
    fr: 'Utilisez le dernier code reçu, ou attendez {seconds} secondes avant d’en demander un nouveau',
  },
  'phone.noPendingCode': { en: 'No phone verification code is pending', fr: 'Aucun code de vérification du téléphone en attente' },
  'phone.requestCode': { en: "Ask for a new code first", fr: "Demandez d'abord un nouveau code" },
  'phone.codeExpired': { en: 'The code has expired', fr: 'Le code a expiré' },
  'phone.wrongCode': {
    en: 'Wrong code: {attemptsLeft} attempt(s) left',
    fr: 'Code erroné : il reste {attemptsLeft} essai(s)',
  },
  'phone.tooManyAttempts': {
    en: 'Too many wrong codes: this code no longer works',
    fr: 'Trop de codes erronés : ce code ne fonctionne plus',
  },
  'phone.unreadable': { en: 'This phone number cannot be read', fr: 'Ce numéro de téléphone ne peut pas être lu' },
  'phone.expectedForm': {
    en: 'Write the number with its country code, for example +221 77 123 45 67 or +33 6 12 34 56 78',
    fr: 'Écrivez le numéro avec son indicatif pays, par exemple +221 77 123 45 67 ou +33 6 12 34 56 78',
  },
  'booking.itemProhibited': {
    en: '"{item}" cannot be sent on the route {from} → {to}: {entry} are prohibited',
    fr: '« {item} » ne peut pas être envoyé sur le trajet {from} → {to} : {entry}, interdit',
  },
  'booking.itemProhibitedField': { en: '{entry}: prohibited on this route ({why})', fr: '{entry} : interdit sur ce trajet ({why})' },
  'booking.restrictionsToConfirm': {
    en: 'Some items need your agreement to their conditions on the route {from} → {to}: {entries}',
    fr: 'Certains objets demandent votre accord sur leurs conditions pour le trajet {from} → {to} : {entries}',
  },
  'booking.restrictedItemField': { en: '{entry}: {why}. Confirm you accept these conditions', fr: '{entry} : {why}. Confirmez que vous acceptez ces conditions' },
  'booking.seeProhibitedItems': {
    en: 'See the items prohibited and restricted on the route {from} → {to}',
    fr: 'Consultez les objets interdits et réglementés sur le trajet {from} → {to}',
  },
  'reference.prohibitedItemCodeTaken': {
    en: 'A prohibited or restricted item with the code {code} already exists',
    fr: 'Un objet interdit ou soumis à restriction avec le code {code} existe déjà',
  },
  'reference.itemCodeFormat': { en: 'capital letters, digits and underscores (2 to 60)', fr: 'majuscules, chiffres et tirets bas (2 à 60)' },
  'travel.validationFailed': { en: "The proof of travel is not a file you uploaded for it", fr: "La preuve de voyage n'est pas un fichier que vous avez téléversé pour cela" },
  'travel.notOwnTravelProofUpload': { en: "must be a file you uploaded as proof of travel", fr: "doit être un fichier que vous avez téléversé comme preuve de voyage" },
  'travel.uploadWithPurpose': { en: "Upload the ticket or boarding pass as proof of travel, then send it", fr: "Téléversez le billet ou la carte d’embarquement comme preuve de voyage, puis envoyez-le" },
  'travel.tripNotOpen': {
    en: 'A proof of travel can only be attached to an active or full trip (this one is {status})',
    fr: 'Un justificatif de voyage ne peut être joint qu’à un trajet actif ou complet (celui-ci est {status})',
  },
  'travel.alreadyVerified': { en: 'This trip is already verified', fr: 'Ce trajet est déjà vérifié' },
  'travel.notPending': { en: 'This proof of travel was already reviewed ({status})', fr: 'Ce justificatif de voyage a déjà été examiné ({status})' },
} as const satisfies Entries;
