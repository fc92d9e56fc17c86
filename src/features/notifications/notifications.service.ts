// In-app notifications of the caller: list, unread count, mark read, delete. Owner only.
import { and, count, eq, getTableColumns, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { compiled, runAlone, compiledShapes, pageTotal, withTotal, type Placeholders } from '../../db/statements';
import { notifications, type Locale, type NotificationRow } from '../../db/schema';
import type { NotificationKind } from '../deliveries/notify';
import { isNotificationKind, notificationLine } from '../deliveries/templates/notifications';
import type { AuthUser, Deps } from '../../env';
import { notFound } from '../../errors';
import { offsetOf, orderBy, toPage, type PageParams, type SortSpec } from '../../lib/pagination';
import { assertCanAccess } from '../../access/ownership';

/**
 * A notification as the API answers it, in `locale`: from its words (message key and values) when
 * it has them, else its stored English, or French from its kind and data; the words its e-mail,
 * push and SMS use (deliveries/templates/notifications.ts).
 */
export function toNotification(row: NotificationRow, locale: Locale) {
  const { title, message } = isNotificationKind(row.type) && (locale === 'fr' || row.text) ? lineOf(row.type, row, locale) : row;
  return {
    id: row.id,
    // Only notify() writes rows, with a kind of NOTIFICATION_KINDS.
    type: row.type as NotificationKind,
    title,
    message,
    data: row.data ?? null,
    read: row.readAt !== null,
    readAt: row.readAt,
    createdAt: row.createdAt,
  };
}

function lineOf(kind: NotificationKind, row: NotificationRow, locale: Locale) {
  const { subject, line } = notificationLine(kind, locale, { message: row.message, data: row.data ?? {}, text: row.text });
  return { title: subject, message: line };
}

/** What a page of notifications binds. */
type PageValues = { userId: number; limit: number; offset: number };

/** The page (with its total) and the count alone of a user's notifications, compiled once per filter (all, unread) and sort. */
const notificationPage = compiledShapes(({ unreadOnly, field, direction }: { unreadOnly: boolean; field: 'createdAt'; direction: 'asc' | 'desc' }) => {
  const sort: SortSpec<'createdAt'> = { field, direction };
  const where = (p: Placeholders<PageValues>) => and(eq(notifications.userId, p.userId), unreadOnly ? isNull(notifications.readAt) : undefined);
  const total = (db: Db, p: Placeholders<PageValues>) => db.select({ total: count() }).from(notifications).where(where(p));
  return {
    // The page carries its total (withTotal): one statement.
    rows: compiled((db, p: Placeholders<PageValues>) =>
      db
        .select(withTotal(getTableColumns(notifications), total(db, p)))
        .from(notifications)
        .where(where(p))
        .orderBy(...orderBy(sort, { createdAt: notifications.createdAt }, notifications.id))
        .limit(p.limit)
        .offset(p.offset),
    ),
    total: compiled(total),
  };
});

export async function listNotifications(deps: Deps, auth: AuthUser, p: PageParams<'createdAt'> & { unreadOnly?: boolean }, locale: Locale) {
  const { db } = deps;
  const page = notificationPage({ unreadOnly: Boolean(p.unreadOnly), field: p.sort.field, direction: p.sort.direction });
  const values = { userId: auth.id, limit: p.size, offset: offsetOf(p) };
  const rows = await runAlone(page.rows(db, values));
  const n = await pageTotal(db, rows, values.offset, () => page.total(db, values));
  return toPage(
    rows.map((row) => toNotification(row, locale)),
    n,
    p,
  );
}

export async function unreadCount(deps: Deps, auth: AuthUser) {
  const { db } = deps;
  const [{ n }] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, auth.id), isNull(notifications.readAt)));
  return { count: n };
}

/** Other users' notifications are 403 (ACCESS_DENIED), unknown ones 404; admins get no exception. */
async function loadOwned(db: Db, auth: AuthUser, id: number) {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  if (!row) throw notFound('Notification', id);
  assertCanAccess(auth, [row.userId], []);
  return row;
}

export async function markRead(deps: Deps, auth: AuthUser, id: number, locale: Locale) {
  const { db } = deps;
  const row = await loadOwned(db, auth, id);
  if (row.readAt) return toNotification(row, locale); // already read: keep the first read time
  const [updated] = await db
    .update(notifications)
    .set({ readAt: new Date().toISOString() })
    .where(and(eq(notifications.id, id), isNull(notifications.readAt)))
    .returning();
  return toNotification(updated ?? (await loadOwned(db, auth, id)), locale);
}

export async function markAllRead(deps: Deps, auth: AuthUser) {
  const { db } = deps;
  const updated = await db
    .update(notifications)
    .set({ readAt: new Date().toISOString() })
    .where(and(eq(notifications.userId, auth.id), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { updated: updated.length };
}

export async function deleteNotification(deps: Deps, auth: AuthUser, id: number) {
  const { db } = deps;
  await loadOwned(db, auth, id);
  await db.delete(notifications).where(eq(notifications.id, id));
}
