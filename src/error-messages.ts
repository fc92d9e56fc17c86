// The language of error texts (message, fieldErrors[].message, suggestions). Every error is raised
// in English (`throw invalidState('...')`); onError (errors.ts toErrorResponse) translates the
// finished text when the request prefers French. The French catalogue below is keyed by the
// English text; `{}` in a key stands for a value (an id, an amount, a status) matched in the
// finished text and kept as is, in order, in the French text; an entry that must reword a value
// (a noun, a unit, an action) is a function of the values, answering undefined for a value it
// does not know. test/error-locale.test.ts fails when a text raised anywhere in src/ has no entry.
import type { Locale } from './db/schema';

type Entry = string | ((...values: string[]) => string | undefined);

// ---------------------------------------------------------------------------------------------
// Words that appear as values inside messages.

/** What notFound() names (`Reservation 12 not found`), with its French article-free noun. */
const NOUNS: Record<string, string> = {
  Agency: 'Agence',
  'Agency document': "Document d'agence",
  'Agency invitation': "Invitation d'agence",
  'Agency of the current user': "Agence de l'utilisateur courant",
  Announcement: 'Annonce',
  Branch: 'Succursale',
  Cache: 'Cache',
  Category: 'Catégorie',
  'Checkout session': 'Session de paiement',
  'Connected account': 'Compte connecté',
  Country: 'Pays',
  Delivery: 'Envoi',
  Device: 'Appareil',
  Dispute: 'Litige',
  Employee: 'Employé',
  File: 'Fichier',
  'Invoice of transaction': 'Facture de la transaction',
  'KYC record': 'Dossier KYC',
  'KYC session': 'Session KYC',
  Notification: 'Notification',
  Page: 'Page',
  'Recipient link': 'Lien destinataire',
  Report: 'Signalement',
  Reservation: 'Réservation',
  Review: 'Avis',
  'Search alert': 'Alerte de recherche',
  Transaction: 'Transaction',
  User: 'Utilisateur',
  'User with email': "Utilisateur avec l'e-mail",
};

/** `Agency document 12` -> `Document d'agence 12`: the noun, then the id when there is one. */
function nounPhrase(text: string): string | undefined {
  if (NOUNS[text] !== undefined) return NOUNS[text];
  for (let cut = text.lastIndexOf(' '); cut > 0; cut = text.lastIndexOf(' ', cut - 1)) {
    const noun = NOUNS[text.slice(0, cut)];
    if (noun !== undefined) return `${noun} ${text.slice(cut + 1)}`;
  }
  return undefined;
}

const notFoundText = (parts: string[]) => {
  const noun = nounPhrase(parts.join(' '));
  return noun === undefined ? undefined : `${noun} introuvable`;
};

const pick =
  (words: Record<string, string>) =>
  (value: string): string | undefined =>
    words[value];

/** Reservation actions as describeAction() writes them (reservation-state.ts). */
const ACTIONS = pick({
  pay: 'payer',
  expire: 'faire expirer',
  accept: 'accepter',
  reject: 'refuser',
  cancel: 'annuler',
  deposit: 'déposer',
  'start transit': 'mettre en transit',
  deliver: 'livrer',
  'open dispute': 'ouvrir un litige sur',
  'resolve release': 'clore par versement',
  'resolve refund': 'clore par remboursement',
});

/** Where validation found the problem (validation.ts messageFor). */
const WHERE = pick({
  body: 'le corps',
  'path parameter': 'le paramètre de chemin',
  query: 'les paramètres de requête',
  header: "l'en-tête",
  cookie: 'le cookie',
  form: 'le formulaire',
});

