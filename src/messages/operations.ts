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
} as const satisfies Entries;
