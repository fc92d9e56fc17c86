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
      description: 'A multipart form with the file part, its purpose and, for PARCEL_IMAGE and DISPUTE_EVIDENCE, the reservationId it belongs to. The type is detected from the bytes, not the name: images for AVATAR and PARCEL_IMAGE, images or PDF for the others; a PDF with scripts, launch actions or embedded files is refused. Over 10 MB: 413; a type the purpose does not take, or an executable: 415; a reservationId for another purpose: 400 VALIDATION_ERROR; a reservation the caller is no party to: 403 ACCESS_DENIED. The caller owns the stored file; the answer gives its id and url.',
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
      const row = await storeFile(c.get('deps'), auth, { ownerId: auth.id, purpose, file, reservationId });
      return c.json(fileView(row), 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'downloadFile',
      path: '/files/{id}',
      tags: ['Files'],
      summary: 'Download a file (owner; reservation parties; super-admins for identity and agency documents)',
      description: 'Streams the stored bytes with the content type detected at upload (images inline, PDF as an attachment, sandboxed). Its owner may always read it; any signed-in user an avatar; parcel images and dispute evidence the reservation\'s parties (the carrying agency\'s staff included) and admins; identity and agency documents super-admins (and the agency\'s owner for its documents); travel proofs admins. Anyone else gets 403 ACCESS_DENIED, an unknown file 404.',
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
      const { row, object } = await openFile(c.get('deps'), c.get('auth'), c.req.valid('param').id);
      // Cache-Control comes from middleware/http-cache.ts (private, no-store); the ETag lets it answer 304.
      return fileResponse(row, object);
    },
  );
