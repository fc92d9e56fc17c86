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
  'notice.senderCancelledInFullToSender': {
    en: 'You cancelled booking {number}: {refund} goes back to you in full.',
    fr: 'Vous avez annulé la réservation {number} : {refund} vous sont remboursés en totalité.',
  },
  'notice.senderCancelledInFullToCarrier': {
    en: 'The sender cancelled booking {number}: {refund} goes back to the sender in full; nothing is kept.',
    fr: "L'expéditeur a annulé la réservation {number} : {refund} lui sont remboursés en totalité ; rien n'est retenu.",
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

  // The money going back, by what the provider does with it. refundToCard and refundToMobile were
  // told at cancellation before 2026-12-07 (a refund is now told when confirmed): stored notices still name them.
  'notice.refundToCard': {
    en: '{amount} for reservation {number} is being refunded to the card you paid with.',
    fr: 'Le remboursement de {amount} pour la réservation {number} vers la carte utilisée est en cours.',
  },
  'notice.refundToMobile': {
    en: '{amount} for reservation {number} is being refunded to the mobile money account you paid with.',
    fr: 'Le remboursement de {amount} pour la réservation {number} vers le compte Mobile Money utilisé pour payer est en cours.',
  },
  'notice.refundedToCard': {
    en: '{amount} for reservation {number} was refunded to the card you paid with. Your bank may take 5 to 10 days to show it.',
    fr: 'Le remboursement de {amount} pour la réservation {number} a été envoyé sur la carte utilisée. Votre banque peut mettre 5 à 10 jours à le faire apparaître.',
  },
  'notice.refundedToMobile': {
    en: '{amount} for reservation {number} was refunded to the mobile money account you paid with.',
    fr: '{amount} pour la réservation {number} ont été remboursés sur le compte Mobile Money utilisé pour payer.',
  },
  'notice.refundedToNumber': {
    en: '{amount} for reservation {number} was refunded to the mobile money number {phone} you paid with.',
    fr: '{amount} pour la réservation {number} ont été remboursés sur le numéro Mobile Money {phone} utilisé pour payer.',
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

  // Withdrawals: the amount, where it goes (a mobile number masked, or the bank account) and by whom
  'notice.withdrawalSent': {
    en: 'Your withdrawal of {amount} is on its way to {destination} ({provider}).',
    fr: 'Votre retrait de {amount} est en route vers {destination} ({provider}).',
  },
  'notice.withdrawalFailed': {
    en: 'Your withdrawal of {amount} to {destination} ({provider}) failed; the amount is back in your wallet.',
    fr: 'Votre retrait de {amount} vers {destination} ({provider}) a échoué ; le montant est de retour dans votre portefeuille.',
  },

  // Payment
  'notice.paymentFailed': {
    en: 'The payment of {amount} for reservation {number} did not go through; nothing was charged. You can try again.',
    fr: "Le paiement de {amount} pour la réservation {number} n'a pas abouti ; rien n'a été débité. Vous pouvez réessayer.",
  },

  // The parcel
  'notice.parcelDeposited': {
    en: 'Your parcel for reservation {number} was handed over to the carrier.',
    fr: 'Le colis de votre réservation {number} a été remis au transporteur.',
  },
  'notice.parcelInTransit': { en: 'Your parcel for reservation {number} is on its way.', fr: 'Le colis de votre réservation {number} est en route.' },
  'notice.parcelDelivered': {
    en: 'Your parcel for reservation {number} was delivered to its recipient.',
    fr: 'Le colis de votre réservation {number} a été livré à son destinataire.',
  },
  'notice.deliveryConfirmed': { en: 'Delivery of reservation {number} is confirmed.', fr: 'La livraison de la réservation {number} est confirmée.' },
  'notice.newMessage': { en: '{name} wrote about reservation {number}.', fr: '{name} a écrit au sujet de la réservation {number}.' },

  // The trip
  'notice.tripChangedUnpaid': {
    en: 'The carrier changed the trip of booking {number} ({from} → {to}, {departure} – {arrival}); check it before paying.',
    fr: 'Le transporteur a modifié le trajet de la réservation {number} ({from} → {to}, {departure} – {arrival}) ; vérifiez-le avant de payer.',
  },
  'notice.tripChangedPaid': {
    en: 'The carrier changed the trip of booking {number} ({from} → {to}, {departure} – {arrival}). You may cancel it with a full refund until departure.',
    fr: "Le transporteur a modifié le trajet de la réservation {number} ({from} → {to}, {departure} – {arrival}). Vous pouvez l'annuler avec un remboursement complet jusqu'au départ.",
  },
  'notice.tripCancelledUnpaid': {
    en: 'The carrier cancelled the trip of booking {number}; nothing was charged.',
    fr: "Le transporteur a annulé le trajet de la réservation {number} ; rien n'a été débité.",
  },
  'notice.tripRemoved': {
    en: 'Your trip {from} - {to} of {date} was removed by the moderation team (report #{report}). Bookings not yet handed over are cancelled and their senders refunded in full; parcels already handed over to you must still be delivered.',
    fr: "Votre trajet {from} - {to} du {date} a été retiré par l'équipe de modération (signalement n° {report}). Les réservations pas encore remises sont annulées et leurs expéditeurs remboursés en totalité ; les colis qui vous ont déjà été remis doivent être livrés.",
  },
  'notice.tripRemovedBecause': {
    en: 'Your trip {from} - {to} of {date} was removed by the moderation team (report #{report}: “{note}”). Bookings not yet handed over are cancelled and their senders refunded in full; parcels already handed over to you must still be delivered.',
    fr: "Votre trajet {from} - {to} du {date} a été retiré par l'équipe de modération (signalement n° {report} : « {note} »). Les réservations pas encore remises sont annulées et leurs expéditeurs remboursés en totalité ; les colis qui vous ont déjà été remis doivent être livrés.",
  },
  'notice.alertMatch': {
    en: 'New trip {from} → {to} on {date}: {kg} kg available at {price}/kg.',
    fr: 'Nouveau trajet {from} → {to} le {date} : {kg} kg disponibles à {price}/kg.',
  },
  // A trip an alert's radius found (features/announcements/alert-matching.ts): how far each end is from the alert's city.
  'notice.alertMatchNearby': {
    en: 'New trip {from} → {to} on {date} ({near}): {kg} kg available at {price}/kg.',
    fr: 'Nouveau trajet {from} → {to} le {date} ({near}) : {kg} kg disponibles à {price}/kg.',
  },
  // Also the recipient page's last position (features/handover/recipient-page.routes.ts).
  'place.kmFrom': { en: '{km} km from {city}', fr: 'à {km} km de {city}' },
  'notice.travelProofApproved': {
    en: 'Your proof of travel was accepted: your trip shows as verified.',
    fr: 'Votre justificatif de voyage a été accepté : votre trajet est affiché comme vérifié.',
  },
  'notice.travelProofRejected': { en: 'Your proof of travel was refused: {reason}', fr: "Votre justificatif de voyage n'a pas été accepté : {reason}" },
  'notice.travelProofRejectedNoReason': { en: 'Your proof of travel was refused.', fr: "Votre justificatif de voyage n'a pas été accepté." },
  'notice.reportClosed': {
    en: 'Your report #{id} was reviewed and closed by the moderation team.',
    fr: "Votre signalement n° {id} a été examiné et clos par l'équipe de modération.",
  },

  // Disputes: what each side gets
  'notice.disputeOpened': {
    en: 'A dispute was opened on reservation {number}; an administrator will resolve it.',
    fr: 'Un litige a été ouvert sur la réservation {number} ; un administrateur va le traiter.',
  },
  'notice.disputeMessage': {
    en: 'A new message was posted on the dispute of reservation {number}.',
    fr: 'Un nouveau message a été publié sur le litige de la réservation {number}.',
  },
  'notice.disputeReleasedToSender': {
    en: 'The dispute on reservation {number} is resolved in the carrier’s favour: the payment of {total} goes to the carrier; nothing is refunded.',
    fr: "Le litige de la réservation {number} est résolu en faveur du transporteur : le paiement de {total} lui revient ; rien n'est remboursé.",
  },
  'notice.disputeReleasedToCarrier': {
    en: 'The dispute on reservation {number} is resolved in your favour: your share of {share} is yours.',
    fr: 'Le litige de la réservation {number} est résolu en votre faveur : votre part de {share} vous revient.',
  },
  'notice.disputeRefundToSender': {
    en: 'The dispute on reservation {number} is resolved: {refund} goes back to you.',
    fr: 'Le litige de la réservation {number} est résolu : {refund} vous sont remboursés.',
  },
  'notice.disputeRefundToCarrier': {
    en: 'The dispute on reservation {number} is resolved: {refund} goes back to the sender; your share is now {share}.',
    fr: "Le litige de la réservation {number} est résolu : {refund} sont remboursés à l'expéditeur ; votre part est désormais de {share}.",
  },
  'notice.disputePayoutToSender': {
    en: 'The dispute on reservation {number} is resolved: {refund} goes back to you, and a protection payout of {payout} is paid into your wallet.',
    fr: 'Le litige de la réservation {number} est résolu : {refund} vous sont remboursés, et une indemnisation de {payout} au titre de la protection est versée sur votre portefeuille.',
  },
  'notice.disputePayoutToCarrier': {
    en: 'The dispute on reservation {number} is resolved: {refund} goes back to the sender, who also receives a protection payout of {payout}; your share is now {share}.',
    fr: "Le litige de la réservation {number} est résolu : {refund} sont remboursés à l'expéditeur, qui reçoit aussi une indemnisation de {payout} au titre de la protection ; votre part est désormais de {share}.",
  },

  // Identity
  'notice.kycApproved': { en: 'Your identity is verified: you can now publish trips.', fr: 'Votre identité est vérifiée : vous pouvez publier des trajets.' },
  'notice.kycRejected': { en: 'Your identity verification was not accepted.', fr: "Votre vérification d'identité n'a pas été acceptée." },
  'notice.kycRejectedBecause': { en: 'Your identity verification was not accepted: {reason}', fr: "Votre vérification d'identité n'a pas été acceptée : {reason}" },
  'notice.kycRevoked': {
    en: 'Your identity verification was withdrawn; publishing trips is no longer possible.',
    fr: "Votre vérification d'identité a été retirée ; vous ne pouvez plus publier de trajets.",
  },

  // Agencies
  'notice.agencyInvitation': {
    en: '{agency} invites you to work for it. Accept or decline within 7 days.',
    fr: '{agency} vous invite à travailler pour elle. Acceptez ou refusez sous 7 jours.',
  },
  'notice.agencyLeft': { en: 'You no longer work for {agency}.', fr: 'Vous ne travaillez plus pour {agency}.' },
  'notice.agencySuspended': {
    en: '{agency} is suspended: its trips are hidden and it cannot publish. Reason: {reason}',
    fr: '{agency} est suspendue : ses trajets sont masqués et elle ne peut plus publier. Motif : {reason}',
  },
  'notice.agencyActivated': { en: '{agency} is active again.', fr: '{agency} est de nouveau active.' },
  'notice.agencyDocumentApproved': { en: 'Your document {document} ({kind}) was accepted.', fr: 'Votre document {document} ({kind}) a été accepté.' },
  'notice.agencyDocumentRejected': {
    en: 'Your document {document} ({kind}) was refused. Reason: {reason}',
    fr: "Votre document {document} ({kind}) n'a pas été accepté. Motif : {reason}",
  },

  // Offers
  'notice.offerReceived': {
    en: 'A sender offers {price}/kg for {kg} kg ({total}) on your trip {from} - {to}. Accept, decline or counter within 48 hours.',
    fr: 'Un expéditeur propose {price}/kg pour {kg} kg ({total}) sur votre trajet {from} - {to}. Acceptez, refusez ou faites une contre-offre sous 48 heures.',
  },
  'notice.offerCountered': {
    en: 'The carrier counters with {price}/kg for {kg} kg ({total}) on {from} - {to}. Accept or decline within 48 hours.',
    fr: 'Le transporteur propose {price}/kg pour {kg} kg ({total}) sur {from} - {to}. Acceptez ou refusez sous 48 heures.',
  },
  'notice.offerAcceptedByCarrier': {
    en: 'The carrier accepted your offer on {from} - {to}: {kg} kg at {price}/kg ({total}). Pay booking {number} within 30 minutes.',
    fr: 'Le transporteur a accepté votre offre sur {from} - {to} : {kg} kg à {price}/kg ({total}). Payez la réservation {number} dans les 30 minutes.',
  },
  'notice.offerAcceptedBySender': {
    en: 'The sender accepted your counter-offer on {from} - {to}: {kg} kg at {price}/kg ({total}); booking {number} awaits payment.',
    fr: "L'expéditeur a accepté votre contre-offre sur {from} - {to} : {kg} kg à {price}/kg ({total}) ; la réservation {number} attend le paiement.",
  },
  'notice.offerDeclinedByCarrier': {
    en: 'The carrier declined your offer of {price}/kg for {kg} kg on {from} - {to}.',
    fr: "Le transporteur a refusé votre offre de {price}/kg pour {kg} kg sur {from} - {to}.",
  },
  'notice.offerDeclinedBySender': {
    en: 'The sender declined your counter-offer of {price}/kg for {kg} kg on {from} - {to}.',
    fr: "L'expéditeur a refusé votre contre-offre de {price}/kg pour {kg} kg sur {from} - {to}.",
  },
  'notice.offerWithdrawn': {
    en: 'The sender withdrew their offer of {price}/kg for {kg} kg on your trip {from} - {to}.',
    fr: "L'expéditeur a retiré son offre de {price}/kg pour {kg} kg sur votre trajet {from} - {to}.",
  },
  'notice.offerExpired': {
    en: 'The offer of {price}/kg for {kg} kg on {from} - {to} got no answer in time and has expired.',
    fr: "L'offre de {price}/kg pour {kg} kg sur {from} - {to} n'a pas reçu de réponse à temps et a expiré.",
  },
  'notice.offerClosedTripRemoved': {
    en: 'Your offer on {from} - {to} is closed: the trip was removed by the moderation team.',
    fr: "Votre offre sur {from} - {to} est close : le trajet a été retiré par l'équipe de modération.",
  },
} as const satisfies Entries;
