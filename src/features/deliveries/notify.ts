// The one notification writer. A notification is never written on its own: notify() returns the
// statements to put in the D1 batch that makes the change it reports, so a lost race or a refused
// write leaves no notification, and a committed change always has its notification. The same
// statements write the notification's outgoing e-mail, push and SMS (the transactional outbox,
// deliveries/), each only where the user wants that kind on that channel and can be reached by it.
import type { Column, Placeholder, SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import { compiled, guardedInsert, type Placeholders, type Statement } from '../../db/statements';
import { deliveriesInsert, enqueuedOnCommit, transactionalRows, userDeliveryRows, type TransactionalMessage } from './outbox';

/**
 * Every kind of notification. Each has an e-mail template in every locale
 * (deliveries/templates): a kind added here without one fails the typecheck and the tests.
 */
export const NOTIFICATION_KINDS = [
  'RESERVATION_CREATED',
  'RESERVATION_PAID',
  'RESERVATION_CONFIRMED',
  'RESERVATION_REJECTED',
  'RESERVATION_CANCELLED',
  'RESERVATION_EXPIRED',
  'RESERVATION_DEPOSITED',
  'RESERVATION_IN_TRANSIT',
  'RESERVATION_DELIVERED',
  'TRIP_CHANGED',
  'TRIP_REMOVED',
  'PAYMENT_AUTHORIZED',
  'PAYMENT_FAILED',
  'PAYMENT_REFUNDED',
  'PAYMENT_PARTIALLY_CAPTURED',
  'PAYMENT_RELEASED',
  'FUNDS_RELEASED',
  'WITHDRAWAL_COMPLETED',
  'WITHDRAWAL_FAILED',
  'KYC_APPROVED',
  'KYC_REJECTED',
  'KYC_REVOKED',
  'DISPUTE_OPENED',
  'DISPUTE_MESSAGE',
  'DISPUTE_RESOLVED',
  'ALERT_MATCH',
  'REPORT_CLOSED',
  'AGENCY_EMPLOYEE_ADDED',
  'AGENCY_INVITATION',
  'AGENCY_EMPLOYEE_REMOVED',
  'AGENCY_DOCUMENT_APPROVED',
  'AGENCY_DOCUMENT_REJECTED',
  'AGENCY_ACTIVATED',
  'AGENCY_SUSPENDED',
  'NEW_MESSAGE',
  'TRAVEL_PROOF_APPROVED',
  'TRAVEL_PROOF_REJECTED',
  'OFFER_RECEIVED',
  'OFFER_COUNTERED',
  'OFFER_ACCEPTED',
  'OFFER_DECLINED',
  'OFFER_WITHDRAWN',
  'OFFER_EXPIRED',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * The data naming a reservation in a notification: its id for the app to open, its number for the
 * person reading (the French texts, the e-mail and the push name it by number).
 */
export const reservationRef = (r: { id: number; reservationNumber: string }) => ({ reservationId: r.id, reservationNumber: r.reservationNumber });

export interface Notification {
  /** A user id, or a column of `source` (the reservation's sender), or a compiled statement's placeholder. */
  userId: number | SQL | Column | Placeholder;
  type: NotificationKind;
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
  return [...notificationRows(db, list, guard, source), ...list.flatMap((n) => deliveriesOf(db, n, guard, source))];
}

/** The outgoing messages of a notification (e-mail, push, SMS), under the same guard, and any `also` in the same insert. */
const deliveriesOf = (db: Db, n: Notification, guard?: SQL, source?: SQLiteTable, also: readonly TransactionalMessage[] = []) => [
  deliveriesInsert(
    db,
    [...userDeliveryRows(db, { userId: n.userId, template: n.type, payload: { title: n.title, message: n.message, data: n.data } }, guard), ...transactionalRows(also, guard)],
    source,
  ),
];

/**
 * notify() for one notification inside a compiled batch (db/statements.ts `compiled`): the
 * notification and its deliveries (one statement) each compiled once, bound per call. `alsoDeliver`
 * adds other messages of the same change (the recipient's link at deposit) to that deliveries
 * statement, under the same guard: one statement, not one more.
 */
export function compiledNotify<V extends Record<string, unknown>>(
  build: (db: Db, p: Placeholders<V>) => { item: Notification; guard?: SQL; source?: SQLiteTable; alsoDeliver?: readonly TransactionalMessage[] },
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
  return (db: Db, values: V): Statement[] => [notification(db, values), enqueuedOnCommit(delivery(db, values))];
}

function notificationRows(db: Db, list: readonly Notification[], guard?: SQL, source?: SQLiteTable): Statement[] {
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
