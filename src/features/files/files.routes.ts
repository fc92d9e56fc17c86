// POST /files (multipart upload to R2) and GET /files/{id} (streamed to those allowed to see it).
import { createRoute } from '@hono/zod-openapi';
import { FILE_PURPOSES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonContent } from '../../lib/openapi';
import { requireAuth } from '../../middleware/auth';
import { IdParams } from '../../validation';
import { FileSchema, uploadBody } from './files.schemas';
import { fileResponse, fileView, openFile, parseFields, readUploadForm, storeFile, UploadFieldsSchema } from './files.service';

export const filesRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'uploadFile',
      path: '/files',
      tags: ['Files'],
      summary: 'Upload a file (JPEG, PNG, WEBP or PDF by content; at most 10 MB)',
      middleware: [requireAuth] as const,
      request: {
        body: uploadBody(
          {
            purpose: { type: 'string', enum: [...FILE_PURPOSES] },
            reservationId: { type: 'integer', description: 'For PARCEL_IMAGE and DISPUTE_EVIDENCE: the reservation it belongs to' },
          },
          ['purpose'],
        ),
      },
      responses: { 201: jsonContent(FileSchema, 'Stored file'), ...authErrorResponses(404, 413, 415) },
    }),
    async (c) => {
      const { file, fields } = await readUploadForm(c);
      const { purpose, reservationId } = parseFields(UploadFieldsSchema, fields);
      const auth = c.get('auth');
      const row = await storeFile(c.var.deps, auth, { ownerId: auth.id, purpose, file, reservationId });
      return c.json(fileView(row), 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'downloadFile',
      path: '/files/{id}',
      tags: ['Files'],
      summary: 'Download a file (owner; reservation parties; admins for identity and agency documents)',
      middleware: [requireAuth] as const,
      request: { params: IdParams },
      responses: {
        // The stored type, detected from the bytes at upload: one of the four uploads accept.
        200: {
          description: 'The file, with the content type detected at upload',
          content: Object.fromEntries(
            ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'].map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }]),
          ),
        },
        ...authErrorResponses(404),
      },
    }),
    async (c) => {
      const { row, object } = await openFile(c.var.deps, c.get('auth'), c.req.valid('param').id);
      // Cache-Control comes from middleware/http-cache.ts (private, no-store); the ETag lets it answer 304.
      return fileResponse(row, object);
    },
  );
