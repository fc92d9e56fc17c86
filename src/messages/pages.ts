// The words of the pages a payer's or a reader's browser lands on (CONTRACT 26): the card and Wave
// return pages, the payout onboarding's return, the one-click unsubscribe answer; each in English
// and French, shown in the reader's language (Accept-Language).
import type { Entries } from './types';

export const PAGE_MESSAGES = {
  // Card checkout return (payments.routes.ts)
  'page.paymentAuthorized': { en: 'Payment authorised', fr: 'Paiement autorisé' },
  'page.paymentAuthorizedText': {
    en: 'Your payment is held safely until your parcel is delivered. You can return to the app.',
    fr: "Votre paiement est conservé en sécurité jusqu'à la livraison de votre colis. Vous pouvez revenir à l'application.",
  },
  'page.paymentNotCompleted': { en: 'Payment not completed', fr: 'Paiement non finalisé' },
  'page.paymentNotCompletedText': {
    en: 'The payment has not been completed yet. You can return to the app and try again.',
    fr: "Le paiement n'est pas encore finalisé. Vous pouvez revenir à l'application et réessayer.",
  },
  'page.bookingEnded': { en: 'Booking no longer payable', fr: 'Réservation plus payable' },
  'page.bookingEndedText': {
    en: 'This booking was cancelled or has expired, so no payment was taken: nothing is charged and any hold on your card is released. You can return to the app.',
    fr: "Cette réservation a été annulée ou a expiré : aucun paiement n'a été pris, rien n'est débité et l'éventuelle autorisation sur votre carte est libérée. Vous pouvez revenir à l'application.",
  },
  'page.paymentCancelled': { en: 'Payment cancelled', fr: 'Paiement annulé' },
  'page.paymentCancelledText': {
    en: 'No money was taken. You can return to the app and try again before the reservation expires.',
    fr: "Aucun montant n'a été pris. Vous pouvez revenir à l'application et réessayer avant l'expiration de la réservation.",
  },
  'page.sessionUnknown': { en: 'Payment session not found', fr: 'Session de paiement introuvable' },
  'page.sessionUnknownText': { en: 'This payment session is unknown. Please return to the app.', fr: "Cette session de paiement est inconnue. Revenez à l'application." },

  // Wave return (wave.routes.ts)
  'page.waveSent': { en: 'Payment sent', fr: 'Paiement envoyé' },
  'page.waveSentText': {
    en: 'Wave is confirming your payment; the booking shows it as paid in a moment. You can return to the app.',
    fr: "Wave confirme votre paiement ; la réservation l'affichera comme payée dans un instant. Vous pouvez revenir à l'application.",
  },
  'page.waveErrorText': {
    en: 'The payment did not go through. You can return to the app and try again before the reservation expires.',
    fr: "Le paiement n'a pas abouti. Vous pouvez revenir à l'application et réessayer avant l'expiration de la réservation.",
  },

  // Payout onboarding return (pay-connect.routes.ts)
  'page.payoutReady': { en: 'Payout account ready', fr: 'Compte de versement prêt' },
  'page.payoutReadyText': { en: 'You can now receive payouts. Return to the app.', fr: "Vous pouvez maintenant recevoir des versements. Revenez à l'application." },
  'page.onboardingUnfinished': { en: 'Onboarding not finished', fr: 'Inscription non terminée' },
  'page.onboardingUnfinishedText': {
    en: 'Some details are still missing. Return to the app to continue.',
    fr: "Il manque encore quelques informations. Revenez à l'application pour continuer.",
  },

  // One-click unsubscribe (unsubscribe.routes.ts)
  'page.unsubscribed': { en: 'You will no longer receive this kind of e-mail', fr: 'Vous ne recevrez plus ce type d’e-mail' },

  // Sandbox pages standing in for a provider's (local runs only: payments/sandbox, wave, pawapay routes)
  'sandbox.cardTitle': { en: 'Sandbox checkout', fr: 'Paiement de test (carte)' },
  'sandbox.cardText': { en: '{description}: {amount}', fr: '{description} : {amount}' },
  'sandbox.pay': { en: 'Pay', fr: 'Payer' },
  'sandbox.cancel': { en: 'Cancel', fr: 'Annuler' },
  'sandbox.onboardingTitle': { en: 'Sandbox payout onboarding', fr: 'Compte de versement de test' },
  'sandbox.onboardingText': { en: 'Account {id}', fr: 'Compte {id}' },
  'sandbox.complete': { en: 'Complete', fr: 'Terminer' },
  'sandbox.waveTitle': { en: 'Sandbox Wave checkout', fr: 'Paiement Wave de test' },
  'sandbox.waveText': { en: '{reference}: {amount}', fr: '{reference} : {amount}' },
  'sandbox.payWithWave': { en: 'Pay with Wave', fr: 'Payer avec Wave' },
  'sandbox.fail': { en: 'Fail', fr: 'Échec' },
  'sandbox.pawapayTitle': { en: 'Sandbox pawaPay: PIN prompt', fr: 'pawaPay de test : demande de code PIN' },
  'sandbox.pinPrompt': { en: 'The phone {phone} shows a PIN prompt for {amount}.', fr: 'Le téléphone {phone} affiche une demande de code PIN pour {amount}.' },
  'sandbox.approve': { en: 'Approve (enter PIN)', fr: 'Approuver (saisir le code PIN)' },
  'sandbox.refuse': { en: 'Refuse', fr: 'Refuser' },
  'sandbox.ended': { en: 'This payment is {outcome}.', fr: 'Ce paiement est {outcome}.' },
  'sandbox.endedWhy': { en: 'This payment is {outcome} ({reason}).', fr: 'Ce paiement est {outcome} ({reason}).' },
} as const satisfies Entries;

/** A provider's status of a finished sandbox payment, as the page says it (others are shown as they are). */
export const SANDBOX_OUTCOMES: Record<string, { en: string; fr: string }> = {
  complete: { en: 'paid', fr: 'payé' },
  COMPLETED: { en: 'paid', fr: 'payé' },
  succeeded: { en: 'paid', fr: 'payé' },
  expired: { en: 'expired', fr: 'expiré' },
  EXPIRED: { en: 'expired', fr: 'expiré' },
  failed: { en: 'refused', fr: 'refusé' },
  FAILED: { en: 'refused', fr: 'refusé' },
  REJECTED: { en: 'refused', fr: 'refusé' },
};
