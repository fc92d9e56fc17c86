// Wallet figures, derived from the ledger (balance) and the history rows (earned, withdrawn).
// `walletFigures(env, owner)` also feeds the User summary (walletBalance, ...).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Deps } from '../../../env';
import type { Db } from '../../../db/client';
import { EARNING_TYPES, ledgerAccounts, transactions, withdrawals } from '../../../db/schema';
import { fromCents } from '../../../lib/money';
import { heldAccount, walletAccount, type Owner } from '../ledger/posting-rules';
import { getAutoWithdrawal } from '../withdrawals/withdrawals.service';
import { appConfig } from '../../../config';

export interface WalletFigures {
  walletBalance: number;
  pendingWithdrawalAmount: number;
  totalEarned: number;
  totalWithdrawn: number;
}

export const ZERO_WALLET: WalletFigures = { walletBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 0, totalWithdrawn: 0 };

/** The three reads behind the wallet numbers of up to 90 owners of one type, for a D1 batch. */
export function walletFigureStatements(db: Db, type: Owner['type'], ids: readonly number[]) {
  const keys = ids.map((id) => walletAccount({ type, id }).key);
  return [
    db.select({ key: ledgerAccounts.key, cents: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(inArray(ledgerAccounts.key, keys)),
    db
      .select({ ownerId: transactions.ownerId, cents: sql<number>`COALESCE(SUM(${transactions.amountCents}), 0)` })
      .from(transactions)
      .where(and(eq(transactions.ownerType, type), inArray(transactions.ownerId, [...ids]), inArray(transactions.type, [...EARNING_TYPES])))
      .groupBy(transactions.ownerId),
    db
      .select({
        ownerId: withdrawals.ownerId,
        pending: sql<number>`COALESCE(SUM(CASE WHEN ${withdrawals.status} = 'PENDING' THEN ${withdrawals.amountCents} END), 0)`,
        completed: sql<number>`COALESCE(SUM(CASE WHEN ${withdrawals.status} = 'COMPLETED' THEN ${withdrawals.amountCents} END), 0)`,
      })
      .from(withdrawals)
      .where(and(eq(withdrawals.ownerType, type), inArray(withdrawals.ownerId, [...ids])))
      .groupBy(withdrawals.ownerId),
  ] as const;
}

type WalletFigureResults = readonly [
  { key: string; cents: number }[],
  { ownerId: number; cents: number }[],
  { ownerId: number; pending: number; completed: number }[],
];

/** The wallet numbers of `ids`, keyed by owner id, from the results of walletFigureStatements. */
export function walletFiguresFrom(type: Owner['type'], ids: readonly number[], [balances, earned, byStatus]: WalletFigureResults) {
  const result = new Map<number, WalletFigures>(ids.map((id) => [id, { ...ZERO_WALLET }]));
  const ownerOfKey = new Map(ids.map((id) => [walletAccount({ type, id }).key, id]));
  for (const b of balances) result.get(ownerOfKey.get(b.key)!)!.walletBalance = fromCents(b.cents);
  for (const e of earned) result.get(e.ownerId)!.totalEarned = fromCents(e.cents);
  for (const w of byStatus) Object.assign(result.get(w.ownerId)!, { pendingWithdrawalAmount: fromCents(w.pending), totalWithdrawn: fromCents(w.completed) });
  return result;
}

/**
 * The four wallet numbers of several owners of one type, keyed by owner id: one round trip per 90
 * owners (D1 binds at most 100 parameters per statement).
 */
export async function walletFiguresOf(db: Db, type: Owner['type'], ids: readonly number[]): Promise<Map<number, WalletFigures>> {
  const result = new Map<number, WalletFigures>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 90) {
    const chunk = unique.slice(i, i + 90);
    const results = await db.batch(walletFigureStatements(db, type, chunk));
    for (const [id, figures] of walletFiguresFrom(type, chunk, results)) result.set(id, figures);
  }
  return result;
}

/** The four wallet numbers of one owner, in one round trip. */
export async function walletFigures(deps: Deps, owner: Owner): Promise<WalletFigures> {
  return (await walletFiguresOf(deps.db, owner.type, [owner.id])).get(owner.id) ?? { ...ZERO_WALLET };
}

/** The User summary's wallet fields of a user. */
export const userWalletFigures = (deps: Deps, userId: number) => walletFigures(deps, { type: 'USER', id: userId });

/** Delivered shares of the owner still inside their dispute window (not withdrawable). */
export async function heldCents(db: Db, owner: Owner): Promise<number> {
  const [row] = await db.select({ cents: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(eq(ledgerAccounts.key, heldAccount(owner).key));
  return row?.cents ?? 0;
}

/** GET /user/me/wallet and /agencies/{id}/wallet: `balance` is what can be withdrawn, `heldBalance` waits for the dispute window. */
export async function getWallet(deps: Deps, owner: Owner) {
  const [figures, autoWithdrawal, held] = await Promise.all([walletFigures(deps, owner), getAutoWithdrawal(deps, owner), heldCents(deps.db, owner)]);
  return {
    balance: figures.walletBalance,
    heldBalance: fromCents(held),
    pendingWithdrawalAmount: figures.pendingWithdrawalAmount,
    totalEarned: figures.totalEarned,
    totalWithdrawn: figures.totalWithdrawn,
    currency: appConfig(deps.env).platform.currency,
    autoWithdrawal,
  };
}
