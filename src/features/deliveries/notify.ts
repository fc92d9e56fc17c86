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
import { isMessageKey, render, type Message, type MessageKey } from '../../messages';
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

/**
 * Words read by the statement itself (a compiled statement's placeholders, a column of `source`):
 * the message key with its values as JSON, and its English beside it. Built by `textReadBy`, or
 * bound from a Message rendered before (create-booking.ts).
 */
export interface BoundText {
  json: SQL | Placeholder;
  english: SQL | Placeholder;
}

export interface Notification {
  /** A user id, or a column of `source` (the reservation's sender), or a compiled statement's placeholder. */
  userId: number | SQL | Column | Placeholder;
  type: NotificationKind;
  /**
   * The words, always: a key of messages/notices.ts with its values (amounts as {minor, currency}).
   * The in-app notification, the e-mail, the push and the SMS all render it in the reader's
   * language; the stored title and message are its English (the kind's subject, the rendered
   * sentence), derived here, never written at the change: one source per wording.
   */
  text: Message | BoundText;
  data?: Record<string, unknown> | SQL | null;
  createdAt?: string | Placeholder;
  /** In-app only, no e-mail, push or SMS: news a person need not be sent (a carrier's unpaid booking). */
  inAppOnly?: boolean;
}

const isMessage = (t: Notification['text']): t is Message => typeof t === 'object' && t !== null && typeof (t as Message).key === 'string';

/** A notice's words with values read by the statement (`{number: reservations.reservationNumber}`): plain strings only. */
export function textReadBy(key: MessageKey, values: Readonly<Record<string, SQL | Column>>): BoundText {
  const names = Object.keys(values);
  const mark = (name: string) => `\u0000${name}\u0000`;
  const pieces = render({ key, params: Object.fromEntries(names.map((n) => [n, mark(n)])) }, 'en').split('\u0000');
  // Odd pieces are the slots' names, even ones the English between them.
  const english = sql.join(pieces.map((piece, i) => (i % 2 === 1 ? sql`${values[piece]}` : sql`${piece}`)), sql` || `);
  const params = sql.join(names.flatMap((n) => [sql`${n}`, sql`${values[n]}`]), sql`, `);
  return { json: sql`json_object('key', ${key}, 'params', json_object(${params}))`, english };
}

/** The stored English of a notification (its kind's subject, its rendered sentence), and its words as JSON. */
function stored(n: Notification): { title: string; message: string | SQL | Placeholder; text: string | SQL | Placeholder } {
  // notify() is the one writer: a notice without a message key is refused here as well as by the type.
  if (!n.text || (isMessage(n.text) ? !isMessageKey(n.text.key) : !n.text.json)) throw new Error(`A ${n.type} notice needs its words as a message key`);
  const title = NOTIFICATION_TEMPLATES[n.type].subject.en;
  return isMessage(n.text) ? { title, message: renderText(n.text, 'en'), text: JSON.stringify(n.text) } : { title, message: n.text.english, text: n.text.json };
}

/** Rows per multi-row insert: 6 bound columns each, under D1's 100 parameters per statement. */
const ROWS_PER_INSERT = 10;

const isPlain = (n: Notification) => typeof n.userId === 'number' && (n.createdAt === undefined || typeof n.createdAt === 'string') && isMessage(n.text);

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
        text: n.text as Message,
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
