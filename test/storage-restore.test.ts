// Point-in-time recovery of a reservation's conversation and tracking (CONTRACT section 27): the
// objects' restore in order (undo bookmark, target bookmark, restore on the next session, abort) on
// a storage that records the calls; POST /superadmin/reservations/{id}/storage-restore: super-admins
// only, bad input with the error body, 404, and locally (workerd has no point-in-time recovery) 409
// with nothing changed and nothing audited.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs } from '../src/db/schema';
import { RESTORE_ABORT, restoreBookmarks, restoreOnNextSession } from '../src/durable-objects/point-in-time';
import { db } from './helpers/db';
import { anAdmin, aReservation, aSuperAdmin } from './helpers/factories';
import { post } from './helpers/http';

const DAY_MS = 24 * 60 * 60 * 1000;

function recordingState() {
  const calls: string[] = [];
  const storage = {
    getCurrentBookmark: async () => (calls.push('current'), 'bm-now'),
    getBookmarkForTime: async (at: number) => (calls.push(`forTime:${at}`), `bm-${at}`),
    onNextSessionRestoreBookmark: async (b: string) => (calls.push(`restore:${b}`), b),
  };
  const ctx = { storage, abort: (reason: string) => calls.push(`abort:${reason}`) };
  return { calls, ctx: ctx as unknown as DurableObjectState };
}

describe('an object restores its storage', () => {
  it('keeps the undo bookmark, finds the instant\'s, restores it on the next session and ends this one', async () => {
    const { calls, ctx } = recordingState();
    expect(await restoreBookmarks(ctx.storage, { at: 1_700_000_000_000 })).toEqual({ bookmark: 'bm-1700000000000', undoBookmark: 'bm-now' });
    await expect(restoreOnNextSession(ctx, 'bm-1700000000000')).rejects.toThrow(RESTORE_ABORT);
    expect(calls).toEqual(['current', 'forTime:1700000000000', 'restore:bm-1700000000000', `abort:${RESTORE_ABORT}`]);
    // Undoing: the bookmark given is restored as is.
    expect(await restoreBookmarks(ctx.storage, { bookmark: 'bm-now' })).toEqual({ bookmark: 'bm-now', undoBookmark: 'bm-now' });
  });
});

describe('POST /superadmin/reservations/{id}/storage-restore', () => {
  const path = (id: number) => `/v1/api/superadmin/reservations/${id}/storage-restore`;

  it('locally answers 409 naming why, audits nothing; unknown reservation 404; bad input 400 with the field', async () => {
    const root = await aSuperAdmin();
    const { reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const at = new Date(Date.now() - DAY_MS).toISOString();
    const res = await post(path(reservation.id), { object: 'CONVERSATION', at }, { token: root.token, headers: { 'Accept-Language': 'fr' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ errorCode: 'INVALID_STATE', message: 'La restauration à un instant donné du stockage des Durable Objects n’existe que chez Cloudflare, pas en développement local : rien n’a été modifié' });
    expect(await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'DURABLE_OBJECT_RESTORED'), eq(auditLogs.targetId, String(reservation.id))))).toEqual([]);

    expect((await post(path(999_999_999), { object: 'TRACKING', at }, { token: root.token })).status).toBe(404);
    const bad = async (body: unknown) => (await post(path(reservation.id), body, { token: root.token })).body;
    expect(await bad({ object: 'TRACKING' })).toMatchObject({ status: 400, errorCode: 'VALIDATION_ERROR', fieldErrors: [{ field: 'at', message: 'Give either at or bookmark, not both' }] });
    expect(await bad({ object: 'TRACKING', at: new Date(Date.now() + DAY_MS).toISOString() })).toMatchObject({ status: 400, fieldErrors: [{ field: 'at', message: 'Must be in the past' }] });
    expect(await bad({ object: 'TRACKING', at: new Date(Date.now() - 31 * DAY_MS).toISOString() })).toMatchObject({ status: 400, fieldErrors: [{ field: 'at', message: 'Must be within the last 30 days' }] });
    expect(await bad({ object: 'QR', at })).toMatchObject({ status: 400, fieldErrors: [{ field: 'object' }] });
  });

  it('is for super-admins only', async () => {
    const admin = await anAdmin();
    const { reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const res = await post(path(reservation.id), { object: 'TRACKING', bookmark: 'x' }, { token: admin.token });
    expect(res.status).toBe(403);
  });
});
