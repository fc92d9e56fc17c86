// The caller's notification preferences (CONTRACT section 16): one row per notification kind with
// its channels, the defaults where the user chose nothing. A choice equal to the defaults is not
// stored (the row is removed), so the defaults can change for everyone who never chose.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { notificationPreferences, users, type Locale } from '../../db/schema';
import { runBatch, type Statement } from '../../db/statements';
import type { Db } from '../../db/client';
import type { Deps } from '../../env';
import { notFound } from '../../errors';
import { NOTIFICATION_KINDS, type NotificationKind } from './notify';

/** Rows per upsert: 5 bound values each, under D1's 100 parameters a statement. */
const PREFERENCE_ROWS_PER_INSERT = 19;
import { defaultChannels, type ChannelChoice } from './preferences.rules';

export interface KindChannels extends ChannelChoice {
  kind: NotificationKind;
}

export interface NotificationPreferences {
  locale: Locale;
  channels: KindChannels[];
}

/** The two reads of the preferences (the locale, the stored choices), for a batch. */
const preferenceReads = (db: Db, userId: number) =>
  [
    db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)),
    db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)),
  ] as const;

type PreferenceRows = readonly [{ locale: Locale }[], (typeof notificationPreferences.$inferSelect)[]];

function toPreferences(userId: number, [[user], stored]: PreferenceRows): NotificationPreferences {
  if (!user) throw notFound('User', userId);
  const chosen = new Map(stored.map((row) => [row.kind, row]));
  return {
    locale: user.locale,
    channels: NOTIFICATION_KINDS.map((kind) => {
      const { email, push, sms } = chosen.get(kind) ?? defaultChannels(kind);
      return { kind, email, push, sms };
    }),
  };
}

export async function getPreferences(deps: Deps, userId: number): Promise<NotificationPreferences> {
  return toPreferences(userId, await deps.db.batch(preferenceReads(deps.db, userId)));
}

const isDefault = (row: KindChannels) => {
  const d = defaultChannels(row.kind);
  return row.email === d.email && row.push === d.push && row.sms === d.sms;
};

/** Sets the locale (when given) and the channels of each kind listed; the kinds not listed keep their choice. One batch, read back included. */
export async function putPreferences(deps: Deps, userId: number, input: { locale?: Locale; channels: KindChannels[] }): Promise<NotificationPreferences> {
  const { db } = deps;
  const statements: Statement[] = [];
  if (input.locale) statements.push(db.update(users).set({ locale: input.locale }).where(eq(users.id, userId)));
  const back = input.channels.filter(isDefault).map((row) => row.kind);
  if (back.length > 0) statements.push(db.delete(notificationPreferences).where(and(eq(notificationPreferences.userId, userId), inArray(notificationPreferences.kind, back))));
  // 5 bound values a row (user, kind, e-mail, push, SMS): D1 allows 100 parameters a statement.
  const chosen = input.channels.filter((row) => !isDefault(row));
  for (let i = 0; i < chosen.length; i += PREFERENCE_ROWS_PER_INSERT) {
    statements.push(
      db
        .insert(notificationPreferences)
        .values(chosen.slice(i, i + PREFERENCE_ROWS_PER_INSERT).map(({ kind, email, push, sms }) => ({ userId, kind, email, push, sms })))
        .onConflictDoUpdate({
          target: [notificationPreferences.userId, notificationPreferences.kind],
          set: { email: sql`excluded.email`, push: sql`excluded.push`, sms: sql`excluded.sms`, updatedAt: sql`excluded.updated_at` },
        }),
    );
  }
  // The preferences are read back in the same batch, after the writes: one round trip.
  const results = await runBatch(db, [...statements, ...preferenceReads(db, userId)]);
  return toPreferences(userId, results.slice(-2) as unknown as PreferenceRows);
}
