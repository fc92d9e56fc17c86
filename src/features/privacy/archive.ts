// What a personal data export holds (CONTRACT section 24, GDPR articles 15 and 20): every table
// that names the user, read in pages by id (never one giant statement), the messages of the user's
// conversations from their Durable Objects, and links to the user's files rather than their bytes.
import { and, asc, eq, gt, inArray, isNotNull, or, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  announcements,
  conversations,
  devices,
  disputeMessages,
  disputes,
  files,
  kycRecords,
  mobilePayoutAccounts,
  notificationPreferences,
  notifications,
  offers,
  payoutAccounts,
  reports,
  reservations,
  reviews,
  searchAlerts,
  transactions,
  users,
  withdrawals,
} from '../../db/schema';
import type { ConversationMessage } from '../../durable-objects/conversation';
import type { Deps } from '../../env';
import { inSlices } from '../../db/statements';
import { carriesPrivately } from '../../access/reservation-access';
import { conversationObject } from '../conversations/conversations.service';

/** Rows per statement while building an archive. */
export const ARCHIVE_PAGE = 200;

/** Every row of `table` matching `where`, read page by page in id order. */
async function allById<T extends SQLiteTable & { id: SQLiteColumn }>({ db }: Deps, table: T, where: SQL | undefined): Promise<T['$inferSelect'][]> {
  const rows: T['$inferSelect'][] = [];
  let after = 0;
  for (;;) {
    const page = (await db
      .select()
      .from(table as SQLiteTable)
      .where(and(where, gt(table.id, after)))
      .orderBy(asc(table.id))
      .limit(ARCHIVE_PAGE)) as (T['$inferSelect'] & { id: number })[];
    rows.push(...page);
    if (page.length < ARCHIVE_PAGE) return rows;
    after = page[page.length - 1].id;
  }
}

/** Every message of one conversation, oldest first, page by page. */
async function conversationMessages(env: Env, reservationId: number): Promise<ConversationMessage[]> {
  const stub = conversationObject(env, reservationId);
  const all: ConversationMessage[] = [];
  for (;;) {
    const afterId = all.at(-1)?.id ?? 0;
    const { messages } = await stub.messages({ reservationId, afterId, order: 'asc', limit: ARCHIVE_PAGE, offset: 0 });
    all.push(...messages);
    if (messages.length < ARCHIVE_PAGE) return all;
  }
}

/** The archive of one user, as the JSON document the export serves. */
export async function buildArchive(deps: Deps, userId: number, now: Date): Promise<Record<string, unknown>> {
  const { db } = deps;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  // Secrets and the provider's internal ids are not personal data the user gave: left out.
  const { passwordHash: _password, ...profile } = user;
  const own = (column: SQLiteColumn) => eq(column, userId);
  // What the person did and what was about them (CONTRACT 25): their bookings and their own trips'
  // reservations; an agency trip's reservations are the agency's, only the messages they wrote there.
  const personal = or(own(reservations.senderId), carriesPrivately(userId));
  const reservationRows = await allById(deps, reservations, personal);
  const reservationIds = reservationRows.map((r) => r.id);
  const staffed = await allById(deps, reservations, and(own(reservations.carrierId), isNotNull(reservations.agencyId)));
  const messages = await conversationsOf(deps, reservationIds, staffed.map((r) => r.id), userId);
  const disputeRows = await inSlices(reservationIds, (ids) => allById(deps, disputes, inArray(disputes.reservationId, ids)));
  const disputeMessageRows = await inSlices(
    disputeRows.map((d) => d.id),
    (ids) => allById(deps, disputeMessages, inArray(disputeMessages.disputeId, ids)),
  );
  const fileRows = await allById(deps, files, own(files.ownerId));
  return {
    exportedAt: now.toISOString(),
    profile,
    trips: await allById(deps, announcements, carriesPrivately(userId, announcements)),
    reservations: reservationRows.map(({ depositCode: _d, deliveryCode: _c, recipientToken: _t, ...r }) => r),
    offers: await allById(deps, offers, or(own(offers.senderId), carriesPrivately(userId, offers))),
    messages,
    reviews: await allById(deps, reviews, or(own(reviews.reviewerId), own(reviews.revieweeId))),
    disputeMessagesWritten: (await allById(deps, disputeMessages, own(disputeMessages.authorId))).filter((m) => !disputeRows.some((d) => d.id === m.disputeId)),
    disputes: disputeRows.map(({ token: _token, ...d }) => ({ ...d, messages: disputeMessageRows.filter((m) => m.disputeId === d.id) })),
    notifications: await allById(deps, notifications, own(notifications.userId)),
    transactions: await allById(deps, transactions, and(eq(transactions.ownerType, 'USER'), own(transactions.ownerId))),
    withdrawals: (await allById(deps, withdrawals, and(eq(withdrawals.ownerType, 'USER'), own(withdrawals.ownerId)))).map(
      ({ token: _token, idempotencyKey: _key, ...w }) => w,
    ),
    payoutAccounts: {
      card: await allById(deps, payoutAccounts, and(eq(payoutAccounts.ownerType, 'USER'), own(payoutAccounts.ownerId))),
      mobileMoney: await allById(deps, mobilePayoutAccounts, and(eq(mobilePayoutAccounts.ownerType, 'USER'), own(mobilePayoutAccounts.ownerId))),
    },
    reportsFiled: await allById(deps, reports, own(reports.reporterId)),
    devices: (await allById(deps, devices, own(devices.userId))).map(({ token: _token, ...d }) => d),
    preferences: {
      notifications: await db.select().from(notificationPreferences).where(own(notificationPreferences.userId)),
      searchAlerts: await allById(deps, searchAlerts, own(searchAlerts.userId)),
    },
    kyc: (await allById(deps, kycRecords, own(kycRecords.userId))).map(({ kycSessionToken: _token, ...k }) => k),
    files: fileRows.map((f) => ({ id: f.id, purpose: f.purpose, contentType: f.contentType, sizeBytes: f.sizeBytes, originalName: f.originalName, createdAt: f.createdAt, url: `/v1/api/files/${f.id}` })),
  };
}

/**
 * The conversations of the person's own reservations, whole; of the agency reservations they handled
 * as staff, only the messages they wrote. Only conversations that exist (an index row) are read.
 */
async function conversationsOf(deps: Deps, own: number[], staffed: number[], userId: number) {
  const { db, env } = deps;
  const existing = (ids: number[]) =>
    inSlices(ids, (chunk) => db.select({ id: conversations.reservationId }).from(conversations).where(inArray(conversations.reservationId, chunk)));
  const out: { reservationId: number; messages: ConversationMessage[] }[] = [];
  for (const { id } of (await existing(own)).sort((a, b) => a.id - b.id)) out.push({ reservationId: id, messages: await conversationMessages(env, id) });
  for (const { id } of (await existing(staffed)).sort((a, b) => a.id - b.id)) {
    const written = (await conversationMessages(env, id)).filter((m) => m.authorId === userId);
    if (written.length > 0) out.push({ reservationId: id, messages: written });
  }
  return out;
}
