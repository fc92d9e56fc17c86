// The retention rules of CONTRACT section 24, one function each: what is kept how long after
// what. Each takes `now` and a batch size and touches at most that many rows, so the daily job stays
// within D1's limits and a backlog drains over several runs; each is idempotent (a second run finds
// nothing left to do). docs/PRIVACY.md lists them with their purpose and legal basis.
import { and, eq, exists, inArray, isNotNull, isNull, lt, lte, ne, notExists, or, sql, type SQL } from 'drizzle-orm';
import {
  announcements,
  auditLogs,
  conversations,
  deliveries,
  disputeEvidence,
  disputeMessages,
  disputes,
  files,
  kycRecords,
  notifications,
  offers,
  phoneVerificationCodes,
  reservationErasures,
  reservations,
  travelProofs,
  type RecipientInfo,
  type ReservationStatus,
} from '../../db/schema';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Deps } from '../../env';
import { conversationObject } from '../conversations/conversations.service';
import { trackingObject } from '../tracking/tracking.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long each kind of data is kept, in days (docs/PRIVACY.md). */
export const RETENTION_DAYS = {
  readNotifications: 90,
  unreadNotifications: 365,
  deliveries: 90,
  /** After the reservation finished. */
  trackingPoints: 30,
  /** The recipient's details and the message bodies, after the reservation finished (no open dispute). */
  reservationPersonalData: 365,
  /** After the KYC decision; the record itself stays. */
  kycDocuments: 30,
  /** The recipient's details an offer carried, after it ended (an accepted one's reservation has its own copy). */
  offerRecipients: 30,
  /** A trip's proof of travel (ticket, boarding pass), after the trip's departure (not while a dispute on it is open). */
  travelProofs: 90,
  /** SMS codes (the number they went to), after they were sent: they live minutes, the limits read a day. */
  phoneCodes: 30,
  /** The IP address of an audit entry; the entry itself stays. */
  auditIps: 365,
} as const;

/** Rows (or reservations) one rule touches per run. */
export const RETENTION_BATCH = 200;

/** A reservation in these states is over: nothing more happens to it unless a dispute reopens it. */
export const FINISHED_STATUSES: readonly ReservationStatus[] = ['DELIVERED', 'CANCELLED', 'EXPIRED', 'REJECTED', 'REFUNDED'];

/** What the recipient's details become once erased: the column is required, the shape stays. */
export const ERASED_RECIPIENT: RecipientInfo = {
  firstName: 'Destinataire',
  lastName: 'supprimé',
  email: null,
  phone: null,
  address: null,
  city: null,
  postalCode: null,
  instructions: null,
};

/** The D1 index's copy of the last message, its body and attachments emptied as in the object. */
export const ERASED_LAST_MESSAGE = sql`json_set(json_set(${conversations.lastMessage}, '$.body', ''), '$.fileIds', json('[]'))`;

export const cutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/** When a finished reservation finished: its delivery, its cancellation, else its last change. */
export const finishedAt = sql<string>`coalesce(${reservations.deliveredAt}, ${reservations.cancelledAt}, ${reservations.updatedAt})`;

const finishedBefore = (before: string): SQL => and(inArray(reservations.status, [...FINISHED_STATUSES]), lt(finishedAt, before))!;

/** Read notifications 90 days after they were written, unread ones after a year. */
export async function purgeNotifications({ db }: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const due = or(
    and(isNotNull(notifications.readAt), lt(notifications.createdAt, cutoff(now, RETENTION_DAYS.readNotifications))),
    lt(notifications.createdAt, cutoff(now, RETENTION_DAYS.unreadNotifications)),
  );
  const ids = db.select({ id: notifications.id }).from(notifications).where(due).limit(limit);
  const result = await db.delete(notifications).where(inArray(notifications.id, ids));
  return result.meta.changes;
}

/** Delivery rows (addresses, payloads) 90 days after they were written, whatever became of them. */
export async function purgeDeliveries({ db }: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const ids = db.select({ id: deliveries.id }).from(deliveries).where(lt(deliveries.createdAt, cutoff(now, RETENTION_DAYS.deliveries))).limit(limit);
  const result = await db.delete(deliveries).where(inArray(deliveries.id, ids));
  return result.meta.changes;
}

