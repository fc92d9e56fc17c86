// Error texts of agencies, identity verification and files: each key's English and French; `{name}`
// is a value, kept as is.
import type { Entries } from './types';

export const AGENCY_MESSAGES = {
  'agency.publishOnlyOwnBranch': { en: 'You can publish only for your own branch', fr: 'Vous ne pouvez publier que pour votre propre succursale' },
  'agency.branchDeactivated': {
    en: 'This branch is deactivated: it cannot publish announcements',
    fr: 'Cette succursale est désactivée : elle ne peut pas publier d’annonces',
  },
  'agency.alreadyBelongsAgency': {
    en: '{who} already belongs to an agency',
    fr: ({ who }) => (who === 'You' ? 'Vous appartenez déjà à une agence' : who === 'This user' ? 'Cet utilisateur appartient déjà à une agence' : undefined),
  },
  'agency.oneAgencyOnly': {
    en: 'A user can own or work for one agency only',
    fr: "Un utilisateur ne peut posséder qu'une agence ou travailler que pour une seule",
  },
  'agency.branchStillEmployeesMove': {
    en: 'This branch still has employees: move or remove them first',
    fr: "Cette succursale a encore des employés : déplacez-les ou retirez-les d'abord",
  },
  'agency.branchStillActiveAnnouncements': {
    en: 'This branch still has active announcements: close them first',
    fr: "Cette succursale a encore des annonces actives : clôturez-les d'abord",
  },
  'agency.branchAlready': {
    en: 'This branch is already {active}',
    fr: ({ active }) => (active === 'active' ? 'Cette succursale est déjà active' : active === 'deactivated' ? 'Cette succursale est déjà désactivée' : undefined),
  },
  'agency.alreadySuspended': { en: 'This agency is already suspended', fr: 'Cette agence est déjà suspendue' },
  'agency.alreadyActive': { en: 'This agency is already active', fr: 'Cette agence est déjà active' },
  'agency.documentReviewedSameTime': {
    en: 'This document was reviewed at the same time: read it again',
    fr: 'Ce document a été examiné au même moment : relisez-le',
  },
  'agency.verifyEmailToAnswerInvitation': {
    en: 'Confirm your e-mail address before answering an agency invitation (see the e-mail we sent you, or ask for a new one from the app)',
    fr: "Confirmez votre adresse e-mail avant de répondre à l'invitation d'une agence (voyez l'e-mail que nous vous avons envoyé, ou demandez-en un nouveau depuis l'application)",
  },
  'agency.invitationAddressedAnotherUser': {
    en: 'This invitation is addressed to another user',
    fr: 'Cette invitation est adressée à un autre utilisateur',
  },
  'agency.invitationAlreadyAccepted': { en: 'This invitation was already accepted', fr: 'Cette invitation a déjà été acceptée' },
  'agency.invitationAlreadyDeclined': { en: 'This invitation was already declined', fr: 'Cette invitation a déjà été refusée' },
  'agency.invitationExpired': { en: 'This invitation has expired', fr: 'Cette invitation a expiré' },
  'agency.askAgencyInviteAgain': { en: 'Ask the agency to invite you again', fr: "Demandez à l'agence de vous inviter à nouveau" },
  'agency.invitationAlreadyAnswered': { en: 'This invitation was already answered', fr: 'Cette invitation a déjà reçu une réponse' },

  'kyc.sandboxNotEnabled': { en: 'The KYC sandbox is not enabled', fr: "Le bac à sable KYC n'est pas activé" },
  'kyc.callbackBodyNotJson': { en: 'Callback body is not a JSON event', fr: "Le corps du rappel n'est pas un événement JSON" },
  'kyc.sendJsonEvent': {
    en: 'Send a JSON string holding {eventId, sessionId, status, documentType?, reason?}',
    fr: 'Envoyez un texte JSON contenant {eventId, sessionId, status, documentType?, reason?}',
  },
  'kyc.identityAlreadyVerified': { en: 'Your identity is already verified', fr: 'Votre identité est déjà vérifiée' },
  'kyc.verificationUnderReviewWait': {
    en: 'Your verification is under review: wait for its result',
    fr: 'Votre vérification est en cours d’examen : attendez son résultat',
  },
  'kyc.missingCallbackSignature': { en: 'Missing callback signature', fr: 'Signature de rappel manquante' },
  'kyc.callbackTimestampOutsideTolerance': { en: 'Callback timestamp outside the tolerance', fr: 'Horodatage du rappel hors de la tolérance' },
  'kyc.invalidCallbackSignature': { en: 'Invalid callback signature', fr: 'Signature de rappel invalide' },
  'kyc.identityVerificationProviderUnavailable': {
    en: 'The identity verification provider is unavailable',
    fr: "Le prestataire de vérification d'identité est indisponible",
  },
  'kyc.retryFewMinutes': { en: 'Retry in a few minutes', fr: 'Réessayez dans quelques minutes' },

  'file.uploadJpegPngWebp': {
    en: 'Upload a JPEG, PNG or WEBP image, or a PDF document',
    fr: 'Téléversez une image JPEG, PNG ou WEBP, ou un document PDF',
  },
  'file.sendFileMultipartForm': { en: 'Send the file as multipart/form-data', fr: 'Envoyez le fichier en multipart/form-data' },
  'file.malformedMultipartBody': { en: 'Malformed multipart body', fr: 'Corps multipart mal formé' },
  'file.validationFailedFile': { en: 'Validation failed for form: file', fr: 'Validation échouée pour le formulaire : file' },
  'file.filePartNamedFile': { en: 'A file part named "file" is required', fr: 'Une partie de fichier nommée "file" est requise' },
  'file.tooLarge': { en: 'File is larger than {maxFileBytes} bytes (10 MB)', fr: 'Le fichier dépasse {maxFileBytes} octets (10 Mo)' },
  'file.uploadAtMost10Mb': { en: 'Upload a file of at most 10 MB', fr: 'Téléversez un fichier de 10 Mo au plus' },
  'file.executableFilesNotAccepted': { en: 'Executable files are not accepted', fr: 'Les fichiers exécutables ne sont pas acceptés' },
  'file.unsupportedFileTypeOnly': {
    en: 'Unsupported file type: only JPEG, PNG, WEBP and PDF are accepted',
    fr: 'Type de fichier non pris en charge : seuls JPEG, PNG, WEBP et PDF sont acceptés',
  },
  'file.purposeTypeMismatch': {
    en: 'A file of purpose {purpose} must be one of {allowedTypes}; this file is {detected}',
    fr: "Un fichier d'usage {purpose} doit être parmi {allowedTypes} ; ce fichier est {detected}",
  },
  'file.pdfDocumentsActiveContent': {
    en: 'PDF documents with active content are not accepted (found /{active})',
    fr: 'Les documents PDF au contenu actif ne sont pas acceptés (trouvé : /{active})',
  },
  'file.pdfTooMuchDataToCheck': {
    en: 'This PDF could not be checked: its compressed streams decode to more than {maxMb} MB',
    fr: 'Ce PDF n’a pas pu être vérifié : ses flux compressés dépassent {maxMb} Mo une fois décompressés',
  },
  'file.onlyPartiesReservationAttach': {
    en: 'Only the parties of this reservation can attach files to it',
    fr: 'Seules les parties de cette réservation peuvent y joindre des fichiers',
  },

  'file.reservationIdAppliesOnly': { en: "a reservation applies only to {purposes}", fr: "une réservation ne s'applique qu'à {purposes}" },
  // publishRefusalText (access/agency-scope.ts)
  'agency.suspendedCannotPublish': {
    en: 'Your agency is suspended: it cannot publish announcements',
    fr: 'Votre agence est suspendue : elle ne peut pas publier d’annonces',
  },
  'agency.ownBranchDeactivated': {
    en: 'Your branch is deactivated: it cannot publish announcements',
    fr: 'Votre succursale est désactivée : elle ne peut pas publier d’annonces',
  },
  // reviewRefusalText (kyc.rules.ts): `what` is This document or This KYC record.
  'kyc.alreadyVerified': {
    en: '{what} is already verified',
    fr: ({ what }) => (what === 'This document' ? 'Ce document est déjà vérifié' : what === 'This KYC record' ? 'Ce dossier KYC est déjà vérifié' : undefined),
  },
  'kyc.alreadyRejected': {
    en: '{what} is already rejected',
    fr: ({ what }) => (what === 'This document' ? 'Ce document est déjà refusé' : what === 'This KYC record' ? 'Ce dossier KYC est déjà refusé' : undefined),
  },
} as const satisfies Entries;

