// A wallet per currency (CONTRACT section 20): one set of figures per currency the owner has money
// in, plus the platform's main one. Never a sum across currencies.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { EARNING_TYPES, ledgerAccounts, transactions, withdrawals } from '../../../db/schema';
import { amountOf } from '../../../lib/money';
import type { Owner } from '../ledger/posting-rules';

export interface CurrencyBalance {
  currency: string;
  balance: number;
  heldBalance: number;
  pendingWithdrawalAmount: number;
  totalEarned: number;
  totalWithdrawn: number;
}

/** Pending and completed withdrawals of a group, in minor units. */
export const withdrawalTotals = {
  pending: sql<number>`COALESCE(SUM(CASE WHEN ${withdrawals.status} = 'PENDING' THEN ${withdrawals.amountCents} END), 0)`,
  completed: sql<number>`COALESCE(SUM(CASE WHEN ${withdrawals.status} = 'COMPLETED' THEN ${withdrawals.amountCents} END), 0)`,
};

interface Minor {
  balance: number;
  held: number;
  pending: number;
  earned: number;
  withdrawn: number;
}

/** The owner's figures in every currency it has an account, an earning or a withdrawal in, in one round trip. */
export async function walletBalancesOf(db: Db, owner: Owner, main: string): Promise<CurrencyBalance[]> {
  const [accounts, earned, byStatus] = await db.batch([
    db
      .select({ currency: ledgerAccounts.currency, kind: ledgerAccounts.kind, cents: ledgerAccounts.balanceCents })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.ownerType, owner.type), eq(ledgerAccounts.ownerId, owner.id), inArray(ledgerAccounts.kind, ['WALLET', 'HELD']))),
    db
      .select({ currency: transactions.currency, cents: sql<number>`COALESCE(SUM(${transactions.amountCents}), 0)` })
      .from(transactions)
      .where(and(eq(transactions.ownerType, owner.type), eq(transactions.ownerId, owner.id), inArray(transactions.type, [...EARNING_TYPES])))
      .groupBy(transactions.currency),
    db
      .select({ currency: withdrawals.currency, ...withdrawalTotals })
      .from(withdrawals)
      .where(and(eq(withdrawals.ownerType, owner.type), eq(withdrawals.ownerId, owner.id)))
      .groupBy(withdrawals.currency),
  ]);
  const byCurrency = new Map<string, Minor>();
  const of = (currency: string) => {
    if (!byCurrency.has(currency)) byCurrency.set(currency, { balance: 0, held: 0, pending: 0, earned: 0, withdrawn: 0 });
    return byCurrency.get(currency)!;
  };
  of(main);
  for (const a of accounts) of(a.currency)[a.kind === 'HELD' ? 'held' : 'balance'] += a.cents;
  for (const e of earned) of(e.currency).earned += e.cents;
  for (const w of byStatus) Object.assign(of(w.currency), { pending: w.pending, withdrawn: w.completed });
  // The main currency first, then the others by code: a stable order for clients.
  const codes = [...byCurrency.keys()].sort((a, b) => (a === main ? -1 : b === main ? 1 : a.localeCompare(b)));
  return codes.map((currency) => toBalance(currency, byCurrency.get(currency)!));
}

function toBalance(currency: string, m: Minor): CurrencyBalance {
  const out = (minor: number) => amountOf(minor, currency);
  return {
    currency,
    balance: out(m.balance),
    heldBalance: out(m.held),
    pendingWithdrawalAmount: out(m.pending),
    totalEarned: out(m.earned),
    totalWithdrawn: out(m.withdrawn),
  };
}
