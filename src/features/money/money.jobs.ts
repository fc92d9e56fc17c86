// The money steps of the cron trigger: capture card holds before they lapse, finish provider-side
// refunds that failed or never ran, make held shares available once their dispute window has
// closed (before the payouts, which take only available money), pay out wallets above their
// threshold, retry stuck transfers.
import type { Deps } from '../../env';
import { retryPendingWithdrawals, runAutoWithdrawals } from './withdrawals/withdrawals.service';
import { captureAgingAuthorizations, retryPendingSettlements } from './escrow';
import { releaseHeldShares } from './holds';

export async function runMoneyJobs(deps: Deps, scheduledTime: number | Date = Date.now()) {
  const now = new Date(scheduledTime);
  const result: Record<string, number | string> = {};
  const steps: [string, () => Promise<number>][] = [
    ['captured', () => captureAgingAuthorizations(deps, now)],
    ['settlementsRetried', () => retryPendingSettlements(deps)],
    ['heldReleased', () => releaseHeldShares(deps, now)],
    ['autoWithdrawals', () => runAutoWithdrawals(deps)],
    ['withdrawalsRetried', () => retryPendingWithdrawals(deps, now)],
  ];
  // Each step stands alone: one failing must not block the others.
  for (const [name, step] of steps) {
    try {
      result[name] = await step();
    } catch (err) {
      result[name] = 'failed';
      console.error(JSON.stringify({ level: 'error', msg: `money cron step ${name} failed`, error: String(err) }));
    }
  }
  return result;
}