/** The reservation has no erasure of this kind recorded yet. */
const notYetErased = (column: SQLiteColumn) =>
  notExists(
    sql`(SELECT 1 FROM ${reservationErasures} WHERE ${reservationErasures.reservationId} = ${reservations.id} AND ${column} IS NOT NULL)`,
  );

/** Tracking points (in each reservation's tracking object) 30 days after the reservation finished. */
export async function purgeTrackingPoints(deps: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const { db, env } = deps;
  // Only a deposited parcel was ever tracked: the others have no object worth waking.
  const due = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(finishedBefore(cutoff(now, RETENTION_DAYS.trackingPoints)), isNotNull(reservations.depositedAt), notYetErased(reservationErasures.trackingAt)))
    .limit(limit);
  const at = now.toISOString();
  for (const { id } of due) {
    await trackingObject(env, id).purge();
    await db
      .insert(reservationErasures)
      .values({ reservationId: id, trackingAt: at })
      .onConflictDoUpdate({ target: reservationErasures.reservationId, set: { trackingAt: at } });
  }
  return due.length;
}

/** A dispute still open on the reservation keeps its evidence: the recipient and the messages. */
const noOpenDispute = notExists(
  sql`(SELECT 1 FROM ${disputes} WHERE ${disputes.reservationId} = ${reservations.id} AND ${disputes.status} = 'OPEN')`,
);

/**
 * The recipient's details and the message bodies (conversation and dispute) a year after the
 * reservation finished, later while a dispute on it is open.
 */
export async function erasePersonalReservationData(deps: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const { db } = deps;
  const due = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(finishedBefore(cutoff(now, RETENTION_DAYS.reservationPersonalData)), noOpenDispute, notYetErased(reservationErasures.personalAt)))
    .limit(limit);
  for (const { id } of due) await eraseReservationPersonalData(deps, id, now.toISOString());
  return due.length;
}

/**
 * One finished reservation's personal data: every message body (conversation and dispute) and the
 * recipient's details, recorded as done at `markedAt`. The object first: a failure leaves the D1
 * side untouched, so the next run does it again.
 */
export async function eraseReservationPersonalData(deps: Deps, reservationId: number, markedAt: string) {
  const { db, env } = deps;
  const [conversation] = await db
    .select({ id: conversations.reservationId })
    .from(conversations)
    .where(eq(conversations.reservationId, reservationId));
  if (conversation) await conversationObject(env, reservationId).eraseBodies(null);
  const disputeIds = db.select({ id: disputes.id }).from(disputes).where(eq(disputes.reservationId, reservationId));
  await db.batch([
    db
      .update(conversations)
      .set({ lastMessage: ERASED_LAST_MESSAGE })
      .where(and(eq(conversations.reservationId, reservationId), isNotNull(conversations.lastMessage))),
    db.update(disputeMessages).set({ body: '' }).where(inArray(disputeMessages.disputeId, disputeIds)),
    db.update(reservations).set({ recipient: ERASED_RECIPIENT }).where(eq(reservations.id, reservationId)),
    db
      .insert(reservationErasures)
      .values({ reservationId, personalAt: markedAt })
      .onConflictDoUpdate({ target: reservationErasures.reservationId, set: { personalAt: markedAt } }),
  ]);
}

/** KYC documents (uploads of purpose KYC_DOCUMENT) 30 days after the decision on the owner's record; the record stays. */
export async function purgeKycDocuments(deps: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const { db, env } = deps;
  const decided = db
    .select({ one: sql`1` })
    .from(kycRecords)
    .where(
      and(
        eq(kycRecords.userId, files.ownerId),
        ne(kycRecords.status, 'PENDING'),
        isNotNull(kycRecords.reviewedAt),
        lt(kycRecords.reviewedAt, cutoff(now, RETENTION_DAYS.kycDocuments)),
        // A document sent after the decision belongs to a later review.
        lte(files.createdAt, kycRecords.reviewedAt),
      ),
    );
  const due = await db
    .select({ id: files.id, storageKey: files.storageKey })
    .from(files)
    .where(and(eq(files.purpose, 'KYC_DOCUMENT'), exists(decided)))
    .limit(limit);
  return deleteFiles(deps, due, env);
}

/** Ids per statement: D1 binds at most 100 parameters. */
const IDS_PER_STATEMENT = 90;

