// Error texts of the request itself: routing, authentication, validation, limits: each key's
// English and French; `{name}` is a value, kept as is.
import { frenchOfExternal } from './external';
import type { Entries } from './types';
import { NOUNS, WHERE, type Noun } from './words';

export const HTTP_MESSAGES = {
  'error.noEndpoint': { en: 'No endpoint {method} {path}', fr: 'Aucun point de terminaison {method} {path}' },
  'error.seeApiReference': { en: "See the API reference for the paths this service answers", fr: "Consultez la référence de l'API pour les chemins que ce service connaît" },
  // notFound(what, id?): `what` is a Noun (words.ts).
  'error.notFound': { en: '{what} not found', fr: ({ what }) => `${NOUNS[what as Noun]} introuvable` },
  'error.notFoundWithId': { en: '{what} {id} not found', fr: ({ what, id }) => `${NOUNS[what as Noun]} ${id} introuvable` },
  'error.accessDenied': { en: 'You are not allowed to access this resource', fr: "Vous n'avez pas accès à cette ressource" },
  'error.malformedRequest': { en: 'Malformed request', fr: 'Requête mal formée' },
  'error.authenticationRequired': { en: 'Authentication required', fr: 'Authentification requise' },
  'error.requestFailed': { en: 'Request failed', fr: 'La requête a échoué' },
  // A text the service did not write (zod's issue messages, Hono's errors): French when external.ts knows it.
  'error.external': { en: '{text}', fr: ({ text }) => frenchOfExternal(text) },
  'error.unexpected': { en: 'An unexpected error occurred', fr: "Une erreur inattendue s'est produite" },
  'error.retryOrContactSupport': {
    en: 'Retry later; if it persists, contact support with the X-Request-Id header value',
    fr: "Réessayez plus tard ; si l'erreur persiste, contactez le support avec la valeur de l'en-tête X-Request-Id",
  },
  'error.sendWellFormedJson': {
    en: 'Send a well-formed JSON body with Content-Type: application/json',
    fr: 'Envoyez un corps JSON bien formé avec Content-Type: application/json',
  },
  'error.requestBodyTooLarge': { en: 'Request body is too large', fr: 'Le corps de la requête est trop volumineux' },
  'error.unsupportedMediaType': { en: 'Unsupported media type', fr: 'Type de média non pris en charge' },
  'error.sendBodyApplicationJson': { en: 'Send the body as application/json', fr: 'Envoyez le corps en application/json' },

  'request.methodNotAllowed': { en: 'Method {method} is not allowed on {path}', fr: "La méthode {method} n'est pas autorisée sur {path}" },
  'request.allowedMethods': { en: 'Allowed methods: {methods}', fr: 'Méthodes autorisées : {methods}' },
  'request.countryCode': { en: "must be a two-letter country code, such as FR or SN", fr: "doit être un code pays à deux lettres, comme FR ou SN" },
  'request.sortFormat': {
    en: 'sort must be <field>,<asc|desc> with field one of: {sortable}',
    fr: 'sort doit être <champ>,<asc|desc> avec un champ parmi : {sortable}',
  },
  'request.logRefreshAccessToken': {
    en: 'Log in or refresh the access token, then retry',
    fr: "Connectez-vous ou rafraîchissez le jeton d'accès, puis réessayez",
  },
  'request.authenticationRequiredSendAuthorization': {
    en: 'Authentication required: send Authorization: Bearer <access token>',
    fr: "Authentification requise : envoyez Authorization: Bearer <jeton d'accès>",
  },
  'request.accessTokenInvalidExpired': { en: 'Access token is invalid or expired', fr: "Le jeton d'accès est invalide ou expiré" },
  'request.accessTokenRevoked': { en: 'Access token has been revoked', fr: "Le jeton d'accès a été révoqué" },
  'request.requiresRole': { en: 'Requires one of: {roles}', fr: "Nécessite l'un des rôles : {roles}" },
  'request.bodyTooLarge': { en: 'Request body is larger than {limit} bytes', fr: 'Le corps de la requête dépasse {limit} octets' },
  'request.setNamedSecretsWrangler': {
    en: 'Set the named secrets (wrangler secret put NAME --env production) and bindings (wrangler.toml)',
    fr: 'Définissez les secrets nommés (wrangler secret put NAME --env production) et les liaisons (wrangler.toml)',
  },
  'request.retryLaterSameIdempotency': {
    en: 'Retry later with the same Idempotency-Key to get the first response',
    fr: 'Réessayez plus tard avec la même Idempotency-Key pour obtenir la première réponse',
  },
  'request.idempotencyKeyLength': {
    en: '{idempotencyHeader} must be 1 to {maxKeyLength} characters',
    fr: '{idempotencyHeader} doit contenir de 1 à {maxKeyLength} caractères',
  },
  'request.lengthOutRange': { en: 'length out of range', fr: 'longueur hors limites' },
  'request.alreadyUsedAnotherRequest': {
    en: '{idempotencyHeader} was already used with another request body',
    fr: 'La clé {idempotencyHeader} a déjà été utilisée avec un autre corps de requête',
  },
  'request.useNewIdempotencyKey': {
    en: 'Use a new Idempotency-Key for a different request',
    fr: 'Utilisez une nouvelle Idempotency-Key pour une requête différente',
  },
  'request.waitSecondsBeforeRetrying': {
    en: 'Wait {windowSeconds} seconds before retrying',
    fr: 'Attendez {windowSeconds} secondes avant de réessayer',
  },

  // validation.ts: `where` is body, path parameter, query, header, cookie or form.
  'validation.missing': {
    en: 'Missing required {where}: {names}',
    fr: ({ where, names }) => (WHERE(where) ? `Valeur requise manquante dans ${WHERE(where)} : ${names}` : undefined),
  },
  'validation.wrongType': {
    en: 'Wrong type for {where}: {names}',
    fr: ({ where, names }) => (WHERE(where) ? `Type incorrect dans ${WHERE(where)} : ${names}` : undefined),
  },
  'validation.failed': {
    en: 'Validation failed for {where}: {names}',
    fr: ({ where, names }) => (WHERE(where) ? `Validation échouée pour ${WHERE(where)} : ${names}` : undefined),
  },
  'validation.invalidArgument': { en: 'Invalid argument', fr: 'Argument invalide' },
  'validation.checkTypes': { en: "Check the type of each value against the API reference", fr: "Vérifiez le type de chaque valeur dans la référence de l'API" },
  'validation.provideRequired': { en: 'Provide every required parameter', fr: 'Fournissez chaque paramètre requis' },
  'validation.correctFields': { en: "Correct the fields listed and try again", fr: "Corrigez les champs indiqués et réessayez" },
  'validation.invisibleCharacters': {
    en: 'Names may not hold bidirectional controls (U+202A-U+202E, U+2066-U+2069) or zero-width characters (U+200B-U+200D, U+2060, U+FEFF)',
    fr: 'Un nom ne peut contenir ni contrôle bidirectionnel (U+202A-U+202E, U+2066-U+2069) ni caractère de largeur nulle (U+200B-U+200D, U+2060, U+FEFF)',
  },
  'validation.controlCharacters': {
    en: 'Control characters are not allowed in this field',
    fr: 'Les caractères de contrôle ne sont pas autorisés dans ce champ',
  },

  'request.notConfigured': { en: 'The service is not configured: {problems}', fr: "Le service n'est pas configuré : {problems}" },
  'request.idempotencyInProgress': {
    en: 'A request with this Idempotency-Key is still being processed',
    fr: 'Une requête avec cette Idempotency-Key est encore en cours de traitement',
  },
  'request.tooManyRequests': { en: 'Too many requests; retry later', fr: 'Trop de requêtes ; réessayez plus tard' },
  'request.tooManyAttempts': { en: 'Too many attempts; retry later', fr: 'Trop de tentatives ; réessayez plus tard' },
} as const satisfies Entries;
