// Error texts of payments, wallet, withdrawals and receipts: each key's English and French;
// `{name}` is a value, kept as is.
import type { Entries } from './types';

export const MONEY_MESSAGES = {
  // The lines of a card checkout, as the provider's page shows them (payments/checkout-lines.ts).
  'money.checkoutTransport': { en: 'Parcel transport {number} ({kg} kg)', fr: 'Transport de colis {number} ({kg} kg)' },
  'money.checkoutProtection': {
    en: 'Protection of the declared value, reservation {number}',
    fr: 'Protection de la valeur déclarée, réservation {number}',
  },
  'money.paymentProviderNotProcess': {
    en: 'The payment provider could not process the request',
    fr: "Le prestataire de paiement n'a pas pu traiter la requête",
  },
  'money.retryMoment': { en: 'Retry in a moment', fr: 'Réessayez dans un instant' },
  'money.bookingTotalBelowPayment': {
    en: 'The booking total {total} is below the payment minimum of {minimum}',
    fr: 'Le total de la réservation, {total}, est inférieur au minimum de paiement de {minimum}',
  },
  'money.bookMoreWeightTotal': {
    en: 'Book more weight so that the total reaches {minimum}',
    fr: 'Réservez plus de poids pour que le total atteigne {minimum}',
  },
  'money.reservationOnlyPendingPayment': { en: "Reservation {id} is {status}; only a reservation waiting for its payment can be paid", fr: "La réservation {id} est {status} ; seule une réservation en attente de paiement peut être payée" },
  'money.paymentWindowReservationClosed': {
    en: 'The payment window of reservation {id} has closed',
    fr: 'Le délai de paiement de la réservation {id} est écoulé',
  },
  'money.invalidWebhookSignature': { en: 'Invalid webhook signature', fr: 'Signature de webhook invalide' },
  'money.signRawBodyEndpoint': {
    en: 'Sign the raw body with the endpoint secret; timestamps more than 300 s in the past or the future are refused',
    fr: 'Signez le corps brut avec le secret du point de terminaison ; les horodatages à plus de 300 s dans le passé ou le futur sont refusés',
  },
  'money.sendProviderEventObject': { en: 'Send a provider event object', fr: 'Envoyez un objet événement du prestataire' },
  'money.sandboxProviderNotActive': { en: 'The sandbox provider is not active', fr: "Le prestataire bac à sable n'est pas actif" },
  'money.atMost2Decimals': { en: 'At most two decimals', fr: 'Deux décimales au plus' },
  'money.thresholdRequiredEnableAutomatic': {
    en: 'threshold is required to enable automatic withdrawals',
    fr: 'threshold est requis pour activer les retraits automatiques',
  },
  'money.noConnectedPayoutAccount': {
    en: 'No connected payout account able to receive payouts',
    fr: 'Aucun compte de versement connecté capable de recevoir des virements',
  },
  'money.completeOnboarding': { en: "Finish setting up the payout account first", fr: "Terminez d'abord l'inscription du compte de versement" },
  'money.walletBalanceNotCover': { en: 'The wallet balance does not cover this withdrawal', fr: 'Le solde du portefeuille ne couvre pas ce retrait' },
  'money.checkAvailableBalanceGet': { en: "Check the balance available in the wallet", fr: "Consultez le solde disponible du portefeuille" },
  'money.heldBalanceAfterDisputeWindow': { en: "The shares of deliveries can be withdrawn once the 72-hour dispute window has closed", fr: "Les montants des livraisons peuvent être retirés une fois le délai de litige de 72 heures écoulé" },
  'money.idempotencyKeyAlreadyUsed': {
    en: 'This Idempotency-Key was already used for another withdrawal',
    fr: 'Cette Idempotency-Key a déjà été utilisée pour un autre retrait',
  },
  'money.useNewIdempotencyKey': {
    en: 'Use a new Idempotency-Key for a new withdrawal',
    fr: 'Utilisez une nouvelle Idempotency-Key pour un nouveau retrait',
  },
  'money.paymentProviderRefusedTransfer': {
    en: 'The payment provider refused the transfer; the amount is back in the wallet',
    fr: 'Le prestataire de paiement a refusé le virement ; le montant est revenu dans le portefeuille',
  },
  'money.checkConnectedPayoutAccount': {
    en: 'Check the connected payout account, then retry',
    fr: 'Vérifiez le compte de versement connecté, puis réessayez',
  },
  'money.receiptLinkInvalid': { en: 'This receipt link is invalid', fr: 'Ce lien de reçu est invalide' },
  'money.openReceiptAppReservation': {
    en: 'Open the receipt from the app or the reservation to get a valid link',
    fr: "Ouvrez le reçu depuis l'application ou la réservation pour obtenir un lien valide",
  },
  'money.receiptLinkExpired': { en: 'This receipt link has expired', fr: 'Ce lien de reçu a expiré' },
  'money.openReceiptAgainApp': {
    en: 'Open the receipt again from the app or the reservation: it gives a new link',
    fr: "Rouvrez le reçu depuis l'application ou la réservation : il donne un nouveau lien",
  },
  'money.eventBodyNotValid': { en: 'Event body is not valid JSON', fr: "Le corps de l'événement n'est pas un JSON valide" },
  'money.eventMustIdType': { en: 'Event must have id, type, created and data.object', fr: "L'événement doit avoir id, type, created et data.object" },
  'money.checkoutNotOpened': {
    en: 'The payment provider could not open a checkout session',
    fr: "Le prestataire de paiement n'a pas pu ouvrir de session de paiement",
  },
} as const satisfies Entries;
