// Reports on users, announcements and reviews, and their moderation by admins.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { readPage, rowExists } from '../../db/statements';
import { announcements, auditLogs, reports, reviews, users, type ReportRow } from '../../db/schema';
import type { REPORT_ACTIONS, REPORT_STATUSES, REPORT_TARGET_TYPES } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { alreadyExists, businessRule, invalidArgument, invalidState, notFound, msg, type Noun } from '../../errors';
import { randomHex } from '../../lib/digest';
import { orderBy, toPage, type PageParams } from '../../lib/pagination';
import { applySuspension, assertCanModerate, getUser } from '../admin-users/admin-users.service';
import { auditInsertIfChanged } from '../audit/audit';
import { notify } from '../deliveries/notify';
import { hideReviewStatements } from '../reviews/reviews.service';
import { afterTripHidden, hideTripStatements } from './hide-trip';

export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export interface NewReport {
  targetType: ReportTargetType;
  targetId: number;
  reason: string;
  description?: string | null;
}

export const toReportJson = (r: ReportRow) => ({
  id: r.id,
  reporterId: r.reporterId,
  targetType: r.targetType,
  targetId: r.targetId,
  reason: r.reason,
  description: r.description,
  status: r.status,
  action: r.action,
  resolutionNote: r.resolutionNote,
  closedBy: r.closedBy,
  closedAt: r.closedAt,
  createdAt: r.createdAt,
});

/** The user a report is ultimately about: the user, the announcement's carrier, the review's author. */
async function targetOwner(db: Db, type: ReportTargetType, id: number): Promise<number | null> {
  switch (type) {
    case 'USER': {
      const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
      return u?.id ?? null;
    }
    case 'ANNOUNCEMENT': {
      const [a] = await db.select({ id: announcements.carrierId }).from(announcements).where(eq(announcements.id, id));
      return a?.id ?? null;
    }
    case 'REVIEW': {
      const [r] = await db.select({ id: reviews.reviewerId }).from(reviews).where(eq(reviews.id, id));
      return r?.id ?? null;
    }
  }
}

/** What a missing target is called in the 404 (`User 7 not found`). */
const TARGET_NOUN = { USER: 'User', ANNOUNCEMENT: 'Announcement', REVIEW: 'Review' } as const satisfies Record<(typeof REPORT_TARGET_TYPES)[number], Noun>;

export async function createReport(deps: Deps, auth: AuthUser, input: NewReport) {
  const { db } = deps;
  const owner = await targetOwner(db, input.targetType, input.targetId);
  if (owner === null) throw notFound(TARGET_NOUN[input.targetType], input.targetId);
  if (input.targetType === 'USER' && owner === auth.id) throw businessRule('report.cannotReportYourself');
  try {
    const [created] = await db
      .insert(reports)
      .values({ reporterId: auth.id, targetType: input.targetType, targetId: input.targetId, reason: input.reason, description: input.description ?? null })
      .returning();
    return toReportJson(created);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists('report.alreadyOpenReportTarget');
    throw err;
  }
}

export async function listReports(deps: Deps, p: PageParams<'createdAt'>,
  filters: { reporterId?: number; status?: ReportStatus; targetType?: ReportTargetType },
) {
  const { db } = deps;
  const conditions: SQL[] = [];
  if (filters.reporterId !== undefined) conditions.push(eq(reports.reporterId, filters.reporterId));
  if (filters.status) conditions.push(eq(reports.status, filters.status));
  if (filters.targetType) conditions.push(eq(reports.targetType, filters.targetType));
  const where = conditions.length ? and(...conditions) : undefined;
  const order = orderBy(p.sort, { createdAt: reports.createdAt }, reports.id);
  const { rows, total } = await readPage(db, reports, where, order, p);
  return toPage(rows.map(toReportJson), total, p);
}

const ACTION_TARGETS: Record<ReportAction, readonly ReportTargetType[]> = {
  NONE: ['USER', 'ANNOUNCEMENT', 'REVIEW'],
  HIDE_ANNOUNCEMENT: ['ANNOUNCEMENT'],
  HIDE_REVIEW: ['REVIEW'],
  SUSPEND_USER: ['USER', 'ANNOUNCEMENT', 'REVIEW'],
};

