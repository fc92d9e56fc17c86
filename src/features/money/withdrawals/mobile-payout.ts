// A withdrawal to a mobile wallet (CONTRACT sections 20 and 29), through the port: the wallet's
// operator names the rail; the payout is one operation (operations.ts), its UUID the rail's id on
// every retry, an unknown outcome asked about rather than sent again. Says what happened;
// withdrawals.service.ts records it (completed, failed back to the wallet with the provider's
// reason, or still pending for the cron or the callback).
import { eq } from 'drizzle-orm';
import { mobilePayoutAccounts, type WithdrawalRow } from '../../../db/schema';
import type { Deps } from '../../../env';
import type { MobileMoneyRail } from '../../../providers/mobile-money';
import { drive, operationFor } from '../mobile-money/operations';
import { maskedPhone } from '../../../lib/phone';
import type { Localized } from '../../../messages';

const PREFIX = 'mobile:';
export const mobileDestination = (payoutAccountId: number) => `${PREFIX}${payoutAccountId}`;
export const isMobileDestination = (destination: string) => destination.startsWith(PREFIX);
export const payoutAccountIdOf = (destination: string) => Number(destination.slice(PREFIX.length));

/**
 * Where a withdrawal goes, as its notices name it (CONTRACT 26): the mobile number masked and the
 * operator's name (`+221 •• ••• 45 67`, Wave), or the bank account of the connected account (Stripe).
 */
export async function destinationWords(deps: Deps, destination: string): Promise<{ destination: string | Localized; provider: string }> {
  if (!isMobileDestination(destination)) return { destination: { en: 'your bank account', fr: 'votre compte bancaire' }, provider: 'Stripe' };
  const [wallet] = await deps.db.select().from(mobilePayoutAccounts).where(eq(mobilePayoutAccounts.id, payoutAccountIdOf(destination)));
  if (!wallet) return { destination: { en: 'your mobile money account', fr: 'votre compte Mobile Money' }, provider: 'Mobile Money' };
  const operator = await deps.providers.mobileMoney.operator(wallet.provider);
  return { destination: maskedPhone(wallet.phone), provider: operator?.displayName ?? wallet.provider };
}

export type PayoutOutcome = { kind: 'completed'; payoutId: string } | { kind: 'failed'; reason: string } | { kind: 'pending'; payoutId?: string };

/** The rail that pays out to `operator` (a payout account's provider), or null when none is configured. */
export async function payoutRail(deps: Deps, operator: string): Promise<MobileMoneyRail | null> {
  const found = await deps.providers.mobileMoney.operator(operator);
  return found ? deps.providers.mobileMoney.rail(found.rail) : null;
}

export async function sendMobilePayout(deps: Deps, w: WithdrawalRow): Promise<PayoutOutcome> {
  const [wallet] = await deps.db.select().from(mobilePayoutAccounts).where(eq(mobilePayoutAccounts.id, payoutAccountIdOf(w.destinationAccountId)));
  if (!wallet) return { kind: 'failed', reason: 'The payout account was removed before the payout was sent' };
  const rail = await payoutRail(deps, wallet.provider);
  if (!rail) return { kind: 'pending' }; // its rail not configured right now: the cron asks again
  const reference = `withdrawal-${w.id}`;
  const op = await operationFor(deps.db, {
    subject: `payout:${w.id}`,
    kind: 'PAYOUT',
    rail: rail.code,
    operator: wallet.provider,
    amountMinor: w.amountCents,
    currency: w.currency,
    phone: wallet.phone,
    withdrawalId: w.id,
    reference,
  });
  const input = { id: op.id, amountMinor: w.amountCents, currency: w.currency, operator: wallet.provider, phone: wallet.phone, name: wallet.name, reference };
  const { row } = await drive(deps.db, op, { send: () => rail.payout(input), status: (ref) => rail.payoutStatus(op.id, ref) });
  if (row.status === 'COMPLETED') return { kind: 'completed', payoutId: row.ref ?? row.id };
  if (row.status === 'FAILED') return { kind: 'failed', reason: `${row.failureCode}: ${row.failureMessage}` };
  return { kind: 'pending', payoutId: row.ref ?? undefined };
}
