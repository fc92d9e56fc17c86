// What deleting an account erases besides the profile (CONTRACT section 24, GDPR article 17):
// devices and push tokens, alerts, preferences, notifications and their deliveries, uploads and
// KYC documents (R2 and rows), the user's message bodies, the recipients' details of the user's
// reservations and offers, past exports. Money records, invoices, reviews' ratings and the rows others'
// records point to stay, pseudonymised by the profile's placeholders (users.service deleteAccount).
import { and, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  conversations,
  dataExports,
  disputeMessages,
  deliveries,
  devices,
  files,
  kycRecords,
  notificationPreferences,
  notifications,
  offers,
  reservations,
  searchAlerts,
} from '../../db/schema';
import type { Statement } from '../../db/statements';
import type { Deps } from '../../env';
import { conversationObject } from '../conversations/conversations.service';
import { deleteFiles, ERASED_LAST_MESSAGE, ERASED_RECIPIENT } from './retention';
import { textReadBy } from '../deliveries/notify';
import type { Localized } from '../../messages';

/**
 * The work outside D1 first (R2 objects, the user's bodies in each conversation object, the
 * uploads' rows): each is harmless to repeat, so a failure before the account's batch leaves an
 * account that can be deleted again. Returns the statements for the account's deletion batch.
 */
/** How a notice names an erased author, in each language. */
const ERASED_AUTHOR: Localized = { en: 'A deleted user', fr: 'Un utilisateur supprimé' };
const erasedAuthorNotice = textReadBy('notice.newMessage', { name: sql`${ERASED_AUTHOR.en}`, number: sql`json_extract(${notifications.data}, '$.reservationNumber')` });

export async function eraseAccountData(deps: Deps, userId: number): Promise<Statement[]> {
  const { db, env } = deps;
  // Agency documents belong to the agency (its owner cannot delete the account while it exists).
  const uploads = await db
    .select({ id: files.id, storageKey: files.storageKey })
    .from(files)
    .where(and(eq(files.ownerId, userId), ne(files.purpose, 'AGENCY_DOCUMENT')));
  await deleteFiles(deps, uploads, env);
  const archives = await db.select({ storageKey: dataExports.storageKey }).from(dataExports).where(eq(dataExports.userId, userId));
  const archiveKeys = archives.flatMap((a) => (a.storageKey ? [a.storageKey] : []));
  if (archiveKeys.length > 0) await env.UPLOADS.delete(archiveKeys);
  // Only the conversations that exist (have an index row) are woken: one statement finds them.
  const ownReservations = db
    .select({ id: reservations.id })
    .from(reservations)
    .where(or(eq(reservations.senderId, userId), eq(reservations.carrierId, userId)));
  const talked = await db.select({ id: conversations.reservationId }).from(conversations).where(inArray(conversations.reservationId, ownReservations));
  for (const { id } of talked) await conversationObject(env, id).eraseBodies(userId);
  return [
    db
      .update(conversations)
      .set({ lastMessage: ERASED_LAST_MESSAGE })
      .where(and(inArray(conversations.reservationId, ownReservations), sql`json_extract(${conversations.lastMessage}, '$.authorId') = ${userId}`)),
    db.update(disputeMessages).set({ body: '' }).where(eq(disputeMessages.authorId, userId)),
    // The notices others received of the user's messages no longer name them (CONTRACT 26).
    db
      .update(notifications)
      .set({ text: sql`json_set(${notifications.text}, '$.params.name', json(${JSON.stringify(ERASED_AUTHOR)}))`, message: erasedAuthorNotice.english as SQL })
      .where(and(eq(notifications.type, 'NEW_MESSAGE'), sql`json_extract(${notifications.data}, '$.authorId') = ${userId}`)),
    db.delete(devices).where(eq(devices.userId, userId)),
    db.delete(searchAlerts).where(eq(searchAlerts.userId, userId)),
    db.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId)),
    db.delete(notifications).where(eq(notifications.userId, userId)),
    db.delete(deliveries).where(eq(deliveries.userId, userId)),
    db.delete(dataExports).where(eq(dataExports.userId, userId)),
    // The record of the decision stays (who was verified when); the provider's session credential goes.
    db.update(kycRecords).set({ kycSessionToken: null, rejectionReason: null }).where(eq(kycRecords.userId, userId)),
    // The people the user sent parcels to: their name, address and contacts.
    db.update(reservations).set({ recipient: ERASED_RECIPIENT, contentInfo: null }).where(eq(reservations.senderId, userId)),
    // The same in the user's offers (CONTRACT 22), and an open one is withdrawn: nobody can accept it any more.
    db
      .update(offers)
      .set({
        details: sql`json_set(${offers.details}, '$.recipient', json(${JSON.stringify(ERASED_RECIPIENT)}), '$.contentInfo', NULL)`,
        message: null,
        status: sql`CASE WHEN ${offers.status} IN ('PENDING', 'COUNTERED') THEN 'WITHDRAWN' ELSE ${offers.status} END`,
      })
      .where(eq(offers.senderId, userId)),
  ];
}