/**
 * Closes an OPEN report and applies its action in one batch. The action statements are guarded
 * by this close having happened (its own audit entry, written only if its UPDATE closed the
 * report), so a concurrent close, even the same admin's double click, applies nothing.
 */
export async function closeReport(
  deps: Deps,
  auth: AuthUser,
  id: number,
  input: { action: ReportAction; note?: string | null },
  ip: string | null,
) {
  const { db } = deps;
  const [report] = await db.select().from(reports).where(eq(reports.id, id));
  if (!report) throw notFound('Report', id);
  if (report.status !== 'OPEN') throw invalidState('report.reportAlreadyClosed', { id });
  if (!ACTION_TARGETS[input.action].includes(report.targetType)) {
    throw invalidArgument('report.actionNotApplyReport', { action: input.action, targetType: report.targetType }, {
      fieldErrors: [{ field: 'action', message: msg('report.allowedActions', { targetType: report.targetType, targetType2: allowedActions(report.targetType).join(', ') }), rejectedValue: input.action }],
    });
  }
  const closedAt = new Date().toISOString();
  // This close's own REPORT_CLOSED audit entry, written only if its UPDATE closed the report: the
  // attempt token tells two closes apart even by the same admin at the same millisecond.
  const attempt = randomHex(8);
  const closedByMe = rowExists(
    db,
    auditLogs,
    and(
      eq(auditLogs.targetType, 'REPORT'),
      eq(auditLogs.targetId, String(id)),
      eq(auditLogs.action, 'REPORT_CLOSED'),
      sql`json_extract(${auditLogs.details}, '$.attempt') = ${attempt}`,
    ),
  );
  const owner = await targetOwner(db, report.targetType, report.targetId);
  if (input.action === 'SUSPEND_USER' && owner !== null) assertCanModerate(auth, await getUser(deps, owner));

  const statements: BatchItem<'sqlite'>[] = [];
  if (input.action === 'HIDE_ANNOUNCEMENT') {
    statements.push(...(await hideTripStatements(db, { reportId: id, announcementId: report.targetId, actorId: auth.id, note: input.note ?? null, closedAt, closedByMe, ip })));
  }
  if (input.action === 'HIDE_REVIEW') {
    const [review] = await db.select().from(reviews).where(eq(reviews.id, report.targetId));
    if (review) {
      statements.push(...hideReviewStatements(db, review, closedByMe));
    }
  }
  if (input.action === 'SUSPEND_USER' && owner !== null) {
    statements.push(
      db
        .update(users)
        .set({ enabled: false, suspendedAt: closedAt, suspensionReason: `Report #${id}`, updatedAt: closedAt })
        .where(and(eq(users.id, owner), eq(users.enabled, true), closedByMe)),
      auditInsertIfChanged(db, { actorId: auth.id, action: 'USER_SUSPENDED', targetType: 'USER', targetId: owner, ip, details: { reportId: id } }),
    );
  }
  const [[closed]] = await db.batch([
    db
      .update(reports)
      .set({ status: 'CLOSED', action: input.action, resolutionNote: input.note ?? null, closedBy: auth.id, closedAt })
      .where(and(eq(reports.id, id), eq(reports.status, 'OPEN')))
      .returning(),
    // Right after the close (changes() is the UPDATE's): a close that lost writes no entry, and so applies nothing.
    auditInsertIfChanged(db, { actorId: auth.id, action: 'REPORT_CLOSED', targetType: 'REPORT', targetId: id, ip, details: { action: input.action, attempt } }),
    ...statements,
    ...notify(
      db,
      {
        userId: report.reporterId,
        type: 'REPORT_CLOSED',
        text: msg('notice.reportClosed', { id }),
        data: { reportId: id },
      },
      closedByMe,
    ),
  ]);
  if (!closed) throw invalidState('report.reportAlreadyClosed', { id });
  if (input.action === 'SUSPEND_USER' && owner !== null) await applySuspension(deps, owner, auth.id);
  if (input.action === 'HIDE_ANNOUNCEMENT') await afterTripHidden(deps, report.targetId, auth.id);
  return toReportJson(closed);
}

const allowedActions = (type: ReportTargetType) =>
  (Object.keys(ACTION_TARGETS) as ReportAction[]).filter((a) => ACTION_TARGETS[a].includes(type));
