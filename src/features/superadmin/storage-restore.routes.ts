// POST /superadmin/reservations/{id}/storage-restore (CONTRACT 27): a reservation's conversation or
// tracking storage back to an instant of the last 30 days, or to a bookmark (undoing a restore).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { clientIp } from '../audit/audit';
import { msg } from '../../errors';
import { issueOf } from '../../validation';
import { RESTORABLE_OBJECTS, RESTORE_WINDOW_DAYS, restoreReservationStorage } from './storage-restore';

const DAY_MS = 24 * 60 * 60 * 1000;

const RestoreRequest = z
  .object({
    object: z.enum(RESTORABLE_OBJECTS).openapi({ description: "CONVERSATION: the messages between sender and carrier; TRACKING: the parcel's GPS points" }),
    at: z
      .string()
      .datetime({ offset: true })
      .optional()
      .openapi({ description: `The instant to go back to, within the last ${RESTORE_WINDOW_DAYS} days (ISO 8601)`, example: '2026-12-06T08:55:00Z' }),
    bookmark: z.string().min(1).max(200).optional().openapi({ description: 'Instead of `at`: a bookmark, e.g. the undoBookmark of an earlier restore' }),
  })
  .superRefine((body, ctx) => {
    if ((body.at === undefined) === (body.bookmark === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['at'], ...issueOf('operations.restoreAtOrBookmark') });
      return;
    }
    if (body.at !== undefined) {
      const at = Date.parse(body.at);
      if (at > Date.now()) ctx.addIssue({ code: 'custom', path: ['at'], ...issueOf('operations.restoreInPast') });
      if (at < Date.now() - RESTORE_WINDOW_DAYS * DAY_MS) ctx.addIssue({ code: 'custom', path: ['at'], ...issueOf(msg('operations.restoreWithinWindow', { days: RESTORE_WINDOW_DAYS })) });
    }
  })
  .openapi('StorageRestoreRequest');

const RestoreResult = z
  .object({
    reservationId: z.number().int(),
    object: z.enum(RESTORABLE_OBJECTS),
    restoredTo: z.string().nullable().openapi({ format: 'date-time', description: 'The instant asked for; null when a bookmark was given' }),
    bookmark: z.string().openapi({ description: 'The bookmark restored' }),
    undoBookmark: z.string().openapi({ description: 'The storage as it was before: give it as `bookmark` to undo' }),
  })
  .openapi('StorageRestore');

const IdParam = z.object({ id: z.coerce.number().int().positive().openapi({ param: { name: 'id', in: 'path' }, example: 42 }) });

export const storageRestoreRouter = createRouter().openapi(
  createRoute({
    method: 'post',
    operationId: 'restoreReservationStorage',
    path: '/superadmin/reservations/{id}/storage-restore',
    tags: ['Administration'],
    summary: "Restore a reservation's conversation or tracking to an instant (audited)",
    description:
      `Super-administrators only. Cloudflare keeps ${RESTORE_WINDOW_DAYS} days of history of each Durable Object's storage: the reservation's conversation (CONVERSATION) or GPS points (TRACKING) go back to \`at\`, or to \`bookmark\`. The object restarts on the restored storage at its next request (open sockets close; apps reconnect). The answer carries undoBookmark, which undoes it. Audited as DURABLE_OBJECT_RESTORED. ` +
      'Unknown reservation: 404; `at` in the future, older than the window, or neither or both of at and bookmark: 400; local development (no point-in-time recovery there): 409 INVALID_STATE, nothing changed.',
    ...withRole('ROLE_SUPERADMIN'),
    request: { params: IdParam, body: jsonBody(RestoreRequest) },
    responses: { 200: jsonContent(RestoreResult, 'Restored on the next session'), ...authErrorResponses() },
  }),
  async (c) => {
    const body = c.req.valid('json');
    const target = body.bookmark !== undefined ? { bookmark: body.bookmark } : { at: Date.parse(body.at!) };
    return c.json(await restoreReservationStorage(c.get('deps'), c.get('auth').id, c.req.valid('param').id, body.object, target, clientIp(c)), 200);
  },
);
