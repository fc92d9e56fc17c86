// The one notification writer. A notification is never written on its own: notify() returns the
// statements to put in the D1 batch that makes the change it reports, so a lost race or a refused
// write leaves no notification, and a committed change always has its notification. The same
// statements write the notification's outgoing e-mail, push and SMS (the transactional outbox,
// deliveries/), each only where the user wants that kind on that channel and can be reached by it.
import { sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import { compiled, guardedInsert, type Placeholders, type Statement } from '../../db/statements';
import { renderText } from '../../lib/message-text';
import type { Message } from '../../messages';
import type { NotificationKind } from './notification-kinds';
import { NOTIFICATION_TEMPLATES } from './templates/notifications';
import { deliveriesInsert, enqueuedOnCommit, transactionalRows, userDeliveryRows, type TransactionalMessage } from './outbox';

export { NOTIFICATION_KINDS, type NotificationKind } from './notification-kinds';

/**
 * The data naming a reservation in a notification: its id for the app to open, its number for the
 * person reading (the French texts, the e-mail and the push name it by number).
 */
export const reservationRef = (r: { id: number; reservationNumber: string }) => ({ reservationId: r.id, reservationNumber: r.reservationNumber });

/** The same notice to each of `userIds` (an agency trip's acting staff: CONTRACT 25). */
export const toEach = (userIds: readonly number[], n: Omit<Notification, 'userId'>): Notification[] => userIds.map((userId) => ({ ...n, userId }));

export interface Notification {
  /** A user id, or a column of `source` (the reservation's sender), or a compiled statement's placeholder. */
  userId: number | SQL | Column | Placeholder;
  type: NotificationKind;
  /**
   * The words: a key of messages/notices.ts with its values (amounts as {minor, currency}). The
   * in-app notification, the e-mail, the push and the SMS all render it in the reader's language;
   * the stored title and message are its English (the kind's subject, the rendered sentence). A
   * compiled statement binds it as JSON (a placeholder) with its English `message` beside it.
   */
  text?: Message | Placeholder;
  /** Without `text` only (notices not yet moved to message keys): English written at the change. */
  title?: string;
  message?: string | SQL | Placeholder;
  data?: Record<string, unknown> | SQL | null;
  createdAt?: string | Placeholder;
  /** In-app only, no e-mail, push or SMS: news a person need not be sent (a carrier's unpaid booking). */
  inAppOnly?: boolean;
}

const isMessage = (t: Notification['text']): t is Message => typeof t === 'object' && t !== null && typeof (t as Message).key === 'string';

/** The stored English of a notification, and its words as JSON (null without `text`). */
function stored(n: Notification) {
  const title = n.title ?? NOTIFICATION_TEMPLATES[n.type].subject.en;
  const message = n.message ?? (isMessage(n.text) ? renderText(n.text, 'en') : title);
  const text = n.text === undefined ? null : isMessage(n.text) ? JSON.stringify(n.text) : n.text;
  return { title, message, text };
}

/** Rows per multi-row insert: 6 bound columns each, under D1's 100 parameters per statement. */
const ROWS_PER_INSERT = 10;

const isPlain = (n: Notification) =>
  typeof n.userId === 'number' && typeof stored(n).message === 'string' && (n.createdAt === undefined || typeof n.createdAt === 'string') && (n.text === undefined || isMessage(n.text));

/**
 * The statements that write `items`: only if `guard` holds when the batch reaches them (a state
 * change this batch made, a ledger entry it posted); always when no guard is given. With
 * `source`, the guard and the values may read that table's columns (the reservation's sender,
 * its number).
 */
export function notify(db: Db, items: Notification | readonly Notification[], guard?: SQL, source?: SQLiteTable): Statement[] {
  const list = Array.isArray(items) ? (items as readonly Notification[]) : [items as Notification];
  if (list.length === 0) return [];
  return [...notificationRows(db, list, guard, source), ...list.filter((n) => !n.inAppOnly).flatMap((n) => deliveriesOf(db, n, guard, source))];
}

/** The outgoing messages of a notification (e-mail, push, SMS), under the same guard, and any `also` in the same insert. */
const deliveriesOf = (db: Db, n: Notification, guard?: SQL, source?: SQLiteTable, also: readonly TransactionalMessage[] = []) => {
  const { title, message, text } = stored(n);
  const own = n.inAppOnly ? [] : userDeliveryRows(db, { userId: n.userId, template: n.type, payload: { title, message, data: n.data, text } }, guard);
  return [deliveriesInsert(db, [...own, ...transactionalRows(also, guard)], source)];
};

/**
 * notify() for one notification inside a compiled batch (db/statements.ts `compiled`): the
 * notification and its deliveries (one statement) each compiled once, bound per call. `alsoDeliver`
 * adds other messages of the same change (the recipient's link at deposit) to that deliveries
 * statement, under the same guard: one statement, not one more.
 */
export function compiledNotify<V extends Record<string, unknown>>(
  build: (db: Db, p: Placeholders<V>) => { item: Notification; guard?: SQL; source?: SQLiteTable; alsoDeliver?: readonly TransactionalMessage[] },
  /** In-app only: no deliveries statement at all. */
  options: { inAppOnly?: boolean } = {},
) {
  const notification = compiled((db, p: Placeholders<V>) => {
    const { item, guard, source } = build(db, p);
    return notificationRows(db, [item], guard, source)[0];
  });
  const delivery = compiled((db, p: Placeholders<V>) => {
    const { item, guard, source, alsoDeliver } = build(db, p);
    return deliveriesOf(db, item, guard, source, alsoDeliver)[0];
  });
  // A compiled statement is a new object per call: the enqueue-on-commit mark is set on each.
  return (db: Db, values: V): Statement[] => (options.inAppOnly ? [notification(db, values)] : [notification(db, values), enqueuedOnCommit(delivery(db, values))]);
}

function notificationRows(db: Db, list: readonly Notification[], guard?: SQL, source?: SQLiteTable): Statement[] {
  if (!guard && !source && list.every(isPlain)) {
    const statements: Statement[] = [];
    for (let i = 0; i < list.length; i += ROWS_PER_INSERT) {
      const rows = list.slice(i, i + ROWS_PER_INSERT).map((n) => ({
        userId: n.userId as number,
        type: n.type,
        ...stored(n),
        message: stored(n).message as string,
        text: isMessage(n.text) ? n.text : null,
        data: (n.data ?? null) as Record<string, unknown> | null,
        ...(n.createdAt ? { createdAt: n.createdAt as string } : {}),
      }));
      statements.push(db.insert(notifications).values(rows));
    }
    return statements;
  }
  return list.map((n) => {
    const { title, message, text } = stored(n);
    return guardedInsert(db, notifications, { userId: n.userId, type: n.type, title, message, text: typeof text === 'string' ? sql`${text}` : text, data: n.data ?? null, createdAt: n.createdAt }, source, guard);
  });
}
