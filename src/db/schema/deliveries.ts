// The transactional outbox (CONTRACT section 16): every message that leaves the platform (e-mail,
// push, SMS) is a `deliveries` row written in the D1 batch of the change it reports, then sent by
// the queue consumer. `outbox_messages` is what the sandboxes "sent" (the development outbox).
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';
import { users } from './users';

// WEBHOOK: the operators' alert webhook (ALERT_WEBHOOK_URL, a Slack-compatible JSON POST).
export const DELIVERY_CHANNELS = ['EMAIL', 'PUSH', 'SMS', 'WEBHOOK'] as const;
export const DELIVERY_STATUSES = ['QUEUED', 'SENT', 'FAILED', 'DEAD'] as const;
export const LOCALES = ['fr', 'en'] as const;

export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type Locale = (typeof LOCALES)[number];

export const deliveries = sqliteTable(
  'deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The account it is for; null for the recipient of a parcel, who has none. */
    userId: integer('user_id').references(() => users.id),
    channel: text('channel', { enum: DELIVERY_CHANNELS }).notNull(),
    /** E-mail address, device token or phone number. */
    to: text('to').notNull(),
    /** A notification kind (RESERVATION_CONFIRMED...) or a transactional message (EMAIL_VERIFICATION...). */
    template: text('template').notNull(),
    locale: text('locale', { enum: LOCALES }).notNull().default('fr'),
    /** What the template needs (links as root paths, names, numbers); rendered by the consumer. */
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    createdAt: createdAt(),
    sentAt: text('sent_at'),
  },
  (t) => [
    // The sweep (QUEUED older than 5 minutes) and the operators' filters.
    index('deliveries_status_created_idx').on(t.status, t.createdAt),
    index('deliveries_user_idx').on(t.userId, t.createdAt),
    // An incident's alerts by their template (features/watchdog/incidents.ts).
    index('deliveries_template_created_idx').on(t.template, t.createdAt),
  ],
);

export interface OutboxAttachment {
  filename: string;
  type: string;
  size: number;
}

/** What a sandbox provider "sent": the rendered message, read by the development outbox. */
export const outboxMessages = sqliteTable(
  'outbox_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: integer('delivery_id').notNull(),
    channel: text('channel', { enum: DELIVERY_CHANNELS }).notNull(),
    to: text('to').notNull(),
    template: text('template').notNull(),
    locale: text('locale', { enum: LOCALES }).notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    /** JSON array of the absolute links the message carries. */
    links: text('links', { mode: 'json' }).$type<string[]>().notNull(),
    /** The message headers (List-Unsubscribe...), as a JSON object. */
    headers: text('headers', { mode: 'json' }).$type<Record<string, string>>(),
    /** What was attached (name, MIME type, size in bytes; not the content), as a JSON array. */
    attachments: text('attachments', { mode: 'json' }).$type<OutboxAttachment[]>(),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_messages_to_idx').on(t.to, t.id), index('outbox_messages_channel_idx').on(t.channel, t.id)],
);

export type DeliveryRow = typeof deliveries.$inferSelect;
export type OutboxMessageRow = typeof outboxMessages.$inferSelect;

/**
 * A user's choice of channels for one notification kind, stored only once it differs from the
 * defaults (e-mail and push on; SMS only for handover steps). Security messages ignore it.
 */
export const notificationPreferences = sqliteTable(
  'notification_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    email: integer('email', { mode: 'boolean' }).notNull(),
    push: integer('push', { mode: 'boolean' }).notNull(),
    sms: integer('sms', { mode: 'boolean' }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
