// The recipient's link (CONTRACT section 16): the person a parcel is for has no account; when the
// reservation is confirmed, and again when the parcel is deposited, they receive the public page
// link (section 8) by e-mail when the reservation names their address and by SMS when it names
// an international phone number, in the recipient's language (below). The statements read
// everything from the reservation itself, so they need no read first and sit in the transition's
// batch under the transition's guard.
import { and, eq, isNotNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reservations, users } from '../../db/schema';
import type { Statement } from '../../db/statements';
import { compactPhone, isE164, transactionalMessage, type ChannelAddresses, type TransactionalMessage } from './outbox';

export type RecipientStep = 'CONFIRMED' | 'DEPOSITED';

const recipientEmail = sql`json_extract(${reservations.recipient}, '$.email')`;
const recipientPhone = compactPhone(sql`json_extract(${reservations.recipient}, '$.phone')`);

/** A constant list of country codes as SQL literals (no bound parameters: D1 allows 100 a statement). */
const codes = (list: readonly string[]) => {
  if (!list.every((c) => /^[A-Z]{2}$/.test(c))) throw new Error('country codes are two capital letters');
  return sql.raw(list.map((c) => `'${c}'`).join(', '));
};

/** Countries (ISO 3166-1 alpha-2) whose recipients read French: francophone Africa, the Maghreb, Europe, overseas France. */
export const FRENCH_COUNTRIES = [
  'FR', 'BE', 'LU', 'MC',
  'GP', 'MQ', 'GF', 'RE', 'YT', 'PM', 'BL', 'MF', 'NC', 'PF', 'WF',
  'SN', 'CI', 'ML', 'BF', 'NE', 'GN', 'BJ', 'TG', 'CM', 'GA', 'CG', 'CD', 'CF', 'TD', 'DJ', 'KM', 'MG', 'BI', 'HT',
  'MA', 'TN', 'DZ', 'MR',
] as const;

/** Countries whose recipients read English. */
export const ENGLISH_COUNTRIES = [
  'GB', 'IE', 'US', 'AU', 'NZ',
  'NG', 'GH', 'KE', 'ZA', 'UG', 'TZ', 'ZM', 'ZW', 'SL', 'LR', 'GM', 'BW', 'MW', 'NA',
] as const;

/**
 * The recipient's language, the one rule (computed by the statement itself, so it needs no read):
 * the recipient has no account, so no locale of their own. Their messages are in the sender's
 * locale unless the country the parcel goes to (the trip's arrival country, where the recipient
 * lives, as booked) says otherwise: French where French is the language of daily business, English where
 * English is, and the sender's choice anywhere else (neither language is local there, or both
 * are, as in Canada or Switzerland: the sender knows the recipient better than a country list does).
 */
function recipientLocaleSql(): SQL {
  // The reservation's own arrival country (its terms, CONTRACT section 19), as its recipient page reads it.
  const country = sql`upper(${reservations.arrivalCountry})`;
  const senderLocale = sql`COALESCE((SELECT ${users.locale} FROM ${users} WHERE ${users.id} = ${reservations.senderId}), 'fr')`;
  return sql`CASE WHEN ${country} IN (${codes(FRENCH_COUNTRIES)}) THEN 'fr' WHEN ${country} IN (${codes(ENGLISH_COUNTRIES)}) THEN 'en' ELSE ${senderLocale} END`;
}

/** The same rule for a page the recipient opens (the recipient page speaks the language of their SMS). */
export function recipientLocale(arrivalCountry: string, senderLocale: string | null | undefined): 'fr' | 'en' {
  const country = arrivalCountry.toUpperCase();
  if ((FRENCH_COUNTRIES as readonly string[]).includes(country)) return 'fr';
  if ((ENGLISH_COUNTRIES as readonly string[]).includes(country)) return 'en';
  return senderLocale === 'en' ? 'en' : 'fr';
}

/** Built once: the same SQL for every message. */
const RECIPIENT_LOCALE = recipientLocaleSql();

/** The recipient's address on each channel, and when it is there. */
const ADDRESSES: ChannelAddresses = {
  EMAIL: { to: sql`lower(trim(${recipientEmail}))`, present: and(isNotNull(recipientEmail), sql`trim(${recipientEmail}) <> ''`)! },
  SMS: { to: recipientPhone, present: isE164(recipientPhone) },
};

/**
 * The recipient's e-mail and SMS at `step` (read from the reservation of the statement they go in),
 * each only where its address is: for a deliveries insert shared with a notification's.
 */
export function recipientLinks(step: RecipientStep): TransactionalMessage {
  const senderName = sql`(SELECT ${users.firstName} FROM ${users} WHERE ${users.id} = ${reservations.senderId})`;
  const payload = sql`json_object('recipientName', json_extract(${reservations.recipient}, '$.firstName'), 'senderName', ${senderName}, 'reservationNumber', ${reservations.reservationNumber}, 'path', '/r/' || ${reservations.recipientToken}, 'step', ${step})`;
  return { userId: null, to: ADDRESSES, template: 'RECIPIENT_LINK', locale: RECIPIENT_LOCALE, payload };
}

/** The recipient's e-mail and SMS of reservation `id` at `step`, in one statement, written only if `guard` holds. */
export const recipientLinkMessages = (db: Db, id: number | Placeholder, step: RecipientStep, guard: SQL): Statement =>
  transactionalMessage(db, recipientLinks(step), and(eq(reservations.id, id), guard), reservations);
