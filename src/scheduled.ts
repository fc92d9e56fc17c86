// The cron trigger's jobs. Each runs on its own: one failing job is logged and does not stop the others.
import { checkConfig, describeProblems } from './config';
import { depsOf, type Deps } from './env';
import { reportCaught, reportUnexpected } from './error-tracking';
import { closeDepartedAnnouncements } from './features/announcements/announcements.service';
import { purgeExpiredIdentityRecords } from './features/auth/identity-cleanup';
import { runReservationExpiry } from './features/bookings/bookings.jobs';
import { enqueuePendingDeliveries, requeueStaleDeliveries } from './features/deliveries/outbox';
import { publishStatusChanges } from './features/reservations/status-feed';
import { previousDay, runMoneyJobs, runReconciliation } from './features/money';
import { isDailySlot } from './lib/daily-slot';
import { runOfferExpiry } from './features/offers/offers.jobs';
import { runPrivacyJobs } from './features/privacy/privacy.jobs';
import { recordHeartbeat, runWatchdog } from './features/watchdog/watchdog';

type Job = (deps: Deps, scheduledTime: number) => Promise<unknown>;

export const SCHEDULED_JOBS: Record<string, Job> = {
  closeDepartedAnnouncements: (deps) => closeDepartedAnnouncements(deps),
  reservationExpiry: (deps, at) => runReservationExpiry(deps, at),
  purgeExpiredIdentityRecords: (deps) => purgeExpiredIdentityRecords(deps),
  money: (deps, at) => runMoneyJobs(deps, new Date(at)),
  requeueStaleDeliveries: (deps, at) => requeueStaleDeliveries(deps, new Date(at)),
  privacy: (deps, at) => runPrivacyJobs(deps, new Date(at)),
  offerExpiry: (deps, at) => runOfferExpiry(deps, at),
  // Once a day: the previous UTC day's records of every payment provider against our books (CONTRACT 27).
  reconciliation: async (deps, at) => (isDailySlot(new Date(at)) ? runReconciliation(deps, previousDay(new Date(at))) : null),
};

export async function runScheduledJobs(env: Env, scheduledTime: number) {
  // Like every request, no job runs on an incomplete configuration (it would move money with sandboxes).
  const config = checkConfig(env);
  if (!config.ok) {
    console.error(JSON.stringify({ level: 'error', event: 'scheduled.skipped', error: describeProblems(config.problems) }));
    return;
  }
  // One unit of work for the run: the jobs share its client, and what they commit is sent at its end.
  const deps = depsOf(env);
  const at = new Date(scheduledTime);
  await Promise.all(
    Object.entries(SCHEDULED_JOBS).map(async ([name, job]) => {
      let error: string | null = null;
      try {
        await job(deps, scheduledTime);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        console.error(JSON.stringify({ level: 'error', job: name, error }));
        reportUnexpected(env, err, { job: name });
      }
      // Each job's heartbeat: the watchdog's CRON_LATE rule reads the last success of each.
      await recordHeartbeat(deps.db, name, at, error).catch((err) => reportCaught(env, err, { msg: 'cron heartbeat not recorded', job: name }));
    }),
  );
  // Last, so it sees this run's heartbeats and what the jobs left: the watchdog (CONTRACT section 27).
  try {
    await runWatchdog(deps, at);
  } catch (err) {
    reportCaught(env, err, { msg: 'watchdog run failed', job: 'watchdog' });
  }
  // The deliveries the jobs' and the watchdog's batches committed (expiry, refunds, alerts...) go to
  // the queue; the status feeds of the reservations they changed are told.
  await Promise.all([enqueuePendingDeliveries(deps), publishStatusChanges(deps)]);
}
