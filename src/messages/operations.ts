// Error texts of operating the service (CONTRACT section 24): the metrics GET /superadmin/metrics
// reads; each key's English and French.
import type { Entries } from './types';

export const OPERATIONS_MESSAGES = {
  // providers/metrics/analytics-engine.ts
  'metrics.analyticsUnavailable': {
    en: 'The metrics could not be read from Workers Analytics Engine',
    fr: 'Les métriques n’ont pas pu être lues dans Workers Analytics Engine',
  },
  'metrics.retryLater': {
    en: 'Try again in a few minutes; check METRICS_ACCOUNT_ID and METRICS_API_TOKEN (Account Analytics Read)',
    fr: 'Réessayez dans quelques minutes ; vérifiez METRICS_ACCOUNT_ID et METRICS_API_TOKEN (Account Analytics Read)',
  },
  // features/superadmin/storage-restore.ts
  'operations.pointInTimeUnavailable': {
    en: 'Point-in-time recovery of Durable Object storage exists on Cloudflare only, not in local development: nothing was changed',
    fr: 'La restauration à un instant donné du stockage des Durable Objects n’existe que chez Cloudflare, pas en développement local : rien n’a été modifié',
  },
  'operations.restoreAtOrBookmark': { en: 'Give either at or bookmark, not both', fr: 'Indiquez soit at, soit bookmark, pas les deux' },
  'operations.restoreInPast': { en: 'Must be in the past', fr: 'Doit être dans le passé' },
  'operations.restoreWithinWindow': { en: 'Must be within the last {days} days', fr: 'Doit être dans les {days} derniers jours' },
  // features/money/pauses.ts
  'pause.checkoutPaused': {
    en: 'Payments by {provider} are paused for now by the operators (a provider incident); nothing was charged',
    fr: 'Les paiements par {provider} sont suspendus pour le moment par l’exploitation (incident chez le prestataire) ; rien n’a été débité',
  },
  'pause.payoutPaused': {
    en: 'Payouts through {provider} are paused for now by the operators (a provider incident); the wallet was not debited',
    fr: 'Les versements par {provider} sont suspendus pour le moment par l’exploitation (incident chez le prestataire) ; le portefeuille n’a pas été débité',
  },
  'pause.retryLaterOrOther': {
    en: 'Try again in a few minutes, or pay with another method',
    fr: 'Réessayez dans quelques minutes, ou payez avec un autre moyen',
  },
  'pause.retryLater': { en: 'Try again after the time given by Retry-After', fr: 'Réessayez après le délai indiqué par Retry-After' },
  'pause.unknownProvider': { en: 'Unknown provider {provider}: one of {providers}', fr: 'Prestataire {provider} inconnu : l’un de {providers}' },
  // features/money/reconciliation
  'reconciliation.refundNotFailed': {
    en: 'The refund of reservation {id} cannot be retried: only a refund the payment provider refused, and still waiting, is retried',
    fr: 'Le remboursement de la réservation {id} ne peut pas être relancé : seul un remboursement refusé par le prestataire de paiement, et toujours en attente, est relancé',
  },
  'reconciliation.refundRetryRaced': {
    en: 'The refund of reservation {id} was retried by someone else just now: nothing was sent twice',
    fr: 'Le remboursement de la réservation {id} vient d’être relancé par quelqu’un d’autre : rien n’a été envoyé deux fois',
  },
  'reconciliation.payoutNotFailed': {
    en: 'Withdrawal {id} cannot be retried: only a payout that failed is retried',
    fr: 'Le retrait {id} ne peut pas être relancé : seul un versement en échec est relancé',
  },
  'reconciliation.payoutAlreadyRetried': {
    en: 'Withdrawal {id} was already retried: nothing was paid twice',
    fr: 'Le retrait {id} a déjà été relancé : rien n’a été versé deux fois',
  },
  'reconciliation.seePending': {
    en: 'See the reconciliation page for what is still pending',
    fr: 'Voir la page de rapprochement pour ce qui est encore en attente',
  },
  'reconciliation.dayNotPast': {
    en: 'The day must be today or earlier (UTC)',
    fr: 'Le jour doit être aujourd’hui ou avant (UTC)',
  },
  // features/money/reconciliation: how a report read its provider (its note)
  'reconciliation.listed': {
    en: 'listed: {charges} charges, {refunds} refunds, {transfers} transfers',
    fr: 'listés : {charges} paiements, {refunds} remboursements, {transfers} virements',
  },
  'reconciliation.listingCapped': { en: 'a listing reached its cap of {cap}', fr: 'une liste a atteint son plafond de {cap}' },
  'reconciliation.checkedById': { en: 'checked one by one by id: {count} operations', fr: 'vérifiées une à une par identifiant : {count} opérations' },
  'reconciliation.operationsLeft': {
    en: 'more than {cap} operations that day: the rest not checked',
    fr: 'plus de {cap} opérations ce jour-là : les autres ne sont pas vérifiées',
  },
  'reconciliation.statement': { en: 'statement: {lines} lines, {others} not made by this service', fr: 'relevé : {lines} lignes, dont {others} hors de ce service' },
  'reconciliation.statementCapped': { en: 'the statement reached its cap of {cap} lines', fr: 'le relevé a atteint son plafond de {cap} lignes' },
  // features/watchdog/watchdog.rules.ts: what an incident is, as its alert and the console say it
  'incident.metricsUnavailable': { en: 'the metrics could not be read: {error}', fr: 'les métriques n’ont pas pu être lues : {error}' },
  'incident.serverErrors': {
    en: '{errors} of {requests} answers were 5xx in the last hour ({rate} %, threshold {threshold} %)',
    fr: '{errors} réponses sur {requests} ont été des 5xx dans la dernière heure ({rate} %, seuil {threshold} %)',
  },
  'incident.paymentsFailed': { en: '{count} payments refused in the last hour (threshold {threshold})', fr: '{count} paiements refusés dans la dernière heure (seuil {threshold})' },
  'incident.payoutsFailed': {
    en: '{count} payouts refused by the provider in the last hour (threshold {threshold})',
    fr: '{count} versements refusés par le prestataire dans la dernière heure (seuil {threshold})',
  },
  'incident.deliveriesDead': {
    en: '{count} e-mails, pushes or SMS given up in the last 24 hours, not retried (threshold {threshold})',
    fr: '{count} e-mails, notifications push ou SMS abandonnés dans les dernières 24 heures, sans nouvel essai (seuil {threshold})',
  },
  'incident.deliveriesFailed': {
    en: '{count} e-mails, pushes or SMS refused in the last hour (threshold {threshold})',
    fr: '{count} e-mails, notifications push ou SMS refusés dans la dernière heure (seuil {threshold})',
  },
  'incident.queueStalled': {
    en: 'the oldest queued delivery has waited {minutes} minutes (threshold {threshold})',
    fr: 'le plus ancien message en file attend depuis {minutes} minutes (seuil {threshold})',
  },
  'incident.cronLate': { en: 'the cron job {job} has not completed for {minutes} minutes', fr: 'la tâche planifiée {job} ne s’est pas terminée depuis {minutes} minutes' },
  'incident.cronLateError': {
    en: 'the cron job {job} has not completed for {minutes} minutes; last error: {error}',
    fr: 'la tâche planifiée {job} ne s’est pas terminée depuis {minutes} minutes ; dernière erreur : {error}',
  },
  'incident.cronNever': { en: 'the cron job {job} has never completed', fr: 'la tâche planifiée {job} ne s’est jamais terminée' },
  'incident.cronNeverError': { en: 'the cron job {job} has never completed; last error: {error}', fr: 'la tâche planifiée {job} ne s’est jamais terminée ; dernière erreur : {error}' },
  'incident.capturesPending': {
    en: '{count} card payments not captured in time (authorised past the capture deadline, or a partial capture pending over an hour)',
    fr: '{count} paiements par carte non encaissés à temps (autorisés au-delà du délai d’encaissement, ou encaissement partiel en attente depuis plus d’une heure)',
  },
  'incident.refundsPending': {
    en: '{count} refunds or voids pending with the provider for over an hour',
    fr: '{count} remboursements ou annulations en attente chez le prestataire depuis plus d’une heure',
  },
  'incident.payoutsPending': { en: '{count} payouts pending for over an hour', fr: '{count} versements en attente depuis plus d’une heure' },
  'incident.webhooksRefused': {
    en: '{count} provider webhooks refused for their signature in 5 minutes (more than 10)',
    fr: '{count} webhooks de prestataires refusés pour leur signature en 5 minutes (plus de 10)',
  },
} as const satisfies Entries;
