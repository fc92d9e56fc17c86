// A withdrawal to a mobile wallet (CONTRACT section 20): Wave's payout API, one Idempotency-Key per
// withdrawal so a retry never pays twice. Says what happened; withdrawals.service.ts records it
// (completed, failed back to the wallet with Wave's reason, or still pending for the cron).
import { eq } from 'drizzle-orm';
import { mobilePayoutAccounts, type WithdrawalRow } from '../../../db/schema';
import type { Deps } from '../../../env';
import { MobileMoneyRejectedError, ProviderRejectedError, type MobileMoneyPayout } from '../../../providers/mobile-money';

const PREFIX = 'mobile:';
export const mobileDestination = (payoutAccountId: number) => `${PREFIX}${payoutAccountId}`;
export const isMobileDestination = (destination: string) => destination.startsWith(PREFIX);

export type PayoutOutcome = { kind: 'completed'; payoutId: string } | { kind: 'failed'; reason: string } | { kind: 'pending'; payoutId?: string };

/** The provider's reason, as the withdrawal keeps it (`blocked-account: The recipient wallet is blocked`). */
const reasonOf = (p: MobileMoneyPayout) => (p.failure ? `${p.failure.code}: ${p.failure.message}` : `payout ${p.status}`);

export async function sendMobilePayout(deps: Deps, w: WithdrawalRow): Promise<PayoutOutcome> {
  const provider = deps.providers.mobileMoney;
  try {
    // Sent before (a payout still processing): ask for its state rather than sending again.
    let payout: MobileMoneyPayout;
    if (w.transferId) {
      payout = await provider.getPayout(w.transferId);
    } else {
      const id = Number(w.destinationAccountId.slice(PREFIX.length));
      const [wallet] = await deps.db.select().from(mobilePayoutAccounts).where(eq(mobilePayoutAccounts.id, id));
      if (!wallet) return { kind: 'failed', reason: 'The payout account was removed before the payout was sent' };
      payout = await provider.createPayout({
        amountMinor: w.amountCents,
        currency: w.currency,
        mobile: wallet.phone,
        name: wallet.name,
        clientReference: `withdrawal-${w.id}`,
        idempotencyKey: `withdrawal-${w.id}`,
      });
    }
    if (payout.status === 'succeeded') return { kind: 'completed', payoutId: payout.id };
    if (payout.status === 'failed' || payout.status === 'reversed') return { kind: 'failed', reason: reasonOf(payout) };
    return { kind: 'pending', payoutId: payout.id };
  } catch (err) {
    if (err instanceof MobileMoneyRejectedError) return { kind: 'failed', reason: `${err.code}: ${err.message.slice(err.code.length + 2)}` };
    if (err instanceof ProviderRejectedError) return { kind: 'failed', reason: err.message };
    return { kind: 'pending' }; // unreachable or timed out: the cron asks again with the same key
  }
}
