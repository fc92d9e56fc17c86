// Creating in-app notifications. Returns the INSERT so callers can put it in the same D1 batch
// as the state change it reports.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';

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

/** The same notification, inserted only if `guard` holds when the statement runs (for batches whose first write may lose a race). */
export function guardedNotificationInsert(db: Db, n: NewNotification, guard: SQL) {
  return db.insert(notifications).select(
    db
      .select({
        id: sql<number>`NULL`.as('id'),
        userId: sql<number>`${n.userId}`.as('user_id'),
        type: sql<string>`${n.type}`.as('type'),
        title: sql<string>`${n.title}`.as('title'),
        message: sql<string>`${n.message}`.as('message'),
        data: sql<string>`${JSON.stringify(n.data ?? null)}`.as('data'),
        readAt: sql<string | null>`NULL`.as('read_at'),
        createdAt: sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`.as('created_at'),
      })
      .from(sql`(SELECT 1)`)
      .where(guard),
  );
}