/** Uploads deleted: the R2 objects first (a repeat is harmless), then the rows and what points to them. */
export async function deleteFiles({ db }: Deps, rows: readonly { id: number; storageKey: string }[], env: Env): Promise<number> {
  let removed = 0;
  for (let i = 0; i < rows.length; i += IDS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + IDS_PER_STATEMENT);
    await env.UPLOADS.delete(chunk.map((r) => r.storageKey));
    const ids = chunk.map((r) => r.id);
    const [, result] = await db.batch([
      db.delete(disputeEvidence).where(inArray(disputeEvidence.fileId, ids)),
      db.delete(files).where(inArray(files.id, ids)),
    ]);
    removed += result.meta.changes;
  }
  return removed;
}

/** The recipient's details an ended offer carried, 30 days after it ended, replaced like a reservation's. */
export async function eraseOfferRecipients({ db }: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const ids = db
    .select({ id: offers.id })
    .from(offers)
    .where(
      and(
        isNull(offers.detailsErasedAt),
        inArray(offers.status, ['ACCEPTED', 'DECLINED', 'EXPIRED', 'WITHDRAWN']),
        lt(offers.updatedAt, cutoff(now, RETENTION_DAYS.offerRecipients)),
      ),
    )
    .limit(limit);
  const result = await db
    .update(offers)
    .set({ details: sql`json_set(${offers.details}, '$.recipient', json(${JSON.stringify(ERASED_RECIPIENT)}))`, detailsErasedAt: now.toISOString() })
    .where(inArray(offers.id, ids));
  return result.meta.changes;
}

/**
 * Proofs of travel 90 days after their trip departed, unless a dispute on one of its reservations
 * is open: the R2 object, the proof and its upload row. The trip keeps its travelVerified mark and
 * the audit log keeps who reviewed it.
 */
export async function purgeTravelProofs(deps: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const { db, env } = deps;
  const openDispute = sql`(SELECT 1 FROM ${disputes} JOIN ${reservations} ON ${reservations.id} = ${disputes.reservationId}
    WHERE ${reservations.announcementId} = ${travelProofs.announcementId} AND ${disputes.status} = 'OPEN')`;
  const due = await db
    .select({ proofId: travelProofs.id, id: files.id, storageKey: files.storageKey })
    .from(travelProofs)
    .innerJoin(announcements, eq(announcements.id, travelProofs.announcementId))
    .innerJoin(files, eq(files.id, travelProofs.fileId))
    .where(and(lt(announcements.departureDate, cutoff(now, RETENTION_DAYS.travelProofs).slice(0, 10)), notExists(openDispute)))
    .limit(limit);
  for (let i = 0; i < due.length; i += IDS_PER_STATEMENT) {
    const chunk = due.slice(i, i + IDS_PER_STATEMENT);
    await env.UPLOADS.delete(chunk.map((r) => r.storageKey));
    await db.batch([
      db.delete(travelProofs).where(inArray(travelProofs.id, chunk.map((r) => r.proofId))),
      db.delete(files).where(inArray(files.id, chunk.map((r) => r.id))),
    ]);
  }
  return due.length;
}

/** SMS verification codes (hashed) and the number each went to, 30 days after they were sent. */
export async function purgePhoneCodes({ db }: Deps, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const ids = db
    .select({ id: phoneVerificationCodes.id })
    .from(phoneVerificationCodes)
    .where(lt(phoneVerificationCodes.createdAt, cutoff(now, RETENTION_DAYS.phoneCodes)))
    .limit(limit);
  return (await db.delete(phoneVerificationCodes).where(inArray(phoneVerificationCodes.id, ids))).meta.changes;
}

/** The IP address of audit entries a year old; who did what, and when, stays. */
export async function eraseAuditIps({ db }: Deps, now: Date, limit = RETENTION_BATCH * 5): Promise<number> {
  const ids = db
    .select({ id: auditLogs.id })
    .from(auditLogs)
    .where(and(isNotNull(auditLogs.ip), lt(auditLogs.createdAt, cutoff(now, RETENTION_DAYS.auditIps))))
    .limit(limit);
  return (await db.update(auditLogs).set({ ip: null }).where(inArray(auditLogs.id, ids))).meta.changes;
}