// zod's own English messages (zod/v4/locales/en): their words.
const ZOD_TYPES: Record<string, string> = {
  string: 'texte',
  number: 'nombre',
  int: 'entier',
  boolean: 'booléen',
  bigint: 'bigint',
  symbol: 'symbole',
  undefined: 'aucune valeur',
  null: 'null',
  object: 'objet',
  array: 'tableau',
  date: 'date',
  file: 'fichier',
  function: 'fonction',
  map: 'map',
  set: 'ensemble',
  nan: 'NaN',
  NaN: 'NaN',
  Infinity: 'Infinity',
  '-Infinity': '-Infinity',
  promise: 'promesse',
  value: 'valeur',
  unknown: 'inconnu',
};
const zodType = pick(ZOD_TYPES);
/** French agrees a participle with its noun: "aucune valeur reçue", "date attendue", "texte attendu". */
const FEMININE_TYPES = new Set(['aucune valeur', 'date', 'fonction', 'promesse', 'valeur']);
const agreed = (noun: string, participle: string) => `${noun} ${participle}${FEMININE_TYPES.has(noun) ? 'e' : ''}`;
const ZOD_UNITS = pick({ characters: 'caractères', bytes: 'octets', items: 'éléments', entries: 'entrées', elements: 'éléments' });
const ZOD_FORMATS = pick({
  input: 'valeur invalide',
  'email address': 'adresse e-mail invalide',
  URL: 'URL invalide',
  emoji: 'emoji invalide',
  UUID: 'UUID invalide',
  UUIDv4: 'UUIDv4 invalide',
  UUIDv6: 'UUIDv6 invalide',
  GUID: 'GUID invalide',
  'ISO datetime': 'date et heure ISO invalides',
  'ISO date': 'date ISO invalide',
  'ISO time': 'heure ISO invalide',
  'ISO duration': 'durée ISO invalide',
  'IPv4 address': 'adresse IPv4 invalide',
  'IPv6 address': 'adresse IPv6 invalide',
  'base64-encoded string': 'texte base64 invalide',
  'base64url-encoded string': 'texte base64url invalide',
  'JSON string': 'texte JSON invalide',
  'E.164 number': 'numéro E.164 invalide',
  JWT: 'JWT invalide',
});
/** `<=100`, `>0`, `exactly 6` -> `<=100`, `>0`, `exactement 6`. */
const zodBound = (bound: string) => (/^(<=|>=|<|>)-?[\d.e+]+$/.test(bound) ? bound : /^exactly (\S+)$/.test(bound) ? bound.replace('exactly', 'exactement') : undefined);
const zodSize = (verb: string) => (origin: string, ...rest: string[]) => {
  // `exactly 2 characters` splits anywhere: the unit is the last word, the bound what precedes it.
  const boundAndUnit = rest.join(' ');
  const cut = boundAndUnit.lastIndexOf(' ');
  const [bound, unit] = [boundAndUnit.slice(0, cut), boundAndUnit.slice(cut + 1)];
  const o = zodType(origin);
  const b = zodBound(bound);
  const u = ZOD_UNITS(unit);
  return o && b && u ? `${verb} : ${agreed(o, 'attendu')} de ${b} ${u}` : undefined;
};
const zodValue = (verb: string) => (origin: string, bound: string) => {
  const o = zodType(origin);
  const b = zodBound(bound);
  return o && b ? `${verb} : ${agreed(o, 'attendu')} ${b}` : undefined;
};

// ---------------------------------------------------------------------------------------------
// The French catalogue.

