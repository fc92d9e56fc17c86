// Wallet figures, derived from the ledger (balance) and the history rows (earned, withdrawn).
// `walletFigures(env, owner)` also feeds the User summary (walletBalance, ...).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Deps } from '../../../env';
import type { Db } from '../../../db/client';
import { EARNING_TYPES, ledgerAccounts, transactions, withdrawals } from '../../../db/schema';
import { amountOf } from '../../../lib/money';
import { accountKey, heldAccount, walletAccount, type Owner } from '../ledger/posting-rules';
import { getAutoWithdrawal } from '../withdrawals/withdrawals.service';
import { appConfig } from '../../../config';
import { assertEnabled } from '../../../lib/amount';
import { mainCurrency } from '../../../lib/main-currency';
import { walletBalancesOf, withdrawalTotals } from './wallet-balances';

export interface WalletFigures {
  walletBalance: number;
  pendingWithdrawalAmount: number;
  totalEarned: number;
  totalWithdrawn: number;
}

export const ZERO_WALLET: WalletFigures = { walletBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 0, totalWithdrawn: 0 };

/**
 * The three reads behind the wallet numbers of up to 90 owners of one type in one currency, for a
 * D1 batch. The User summary's wallet fields are in the platform's main currency (EUR by default).
 */
export function walletFigureStatements(db: Db, type: Owner['type'], ids: readonly number[], currency = 'EUR') {
  const keys = ids.map((id) => accountKey(walletAccount({ type, id }), currency));
  return [
    db.select({ key: ledgerAccounts.key, cents: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(inArray(ledgerAccounts.key, keys)),
    db
      .select({ ownerId: transactions.ownerId, cents: sql<number>`COALESCE(SUM(${transactions.amountCents}), 0)` })
      .from(transactions)
      .where(and(eq(transactions.ownerType, type), inArray(transactions.ownerId, [...ids]), inArray(transactions.type, [...EARNING_TYPES]), eq(transactions.currency, currency)))
      .groupBy(transactions.ownerId),
    db
      .select({ ownerId: withdrawals.ownerId, ...withdrawalTotals })
      .from(withdrawals)
      .where(and(eq(withdrawals.ownerType, type), inArray(withdrawals.ownerId, [...ids]), eq(withdrawals.currency, currency)))
      .groupBy(withdrawals.ownerId),
  ] as const;
}

type WalletFigureResults = readonly [
  { key: string; cents: number }[],
  { ownerId: number; cents: number }[],
  { ownerId: number; pending: number; completed: number }[],
];

/** The wallet numbers of `ids`, keyed by owner id, from the results of walletFigureStatements. */
export function walletFiguresFrom(type: Owner['type'], ids: readonly number[], [balances, earned, byStatus]: WalletFigureResults, currency = 'EUR') {
  const result = new Map<number, WalletFigures>(ids.map((id) => [id, { ...ZERO_WALLET }]));
  const ownerOfKey = new Map(ids.map((id) => [accountKey(walletAccount({ type, id }), currency), id]));
  const out = (minor: number) => amountOf(minor, currency);
  for (const b of balances) result.get(ownerOfKey.get(b.key)!)!.walletBalance = out(b.cents);
  for (const e of earned) result.get(e.ownerId)!.totalEarned = out(e.cents);
  for (const w of byStatus) Object.assign(result.get(w.ownerId)!, { pendingWithdrawalAmount: out(w.pending), totalWithdrawn: out(w.completed) });
  return result;
}

/**
 * The four wallet numbers of several owners of one type, keyed by owner id: one round trip per 90
 * owners (D1 binds at most 100 parameters per statement).
 */
export async function walletFiguresOf(db: Db, type: Owner['type'], ids: readonly number[], currency = 'EUR'): Promise<Map<number, WalletFigures>> {
  const result = new Map<number, WalletFigures>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 90) {
    const chunk = unique.slice(i, i + 90);
    const results = await db.batch(walletFigureStatements(db, type, chunk, currency));
    for (const [id, figures] of walletFiguresFrom(type, chunk, results, currency)) result.set(id, figures);
  }
  return result;
}

/** The four wallet numbers of one owner, in one round trip. */
export async function walletFigures(deps: Deps, owner: Owner): Promise<WalletFigures> {
  return (await walletFiguresOf(deps.db, owner.type, [owner.id])).get(owner.id) ?? { ...ZERO_WALLET };
}

/** The User summary's wallet fields of a user. */
export const userWalletFigures = (deps: Deps, userId: number) => walletFigures(deps, { type: 'USER', id: userId });

/** GET /user/me/wallet and /agencies/{id}/wallet: `balance` is what can be withdrawn, `heldBalance` waits for the dispute window. */
export async function getWallet(deps: Deps, owner: Owner, currency?: string) {
  const config = appConfig(deps.env);
  const main = mainCurrency(config);
  // The top-level figures are of one currency: the one asked for (enabled, else 400), else the main one.
  const shown = currency !== undefined ? assertEnabled(currency, config.currencies, 'currency') : main;
  const [balances, autoWithdrawal] = await Promise.all([walletBalancesOf(deps.db, owner, main), getAutoWithdrawal(deps, owner, shown)]);
  const { currency: _c, ...figures } = balances.find((b) => b.currency === shown) ?? { ...ZERO_BALANCE, currency: shown };
  return { ...figures, currency: shown, autoWithdrawal: { enabled: autoWithdrawal.enabled, threshold: autoWithdrawal.threshold }, balances };
}

const ZERO_BALANCE = { balance: 0, heldBalance: 0, pendingWithdrawalAmount: 0, totalEarned: 0, totalWithdrawn: 0 };
