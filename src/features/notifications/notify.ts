// Creating in-app notifications. Returns the INSERT so callers can put it in the same D1 batch
// as the state change it reports.
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
