// The privacy steps of the cron: archives asked for are built on every run (within minutes); the
// retention rules run once a day, in bounded batches, and log how much each deleted.
import type { Deps } from '../../env';
import { isDailySlot } from '../../lib/daily-slot';
import { buildPendingExports, purgeExpiredExports } from './export.service';
import { erasePersonalReservationData, purgeDeliveries, purgeKycDocuments, purgeNotifications, purgeTrackingPoints } from './retention';

/** The retention rules run in the cron's daily slot. */
export const isRetentionSlot = isDailySlot;

/** One pass of every retention rule; the counts of what each deleted (the run's log line). */
export async function runRetention(deps: Deps, now: Date): Promise<Record<string, number>> {
  const counts = {
    notifications: await purgeNotifications(deps, now),
    deliveries: await purgeDeliveries(deps, now),
    trackingReservations: await purgeTrackingPoints(deps, now),
    personalDataReservations: await erasePersonalReservationData(deps, now),
    kycDocuments: await purgeKycDocuments(deps, now),
    exports: await purgeExpiredExports(deps, now),
  };
  console.log(JSON.stringify({ level: 'info', event: 'privacy.retention', ...counts }));
  return counts;
}

export async function runPrivacyJobs(deps: Deps, at: Date): Promise<void> {
  await buildPendingExports(deps, at);
  if (isRetentionSlot(at)) await runRetention(deps, at);
}
