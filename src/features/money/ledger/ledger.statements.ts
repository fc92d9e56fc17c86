// Postings as statements for one D1 batch: the entry is inserted only when its guard holds and its
// key is new; lines, cached balances and history rows follow the entry through its per-attempt
// token, so a skipped entry skips everything that depends on it.
import { and, eq, not, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerLines, transactions, withdrawals } from '../../../db/schema';
import { guardedInsert, rowExists, type Statement } from '../../../db/statements';
import { notify, type Notification } from '../../deliveries/notify';
import { renderLine, storedLine } from './ledger-text';
import { accountKey, lineStatusAtPosting, type AccountRef, type Posting } from './posting-rules';

export const newToken = () => crypto.randomUUID();

/** True once the entry of this batch attempt is written. */
export const posted = (db: Db, token: string): SQL => rowExists(db, ledgerEntries, eq(ledgerEntries.token, token));

/** True once the entry with this key exists (whichever attempt wrote it). */
export const entryExists = (db: Db, key: string): SQL => rowExists(db, ledgerEntries, eq(ledgerEntries.key, key));

export function ensureAccountStatements(db: Db, accounts: AccountRef[], currency: string) {
  const unique = [...new Map(accounts.map((a) => [a.key, a])).values()];
  return unique.map((a) =>
    db
      .insert(ledgerAccounts)
      .values({ key: accountKey(a, currency), kind: a.kind, ownerType: a.owner?.type ?? null, ownerId: a.owner?.id ?? null, currency })
      .onConflictDoNothing({ target: ledgerAccounts.key }),
  );
}

export interface PostingOptions {
  /** Extra condition for the entry (e.g. the reservation is still where the plan found it). */
  guard?: SQL;
  /** A withdrawal row of the same batch, found by its token. */
  withdrawalToken?: string;
}

const idOf = <T extends typeof ledgerEntries | typeof ledgerAccounts | typeof withdrawals>(db: Db, table: T, where: SQL): SQL =>
  sql`(${db.select({ id: table.id }).from(table as typeof ledgerEntries).where(where)})`;

/** The statements of one posting, in order. Put them after the state change they depend on. */
export function postingStatements(db: Db, p: Posting, token: string, options: PostingOptions = {}): Statement[] {
  const entryId = idOf(db, ledgerEntries, eq(ledgerEntries.token, token));
  const statements: Statement[] = [
    ...ensureAccountStatements(
      db,
      p.lines.map((l) => l.account),
      p.currency,
    ),
    guardedInsert(
      db,
      ledgerEntries,
      {
        key: p.key,
        token,
        type: p.type,
        reservationId: p.reservationId ?? null,
        withdrawalId: options.withdrawalToken ? idOf(db, withdrawals, eq(withdrawals.token, options.withdrawalToken)) : null,
        // The English as written, and the key with its values for each reader's language.
        description: renderLine(p.description, 'en'),
        descriptionText: storedLine(p.description),
      },
      undefined,
      and(not(entryExists(db, p.key)), options.guard),
    ),
  ];
  const written = posted(db, token);
  for (const line of p.lines) {
    const key = accountKey(line.account, p.currency);
    statements.push(
      guardedInsert(
        db,
        ledgerLines,
        { entryId, accountId: idOf(db, ledgerAccounts, eq(ledgerAccounts.key, key)), amountCents: line.amountCents },
        undefined,
        written,
      ),
      db
        .update(ledgerAccounts)
        .set({ balanceCents: sql`${ledgerAccounts.balanceCents} + ${line.amountCents}` })
        .where(and(eq(ledgerAccounts.key, key), written)),
    );
  }
  for (const t of p.transactions) {
    statements.push(
      guardedInsert(
        db,
        transactions,
        {
          ownerType: t.owner.type,
          ownerId: t.owner.id,
          type: t.type,
          status: lineStatusAtPosting(t.type),
          amountCents: t.amountCents,
          currency: p.currency,
          ledgerEntryId: ledgerEntries.id,
          reservationId: ledgerEntries.reservationId,
          withdrawalId: ledgerEntries.withdrawalId,
          description: ledgerEntries.description,
          descriptionText: ledgerEntries.descriptionText,
        },
        ledgerEntries,
        eq(ledgerEntries.token, token),
      ),
    );
  }
  return statements;
}

/** Notifications written only if the posting of this batch attempt happened. */
export const notifyIfPosted = (db: Db, token: string, items: Notification[]): Statement[] => notify(db, items, posted(db, token));

/** Did the entry with this key get written (by any attempt)? */
export async function hasEntry(db: Db, key: string): Promise<boolean> {
  const [row] = await db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.key, key)).limit(1);
  return row !== undefined;
}
