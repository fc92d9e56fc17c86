// Wallet figures, derived from the ledger (balance) and the history rows (earned, withdrawn).
// `walletFigures(env, owner)` also feeds the User summary (walletBalance, ...).
import { and, eq, sql } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { ledgerAccounts, transactions, withdrawals } from '../../db/schema';
import { fromCents } from '../../lib/money';
import { walletAccount, type Owner } from '../ledger/posting-rules';
import { getAutoWithdrawal, platformCurrency } from '../withdrawals/withdrawals.service';

export interface WalletFigures {
  walletBalance: number;
  pendingWithdrawalAmount: number;
  totalEarned: number;
  totalWithdrawn: number;
}

/** The four wallet numbers of an owner, in one round trip. */
export async function walletFigures(env: Env, owner: Owner): Promise<WalletFigures> {
  const db = getDb(env);
  const [[balance], [earned], [byStatus]] = await db.batch([
    db.select({ cents: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(eq(ledgerAccounts.key, walletAccount(owner).key)),
    db
      .select({ cents: sql<number>`COALESCE(SUM(${transactions.amountCents}), 0)` })
      .from(transactions)
      .where(and(eq(transactions.ownerType, owner.type), eq(transactions.ownerId, owner.id), eq(transactions.type, 'EARNING'))),
    db
      .select({
        pending: sql<number>`COALESCE(SUM(CASE WHEN ${withdrawals.status} = 'PENDING' THEN ${withdrawals.amountCents} END), 0)`,
        completed: sql<number>`COALESCE(SUM(CASE WHEN ${withdrawals.status} = 'COMPLETED' THEN ${withdrawals.amountCents} END), 0)`,
      })
      .from(withdrawals)
      .where(and(eq(withdrawals.ownerType, owner.type), eq(withdrawals.ownerId, owner.id))),
  ]);
  return {
    walletBalance: fromCents(balance?.cents ?? 0),
    pendingWithdrawalAmount: fromCents(byStatus?.pending ?? 0),
    totalEarned: fromCents(earned?.cents ?? 0),
    totalWithdrawn: fromCents(byStatus?.completed ?? 0),
  };
}

/** For the lead: the User summary's wallet fields of a user. */
export const userWalletFigures = (env: Env, userId: number) => walletFigures(env, { type: 'USER', id: userId });

/** GET /user/me/wallet (and later /agencies/{id}/wallet). */
export async function getWallet(env: Env, owner: Owner) {
  const [figures, autoWithdrawal] = await Promise.all([walletFigures(env, owner), getAutoWithdrawal(env, owner)]);
  return {
    balance: figures.walletBalance,
    pendingWithdrawalAmount: figures.pendingWithdrawalAmount,
    totalEarned: figures.totalEarned,
    totalWithdrawn: figures.totalWithdrawn,
    currency: platformCurrency(env),
    autoWithdrawal,
  };
}
