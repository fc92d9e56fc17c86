// /user/me/exports: the caller's personal data, as an archive built in the background (CONTRACT
// section 24). DELETE /user/me (erasure) is the users feature's route.
import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonContent, signedIn } from '../../lib/openapi';
import { IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import { archiveObject, ownExport, requestExport } from './export.service';
import { DataExportArchiveSchema, DataExportSchema, toDataExportDto } from './privacy.schemas';
import { notFound } from '../../errors';

const TAGS = ['Users'];

export const privacyRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'requestMyDataExport',
      path: '/user/me/exports',
      tags: TAGS,
      summary: "Ask for an archive of the caller's personal data; an e-mail with its link follows when it is ready",
      description: 'One export in progress at a time (409 INVALID_STATE), at most 3 a day (429).',
      ...signedIn(),
      responses: { 202: jsonContent(DataExportSchema, 'The export, PENDING'), ...authErrorResponses(409, 429) },
    }),
    async (c) => {
      const row = await requestExport(c.get('deps'), c.get('auth').id, clientIp(c));
      return c.json(toDataExportDto(row), 202);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getMyDataExport',
      path: '/user/me/exports/{id}',
      tags: TAGS,
      summary: 'The archive (JSON) once ready, for 7 days; its status before. Owner only: 404 for anyone else and once expired',
      description: 'While the export made by POST /user/me/exports is being built (PENDING) or after it FAILED, answers 202 with its status; once READY, answers 200 with the archive as a JSON attachment: the profile, trips, reservations, messages, reviews, disputes, notifications, transactions, devices and preferences, with links to the user\'s files. The user is e-mailed when it is ready, and it stays downloadable 7 days. Another user\'s export, an unknown id and an expired one are all 404 RESOURCE_NOT_FOUND.',
      ...signedIn(),
      request: { params: IdParams },
      responses: {
        200: jsonContent(
          DataExportArchiveSchema,
          'The archive: profile, trips, reservations, messages, reviews, disputes, notifications, transactions, devices, preferences, links to files',
        ),
        202: jsonContent(DataExportSchema, 'Not ready (PENDING) or failed (FAILED): the status'),
        ...authErrorResponses(404),
      },
    }),
    async (c) => {
      const deps = c.get('deps');
      const { id } = c.req.valid('param');
      const row = await ownExport(deps, c.get('auth').id, id);
      if (row.status !== 'READY') return c.json(toDataExportDto(row), 202);
      const object = await archiveObject(deps, row);
      if (!object) throw notFound('Data export', id);
      const archive = await object.json<Record<string, unknown>>();
      return c.json(archive, 200, { 'Content-Disposition': `attachment; filename="data-export-${id}.json"` });
    },
  );
