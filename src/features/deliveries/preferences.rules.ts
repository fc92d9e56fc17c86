// Which channels a notification kind goes out on (CONTRACT section 16): e-mail and push on by
// default, SMS only for the handover steps; a user's choice is a notification_preferences row,
// stored only once it differs from these defaults. Security messages and the recipient's link
// are not notifications and ignore all this.
import { sql, type Column, type SQL } from 'drizzle-orm';

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
 * SQL that holds when the addressee wants `kind` on `channel`: their stored choice (`choice`, their
 * notification_preferences row for the kind, joined where there is one), the default otherwise.
 */
export function wantsChannel(choice: Record<PreferenceChannel, Column>, kind: string, channel: PreferenceChannel): SQL {
  return sql`coalesce(${choice[channel]}, ${sql.raw(defaultChannels(kind)[channel] ? '1' : '0')}) = 1`;
}