const FR: Record<string, Entry> = {
  // errors.ts
  // notFound(what, id?): the values split at any space, so the noun is read back whole.
  '{} not found': (...what) => notFoundText(what),
  '{} {} not found': (...what) => notFoundText(what),
  'You are not allowed to access this resource': "Vous n'avez pas accès à cette ressource",
  'An unexpected error occurred': "Une erreur inattendue s'est produite",
  'Retry later; if it persists, contact support with the X-Request-Id header value':
    "Réessayez plus tard ; si l'erreur persiste, contactez le support avec la valeur de l'en-tête X-Request-Id",
  'Malformed request': 'Requête mal formée',
  'Malformed JSON in request body': 'JSON mal formé dans le corps de la requête',
  'Send a well-formed JSON body with Content-Type: application/json': 'Envoyez un corps JSON bien formé avec Content-Type: application/json',
  'Request body is too large': 'Le corps de la requête est trop volumineux',
  'Unsupported media type': 'Type de média non pris en charge',
  'Send the body as application/json': 'Envoyez le corps en application/json',
  'Request failed': 'La requête a échoué',
  'Malformed FormData request. {}': 'Requête FormData mal formée. {}',

  // validation.ts and zod
  'Missing required {}: {}': (where, names) => (WHERE(where) ? `Valeur requise manquante dans ${WHERE(where)} : ${names}` : undefined),
  'Wrong type for {}: {}': (where, names) => (WHERE(where) ? `Type incorrect dans ${WHERE(where)} : ${names}` : undefined),
  'Validation failed for {}: {}': (where, names) => (WHERE(where) ? `Validation échouée pour ${WHERE(where)} : ${names}` : undefined),
  'Validation failed for body: unknown category': 'Validation échouée pour le corps : catégorie inconnue',
  'Invalid argument': 'Argument invalide',
  'Check the type of each parameter against the API reference at /v1/api/docs': "Vérifiez le type de chaque paramètre dans la référence de l'API à /v1/api/docs",
  'Provide every required parameter': 'Fournissez chaque paramètre requis',
  'Correct the fields listed in fieldErrors and retry': 'Corrigez les champs listés dans fieldErrors et réessayez',
  'Invalid input: expected {}, received {}': (expected, received) =>
    zodType(expected) && zodType(received) ? `Valeur invalide : ${agreed(zodType(expected)!, 'attendu')}, ${agreed(zodType(received)!, 'reçu')}` : undefined,
  // A type agrees its participle; a literal value ("A") is named as it is.
  'Invalid input: expected {}': (expected) => `Valeur invalide : ${agreed(zodType(expected) ?? expected, 'attendu')}`,
  'Invalid option: expected one of {}': 'Option invalide : une valeur parmi {} attendue',
  'Too big: expected {} to have {} {}': zodSize('Trop grand'),
  'Too big: expected {} to be {}': zodValue('Trop grand'),
  'Too small: expected {} to have {} {}': zodSize('Trop petit'),
  'Too small: expected {} to be {}': zodValue('Trop petit'),
  'Invalid string: must start with "{}"': 'Texte invalide : doit commencer par "{}"',
  'Invalid string: must end with "{}"': 'Texte invalide : doit finir par "{}"',
  'Invalid string: must include "{}"': 'Texte invalide : doit contenir "{}"',
  'Invalid string: must match pattern {}': 'Texte invalide : doit correspondre au motif {}',
  'Invalid {}': (format) => (ZOD_FORMATS(format) ? `${ZOD_FORMATS(format)!.charAt(0).toUpperCase()}${ZOD_FORMATS(format)!.slice(1)}` : undefined),
  'Invalid number: must be a multiple of {}': 'Nombre invalide : doit être un multiple de {}',
  'Unrecognized key: {}': 'Clé non reconnue : {}',
  'Unrecognized keys: {}': 'Clés non reconnues : {}',
  'Invalid key in {}': (origin) => (zodType(origin) ? `Clé invalide dans ${zodType(origin)}` : undefined),
  'Invalid value in {}': (origin) => (zodType(origin) ? `Valeur invalide dans ${zodType(origin)}` : undefined),
  'Invalid discriminator value. Expected {}': 'Valeur de discriminant invalide. Attendu : {}',
  'Invalid input: more than one option matched': 'Valeur invalide : plusieurs options correspondent',
  'Invalid input': 'Valeur invalide',

  // app.ts, middleware
  'No endpoint {} {}': 'Aucun point de terminaison {} {}',
  'See the API reference at /v1/api/docs': "Consultez la référence de l'API à /v1/api/docs",
  'Method {} is not allowed on {}': "La méthode {} n'est pas autorisée sur {}",
  'Allowed methods: {}': 'Méthodes autorisées : {}',
  'The service is not configured: {}': "Le service n'est pas configuré : {}",
  'Set the named secrets (wrangler secret put NAME --env production) and bindings (wrangler.toml)':
    'Définissez les secrets nommés (wrangler secret put NAME --env production) et les liaisons (wrangler.toml)',
  'Authentication required: send Authorization: Bearer <access token>': "Authentification requise : envoyez Authorization: Bearer <jeton d'accès>",
  'Authentication required': 'Authentification requise',
  'Access token is invalid or expired': "Le jeton d'accès est invalide ou expiré",
  'Access token has been revoked': "Le jeton d'accès a été révoqué",
  'Log in or refresh the access token, then retry': "Connectez-vous ou rafraîchissez le jeton d'accès, puis réessayez",
  'Requires one of: {}': "Nécessite l'un des rôles : {}",
  '{} must be 1 to {} characters': '{} doit contenir de 1 à {} caractères',
  'length out of range': 'longueur hors limites',
  '{} was already used with another request body': 'La clé {} a déjà été utilisée avec un autre corps de requête',
  'Retry later with the same Idempotency-Key to get the first response': 'Réessayez plus tard avec la même Idempotency-Key pour obtenir la première réponse',
  'Use a new Idempotency-Key for a different request': 'Utilisez une nouvelle Idempotency-Key pour une requête différente',
  'Too many requests; retry later': 'Trop de requêtes ; réessayez plus tard',
  'Too many attempts; retry later': 'Trop de tentatives ; réessayez plus tard',
  'Too many messages in this conversation; retry later': 'Trop de messages dans cette conversation ; réessayez plus tard',
  'Wait {} seconds before retrying': 'Attendez {} secondes avant de réessayer',
  'Request body is larger than {} bytes': 'Le corps de la requête dépasse {} octets',

  // providers
  'The identity verification provider is unavailable': "Le prestataire de vérification d'identité est indisponible",
  'Retry in a few minutes': 'Réessayez dans quelques minutes',
  'Event body is not valid JSON': "Le corps de l'événement n'est pas un JSON valide",
  'Event must have id, type, created and data.object': "L'événement doit avoir id, type, created et data.object",

  // agencies
  'This document was reviewed at the same time: read it again': 'Ce document a été examiné au même moment : relisez-le',
  'Your agency is suspended: it cannot publish announcements': 'Votre agence est suspendue : elle ne peut pas publier d’annonces',
  'Your branch is deactivated: it cannot publish announcements': 'Votre succursale est désactivée : elle ne peut pas publier d’annonces',
  'This branch is deactivated: it cannot publish announcements': 'Cette succursale est désactivée : elle ne peut pas publier d’annonces',
  'You can publish only for your own branch': 'Vous ne pouvez publier que pour votre propre succursale',
  '{} already belongs to an agency': (who) =>
    who === 'You' ? 'Vous appartenez déjà à une agence' : who === 'This user' ? 'Cet utilisateur appartient déjà à une agence' : undefined,
  'A user can own or work for one agency only': "Un utilisateur ne peut posséder qu'une agence ou travailler que pour une seule",
  'This branch still has employees: move or remove them first': "Cette succursale a encore des employés : déplacez-les ou retirez-les d'abord",
  'This branch still has active announcements: close them first': "Cette succursale a encore des annonces actives : clôturez-les d'abord",
  'This branch is already {}': (state) =>
    state === 'active' ? 'Cette succursale est déjà active' : state === 'deactivated' ? 'Cette succursale est déjà désactivée' : undefined,
  'This agency is already suspended': 'Cette agence est déjà suspendue',
  'This agency is already active': 'Cette agence est déjà active',
  'This invitation is addressed to another user': "Cette invitation est adressée à un autre utilisateur",
  'This invitation was already accepted': 'Cette invitation a déjà été acceptée',
  'This invitation was already declined': 'Cette invitation a déjà été refusée',
  'This invitation was already answered': 'Cette invitation a déjà reçu une réponse',
  'This invitation has expired': 'Cette invitation a expiré',
  'Ask the agency to invite you again': "Demandez à l'agence de vous inviter à nouveau",

  // money
  'The payment provider could not process the request': "Le prestataire de paiement n'a pas pu traiter la requête",
  'Retry in a moment': 'Réessayez dans un instant',
  'The sandbox provider is not active': "Le prestataire bac à sable n'est pas actif",
  'Invalid webhook signature': 'Signature de webhook invalide',
  'Sign the raw body with the endpoint secret; timestamps more than 300 s in the past or the future are refused':
    'Signez le corps brut avec le secret du point de terminaison ; les horodatages à plus de 300 s dans le passé ou le futur sont refusés',
  'Send a provider event object': 'Envoyez un objet événement du prestataire',
  'Reservation {} is {}; only a PENDING_PAYMENT reservation can be paid': 'La réservation {} est {} ; seule une réservation PENDING_PAYMENT peut être payée',
  'The payment window of reservation {} has closed': 'Le délai de paiement de la réservation {} est écoulé',
  'The booking total {} is below the payment minimum of {}': 'Le total de la réservation, {}, est inférieur au minimum de paiement de {}',
  'Book more weight so that the total reaches {}': 'Réservez plus de poids pour que le total atteigne {}',
  'This Idempotency-Key was already used for another withdrawal': 'Cette Idempotency-Key a déjà été utilisée pour un autre retrait',
  'The wallet balance does not cover this withdrawal': 'Le solde du portefeuille ne couvre pas ce retrait',
  'No connected payout account able to receive payouts': 'Aucun compte de versement connecté capable de recevoir des virements',
  'The payment provider refused the transfer; the amount is back in the wallet': 'Le prestataire de paiement a refusé le virement ; le montant est revenu dans le portefeuille',
  'Complete the onboarding with POST /v1/api{}/pay-connect/onboarding': "Terminez l'inscription avec POST /v1/api{}/pay-connect/onboarding",
  'Check the available balance with GET /v1/api{}/wallet': 'Consultez le solde disponible avec GET /v1/api{}/wallet',
  'Delivered shares (heldBalance) can be withdrawn once the 72-hour dispute window has closed':
    'Les montants des livraisons (heldBalance) peuvent être retirés une fois le délai de litige de 72 heures écoulé',
  'Use a new Idempotency-Key for a new withdrawal': 'Utilisez une nouvelle Idempotency-Key pour un nouveau retrait',
  'Check the connected payout account, then retry': 'Vérifiez le compte de versement connecté, puis réessayez',
  'threshold is required to enable automatic withdrawals': 'threshold est requis pour activer les retraits automatiques',
  'At most two decimals': 'Deux décimales au plus',

  // users, profile
  'letters, digits, dot, underscore and hyphen only': 'lettres, chiffres, point, tiret bas et trait d’union uniquement',
  'a phone number, e.g. +33612345678': 'un numéro de téléphone, par exemple +33612345678',
  'must be a past date': 'doit être une date passée',
  'ISO 3166-1 alpha-2 country code': 'code pays ISO 3166-1 alpha-2',
  'The account no longer exists': "Le compte n'existe plus",
  'The account cannot be deleted while a reservation is in progress ({}); wait until it is delivered, cancelled or its dispute is closed':
    'Le compte ne peut pas être supprimé tant qu’une réservation est en cours ({}) ; attendez qu’elle soit livrée, annulée ou que son litige soit clos',
  'The account cannot be deleted while the wallet holds money; withdraw the balance first':
    "Le compte ne peut pas être supprimé tant que le portefeuille contient de l'argent ; retirez d'abord le solde",
  'The account cannot be deleted while a withdrawal is pending; wait until it completes':
    'Le compte ne peut pas être supprimé tant qu’un retrait est en attente ; attendez qu’il se termine',
  'The account cannot be deleted while it owns an agency ({}); contact support to close or transfer the agency':
    'Le compte ne peut pas être supprimé tant qu’il possède une agence ({}) ; contactez le support pour fermer ou transférer l’agence',
  'The account has been deleted': 'Le compte a été supprimé',
  'The account is not suspended': "Le compte n'est pas suspendu",
  'The account is already suspended': 'Le compte est déjà suspendu',
  'The roles were changed concurrently; retry': 'Les rôles ont été modifiés en même temps ; réessayez',
  'The delivery is {}; only a FAILED or DEAD delivery can be retried': "L'envoi est {} ; seul un envoi FAILED ou DEAD peut être relancé",
  'The delivery changed meanwhile (retried by someone else); reload it': "L'envoi a changé entre-temps (relancé par quelqu'un d'autre) ; rechargez-le",
  'You cannot suspend or activate your own account': 'Vous ne pouvez pas suspendre ou activer votre propre compte',
  'You cannot remove your own super-administrator role': 'Vous ne pouvez pas retirer votre propre rôle de super-administrateur',
  'Only a super-administrator can suspend or activate an administrator': 'Seul un super-administrateur peut suspendre ou activer un administrateur',
  'Requires ROLE_SUPERADMIN': 'Nécessite ROLE_SUPERADMIN',

  // reservations, handover
  'Cannot {} a reservation in status {}': (action, status) => (ACTIONS(action) ? `Impossible de ${ACTIONS(action)} une réservation au statut ${status}` : undefined),
  'Allowed from: {}': 'Possible depuis : {}',
  'The reservation changed to {} meanwhile; reload it and retry': 'La réservation est passée entre-temps à {} ; rechargez-la et réessayez',
  'Must be a 6-digit code': 'Doit être un code à 6 chiffres',
  'listed twice': 'cité deux fois',
  'The form has errors': 'Le formulaire contient des erreurs',
  'This QR code was replaced by a newer one': 'Ce code QR a été remplacé par un plus récent',
  'QR code has expired': 'Le code QR a expiré',
  'Unknown QR code': 'Code QR inconnu',
  'Wrong code: code entry is now locked for 15 minutes': 'Code erroné : la saisie du code est maintenant bloquée pendant 15 minutes',
  'Wrong code': 'Code erroné',
  'This QR code has already been used': 'Ce code QR a déjà été utilisé',
  'Only the carrier of this reservation can do this': 'Seul le transporteur de cette réservation peut faire cela',
  'Too many wrong codes: code entry is locked': 'Trop de codes erronés : la saisie du code est bloquée',
  'Scan the QR code currently displayed': 'Scannez le code QR affiché actuellement',
  'Ask for a fresh QR code': 'Demandez un nouveau code QR',
  'Retry in {} minutes, or scan the QR code instead': 'Réessayez dans {} minutes, ou scannez plutôt le code QR',
  'Scan the QR code instead, or retry later': 'Scannez plutôt le code QR, ou réessayez plus tard',
  '{} attempts left before code entry is locked': '{} tentatives restantes avant le blocage de la saisie du code',
  'QR payload signature is invalid': 'La signature du code QR est invalide',
  'Malformed QR payload': 'Contenu de code QR mal formé',
  'This QR code is for {}, not {}': (is, not) => {
    const words: Record<string, string> = { deposit: 'le dépôt', delivery: 'la livraison' };
    return words[is] && words[not] ? `Ce code QR sert pour ${words[is]}, pas pour ${words[not]}` : undefined;
  },
  'Ask for a fresh QR code and scan it again': 'Demandez un nouveau code QR et scannez-le à nouveau',

  // auth
  'The refresh token belongs to another account': 'Le jeton de rafraîchissement appartient à un autre compte',
  'Refresh token was already used; every token of this session is revoked': 'Le jeton de rafraîchissement a déjà été utilisé ; tous les jetons de cette session sont révoqués',
  'Refresh token is invalid, expired or revoked': 'Le jeton de rafraîchissement est invalide, expiré ou révoqué',
  'The account is suspended or closed': 'Le compte est suspendu ou fermé',
  'Log in again to obtain a new token pair': 'Reconnectez-vous pour obtenir une nouvelle paire de jetons',
  'The token is invalid, expired or already used': 'Le jeton est invalide, expiré ou déjà utilisé',
  'Invalid {} credential': 'Identifiant {} invalide',
  'Sign in with {} again to obtain a fresh token': 'Reconnectez-vous avec {} pour obtenir un nouveau jeton',
  'The {} sign-in sandbox is not active (client ids are configured)': "Le bac à sable de connexion {} n'est pas actif (des identifiants client sont configurés)",
  'The sign-in sandbox is not active': "Le bac à sable de connexion n'est pas actif",
  'Request a new password reset email': 'Demandez un nouvel e-mail de réinitialisation du mot de passe',
  'Request a new verification email': 'Demandez un nouvel e-mail de vérification',
  'invalid, expired or already used': 'invalide, expiré ou déjà utilisé',
  'Invalid email or password': 'E-mail ou mot de passe invalide',
  'The {} account has no verified email address': "Le compte {} n'a pas d'adresse e-mail vérifiée",
  'This account is linked to another {} identity': 'Ce compte est lié à une autre identité {}',
  'The current password is wrong': 'Le mot de passe actuel est erroné',
  'An account with this {} already exists': (field) =>
    field === 'email' ? 'Un compte avec cet e-mail existe déjà' : field === 'username' ? "Un compte avec ce nom d'utilisateur existe déjà" : undefined,
  'Log in, or reset the password if it is forgotten': 'Connectez-vous, ou réinitialisez le mot de passe s’il est oublié',
  'Choose another username': "Choisissez un autre nom d'utilisateur",
  'The email address is already verified': "L'adresse e-mail est déjà vérifiée",
  'The password was changed concurrently; retry': 'Le mot de passe a été modifié en même temps ; réessayez',
  'This account has no password yet': "Ce compte n'a pas encore de mot de passe",
  'This account is suspended': 'Ce compte est suspendu',
  'Check the email and password, or reset the password with /v1/api/auth/password/forgot':
    "Vérifiez l'e-mail et le mot de passe, ou réinitialisez le mot de passe avec /v1/api/auth/password/forgot",
  'Contact support to reactivate the account': 'Contactez le support pour réactiver le compte',
  'Verify the email address with the provider, then sign in again': "Vérifiez l'adresse e-mail auprès du fournisseur, puis reconnectez-vous",
  'Set one through /v1/api/auth/password/forgot': 'Définissez-en un avec /v1/api/auth/password/forgot',

  // deliveries
  'The unsubscribe link is invalid': 'Le lien de désabonnement est invalide',
  'Use the link of a recent e-mail, or change the preferences in the app': "Utilisez le lien d'un e-mail récent, ou modifiez les préférences dans l'application",
  'invalid or forged': 'invalide ou falsifié',
  expired: 'expiré',

  // conversations, tracking
  'This endpoint needs a WebSocket upgrade': 'Ce point de terminaison nécessite une mise à niveau WebSocket',
  'Open it with a WebSocket client': 'Ouvrez-le avec un client WebSocket',
  'Open it with a WebSocket client, the access token as the subprotocol bearer.<accessToken>':
    "Ouvrez-le avec un client WebSocket, le jeton d'accès comme sous-protocole bearer.<accessToken>",
  'This conversation is read-only since {} (reservation {})': 'Cette conversation est en lecture seule depuis {} (réservation {})',
  'Only the sender and the carrier of this reservation can take part in its conversation':
    "Seuls l'expéditeur et le transporteur de cette réservation peuvent participer à sa conversation",
  'Upload the photo with POST /files (purpose PARCEL_IMAGE), then send its id': 'Téléversez la photo avec POST /files (purpose PARCEL_IMAGE), puis envoyez son id',
  'must be a PARCEL_IMAGE file you uploaded (POST /files)': 'doit être un fichier PARCEL_IMAGE que vous avez téléversé (POST /files)',
  'Positions are accepted only while DEPOSITED or IN_TRANSIT (status {})': 'Les positions ne sont acceptées que pendant DEPOSITED ou IN_TRANSIT (statut {})',
  'Only the carrier of this reservation can post positions': 'Seul le transporteur de cette réservation peut envoyer des positions',
  'Invalid recipient token for this reservation': 'Jeton destinataire invalide pour cette réservation',
  'This recipient link is no longer valid': "Ce lien destinataire n'est plus valide",
  'Send points recorded within the last 24 hours': 'Envoyez des points enregistrés dans les dernières 24 heures',
  'recordedAt is in the future': 'recordedAt est dans le futur',
  'recordedAt is older than 24 hours': 'recordedAt date de plus de 24 heures',
  'Validation failed for body: recordedAt': 'Validation échouée pour le corps : recordedAt',

  // disputes, reviews, reports
  'Evidence files must be your own DISPUTE_EVIDENCE uploads for this reservation':
    'Les preuves doivent être vos propres fichiers DISPUTE_EVIDENCE téléversés pour cette réservation',
  'A partial refund needs an amount between 0 and the total price, both excluded': 'Un remboursement partiel exige un montant entre 0 et le prix total, tous deux exclus',
  'No amount with {}': 'Pas de montant avec {}',
  'Reservation {} already has a dispute (#{})': 'La réservation {} a déjà un litige (n° {})',
  'Reservation {} already has a dispute': 'La réservation {} a déjà un litige',
  'Cannot open a dispute on a reservation in status {}': "Impossible d'ouvrir un litige sur une réservation au statut {}",
  'A delivered reservation may be disputed only within 72 hours of delivery': "Une réservation livrée ne peut être contestée que dans les 72 heures suivant la livraison",
  'Reservation {} changed while the dispute was being opened; try again': "La réservation {} a changé pendant l'ouverture du litige ; réessayez",
  'Dispute {} is resolved': 'Le litige {} est résolu',
  'Dispute {} is already resolved': 'Le litige {} est déjà résolu',
  'Reservation {} is {}, not DISPUTED': "La réservation {} est {}, et non DISPUTED",
  'Only the sender or the carrier of this reservation may open a dispute': "Seuls l'expéditeur ou le transporteur de cette réservation peuvent ouvrir un litige",
  'File {} is not usable as evidence here': "Le fichier {} n'est pas utilisable comme preuve ici",
  'Must be > 0 and < {}': 'Doit être > 0 et < {}',
  'Only PARTIAL_REFUND takes an amount': 'Seul PARTIAL_REFUND accepte un montant',
  'You have already reviewed this reservation': 'Vous avez déjà donné votre avis sur cette réservation',
  'Only a delivered reservation can be reviewed (status {})': "Seule une réservation livrée peut recevoir un avis (statut {})",
  'Only the sender or the carrier of a reservation can review it': "Seuls l'expéditeur ou le transporteur d'une réservation peuvent donner un avis",
  'Action {} does not apply to a {} report': "L'action {} ne s'applique pas à un signalement {}",
  'You already have an open report on this target': 'Vous avez déjà un signalement ouvert sur cette cible',
  'Report {} is already closed': 'Le signalement {} est déjà clos',
  'You cannot report yourself': 'Vous ne pouvez pas vous signaler vous-même',
  'Allowed for {}: {}': 'Autorisé pour {} : {}',

  // catalog, files, kyc
  'A category with code {} already exists': 'Une catégorie avec le code {} existe déjà',
  'Category {} is in use by reservations or announcements and cannot be deleted': 'La catégorie {} est utilisée par des réservations ou des annonces et ne peut pas être supprimée',
  'Choose another code': 'Choisissez un autre code',
  'code must be 2-40 upper-case letters, digits or underscores': 'code doit contenir de 2 à 40 majuscules, chiffres ou tirets bas',
  'Validation failed for form: file': 'Validation échouée pour le formulaire : file',
  'Malformed multipart body': 'Corps multipart mal formé',
  'File is larger than {} bytes (10 MB)': 'Le fichier dépasse {} octets (10 Mo)',
  'Only the parties of this reservation can attach files to it': 'Seules les parties de cette réservation peuvent y joindre des fichiers',
  'Executable files are not accepted': 'Les fichiers exécutables ne sont pas acceptés',
  'PDF documents with active content are not accepted (found /{})': 'Les documents PDF au contenu actif ne sont pas acceptés (trouvé : /{})',
  'Unsupported file type: only JPEG, PNG, WEBP and PDF are accepted': 'Type de fichier non pris en charge : seuls JPEG, PNG, WEBP et PDF sont acceptés',
  'A file of purpose {} must be one of {}; this file is {}': "Un fichier d'usage {} doit être parmi {} ; ce fichier est {}",
  'Upload a JPEG, PNG or WEBP image, or a PDF document': 'Téléversez une image JPEG, PNG ou WEBP, ou un document PDF',
  'Send the file as multipart/form-data': 'Envoyez le fichier en multipart/form-data',
  'Upload a file of at most 10 MB': 'Téléversez un fichier de 10 Mo au plus',
  'A file part named "file" is required': 'Une partie de fichier nommée "file" est requise',
  'reservationId applies only to {}': "reservationId ne s'applique qu'à {}",
  'must be an ISO 3166-1 alpha-2 country code (see /reference/countries)': 'doit être un code pays ISO 3166-1 alpha-2 (voir /reference/countries)',
  '{} is already verified': (what) =>
    what === 'This document' ? 'Ce document est déjà vérifié' : what === 'This KYC record' ? 'Ce dossier KYC est déjà vérifié' : undefined,
  '{} is already rejected': (what) =>
    what === 'This document' ? 'Ce document est déjà refusé' : what === 'This KYC record' ? 'Ce dossier KYC est déjà refusé' : undefined,
  'Missing callback signature': 'Signature de rappel manquante',
  'Callback timestamp outside the tolerance': 'Horodatage du rappel hors de la tolérance',
  'Invalid callback signature': 'Signature de rappel invalide',
  'Your identity is already verified': 'Votre identité est déjà vérifiée',
  'Your verification is under review: wait for its result': 'Votre vérification est en cours d’examen : attendez son résultat',
  'The KYC sandbox is not enabled': "Le bac à sable KYC n'est pas activé",
  'Callback body is not a JSON event': "Le corps du rappel n'est pas un événement JSON",
  'Send a JSON string holding {eventId, sessionId, status, documentType?, reason?}':
    'Envoyez un texte JSON contenant {eventId, sessionId, status, documentType?, reason?}',

  // announcements, bookings, alerts
  'departureDate must be today ({}) or later': "departureDate doit être aujourd'hui ({}) ou plus tard",
  'arrivalDate must be on or after departureDate': 'arrivalDate doit être égale ou postérieure à departureDate',
  'Must be greater than 0 (at least 0.01)': 'Doit être supérieur à 0 (au moins 0.01)',
  'An announcement in status {} can no longer be changed': 'Une annonce au statut {} ne peut plus être modifiée',
  'An announcement in status {} cannot be deleted': 'Une annonce au statut {} ne peut pas être supprimée',
  'The announcement has {} paid reservation(s) in progress; cancel or finish them first': "L'annonce a {} réservation(s) payée(s) en cours ; annulez-les ou terminez-les d'abord",
  'The announcement can no longer be deleted': "L'annonce ne peut plus être supprimée",
  'The route and the price of a trip with paid reservations in progress cannot change; its dates and meeting points can':
    "L'itinéraire et le prix d'un trajet ayant des réservations payées en cours ne peuvent plus changer ; ses dates et points de rendez-vous le peuvent",
  'The announcement changed meanwhile; reload it and retry': "L'annonce a changé entre-temps ; rechargez-la et réessayez",
  'totalWeight cannot be lower than the weight already reserved ({} kg)': 'totalWeight ne peut pas être inférieur au poids déjà réservé ({} kg)',
  'Only agency staff can publish for a branch': "Seul le personnel d'agence peut publier pour une succursale",
  'Publishing a trip requires a verified identity': "Publier un trajet exige une identité vérifiée",
  'Unknown or prohibited categories: {}': 'Catégories inconnues ou interdites : {}',
  'A reservation in status {} can no longer be cancelled': 'Une réservation au statut {} ne peut plus être annulée',
  'Cancellation is possible before the parcel is deposited': "L'annulation est possible avant le dépôt du colis",
  'The price of this announcement changed while booking; review it and book again': "Le prix de cette annonce a changé pendant la réservation ; vérifiez-le et réservez à nouveau",
  'Announcement {} is {} and takes no more bookings': (id, state) => {
    const words: Record<string, string> = { closed: 'close', cancelled: 'annulée' };
    return words[state] ? `L'annonce ${id} est ${words[state]} et ne prend plus de réservations` : undefined;
  },
  'Announcement {} has already departed': "Le trajet de l'annonce {} est déjà parti",
  'Not enough remaining capacity on this announcement': 'Capacité restante insuffisante sur cette annonce',
  'You cannot book your own announcement': 'Vous ne pouvez pas réserver votre propre annonce',
  'This trip no longer takes bookings: its carrier is unavailable': "Ce trajet ne prend plus de réservations : son transporteur n'est pas disponible",
  "You cannot book your own agency's announcement": 'Vous ne pouvez pas réserver une annonce de votre propre agence',
  'Prohibited content cannot be shipped: {}': 'Contenu interdit, ne peut pas être expédié : {}',
  'This trip does not accept: {}': "Ce trajet n'accepte pas : {}",
  'This account cannot book': 'Ce compte ne peut pas réserver',
  'Remaining capacity: {} kg': 'Capacité restante : {} kg',
  'Use a category id from GET /v1/api/categories': 'Utilisez un id de catégorie de GET /v1/api/categories',
  'Unknown category': 'Catégorie inconnue',
  'At most 3 decimals (grams)': 'Trois décimales au plus (grammes)',
  'Phone number: digits, spaces, + ( ) . - only': 'Numéro de téléphone : chiffres, espaces, + ( ) . - uniquement',
  'A phone number or an email is required': 'Un numéro de téléphone ou un e-mail est requis',
  'This password is among the most common passwords: choose another': 'Ce mot de passe fait partie des plus courants : choisissez-en un autre',
  'An https URL, or the url POST /files answered for your uploaded avatar': "Une URL https, ou l'URL renvoyée par POST /files pour votre avatar téléversé",
  'An https URL': 'Une URL https',
  'Not an avatar you uploaded: upload it with POST /files (purpose AVATAR)': "Pas un avatar que vous avez téléversé : envoyez-le avec POST /files (purpose AVATAR)",
  'Control characters are not allowed in this field': 'Les caractères de contrôle ne sont pas autorisés dans ce champ',
  'The weights of the items add up to more than reservedWeight': 'Les poids des objets dépassent reservedWeight au total',
  'At least one of departureCity, arrivalCity, departureCountry, arrivalCountry is required':
    "Au moins l'un de departureCity, arrivalCity, departureCountry, arrivalCountry est requis",
  'dateTo must be on or after dateFrom': 'dateTo doit être égale ou postérieure à dateFrom',
  'from must be on or before to': 'from doit être égale ou antérieure à to',
  'The range may cover at most {} days': 'La période peut couvrir au plus {} jours',
  'metric must be one of: {}': 'metric doit être parmi : {}',
  'sort must be <field>,<asc|desc> with field one of: {}': 'sort doit être <champ>,<asc|desc> avec un champ parmi : {}',

  // receipts
  'This receipt link is invalid': 'Ce lien de reçu est invalide',
  'This receipt link has expired': 'Ce lien de reçu a expiré',
  'Open the receipt from the app or the reservation to get a valid link': "Ouvrez le reçu depuis l'application ou la réservation pour obtenir un lien valide",
  'Open the receipt again from the app or the reservation: it gives a new link': "Rouvrez le reçu depuis l'application ou la réservation : il donne un nouveau lien",
};

