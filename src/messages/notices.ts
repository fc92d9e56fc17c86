// What people are told (CONTRACT section 26): the one sentence of each notice, in English and
// French, with its values. The in-app notification, its e-mail, push and SMS all render these
// (lib/message-text.ts renderText): amounts ({minor, currency}) in the reader's format, a mobile
// number already masked, the reservation by number. One place to change a wording.
import type { Entries } from './types';

export const NOTICE_MESSAGES = {
  // Booking
  'notice.bookingCreated': {
    en: '{kg} kg booked on your trip {from} - {to} ({number}) for {total}, awaiting payment.',
    fr: '{kg} kg réservés sur votre trajet {from} - {to} ({number}) pour {total}, en attente de paiement.',
  },
  'notice.bookingPaid': {
    en: 'Reservation {number} ({kg} kg) has been paid {total}; your share is {share}. Accept or reject it within 24 hours.',
    fr: 'La réservation {number} ({kg} kg) a été payée {total} ; votre part est de {share}. Acceptez-la ou refusez-la sous 24 heures.',
  },
  'notice.bookingAccepted': { en: 'The carrier accepted your booking {number}.', fr: 'Le transporteur a accepté votre réservation {number}.' },
  'notice.paymentHeld': {
    en: 'Your payment of {amount} for reservation {number} is held until delivery.',
    fr: 'Votre paiement de {amount} pour la réservation {number} est conservé jusqu’à la livraison.',
  },

  // Endings: what goes back to the sender and what is kept, to both parties
  'notice.rejectedToSender': {
    en: 'The carrier rejected your booking {number}: {refund} goes back to you in full.',
    fr: 'Le transporteur a refusé votre réservation {number} : {refund} vous sont remboursés en totalité.',
  },
  'notice.rejectedToCarrier': {
    en: 'You rejected booking {number}: {refund} goes back to the sender in full.',
    fr: "Vous avez refusé la réservation {number} : {refund} sont remboursés en totalité à l'expéditeur.",
  },
  'notice.unansweredToSender': {
    en: 'The carrier did not answer booking {number} within 24 hours: {refund} goes back to you in full.',
    fr: "Le transporteur n'a pas répondu à la réservation {number} sous 24 heures : {refund} vous sont remboursés en totalité.",
  },
  'notice.unansweredToCarrier': {
    en: 'Booking {number} was rejected because you did not answer it within 24 hours: {refund} goes back to the sender in full.',
    fr: "La réservation {number} a été refusée faute de réponse de votre part sous 24 heures : {refund} sont remboursés en totalité à l'expéditeur.",
  },
  'notice.expiredToSender': {
    en: 'Booking {number} was not paid within 30 minutes and has expired; nothing was charged.',
    fr: "La réservation {number} n'a pas été payée dans les 30 minutes et a expiré ; rien n'a été débité.",
  },
  'notice.expiredToCarrier': {
    en: 'Booking {number} ({kg} kg) was not paid in time and has expired; its weight is available again.',
    fr: "La réservation {number} ({kg} kg) n'a pas été payée à temps et a expiré ; son poids est de nouveau disponible.",
  },
  'notice.cancelledUnpaid': {
    en: 'Booking {number} was cancelled before payment; nothing was charged and its weight is available again.',
    fr: "La réservation {number} a été annulée avant paiement ; rien n'a été débité et son poids est de nouveau disponible.",
  },
  'notice.senderCancelledToSender': {
    en: 'You cancelled booking {number}: {refund} goes back to you; {kept} is kept under the trip’s cancellation policy.',
    fr: "Vous avez annulé la réservation {number} : {refund} vous sont remboursés ; {kept} sont retenus selon la politique d'annulation du trajet.",
  },
  'notice.senderCancelledToCarrier': {
    en: 'The sender cancelled booking {number}: {refund} goes back to the sender; {kept} is kept, of which {carrierKept} for you.',
    fr: "L'expéditeur a annulé la réservation {number} : {refund} lui sont remboursés ; {kept} sont retenus, dont {carrierKept} pour vous.",
  },
  'notice.carrierCancelledToSender': {
    en: 'The carrier cancelled booking {number}: {refund} goes back to you in full.',
    fr: 'Le transporteur a annulé la réservation {number} : {refund} vous sont remboursés en totalité.',
  },
  'notice.carrierCancelledToCarrier': {
    en: 'You cancelled booking {number}: {refund} goes back to the sender in full; you keep nothing.',
    fr: "Vous avez annulé la réservation {number} : {refund} sont remboursés en totalité à l'expéditeur ; vous ne gardez rien.",
  },
  'notice.suspendedCarrierToSender': {
    en: 'Booking {number} was cancelled: the carrier can no longer carry it. {refund} goes back to you in full.',
    fr: 'La réservation {number} a été annulée : le transporteur ne peut plus la transporter. {refund} vous sont remboursés en totalité.',
  },
  'notice.suspendedSenderToCarrier': {
    en: 'Booking {number} was cancelled before payment; its weight is available again.',
    fr: 'La réservation {number} a été annulée avant paiement ; son poids est de nouveau disponible.',
  },
  'notice.suspendedCarrierUnpaidToSender': {
    en: 'Booking {number} was cancelled: the carrier can no longer carry it.',
    fr: 'La réservation {number} a été annulée : le transporteur ne peut plus la transporter.',
  },
  'notice.tripRemovedUnpaidToSender': {
    en: 'Booking {number} was cancelled: its trip was removed by the moderation team.',
    fr: "La réservation {number} a été annulée : son trajet a été retiré par l'équipe de modération.",
  },
  'notice.tripRemovedToSender': {
    en: 'Booking {number} was cancelled: its trip was removed by the moderation team. {refund} goes back to you in full.',
    fr: "La réservation {number} a été annulée : son trajet a été retiré par l'équipe de modération. {refund} vous sont remboursés en totalité.",
  },

  // The money going back, by what the provider does with it
  'notice.refundToCard': {
    en: '{amount} for reservation {number} is being refunded to the card you paid with.',
    fr: 'Le remboursement de {amount} pour la réservation {number} vers la carte utilisée est en cours.',
  },
  'notice.refundToMobile': {
    en: '{amount} for reservation {number} is being refunded to the mobile money account you paid with.',
    fr: 'Le remboursement de {amount} pour la réservation {number} vers le compte Mobile Money utilisé pour payer est en cours.',
  },
  'notice.refundAwaitsPhone': {
    en: '{amount} for reservation {number} will be refunded to your mobile money number once you verify it in the app: {link}',
    fr: "{amount} pour la réservation {number} vous seront remboursés sur votre numéro Mobile Money dès que vous l'aurez vérifié dans l'application : {link}",
  },
  'notice.partialCapture': {
    en: '{kept} of the hold for reservation {number} is charged; the other {back} is released and never leaves your card.',
    fr: "{kept} de l'autorisation de la réservation {number} sont débités ; les {back} restants sont libérés et ne quittent jamais votre carte.",
  },
  'notice.holdReleased': {
    en: 'The hold of {amount} on your card for reservation {number} is released: nothing is charged.',
    fr: "L'autorisation de {amount} sur votre carte pour la réservation {number} est libérée : rien n'est débité.",
  },

  // The carrier's share: held, then available
  'notice.fundsHeld': {
    en: 'Your share of {amount} for reservation {number} is held until {date} (the dispute window), then you can withdraw it.',
    fr: "Votre part de {amount} pour la réservation {number} est retenue jusqu'au {date} (délai de contestation), puis vous pourrez la retirer.",
  },
  'notice.fundsHeldAgency': {
    en: "Your agency's share of {amount} for reservation {number} is held until {date} (the dispute window), then it can be withdrawn.",
    fr: "La part de votre agence, {amount}, pour la réservation {number} est retenue jusqu'au {date} (délai de contestation), puis elle pourra être retirée.",
  },
  'notice.fundsAvailable': {
    en: '{amount} for reservation {number} is now available in your wallet: you can withdraw it.',
    fr: 'Les {amount} de la réservation {number} sont maintenant disponibles dans votre portefeuille : vous pouvez les retirer.',
  },
  'notice.fundsFrozen': {
    en: 'A dispute was opened on reservation {number}: your share of {amount} is frozen until it is resolved.',
    fr: 'Un litige a été ouvert sur la réservation {number} : votre part de {amount} est gelée jusqu’à sa résolution.',
  },

  // Withdrawals
  'notice.withdrawalSent': {
    en: 'Your withdrawal of {amount} is on its way to {destination} ({provider}).',
    fr: 'Votre retrait de {amount} est en route vers {destination} ({provider}).',
  },
  'notice.withdrawalFailed': {
    en: 'Your withdrawal of {amount} failed; the amount is back in your wallet.',
    fr: 'Votre retrait de {amount} a échoué ; le montant est de retour dans votre portefeuille.',
  },

  // Offers
  'notice.offerReceived': {
    en: 'A sender offers {price}/kg for {kg} kg ({total}) on your trip {from} - {to}. Accept, decline or counter within 48 hours.',
    fr: 'Un expéditeur propose {price}/kg pour {kg} kg ({total}) sur votre trajet {from} - {to}. Acceptez, refusez ou faites une contre-offre sous 48 heures.',
  },
  'notice.offerCountered': {
    en: 'The carrier counters with {price}/kg for {kg} kg ({total}). Accept or decline within 48 hours.',
    fr: 'Le transporteur propose {price}/kg pour {kg} kg ({total}). Acceptez ou refusez sous 48 heures.',
  },
} as const satisfies Entries;
