// Error texts of accounts: sign-in, tokens, profiles, administration: each key's English and
// French; `{name}` is a value, kept as is.
import type { Entries } from './types';

export const AUTH_MESSAGES = {
  'auth.tokenInvalidExpiredAlready': { en: 'The token is invalid, expired or already used', fr: 'Le jeton est invalide, expiré ou déjà utilisé' },
  'auth.invalidCredential': { en: 'Invalid {provider} credential', fr: 'Identifiant {provider} invalide' },
  'auth.idTokenAlreadyUsed': {
    en: 'This {provider} credential was already used to sign in',
    fr: 'Cet identifiant {provider} a déjà servi à se connecter',
  },
  'auth.signAgainObtainFresh': {
    en: 'Sign in with {provider} again to obtain a fresh token',
    fr: 'Reconnectez-vous avec {provider} pour obtenir un nouveau jeton',
  },
  'auth.totpRequired': {
    en: 'This account signs in with a second factor: a code from the authenticator app is required',
    fr: "Ce compte se connecte avec un second facteur : un code de l'application d'authentification est requis",
  },
  'auth.totpSendCode': {
    en: 'Enter the 6-digit code of your authenticator app, or an unused recovery code',
    fr: "Saisissez le code à 6 chiffres de votre application d'authentification, ou un code de secours inutilisé",
  },
  'auth.totpInvalid': {
    en: 'The code is wrong, expired or already used',
    fr: 'Le code est faux, expiré ou déjà utilisé',
  },
  'auth.totpEnrolFirst': {
    en: 'Staff accounts need two-factor authentication: sign in to the console at /console and enrol an authenticator first',
    fr: "Les comptes du personnel exigent l'authentification à deux facteurs : connectez-vous à la console (/console) et enregistrez d'abord une application d'authentification",
  },
  'auth.totpAlreadyEnrolled': { en: 'An authenticator is already enrolled on this account', fr: "Une application d'authentification est déjà enregistrée sur ce compte" },
  'auth.totpNotStarted': { en: 'Begin the enrolment first (scan the QR code)', fr: "Commencez d'abord l'enregistrement (scannez le code QR)" },
  'auth.invalidEmailPassword': { en: 'Invalid email or password', fr: 'E-mail ou mot de passe invalide' },
  'auth.checkEmailPasswordReset': { en: "Check the email and password, or reset the password with “Forgot password”", fr: "Vérifiez l'e-mail et le mot de passe, ou réinitialisez le mot de passe avec « Mot de passe oublié »" },
  'auth.accountSuspended': { en: 'This account is suspended', fr: 'Ce compte est suspendu' },
  'auth.contactSupportReactivateAccount': { en: 'Contact support to reactivate the account', fr: 'Contactez le support pour réactiver le compte' },
  'auth.accountAlreadyExists': {
    en: 'An account with this {field} already exists',
    fr: ({ field }) =>
      field === 'email' ? 'Un compte avec cet e-mail existe déjà' : field === 'username' ? "Un compte avec ce nom d'utilisateur existe déjà" : undefined,
  },
  'auth.logResetPasswordIf': {
    en: 'Log in, or reset the password if it is forgotten',
    fr: 'Connectez-vous, ou réinitialisez le mot de passe s’il est oublié',
  },
  'auth.chooseAnotherUsername': { en: 'Choose another username', fr: "Choisissez un autre nom d'utilisateur" },
  'auth.accountNoVerifiedEmail': {
    en: 'The {identity} account has no verified email address',
    fr: "Le compte {identity} n'a pas d'adresse e-mail vérifiée",
  },
  'auth.verifyEmailAddressProvider': {
    en: 'Verify the email address with the provider, then sign in again',
    fr: "Vérifiez l'adresse e-mail auprès du fournisseur, puis reconnectez-vous",
  },
  'auth.accountLinkedAnotherIdentity': {
    en: 'This account is linked to another {identity} identity',
    fr: 'Ce compte est lié à une autre identité {identity}',
  },
  'auth.accountNoLongerExists': { en: 'The account no longer exists', fr: "Le compte n'existe plus" },
  'auth.emailAddressAlreadyVerified': { en: 'The email address is already verified', fr: "L'adresse e-mail est déjà vérifiée" },
  'auth.accountNoPasswordYet': { en: 'This account has no password yet', fr: "Ce compte n'a pas encore de mot de passe" },
  'auth.setPasswordThroughForgot': { en: "Set one with “Forgot password”", fr: "Définissez-en un avec « Mot de passe oublié »" },
  'auth.validationFailedBodyCurrentPassword': { en: "The current password is wrong", fr: "Le mot de passe actuel est erroné" },
  'auth.currentPasswordWrong': { en: 'The current password is wrong', fr: 'Le mot de passe actuel est erroné' },
  'auth.passwordChangedConcurrentlyRetry': {
    en: 'The password was changed concurrently; retry',
    fr: 'Le mot de passe a été modifié en même temps ; réessayez',
  },
  'auth.tokenFieldInvalid': { en: 'invalid, expired or already used', fr: 'invalide, expiré ou déjà utilisé' },
  'auth.requestNewPasswordReset': { en: 'Request a new password reset email', fr: 'Demandez un nouvel e-mail de réinitialisation du mot de passe' },
  'auth.requestNewVerificationEmail': { en: 'Request a new verification email', fr: 'Demandez un nouvel e-mail de vérification' },
  'auth.refreshTokenInvalidExpired': {
    en: 'Refresh token is invalid, expired or revoked',
    fr: 'Le jeton de rafraîchissement est invalide, expiré ou révoqué',
  },
  'auth.logAgainObtainNew': { en: 'Log in again to obtain a new token pair', fr: 'Reconnectez-vous pour obtenir une nouvelle paire de jetons' },
  'auth.refreshTokenAlreadyUsed': {
    en: 'Refresh token was already used; every token of this session is revoked',
    fr: 'Le jeton de rafraîchissement a déjà été utilisé ; tous les jetons de cette session sont révoqués',
  },
  'auth.accountSuspendedClosed': { en: 'The account is suspended or closed', fr: 'Le compte est suspendu ou fermé' },
  'auth.refreshTokenBelongsAnother': {
    en: 'The refresh token belongs to another account',
    fr: 'Le jeton de rafraîchissement appartient à un autre compte',
  },
  'auth.providerSandboxNotActive': {
    en: 'The {label} sign-in sandbox is not active (client ids are configured)',
    fr: "Le bac à sable de connexion {label} n'est pas actif (des identifiants client sont configurés)",
  },
  'auth.sandboxNotActive': { en: 'The sign-in sandbox is not active', fr: "Le bac à sable de connexion n'est pas actif" },

  'user.lettersDigitsDotUnderscore': {
    en: 'letters, digits, dot, underscore and hyphen only',
    fr: 'lettres, chiffres, point, tiret bas et trait d’union uniquement',
  },
  'user.phoneNumberFormat': { en: 'a phone number, e.g. +33612345678', fr: 'un numéro de téléphone, par exemple +33612345678' },
  'user.mustPastDate': { en: 'must be a past date', fr: 'doit être une date passée' },
  'user.countryCodeFormat': { en: 'ISO 3166-1 alpha-2 country code', fr: 'code pays ISO 3166-1 alpha-2' },
  'user.avatarUrlFormat': { en: "An https address, or the address of the avatar you uploaded", fr: "Une adresse https, ou l'adresse de l'avatar que vous avez téléversé" },
  'user.validationFailedBodyAvatarUrl': { en: "The avatar is not a picture you uploaded", fr: "L'avatar n'est pas une image que vous avez téléversée" },
  'user.notAvatarUploadedUpload': { en: "Not an avatar you uploaded: upload the picture as your avatar first", fr: "Pas un avatar que vous avez téléversé : téléversez d'abord l'image comme avatar" },

  'admin.cannotSuspendActivateOwn': {
    en: 'You cannot suspend or activate your own account',
    fr: 'Vous ne pouvez pas suspendre ou activer votre propre compte',
  },
  'admin.onlySuperAdministratorSuspend': {
    en: 'Only a super-administrator can suspend or activate an administrator',
    fr: 'Seul un super-administrateur peut suspendre ou activer un administrateur',
  },
  'admin.accountDeleted': { en: 'The account has been deleted', fr: 'Le compte a été supprimé' },
  'admin.accountNotSuspended': { en: 'The account is not suspended', fr: "Le compte n'est pas suspendu" },
  'admin.accountAlreadySuspended': { en: 'The account is already suspended', fr: 'Le compte est déjà suspendu' },
  'admin.rolesChangedConcurrentlyRetry': {
    en: 'The roles were changed concurrently; retry',
    fr: 'Les rôles ont été modifiés en même temps ; réessayez',
  },
  'admin.cannotRemoveOwnSuper': {
    en: 'You cannot remove your own super-administrator role',
    fr: 'Vous ne pouvez pas retirer votre propre rôle de super-administrateur',
  },

  'console.requiresRoleSuperadmin': { en: "Only a super-administrator can do this", fr: "Seul un super-administrateur peut faire cela" },

  'user.commonPassword': {
    en: 'This password is among the most common passwords: choose another',
    fr: 'Ce mot de passe fait partie des plus courants : choisissez-en un autre',
  },
  // account-deletion-guards.ts
  'user.deletionReservationInProgress': {
    en: 'The account cannot be deleted while a reservation is in progress ({number}); wait until it is delivered, cancelled or its dispute is closed',
    fr: 'Le compte ne peut pas être supprimé tant qu’une réservation est en cours ({number}) ; attendez qu’elle soit livrée, annulée ou que son litige soit clos',
  },
  'user.deletionWalletHoldsMoney': {
    en: 'The account cannot be deleted while the wallet holds money; withdraw the balance first',
    fr: "Le compte ne peut pas être supprimé tant que le portefeuille contient de l'argent ; retirez d'abord le solde",
  },
  'user.deletionWithdrawalPending': {
    en: 'The account cannot be deleted while a withdrawal is pending; wait until it completes',
    fr: 'Le compte ne peut pas être supprimé tant qu’un retrait est en attente ; attendez qu’il se termine',
  },
  'user.deletionOwnsAgency': {
    en: 'The account cannot be deleted while it owns an agency ({id}); contact support to close or transfer the agency',
    fr: 'Le compte ne peut pas être supprimé tant qu’il possède une agence ({id}) ; contactez le support pour fermer ou transférer l’agence',
  },
  'console.formHasErrors': { en: 'The form has errors', fr: 'Le formulaire contient des erreurs' },
} as const satisfies Entries;