// ---------------------------------------------------------------------------------------------
// Matching.

interface Template {
  pattern: RegExp;
  entry: Entry;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Templates with more fixed text first, so `Invalid {}` is tried after `Invalid {} credential`. */
const TEMPLATES: Template[] = Object.entries(FR)
  .filter(([key]) => key.includes('{}'))
  .sort(([a], [b]) => b.replaceAll('{}', '').length - a.replaceAll('{}', '').length)
  .map(([key, entry]) => ({ pattern: new RegExp(`^${key.split('{}').map(escape).join('(.+?)')}$`, 's'), entry }));

const fill = (entry: Entry, values: string[]): string | undefined => {
  if (typeof entry === 'function') return entry(...values);
  let i = 0;
  return entry.replace(/\{\}/g, () => values[i++] ?? '');
};

/** The French text of an English error text; undefined when the catalogue has none. */
export function frenchErrorText(text: string): string | undefined {
  const exact = FR[text];
  if (exact !== undefined && !text.includes('{}')) return fill(exact, []);
  for (const { pattern, entry } of TEMPLATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const translated = fill(entry, match.slice(1));
    if (translated !== undefined) return translated;
  }
  return undefined;
}

/** `text` in `locale`: English as raised, French from the catalogue (English when it has none). */
export const localizeErrorText = (text: string, locale: Locale): string => (locale === 'fr' ? (frenchErrorText(text) ?? text) : text);
