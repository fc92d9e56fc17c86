// Personal data exports (CONTRACT section 24): asked for over the API, built by the cron (never on
// the request path), stored in R2, announced by e-mail, served to their owner for 7 days and then
// deleted (an expired export answers 404 like an unknown one: docs/PRIVACY.md).
import { and, asc, count, desc, eq, gte, lt } from 'drizzle-orm';
import { dataExports, users, type DataExportRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/errors';
import type { Deps } from '../../env';
import { invalidState, msg, notFound, tooManyRequests } from '../../errors';
import { randomHex } from '../../lib/digest';
import { rowExists } from '../../db/statements';
import { audit } from '../audit/audit';
import { transactionalMessage } from '../deliveries/outbox';
import { buildArchive } from './archive';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a ready archive is served. */
export const EXPORT_TTL_MS = 7 * DAY_MS;
/** Exports a user may ask for in 24 hours (each reads every table that names them). */
export const EXPORTS_PER_DAY = 3;
/** Archives one cron run builds. */
export const EXPORTS_PER_RUN = 3;

export const exportPath = (id: number) => `/v1/api/user/me/exports/${id}`;

/**
 * POST /user/me/exports, or a super-admin for a request received by mail (`requestedBy`, the
 * console): one export in progress per user, a few a day, audited under whoever asked.
 */
export async function requestExport(deps: Deps, userId: number, ip: string | null, now = new Date(), requestedBy: number | null = null): Promise<DataExportRow> {
  const { db } = deps;
  await refuseWhilePending(deps, userId);
  const [{ n }] = await db
    .select({ n: count() })
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), gte(dataExports.createdAt, new Date(now.getTime() - DAY_MS).toISOString())));
  if (n >= EXPORTS_PER_DAY) throw tooManyRequests(msg('privacy.exportsPerDay', { limit: EXPORTS_PER_DAY }), 3600);
  let row: DataExportRow;
  try {
    [row] = await db.insert(dataExports).values({ userId, requestedBy, createdAt: now.toISOString() }).returning();
  } catch (err) {
    // Two requests at once: the partial unique index lets one through, the other is told which.
    if (isUniqueViolation(err)) await refuseWhilePending(deps, userId);
    throw err;
  }
  await audit(deps, {
    actorId: requestedBy ?? userId,
    action: 'DATA_EXPORT_REQUESTED',
    targetType: 'DATA_EXPORT',
    targetId: row.id,
    ip,
    details: requestedBy ? { userId, via: 'console' } : undefined,
  });
  return row;
}

/** The exports of a user, newest first (the console's user page): few, each lives 7 days. */
export async function exportsOf({ db }: Deps, userId: number, limit = 10): Promise<DataExportRow[]> {
  return db.select().from(dataExports).where(eq(dataExports.userId, userId)).orderBy(desc(dataExports.id)).limit(limit);
}

/**
 * A super-admin downloads a user's ready archive to answer a request received by mail: the row if
 * it is ready and not expired (else 404, as for its owner), the download audited.
 */
export async function exportForOperator(deps: Deps, operatorId: number, id: number, ip: string | null, now = new Date()): Promise<DataExportRow> {
  const [row] = await deps.db.select().from(dataExports).where(eq(dataExports.id, id));
  if (!row || row.status !== 'READY' || (row.expiresAt !== null && row.expiresAt <= now.toISOString())) throw notFound('Data export', id);
  await audit(deps, { actorId: operatorId, action: 'DATA_EXPORT_DOWNLOADED', targetType: 'DATA_EXPORT', targetId: row.id, ip, details: { userId: row.userId } });
  return row;
}

async function refuseWhilePending({ db }: Deps, userId: number): Promise<void> {
  const [pending] = await db
    .select({ id: dataExports.id })
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), eq(dataExports.status, 'PENDING')));
  if (pending) throw invalidState('privacy.exportInProgress', { id: pending.id });
}

/** The caller's export: its row, whoever else asks gets 404, and so does an expired one. */
export async function ownExport({ db }: Deps, userId: number, id: number, now = new Date()): Promise<DataExportRow> {
  const [row] = await db.select().from(dataExports).where(and(eq(dataExports.id, id), eq(dataExports.userId, userId)));
  if (!row || (row.expiresAt !== null && row.expiresAt <= now.toISOString())) throw notFound('Data export', id);
  return row;
}

/** The archive's bytes, or null when the object is gone (expired between the read and now). */
export async function archiveObject({ env }: Deps, row: DataExportRow): Promise<R2ObjectBody | null> {
  return row.storageKey ? env.UPLOADS.get(row.storageKey) : null;
}

/** The cron's step: builds the oldest pending archives, stores them, e-mails their owners. */
export async function buildPendingExports(deps: Deps, now = new Date(), limit = EXPORTS_PER_RUN): Promise<number> {
  const { db } = deps;
  const pending = await db.select().from(dataExports).where(eq(dataExports.status, 'PENDING')).orderBy(asc(dataExports.id)).limit(limit);
  for (const row of pending) {
    try {
      await buildOne(deps, row, now);
    } catch (err) {
      // Marked FAILED so the user may ask again; the cause is for the logs, not the user.
      const error = err instanceof Error ? err.message : String(err);
      console.error(JSON.stringify({ level: 'error', event: 'privacy.export.failed', exportId: row.id, error }));
      await db.update(dataExports).set({ status: 'FAILED', error: error.slice(0, 500) }).where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'PENDING')));
    }
  }
  return pending.length;
}

async function buildOne(deps: Deps, row: DataExportRow, now: Date): Promise<void> {
  const { db, env } = deps;
  const archive = await buildArchive(deps, row.userId, now);
  const body = JSON.stringify(archive, null, 2);
  const storageKey = `exports/${row.userId}/${row.id}-${randomHex(16)}.json`;
  await env.UPLOADS.put(storageKey, body, { httpMetadata: { contentType: 'application/json' } });
  const [user] = await db.select({ email: users.email, firstName: users.firstName, locale: users.locale }).from(users).where(eq(users.id, row.userId));
  const expiresAt = new Date(now.getTime() + EXPORT_TTL_MS).toISOString();
  const ready = and(eq(dataExports.id, row.id), eq(dataExports.status, 'PENDING'));
  await db.batch([
    db
      .update(dataExports)
      .set({ status: 'READY', storageKey, sizeBytes: new TextEncoder().encode(body).byteLength, readyAt: now.toISOString(), expiresAt })
      .where(ready),
    // Only the build whose archive the row names sends the e-mail (two overlapping runs send one).
    transactionalMessage(
      db,
      {
        userId: row.userId,
        to: user.email,
        template: 'DATA_EXPORT_READY',
        locale: user.locale,
        payload: { firstName: user.firstName, path: exportPath(row.id), expiresOn: expiresAt.slice(0, 10) },
      },
      rowExists(db, dataExports, and(eq(dataExports.id, row.id), eq(dataExports.storageKey, storageKey))),
    ),
  ]);
}

/** Archives past their 7 days: the R2 object and the row deleted (the retention job). */
export async function purgeExpiredExports({ db, env }: Deps, now = new Date(), limit = 100): Promise<number> {
  const expired = await db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(lt(dataExports.expiresAt, now.toISOString()))
    .limit(limit);
  if (expired.length === 0) return 0;
  const keys = expired.flatMap((e) => (e.storageKey ? [e.storageKey] : []));
  if (keys.length > 0) await env.UPLOADS.delete(keys);
  let removed = 0;
  for (const { id } of expired) removed += (await db.delete(dataExports).where(eq(dataExports.id, id))).meta.changes;
  return removed;
}
