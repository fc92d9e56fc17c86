// Creating in-app notifications. Returns the INSERT so callers can put it in the same D1 batch
// as the state change it reports.
import type { Column, Placeholder, SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { guardedInsert } from '../../db/batch-sql';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import { isoNow } from '../../db/schema/columns';

export interface NewNotification {
  userId: number;
  type: string;
  title: string;
  message: string;
  data?: Record<string, unknown>;
}

export function notificationInsert(db: Db, items: NewNotification | NewNotification[]) {
  const rows = Array.isArray(items) ? items : [items];
  return db.insert(notifications).values(rows.map((n) => ({ ...n, data: n.data ?? null })));
}

/** A notification's fields inside a batch: values, or SQL read by the statement (a column of the source, a placeholder). */
export interface GuardedNotification {
  userId: number | SQL | Column | Placeholder;
  type: string;
  title: string;
  message: string | SQL | Placeholder;
  data?: Record<string, unknown> | SQL | null;
  createdAt?: string | Placeholder;
}

/**
 * The one way to write a notification inside a D1 batch: inserted only if `guard` holds when
 * the batch reaches it (a state change this batch made, a ledger entry it posted), so a lost race
 * or a refused write leaves no notification. With `source`, the guard and the values may read
 * that table's columns (the reservation's sender, its number).
 */
export function guardedNotificationInsert(db: Db, n: GuardedNotification, guard: SQL | undefined, source?: SQLiteTable) {
  return guardedInsert(
    db,
    notifications,
    { userId: n.userId, type: n.type, title: n.title, message: n.message, data: n.data ?? null, createdAt: n.createdAt ?? isoNow },
    source,
    guard,
  );
}
