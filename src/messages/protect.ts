// Error texts of protecting what is sent (CONTRACT 21): phone verification, proof of travel,
// prohibited and restricted items. Each key's English and French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const PROTECT_MESSAGES = {
  'phone.e164Format': {
    en: 'an international phone number in E.164 form, e.g. +33612345678',
    fr: 'un numéro de téléphone international au format E.164, par exemple +33612345678',
  },
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
  'phone.requestCode': {
    en: 'Ask for a code with POST /v1/api/user/me/phone/verification',
    fr: 'Demandez un code avec POST /v1/api/user/me/phone/verification',
  },
  'phone.codeExpired': { en: 'The code has expired', fr: 'Le code a expiré' },
  'phone.wrongCode': {
    en: 'Wrong code: {attemptsLeft} attempt(s) left',
    fr: 'Code erroné : il reste {attemptsLeft} essai(s)',
  },
  'phone.tooManyAttempts': {
    en: 'Too many wrong codes: this code no longer works',
    fr: 'Trop de codes erronés : ce code ne fonctionne plus',
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
  'travel.validationFailed': { en: 'Validation failed for body: fileId', fr: 'Échec de validation du corps : fileId' },
  'travel.notOwnTravelProofUpload': {
    en: 'must be a file you uploaded with purpose TRAVEL_PROOF',
    fr: 'doit être un fichier que vous avez envoyé avec le motif TRAVEL_PROOF',
  },
  'travel.uploadWithPurpose': {
    en: 'Upload the ticket or boarding pass with POST /v1/api/files (purpose TRAVEL_PROOF), then send its id',
    fr: 'Envoyez le billet ou la carte d’embarquement avec POST /v1/api/files (motif TRAVEL_PROOF), puis son identifiant',
  },
  'travel.tripNotOpen': {
    en: 'A proof of travel can only be attached to an active or full trip (this one is {status})',
    fr: 'Un justificatif de voyage ne peut être joint qu’à un trajet actif ou complet (celui-ci est {status})',
  },
  'travel.alreadyVerified': { en: 'This trip is already verified', fr: 'Ce trajet est déjà vérifié' },
  'travel.notPending': { en: 'This proof of travel was already reviewed ({status})', fr: 'Ce justificatif de voyage a déjà été examiné ({status})' },
} as const satisfies Entries;
