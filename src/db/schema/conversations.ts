// The D1 index of conversations (CONTRACT section 17): one row per reservation whose conversation
// has changed, a projection of the conversation's Durable Object (which holds the messages) for the
// listing and the unread counts. docs/decisions-conversations.md says why the object is the truth.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { reservations } from './reservations';

/** The last message as the API shows it (a copy of the object's row). */
export interface IndexedMessage {
  id: number;
  reservationId: number;
  authorId: number;
  authorName: string;
  body: string;
  fileIds: number[];
  createdAt: string;
}

export const conversations = sqliteTable(
  'conversations',
  {
    reservationId: integer('reservation_id')
      .primaryKey()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    /** The object's change counter: an older projection never overwrites a newer one. */
    version: integer('version').notNull(),
    lastMessage: text('last_message', { mode: 'json' }).$type<IndexedMessage>(),
    /** Latest activity (the last message's time); null while nobody has written. */
    lastMessageAt: text('last_message_at'),
    senderUnread: integer('sender_unread').notNull().default(0),
    carrierUnread: integer('carrier_unread').notNull().default(0),
  },
  (t) => [index('conversations_last_message_idx').on(t.lastMessageAt)],
);

export type ConversationRow = typeof conversations.$inferSelect;
