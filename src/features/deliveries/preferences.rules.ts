// Which channels a notification kind goes out on (CONTRACT section 16): e-mail and push on by
// default, SMS only for the handover steps; a user's choice is a notification_preferences row,
// stored only once it differs from these defaults. Security messages and the recipient's link
// are not notifications and ignore all this.
import { and, eq, not, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationPreferences } from '../../db/schema';
import { rowExists } from '../../db/statements';

/**
 * Kinds whose SMS is on by default: the two handover steps, when the parcel leaves the sender's
 * hands and when it reaches the recipient. In transit is not a handover (it is the carrier's
 * declaration, already followed by push); SMS costs money and is for what needs attention now.
 */
export const SMS_BY_DEFAULT: readonly string[] = ['RESERVATION_DEPOSITED', 'RESERVATION_DELIVERED'];

export type PreferenceChannel = 'email' | 'push' | 'sms';

export interface ChannelChoice {
  email: boolean;
  push: boolean;
  sms: boolean;
}

export const defaultChannels = (kind: string): ChannelChoice => ({ email: true, push: true, sms: SMS_BY_DEFAULT.includes(kind) });

/**
 * SQL that holds when `userId` wants `kind` on `channel`: the stored choice when there is one,
 * the default otherwise. The kind is known when the statement is built, so only one side is tested.
 */
export function wantsChannel(db: Db, userId: SQL, kind: string, channel: PreferenceChannel): SQL {
  const on = defaultChannels(kind)[channel];
  const chosen = (value: boolean) =>
    rowExists(db, notificationPreferences, and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.kind, kind), eq(notificationPreferences[channel], value)));
  return on ? not(chosen(false)) : chosen(true);
}
