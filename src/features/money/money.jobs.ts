// The money steps of the cron trigger: settle mobile-money pay-ins left pending, capture card holds before they lapse, finish provider-side
// refunds that failed or never ran, make held shares available once their dispute window has
// closed (before the payouts, which take only available money), pay out wallets above their
// threshold, retry stuck transfers.
import type { Deps } from '../../env';
import { retryPendingWithdrawals, runAutoWithdrawals } from './withdrawals/withdrawals.service';
import { captureAgingAuthorizations, retryPendingSettlements } from './escrow';
import { releaseHeldShares } from './holds';
import { checkPendingPayIns } from './mobile-money/pay-in';
import { reportCaught } from '../../error-tracking';
import { deliverSandboxCallbacks } from './payments/pawapay.routes';

export async function runMoneyJobs(deps: Deps, scheduledTime: number | Date = Date.now()) {
  const now = new Date(scheduledTime);
  const result: Record<string, number | string> = {};
  const steps: [string, () => Promise<number>][] = [
    // Mobile-money pay-ins whose callback never came: asked about, settled either way (CONTRACT 29).
    // The local pawaPay sandbox's callbacks, as pawaPay would POST them (nothing elsewhere).
    ['sandboxCallbacks', () => deliverSandboxCallbacks(deps)],
    ['payInsChecked', () => checkPendingPayIns(deps, now)],
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
      reportCaught(deps.env, err, { msg: 'money cron step failed', job: 'money', step: name });
    }
  }
  return result;
}
