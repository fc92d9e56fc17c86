// Shapes of the file routes that other features reuse (agency documents): a stored file, and the
// multipart upload body.
import { z } from '@hono/zod-openapi';
import { FILE_PURPOSES } from '../../db/schema';

export const FileSchema = z
  .object({
    id: z.number().int(),
    purpose: z.enum(FILE_PURPOSES),
    contentType: z.string().openapi({ description: 'Detected from the bytes: image/jpeg, image/png, image/webp or application/pdf' }),
    size: z.number().int(),
    originalName: z.string().nullable(),
    reservationId: z.number().int().nullable(),
    agencyId: z.number().int().nullable(),
    url: z.string(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  // Not 'File': generated clients (orval) would declare a type shadowing the platform's File, which uploads need.
  .openapi('UploadedFile');

/** Multipart bodies are described with a plain schema: the handler reads the parts itself. */
export const uploadBody = (extra: Record<string, object> = {}, required: string[] = []) => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object' as const,
        required: ['file', ...required],
        properties: { file: { type: 'string' as const, format: 'binary', description: 'At most 10 MB' }, ...extra },
      },
    },
  },
});
