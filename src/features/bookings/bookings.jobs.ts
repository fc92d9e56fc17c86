// The reservation jobs the cron trigger runs (wrangler.toml [triggers]).
import type { Deps } from '../../env';
import { reportCaught } from '../../error-tracking';
import { expireReservations } from './expire-bookings';
import { cancelForSuspension } from './suspension';
import { cancelOnRemovedTrip } from './trip-removal';

/**
 * Expires unpaid reservations (30 min) and rejects unanswered paid ones (24 h); then finishes any
 * suspension's cancellations left over (one batch a run), and those of trips the moderation hid
 * (trip-removal.ts). Never throws: the next run retries.
 */
export async function runReservationExpiry(deps: Deps, scheduledTime: number = Date.now()) {
  let result: Awaited<ReturnType<typeof expireReservations>> | null = null;
  try {
    result = await expireReservations(deps, new Date(scheduledTime));
    if (result.expired + result.rejected > 0) {
      console.log(JSON.stringify({ level: 'info', job: 'reservation-expiry', ...result }));
    }
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'reservation job failed', job: 'reservation-expiry' });
  }
  try {
    const cancelled = await cancelForSuspension(deps, null, null, 1);
    if (cancelled > 0) console.log(JSON.stringify({ level: 'info', job: 'suspension-sweep', cancelled }));
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'reservation job failed', job: 'suspension-sweep' });
  }
  try {
    const cancelled = await cancelOnRemovedTrip(deps, null, null, 1);
    if (cancelled > 0) console.log(JSON.stringify({ level: 'info', job: 'removed-trip-sweep', cancelled }));
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'reservation job failed', job: 'removed-trip-sweep' });
  }
  return result;
}
