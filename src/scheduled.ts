// The cron trigger's jobs. Each runs on its own: one failing job is logged and does not stop the others.
import { checkConfig, describeProblems } from './config';
import { depsOf } from './env';
import { reportUnexpected } from './error-tracking';
import { closeDepartedAnnouncements } from './features/announcements/announcements.service';
import { purgeExpiredIdentityRecords } from './features/auth/identity-cleanup';
import { runReservationExpiry } from './features/bookings/bookings.jobs';
import { enqueuePendingDeliveries, requeueStaleDeliveries } from './features/deliveries/outbox';
import { runMoneyJobs } from './features/money/money.jobs';

type Job = (env: Env, scheduledTime: number) => Promise<unknown>;

export const SCHEDULED_JOBS: Record<string, Job> = {
  closeDepartedAnnouncements: (env) => closeDepartedAnnouncements(depsOf(env)),
  reservationExpiry: (env, at) => runReservationExpiry(depsOf(env), at),
  purgeExpiredIdentityRecords: (env) => purgeExpiredIdentityRecords(depsOf(env)),
  money: (env, at) => runMoneyJobs(depsOf(env), new Date(at)),
  requeueStaleDeliveries: (env, at) => requeueStaleDeliveries(depsOf(env), new Date(at)),
};

export async function runScheduledJobs(env: Env, scheduledTime: number) {
  // Like every request, no job runs on an incomplete configuration (it would move money with sandboxes).
  const config = checkConfig(env);
  if (!config.ok) {
    console.error(JSON.stringify({ level: 'error', event: 'scheduled.skipped', error: describeProblems(config.problems) }));
    return;
  }
  await Promise.all(
    Object.entries(SCHEDULED_JOBS).map(async ([name, job]) => {
      try {
        await job(env, scheduledTime);
      } catch (err) {
        console.error(JSON.stringify({ level: 'error', job: name, error: err instanceof Error ? err.message : String(err) }));
        reportUnexpected(env, err, { job: name });
      }
    }),
  );
  // The deliveries the jobs' batches committed (expiry, refunds...) go to the queue.
  await enqueuePendingDeliveries(env);
}
