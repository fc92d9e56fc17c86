// The devices the apps registered for push (CONTRACT section 16). A token belongs to one account
// at a time: registering it from another account moves it.
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { createdAt } from './columns';
import { users } from './users';

export const DEVICE_PLATFORMS = ['ANDROID', 'IOS', 'WEB'] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

export const devices = sqliteTable(
  'devices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The FCM registration token. */
    token: text('token').notNull(),
    platform: text('platform', { enum: DEVICE_PLATFORMS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('devices_token_unique').on(t.token),
    index('devices_user_idx').on(t.userId, t.createdAt),
    check('devices_platform', sql`${t.platform} IN ('ANDROID', 'IOS', 'WEB')`),
  ],
);

export type DeviceRow = typeof devices.$inferSelect;
