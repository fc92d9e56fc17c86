// The recipient's link (CONTRACT section 16): the person a parcel is for has no account; when the
// reservation is confirmed, and again when the parcel is deposited, they receive the public page
// link (section 8) by e-mail when the reservation names their address and by SMS when it names
// an international phone number, in the locale of recipient.rules.ts. The statements read
// everything from the reservation itself, so they need no read first and sit in the transition's
// batch under the transition's guard.
import { and, eq, isNotNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { announcements, reservations, users } from '../../db/schema';
import type { Statement } from '../../db/statements';
import { compactPhone, isE164, transactionalStatement } from './outbox';
import { ENGLISH_COUNTRIES, FRENCH_COUNTRIES } from './recipient.rules';

export type RecipientStep = 'CONFIRMED' | 'DEPOSITED';
export type RecipientChannel = 'EMAIL' | 'SMS';

const recipientEmail = sql`json_extract(${reservations.recipient}, '$.email')`;
const recipientPhone = compactPhone(sql`json_extract(${reservations.recipient}, '$.phone')`);

/** A constant list of country codes as SQL literals (no bound parameters: D1 allows 100 a statement). */
const codes = (list: readonly string[]) => {
  if (!list.every((c) => /^[A-Z]{2}$/.test(c))) throw new Error('country codes are two capital letters');
  return sql.raw(list.map((c) => `'${c}'`).join(', '));
};

/** recipientLocale() (recipient.rules.ts) in SQL: the trip's arrival country, else the sender's locale. */
function recipientLocaleSql(): SQL {
  const country = sql`(SELECT upper(${announcements.arrivalCountry}) FROM ${announcements} WHERE ${announcements.id} = ${reservations.announcementId})`;
  const senderLocale = sql`COALESCE((SELECT ${users.locale} FROM ${users} WHERE ${users.id} = ${reservations.senderId}), 'fr')`;
  return sql`CASE WHEN ${country} IN (${codes(FRENCH_COUNTRIES)}) THEN 'fr' WHEN ${country} IN (${codes(ENGLISH_COUNTRIES)}) THEN 'en' ELSE ${senderLocale} END`;
}

const ADDRESS: Record<RecipientChannel, { to: SQL; present: SQL }> = {
  EMAIL: { to: sql`lower(trim(${recipientEmail}))`, present: and(isNotNull(recipientEmail), sql`trim(${recipientEmail}) <> ''`)! },
  SMS: { to: recipientPhone, present: isE164(recipientPhone) },
};

const CHANNELS = ['EMAIL', 'SMS'] as const satisfies readonly RecipientChannel[];

/**
 * The recipient's e-mail and SMS of reservation `id` at `step`, in one statement: each row written
 * only if `guard` holds and its address is there.
 */
export function recipientLinkMessages(db: Db, id: number | Placeholder, step: RecipientStep, guard: SQL): Statement {
  const senderName = sql`(SELECT ${users.firstName} FROM ${users} WHERE ${users.id} = ${reservations.senderId})`;
  const payload = sql`json_object('recipientName', json_extract(${reservations.recipient}, '$.firstName'), 'senderName', ${senderName}, 'reservationNumber', ${reservations.reservationNumber}, 'path', '/r/' || ${reservations.recipientToken}, 'step', ${step})`;
  return transactionalStatement(
    db,
    CHANNELS.map((channel) => ({
      userId: null,
      channel,
      to: ADDRESS[channel].to,
      template: 'RECIPIENT_LINK' as const,
      locale: recipientLocaleSql(),
      payload,
      when: ADDRESS[channel].present,
    })),
    and(eq(reservations.id, id), guard),
    reservations,
  );
}
