// The reservation jobs the cron trigger runs (wrangler.toml [triggers]).
import type { Deps } from '../../env';
import { expireReservations } from './bookings.service';

/** Expires unpaid reservations (30 min) and rejects unanswered paid ones (24 h). Never throws: the next run retries. */
export async function runReservationExpiry(deps: Deps, scheduledTime: number = Date.now()) {
  try {
    const result = await expireReservations(deps, new Date(scheduledTime));
    if (result.expired + result.rejected > 0) {
      console.log(JSON.stringify({ level: 'info', job: 'reservation-expiry', ...result }));
    }
    return result;
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', job: 'reservation-expiry', error: err instanceof Error ? err.message : String(err) }));
    return null;
  }
}
