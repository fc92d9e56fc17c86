// The one notification writer. A notification is never written on its own: notify() returns the
// statements to put in the D1 batch that makes the change it reports, so a lost race or a refused
// write leaves no notification, and a committed change always has its notification.
import type { Column, Placeholder, SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import { guardedInsert, type Statement } from '../../db/statements';

export interface Notification {
  /** A user id, or a column of `source` (the reservation's sender), or a compiled statement's placeholder. */
  userId: number | SQL | Column | Placeholder;
  type: string;
  title: string;
  message: string | SQL | Placeholder;
  data?: Record<string, unknown> | SQL | null;
  createdAt?: string | Placeholder;
}

/** Rows per multi-row insert: 6 bound columns each, under D1's 100 parameters per statement. */
const ROWS_PER_INSERT = 10;

const isPlain = (n: Notification) =>
  typeof n.userId === 'number' && typeof n.message === 'string' && (n.createdAt === undefined || typeof n.createdAt === 'string');

/**
 * The statements that write `items`: only if `guard` holds when the batch reaches them (a state
 * change this batch made, a ledger entry it posted); always when no guard is given. With
 * `source`, the guard and the values may read that table's columns (the reservation's sender,
 * its number).
 */
export function notify(db: Db, items: Notification | readonly Notification[], guard?: SQL, source?: SQLiteTable): Statement[] {
  const list = Array.isArray(items) ? (items as readonly Notification[]) : [items as Notification];
  if (list.length === 0) return [];
  if (!guard && !source && list.every(isPlain)) {
    const statements: Statement[] = [];
    for (let i = 0; i < list.length; i += ROWS_PER_INSERT) {
      const rows = list.slice(i, i + ROWS_PER_INSERT).map((n) => ({
        userId: n.userId as number,
        type: n.type,
        title: n.title,
        message: n.message as string,
        data: (n.data ?? null) as Record<string, unknown> | null,
        ...(n.createdAt ? { createdAt: n.createdAt as string } : {}),
      }));
      statements.push(db.insert(notifications).values(rows));
    }
    return statements;
  }
  return list.map((n) =>
    guardedInsert(
      db,
      notifications,
      { userId: n.userId, type: n.type, title: n.title, message: n.message, data: n.data ?? null, createdAt: n.createdAt },
      source,
      guard,
    ),
  );
}
