// The recipient's link (CONTRACT section 16): the person a parcel is for has no account; when the
// reservation is confirmed, and again when the parcel is deposited, they receive the public page
// link (section 8) by e-mail when the reservation names their address, in the sender's locale.
// The statement reads everything from the reservation itself, so it needs no read first and sits
// in the transition's batch under the transition's guard. (By SMS once that channel exists.)
import { and, eq, isNotNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reservations, users } from '../../db/schema';
import type { Statement } from '../../db/statements';
import { transactionalStatement } from './outbox';

export type RecipientStep = 'CONFIRMED' | 'DEPOSITED';

const recipientEmail = sql`json_extract(${reservations.recipient}, '$.email')`;

/** The recipient's e-mail of reservation `id` at `step`, written only if `guard` holds and there is an address. */
export function recipientLinkMessage(db: Db, id: number | Placeholder, step: RecipientStep, guard: SQL): Statement {
  const sender = (column: typeof users.firstName | typeof users.locale) => sql`(SELECT ${column} FROM ${users} WHERE ${users.id} = ${reservations.senderId})`;
  return transactionalStatement(
    db,
    {
      userId: null,
      to: sql`lower(trim(${recipientEmail}))`,
      template: 'RECIPIENT_LINK',
      locale: sql`COALESCE(${sender(users.locale)}, 'fr')`,
      payload: sql`json_object('recipientName', json_extract(${reservations.recipient}, '$.firstName'), 'senderName', ${sender(users.firstName)}, 'reservationNumber', ${reservations.reservationNumber}, 'path', '/r/' || ${reservations.recipientToken}, 'step', ${step})`,
    },
    and(eq(reservations.id, id), guard, isNotNull(recipientEmail), sql`trim(${recipientEmail}) <> ''`),
    reservations,
  );
}
