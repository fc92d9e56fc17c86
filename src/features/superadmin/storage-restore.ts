// Restoring a reservation's conversation or tracking storage to a point in time (CONTRACT section
// 27; docs/OPERATIONS.md, "Conversations and tracking"): a super-admin names the object and the
// instant (or a bookmark, to undo a restore); the object restores on its next session. Audited with
// the bookmark that undoes it.
import { eq } from 'drizzle-orm';
import { reservations } from '../../db/schema';
import type { Deps } from '../../env';
import { invalidState, notFound } from '../../errors';
import { audit } from '../audit/audit';
import { conversationObject } from '../conversations/conversations.service';
import { trackingObject } from '../tracking/tracking.service';
import { RESTORE_ABORT } from '../../durable-objects/point-in-time';

export const RESTORABLE_OBJECTS = ['CONVERSATION', 'TRACKING'] as const;
export type RestorableObject = (typeof RESTORABLE_OBJECTS)[number];
/** Cloudflare keeps 30 days of each object's history. */
export const RESTORE_WINDOW_DAYS = 30;

export type RestoreTarget = { at: number } | { bookmark: string };

const objectOf = (env: Env, object: RestorableObject, reservationId: number) =>
  object === 'CONVERSATION' ? conversationObject(env, reservationId) : trackingObject(env, reservationId);

const NOT_HERE = /does not implement point-in-time recovery/;

export async function restoreReservationStorage(deps: Deps, operatorId: number, reservationId: number, object: RestorableObject, target: RestoreTarget, ip: string | null) {
  const [found] = await deps.db.select({ id: reservations.id }).from(reservations).where(eq(reservations.id, reservationId));
  if (!found) throw notFound('Reservation', reservationId);
  const stub = objectOf(deps.env, object, reservationId);
  let bookmarks: { bookmark: string; undoBookmark: string };
  try {
    bookmarks = await stub.storageBookmarks(target);
  } catch (err) {
    if (NOT_HERE.test(String(err))) throw invalidState('operations.pointInTimeUnavailable');
    throw err;
  }
  // The object ends its session to restore: its call ends with that abort, and only that is success.
  try {
    await stub.restoreStorage(bookmarks.bookmark);
  } catch (err) {
    if (!String(err).includes(RESTORE_ABORT)) throw err;
  }
  const restoredTo = 'at' in target ? new Date(target.at).toISOString() : null;
  await audit(deps, {
    actorId: operatorId,
    action: 'DURABLE_OBJECT_RESTORED',
    targetType: 'RESERVATION',
    targetId: reservationId,
    ip,
    details: { object, restoredTo, bookmark: bookmarks.bookmark, undoBookmark: bookmarks.undoBookmark },
  });
  return { reservationId, object, restoredTo, bookmark: bookmarks.bookmark, undoBookmark: bookmarks.undoBookmark };
}
