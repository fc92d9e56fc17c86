// Error texts of announcements, bookings, reservations, search and analytics: each key's English
// and French; `{name}` is a value, kept as is.
import type { Entries } from './types';
import { ACTIONS } from './words';

export const BOOKING_MESSAGES = {
  'booking.notCancellable': {
    en: 'A reservation in status {status} can no longer be cancelled',
    fr: 'Une réservation au statut {status} ne peut plus être annulée',
  },
  'booking.cancellationPossibleBeforeParcel': {
    en: 'Cancellation is possible before the parcel is deposited',
    fr: "L'annulation est possible avant le dépôt du colis",
  },
  'booking.atMost3Decimals': { en: 'At most 3 decimals (grams)', fr: 'Trois décimales au plus (grammes)' },
  'booking.httpsUrl': { en: 'An https URL', fr: 'Une URL https' },
  'booking.phoneNumberEmailRequired': { en: 'A phone number or an email is required', fr: 'Un numéro de téléphone ou un e-mail est requis' },
  'booking.phoneNumberDigitsSpaces': {
    en: 'Phone number: digits, spaces, + ( ) . - only',
    fr: 'Numéro de téléphone : chiffres, espaces, + ( ) . - uniquement',
  },
  'booking.weightsItemsAddUp': { en: "The weights of the items add up to more than the weight booked", fr: "Les poids des objets dépassent au total le poids réservé" },
  'booking.announcementTakesNoMore': {
    en: 'Announcement {id} is {status} and takes no more bookings',
    fr: ({ id, status }) => {
      const words: Record<string, string> = { closed: 'close', cancelled: 'annulée' };
      return words[status] ? `L'annonce ${id} est ${words[status]} et ne prend plus de réservations` : undefined;
    },
  },
  'booking.announcementAlreadyDeparted': { en: 'Announcement {id} has already departed', fr: "Le trajet de l'annonce {id} est déjà parti" },
  'booking.notEnoughRemainingCapacity': {
    en: 'Not enough remaining capacity on this announcement',
    fr: 'Capacité restante insuffisante sur cette annonce',
  },
  'booking.remainingCapacityKg': { en: 'Remaining capacity: {kg} kg', fr: 'Capacité restante : {kg} kg' },
  'booking.tripNoLongerTakes': {
    en: 'This trip no longer takes bookings: its carrier is unavailable',
    fr: "Ce trajet ne prend plus de réservations : son transporteur n'est pas disponible",
  },
  'booking.accountCannotBook': { en: 'This account cannot book', fr: 'Ce compte ne peut pas réserver' },
  'booking.cannotBookOwnAnnouncement': { en: 'You cannot book your own announcement', fr: 'Vous ne pouvez pas réserver votre propre annonce' },
  'booking.cannotBookOwnAgency': {
    en: "You cannot book your own agency's announcement",
    fr: 'Vous ne pouvez pas réserver une annonce de votre propre agence',
  },
  'booking.unknownCategory': { en: 'Unknown category', fr: 'Catégorie inconnue' },
  'booking.validationFailedBodyUnknown': {
    en: 'Validation failed for body: unknown category',
    fr: 'Validation échouée pour le corps : catégorie inconnue',
  },
  'booking.useCategoryIdGet': { en: "Choose one of the parcel categories", fr: "Choisissez l'une des catégories de colis" },
  'booking.categoryProhibited': { en: 'Prohibited content cannot be shipped: {category}', fr: 'Contenu interdit, ne peut pas être expédié : {category}' },
  'booking.tripNotAccept': { en: 'This trip does not accept: {refused}', fr: "Ce trajet n'accepte pas : {refused}" },
  'booking.categoryNotAccepted': { en: 'Not accepted on this trip', fr: "Pas accepté sur ce trajet" },
  'booking.priceAnnouncementChangedWhile': {
    en: 'The price of this announcement changed while booking; review it and book again',
    fr: 'Le prix de cette annonce a changé pendant la réservation ; vérifiez-le et réservez à nouveau',
  },

  'announcement.departureDateMustTodayLater': { en: "The departure date must be today ({today}) or later", fr: "La date de départ doit être aujourd'hui ({today}) ou plus tard" },
  'announcement.arrivalDateMustAfterDepartureDate': { en: "The arrival date must be on or after the departure date", fr: "La date d'arrivée doit être égale ou postérieure à la date de départ" },
  'announcement.currencyCode': { en: 'must be an ISO 4217 currency code (3 upper-case letters, e.g. EUR)', fr: 'doit être un code de devise ISO 4217 (3 majuscules, par ex. EUR)' },
  'announcement.radiusNeedsCity': { en: 'A search radius needs a departure or an arrival city', fr: "Un rayon de recherche demande une ville de départ ou d'arrivée" },
  'announcement.dateFlexNeedsDate': { en: 'Flexible dates need a date to be flexible around', fr: 'Des dates flexibles demandent une date autour de laquelle chercher' },
  'announcement.priceAtLeastOneCent': { en: 'Must be greater than 0 (at least 0.01)', fr: 'Doit être supérieur à 0 (au moins 0.01)' },
  'announcement.validationFailedFields': { en: 'Validation failed for body: {fieldErrors}', fr: 'Validation échouée pour le corps : {fieldErrors}' },
  'announcement.unknownProhibitedCategories': { en: 'Unknown or prohibited categories: {bad}', fr: 'Catégories inconnues ou interdites : {bad}' },
  'announcement.onlyAgencyStaffPublish': {
    en: 'Only agency staff can publish for a branch',
    fr: "Seul le personnel d'agence peut publier pour une succursale",
  },
  'announcement.publishingTripRequiresVerified': {
    en: 'Publishing a trip requires a verified identity',
    fr: 'Publier un trajet exige une identité vérifiée',
  },
  'announcement.notChangeable': {
    en: 'An announcement in status {status} can no longer be changed',
    fr: 'Une annonce au statut {status} ne peut plus être modifiée',
  },
  'announcement.routePriceTripPaid': {
    en: 'The route and the price of a trip with paid reservations in progress cannot change; its dates and meeting points can',
    fr: "L'itinéraire et le prix d'un trajet ayant des réservations payées en cours ne peuvent plus changer ; ses dates et points de rendez-vous le peuvent",
  },
  'announcement.announcementChangedMeanwhileReload': {
    en: 'The announcement changed meanwhile; reload it and retry',
    fr: "L'annonce a changé entre-temps ; rechargez-la et réessayez",
  },
  'announcement.totalWeightCannotLowerWeight': { en: "The total weight cannot be lower than the weight already reserved ({reservedG} kg)", fr: "Le poids total ne peut pas être inférieur au poids déjà réservé ({reservedG} kg)" },
  'announcement.notDeletable': {
    en: 'An announcement in status {status} cannot be deleted',
    fr: 'Une annonce au statut {status} ne peut pas être supprimée',
  },
  'announcement.paidReservationsInProgress': {
    en: 'The announcement has {n} paid reservation(s) in progress; cancel or finish them first',
    fr: "L'annonce a {n} réservation(s) payée(s) en cours ; annulez-les ou terminez-les d'abord",
  },
  'announcement.noLongerDeletable': { en: 'The announcement can no longer be deleted', fr: "L'annonce ne peut plus être supprimée" },

  'alert.placeRequired': { en: "Name at least one place: a departure or arrival city or country", fr: "Indiquez au moins un lieu : une ville ou un pays de départ ou d'arrivée" },
  'alert.dateToMustAfterDateFrom': { en: "The end date must be on or after the start date", fr: "La date de fin doit être égale ou postérieure à la date de début" },

  'analytics.fromAfterTo': { en: 'from must be on or before to', fr: 'from doit être égale ou antérieure à to' },
  'analytics.rangeTooLong': { en: 'The range may cover at most {maxDays} days', fr: 'La période peut couvrir au plus {maxDays} jours' },
  'analytics.unknownMetric': { en: 'metric must be one of: {metrics}', fr: 'metric doit être parmi : {metrics}' },

  'category.codeFormat': {
    en: 'code must be 2-40 upper-case letters, digits or underscores',
    fr: 'code doit contenir de 2 à 40 majuscules, chiffres ou tirets bas',
  },
  'category.codeExists': { en: 'A category with code {code} already exists', fr: 'Une catégorie avec le code {code} existe déjà' },
  'category.chooseAnotherCode': { en: 'Choose another code', fr: 'Choisissez un autre code' },
  'category.inUse': {
    en: 'Category {id} is in use by reservations or announcements and cannot be deleted',
    fr: 'La catégorie {id} est utilisée par des réservations ou des annonces et ne peut pas être supprimée',
  },

  'reservation.reservationChangedMeanwhileReload': {
    en: 'The reservation changed to {status} meanwhile; reload it and retry',
    fr: 'La réservation est passée entre-temps à {status} ; rechargez-la et réessayez',
  },
  'reservation.actionNotAllowed': {
    en: 'Cannot {action} a reservation in status {status}',
    fr: ({ action, status }) => (ACTIONS(action) ? `Impossible de ${ACTIONS(action)} une réservation au statut ${status}` : undefined),
  },
  'reservation.allowedFrom': { en: 'Allowed from: {transitions}', fr: 'Possible depuis : {transitions}' },
} as const satisfies Entries;
