// In-app notifications.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';
import { users } from './users';

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** e.g. RESERVATION_CREATED, RESERVATION_PAID, PARCEL_DEPOSITED, ALERT_MATCH, KYC_APPROVED. */
    type: text('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    /** Small JSON payload the app uses to navigate (reservationId, announcementId...). */
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The words as a message key with its values (lib/message-text.ts), rendered in the reader's language; null before 0050. */
    text: text('text', { mode: 'json' }).$type<{ key: string; params?: Record<string, unknown> }>(),
    readAt: text('read_at'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt), index('notifications_user_unread_idx').on(t.userId, t.readAt)],
);

export type NotificationRow = typeof notifications.$inferSelect;
