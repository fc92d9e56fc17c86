// The offers' step of the cron trigger (src/scheduled.ts): open offers past their 48 hours or
// their trip's departure expire, both sides told. Idempotent and batched (offers.service.ts).
import type { Deps } from '../../env';
import { expireOffers } from './offers.service';

/** Expires one batch of due offers a run; the next run (5 minutes) takes the rest. */
export async function runOfferExpiry(deps: Deps, scheduledTime: number = Date.now()): Promise<number> {
  const expired = await expireOffers(deps, new Date(scheduledTime));
  if (expired > 0) console.log(JSON.stringify({ level: 'info', job: 'offer-expiry', expired }));
  return expired;
}
