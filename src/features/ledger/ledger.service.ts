// Writes postings to D1 as statements for one db.batch(): the entry is inserted only when its
// guard holds and its key is new; lines, cached balances and history rows follow the entry
// through its per-attempt token, so a skipped entry skips everything that depends on it.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';
import { guardedNotificationInsert, type NewNotification } from '../notifications/notify';
import type { AccountRef, Posting } from './posting-rules';

export const newToken = () => crypto.randomUUID();

/**
 * A raw SQL statement usable inside db.batch(). drizzle's own `db.run(sql)` has no prepared D1
 * statement, so its batch path fails as soon as the SQL has parameters; this attaches one.
 */
export function rawStatement(db: Db, query: SQL) {
  const statement = db.run(query);
  const { sql: text } = (statement as unknown as { getQuery(): { sql: string } }).getQuery();
  Object.assign(statement, { stmt: db.$client.prepare(text) });
  return statement;
}

/** SQL true when the entry of this batch attempt was written. */
export const postedSql = (token: string): SQL => sql`EXISTS (SELECT 1 FROM ledger_entries WHERE token = ${token})`;

export function ensureAccountStatements(db: Db, accounts: AccountRef[], currency: string) {
  const unique = [...new Map(accounts.map((a) => [a.key, a])).values()];
  return unique.map((a) =>
    db
      .insert(ledgerAccounts)
      .values({ key: a.key, kind: a.kind, ownerType: a.owner?.type ?? null, ownerId: a.owner?.id ?? null, currency })
      .onConflictDoNothing({ target: ledgerAccounts.key }),
  );
}

export interface PostingOptions {
  /** Extra condition for the entry (e.g. the reservation reached the right status in this batch). */
  guard?: SQL;
  /** A withdrawal row of the same batch, found by its token. */
  withdrawalToken?: string;
}

/** The statements of one posting, in order. Put them after the state change they depend on. */
export function postingStatements(db: Db, p: Posting, token: string, options: PostingOptions = {}) {
  const guard = options.guard ?? sql`1`;
  const withdrawalId = options.withdrawalToken
    ? sql`(SELECT id FROM withdrawals WHERE token = ${options.withdrawalToken})`
    : sql`NULL`;
  const statements = [
    ...ensureAccountStatements(
      db,
      p.lines.map((l) => l.account),
      p.currency,
    ),
    rawStatement(db, sql`INSERT INTO ledger_entries (key, token, type, reservation_id, withdrawal_id, description)
      SELECT ${p.key}, ${token}, ${p.type}, ${p.reservationId ?? null}, ${withdrawalId}, ${p.description}
      WHERE NOT EXISTS (SELECT 1 FROM ledger_entries WHERE key = ${p.key}) AND (${guard})`),
  ];
  for (const line of p.lines) {
    statements.push(
      rawStatement(db, sql`INSERT INTO ledger_lines (entry_id, account_id, amount_cents)
        SELECT e.id, a.id, ${line.amountCents} FROM ledger_entries e JOIN ledger_accounts a ON a.key = ${line.account.key}
        WHERE e.token = ${token}`),
      rawStatement(db, sql`UPDATE ledger_accounts SET balance_cents = balance_cents + ${line.amountCents}
        WHERE key = ${line.account.key} AND ${postedSql(token)}`),
    );
  }
  for (const t of p.transactions) {
    statements.push(
      rawStatement(db, sql`INSERT INTO transactions (owner_type, owner_id, type, amount_cents, currency, ledger_entry_id, reservation_id, withdrawal_id, description)
        SELECT ${t.owner.type}, ${t.owner.id}, ${t.type}, ${t.amountCents}, ${p.currency}, e.id, e.reservation_id, e.withdrawal_id, e.description
        FROM ledger_entries e WHERE e.token = ${token}`),
    );
  }
  return statements;
}

/** Notifications written only if the posting of this batch attempt happened. */
export function notificationsIfPosted(db: Db, token: string, items: NewNotification[]) {
  return items.map((n) => guardedNotificationInsert(db, { ...n, data: n.data ?? {} }, postedSql(token)));
}

/** Did this attempt's entry get written? (one read after the batch) */
export async function wasPosted(db: Db, token: string): Promise<boolean> {
  const row = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ledger_entries WHERE token = ${token}`);
  return (row?.n ?? 0) > 0;
}
