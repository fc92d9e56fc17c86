// Error texts of handover, tracking, conversations, disputes, reviews, reports, deliveries: each
// key's English and French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const HANDOVER_MESSAGES = {
  'handover.must6DigitCode': { en: 'Must be a 6-digit code', fr: 'Doit être un code à 6 chiffres' },
  'handover.onlyCarrierReservation': {
    en: 'Only the carrier of this reservation can do this',
    fr: 'Seul le transporteur de cette réservation peut faire cela',
  },
  'handover.qrCodeAlreadyUsed': { en: 'This QR code has already been used', fr: 'Ce code QR a déjà été utilisé' },
  'handover.qrCodeReplacedNewer': { en: 'This QR code was replaced by a newer one', fr: 'Ce code QR a été remplacé par un plus récent' },
  'handover.scanQrCodeCurrently': { en: 'Scan the QR code currently displayed', fr: 'Scannez le code QR affiché actuellement' },
  'handover.qrCodeExpired': { en: 'QR code has expired', fr: 'Le code QR a expiré' },
  'handover.askFreshQrCode': { en: 'Ask for a fresh QR code', fr: 'Demandez un nouveau code QR' },
  'handover.unknownQrCode': { en: 'Unknown QR code', fr: 'Code QR inconnu' },
  'handover.tooManyWrongCodes': { en: 'Too many wrong codes: code entry is locked', fr: 'Trop de codes erronés : la saisie du code est bloquée' },
  'handover.retryMinutesScanQr': {
    en: 'Retry in {retryAfterSeconds} minutes, or scan the QR code instead',
    fr: 'Réessayez dans {retryAfterSeconds} minutes, ou scannez plutôt le code QR',
  },
  'handover.wrongCodeCodeEntry': {
    en: 'Wrong code: code entry is now locked for 15 minutes',
    fr: 'Code erroné : la saisie du code est maintenant bloquée pendant 15 minutes',
  },
  'handover.wrongCode': { en: 'Wrong code', fr: 'Code erroné' },
  'handover.scanQrCodeInstead': { en: 'Scan the QR code instead, or retry later', fr: 'Scannez plutôt le code QR, ou réessayez plus tard' },
  'handover.attemptsLeftBeforeCode': {
    en: '{remainingAttempts} attempts left before code entry is locked',
    fr: '{remainingAttempts} tentatives restantes avant le blocage de la saisie du code',
  },
  'handover.askFreshQrCodeAndScan': { en: 'Ask for a fresh QR code and scan it again', fr: 'Demandez un nouveau code QR et scannez-le à nouveau' },
  'handover.qrPayloadSignatureInvalid': { en: 'QR payload signature is invalid', fr: 'La signature du code QR est invalide' },
  'handover.malformedQrPayload': { en: 'Malformed QR payload', fr: 'Contenu de code QR mal formé' },
  'handover.qrCodeWrongPurpose': {
    en: 'This QR code is for {pur}, not {purpose}',
    fr: ({ pur, purpose }) => {
      const words: Record<string, string> = { deposit: 'le dépôt', delivery: 'la livraison' };
      return words[pur] && words[purpose] ? `Ce code QR sert pour ${words[pur]}, pas pour ${words[purpose]}` : undefined;
    },
  },

  'tracking.openWebSocketClient': { en: 'Open it with a WebSocket client', fr: 'Ouvrez-le avec un client WebSocket' },
  'tracking.recordedAtFuture': { en: "The position's time is in the future", fr: "L'heure de la position est dans le futur" },
  'tracking.recordedAtOlder24Hours': { en: "The position's time is more than 24 hours ago", fr: "L'heure de la position date de plus de 24 heures" },
  'tracking.validationFailedBodyRecordedAt': { en: "A position's time is out of range", fr: "L'heure d'une position est hors limites" },
  'tracking.sendPointsRecordedWithin': {
    en: 'Send points recorded within the last 24 hours',
    fr: 'Envoyez des points enregistrés dans les dernières 24 heures',
  },
  'tracking.onlyCarrierReservationPost': {
    en: 'Only the carrier of this reservation can post positions',
    fr: 'Seul le transporteur de cette réservation peut envoyer des positions',
  },
  'tracking.positionsAcceptedOnlyWhile': { en: "Positions are accepted only once the parcel is handed over and until it is delivered (status {status})", fr: "Les positions ne sont acceptées qu'une fois le colis remis et jusqu'à sa livraison (statut {status})" },
  'tracking.invalidRecipientTokenReservation': {
    en: 'Invalid recipient token for this reservation',
    fr: 'Jeton destinataire invalide pour cette réservation',
  },
  'tracking.recipientLinkNoLonger': { en: 'This recipient link is no longer valid', fr: "Ce lien destinataire n'est plus valide" },

  'conversation.onlySenderCarrierReservation': {
    en: 'Only the sender and the carrier of this reservation can take part in its conversation',
    fr: "Seuls l'expéditeur et le transporteur de cette réservation peuvent participer à sa conversation",
  },
  'conversation.mustParcelImageFile': { en: "must be a parcel photo you uploaded", fr: "doit être une photo de colis que vous avez téléversée" },
  'conversation.uploadPhotoPostFiles': { en: "Upload the photo as a parcel photo first, then send it", fr: "Téléversez d'abord la photo comme photo de colis, puis envoyez-la" },
  'conversation.conversationReadOnlySince': {
    en: 'This conversation is read-only since {closedAt} (reservation {status})',
    fr: 'Cette conversation est en lecture seule depuis {closedAt} (réservation {status})',
  },
  'conversation.tooManyMessagesConversation': {
    en: 'Too many messages in this conversation; retry later',
    fr: 'Trop de messages dans cette conversation ; réessayez plus tard',
  },
  'conversation.endpointNeedsWebSocketUpgrade': {
    en: 'This endpoint needs a WebSocket upgrade',
    fr: 'Ce point de terminaison nécessite une mise à niveau WebSocket',
  },
  'conversation.openWebSocketClientAccess': {
    en: 'Open it with a WebSocket client, the access token as the subprotocol bearer.<accessToken>',
    fr: "Ouvrez-le avec un client WebSocket, le jeton d'accès comme sous-protocole bearer.<accessToken>",
  },

  'dispute.evidenceFilesMustOwn': { en: "Evidence must be files you uploaded as evidence for this reservation", fr: "Les preuves doivent être des fichiers que vous avez téléversés comme preuves pour cette réservation" },
  'dispute.fileNotUsableEvidence': { en: 'File {bad} is not usable as evidence here', fr: "Le fichier {bad} n'est pas utilisable comme preuve ici" },
  'dispute.onlySenderCarrierReservation': {
    en: 'Only the sender or the carrier of this reservation may open a dispute',
    fr: "Seuls l'expéditeur ou le transporteur de cette réservation peuvent ouvrir un litige",
  },
  'dispute.alreadyDisputedWithId': {
    en: 'Reservation {id} already has a dispute (#{id2})',
    fr: 'La réservation {id} a déjà un litige (n° {id2})',
  },
  'dispute.cannotOpenDisputeReservation': {
    en: 'Cannot open a dispute on a reservation in status {status}',
    fr: "Impossible d'ouvrir un litige sur une réservation au statut {status}",
  },
  'dispute.deliveredReservationDisputedOnly': {
    en: 'A delivered reservation may be disputed only within 72 hours of delivery',
    fr: 'Une réservation livrée ne peut être contestée que dans les 72 heures suivant la livraison',
  },
  'dispute.alreadyDisputed': { en: 'Reservation {id} already has a dispute', fr: 'La réservation {id} a déjà un litige' },
  'dispute.reservationChangedWhileDispute': {
    en: 'Reservation {id} changed while the dispute was being opened; try again',
    fr: "La réservation {id} a changé pendant l'ouverture du litige ; réessayez",
  },
  'dispute.disputeResolved': { en: 'Dispute {id} is resolved', fr: 'Le litige {id} est résolu' },
  'dispute.disputeAlreadyResolved': { en: 'Dispute {id} is already resolved', fr: 'Le litige {id} est déjà résolu' },
  'dispute.reservationNotDisputed': { en: 'Reservation {id} is {status}, not DISPUTED', fr: 'La réservation {id} est {status}, et non DISPUTED' },
  'dispute.partialRefundNeedsAmount': {
    en: 'A partial refund needs an amount between 0 and the total price, both excluded',
    fr: 'Un remboursement partiel exige un montant entre 0 et le prix total, tous deux exclus',
  },
  'dispute.amountBounds': { en: 'Must be > 0 and < {total}', fr: 'Doit être > 0 et < {total}' },
  'dispute.noAmountWith': { en: 'No amount with {resolution}', fr: 'Pas de montant avec {resolution}' },
  'dispute.onlyPartialRefundTakes': { en: "Only a partial refund takes an amount", fr: "Seul un remboursement partiel accepte un montant" },

  'review.onlySenderCarrierReservation': {
    en: 'Only the sender or the carrier of a reservation can review it',
    fr: "Seuls l'expéditeur ou le transporteur d'une réservation peuvent donner un avis",
  },
  'review.onlyDeliveredReservationReviewed': {
    en: 'Only a delivered reservation can be reviewed (status {status})',
    fr: 'Seule une réservation livrée peut recevoir un avis (statut {status})',
  },
  'review.alreadyReviewedReservation': {
    en: 'You have already reviewed this reservation',
    fr: 'Vous avez déjà donné votre avis sur cette réservation',
  },

  'report.cannotReportYourself': { en: 'You cannot report yourself', fr: 'Vous ne pouvez pas vous signaler vous-même' },
  'report.alreadyOpenReportTarget': {
    en: 'You already have an open report on this target',
    fr: 'Vous avez déjà un signalement ouvert sur cette cible',
  },
  'report.reportAlreadyClosed': { en: 'Report {id} is already closed', fr: 'Le signalement {id} est déjà clos' },
  'report.actionNotApplyReport': {
    en: 'Action {action} does not apply to a {targetType} report',
    fr: "L'action {action} ne s'applique pas à un signalement {targetType}",
  },
  'report.allowedActions': { en: 'Allowed for {targetType}: {targetType2}', fr: 'Autorisé pour {targetType} : {targetType2}' },

  'delivery.deliveryOnlyFailedDead': {
    en: 'The delivery is {status}; only a FAILED or DEAD delivery can be retried',
    fr: "L'envoi est {status} ; seul un envoi FAILED ou DEAD peut être relancé",
  },
  'delivery.deliveryChangedMeanwhileRetried': {
    en: 'The delivery changed meanwhile (retried by someone else); reload it',
    fr: "L'envoi a changé entre-temps (relancé par quelqu'un d'autre) ; rechargez-le",
  },
  'delivery.listedTwice': { en: 'listed twice', fr: 'cité deux fois' },
  'delivery.unsubscribeLinkInvalid': { en: 'The unsubscribe link is invalid', fr: 'Le lien de désabonnement est invalide' },
  'delivery.expired': { en: 'expired', fr: 'expiré' },
  'delivery.invalidForged': { en: 'invalid or forged', fr: 'invalide ou falsifié' },
  'delivery.useLinkRecentMail': {
    en: 'Use the link of a recent e-mail, or change the preferences in the app',
    fr: "Utilisez le lien d'un e-mail récent, ou modifiez les préférences dans l'application",
  },
} as const satisfies Entries;
