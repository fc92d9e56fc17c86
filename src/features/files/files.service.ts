// Uploads to R2 with metadata in D1, and who may read them back.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import { FILE_PURPOSES, files, type FilePurpose, type FileRow } from '../../db/schema';
import type { AppEnv, AuthUser, Deps } from '../../env';
import { accessDenied, invalidArgument, notFound, validationError, msg, type Text } from '../../errors';
import { decimalInt, toValidationError, issueOf } from '../../validation';
import type { Statement } from '../../db/statements';
import { isReservationParty } from '../../access/reservation-access';
import { assertCanReadFile } from '../../access/files';
import { pdfActiveContent, MAX_DECODED_BYTES } from './pdf-active-content';
import { detectContentType, isAllowed, ALLOWED_TYPES, MAX_FILE_BYTES, RESERVATION_PURPOSES, SNIFF_BYTES } from './files.rules';

export const fileView = (f: FileRow) => ({
  id: f.id,
  purpose: f.purpose,
  contentType: f.contentType,
  size: f.sizeBytes,
  originalName: f.originalName,
  reservationId: f.reservationId,
  agencyId: f.agencyId,
  url: `/v1/api/files/${f.id}`,
  createdAt: f.createdAt,
});

const unsupported = (message: Text) =>
  invalidArgument(message, { status: 415, suggestions: ['file.uploadJpegPngWebp'] });

/** Reads a multipart upload: the `file` part and the other fields as strings. */
export async function readUploadForm(c: Context<AppEnv>): Promise<{ file: File; fields: Record<string, string> }> {
  if (!/^multipart\/form-data/i.test(c.req.header('Content-Type') ?? '')) {
    throw invalidArgument('error.unsupportedMediaType', { status: 415, suggestions: ['file.sendFileMultipartForm'] });
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw invalidArgument('file.malformedMultipartBody');
  }
  const file = form.get('file');
  const fields: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') fields[key] = value;
  if (!(file instanceof File)) {
    throw validationError('file.validationFailedFile', {
      fieldErrors: [{ field: 'file', message: 'file.filePartNamedFile', rejectedValue: null }],
      suggestions: ['validation.correctFields'],
    });
  }
  return { file, fields };
}

export const UploadFieldsSchema = z.object({
  purpose: z.enum(FILE_PURPOSES),
  reservationId: decimalInt(z.number().int().min(1).max(2_147_483_647)).optional(),
});

export function parseFields<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw toValidationError(parsed.error.issues, fields, 'form');
  return parsed.data;
}

export interface StoreFileInput {
  ownerId: number;
  purpose: FilePurpose;
  file: File;
  reservationId?: number | null;
  agencyId?: number | null;
  /** Rows that belong with the file (an agency document's review row), written in its batch; `fileId` stands for its new id. */
  alongside?: (db: Db, fileId: SQL) => Statement[];
}

/**
 * Checks size and real type, then stores the bytes under a random key and the metadata in D1.
 * The stored content type is the detected one, whatever name or type the client gave.
 */
export async function storeFile(deps: Deps, auth: AuthUser, input: StoreFileInput): Promise<FileRow> {
  const { db, env } = deps;
  const { file, purpose } = input;
  if (file.size > MAX_FILE_BYTES) {
    throw invalidArgument('file.tooLarge', { maxFileBytes: MAX_FILE_BYTES }, {
      status: 413,
      suggestions: ['file.uploadAtMost10Mb'],
    });
  }
  const detected = detectContentType(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
  if (detected === 'executable') throw unsupported('file.executableFilesNotAccepted');
  if (detected === null) throw unsupported('file.unsupportedFileTypeOnly');
  if (!isAllowed(purpose, detected)) {
    throw unsupported(msg('file.purposeTypeMismatch', { purpose, allowedTypes: ALLOWED_TYPES[purpose].join(', '), detected }));
  }
  if (detected === 'application/pdf') {
    const refusal = await pdfActiveContent(new Uint8Array(await file.arrayBuffer()));
    if (refusal && 'active' in refusal) throw unsupported(msg('file.pdfDocumentsActiveContent', { active: refusal.active }));
    if (refusal) throw unsupported(msg('file.pdfTooMuchDataToCheck', { maxMb: MAX_DECODED_BYTES / (1024 * 1024) }));
  }
  if (input.reservationId != null) {
    if (!RESERVATION_PURPOSES.includes(purpose)) {
      throw toValidationError(
        [{ code: 'custom', path: ['reservationId'], ...issueOf(msg('file.reservationIdAppliesOnly', { purposes: RESERVATION_PURPOSES.join(', ') })), input: input.reservationId }],
        { reservationId: input.reservationId },
        'form',
      );
    }
    const party = await isReservationParty(deps, auth, input.reservationId);
    if (party === null) throw notFound('Reservation', input.reservationId);
    if (!party) throw accessDenied('file.onlyPartiesReservationAttach');
  }

  const storageKey = `${purpose.toLowerCase().replace(/_/g, '-')}/${crypto.randomUUID()}`;
  await env.UPLOADS.put(storageKey, file.stream(), {
    httpMetadata: { contentType: detected },
    customMetadata: { ownerId: String(input.ownerId), purpose },
  });
  try {
    const insert = db
      .insert(files)
      .values({
        ownerId: input.ownerId,
        purpose,
        contentType: detected,
        sizeBytes: file.size,
        storageKey,
        originalName: file.name ? file.name.slice(0, 255) : null,
        reservationId: input.reservationId ?? null,
        agencyId: input.agencyId ?? null,
      })
      .returning();
    const fileId = sql`(${db.select({ id: files.id }).from(files).where(eq(files.storageKey, storageKey))})`;
    const [[row]] = await db.batch([insert, ...(input.alongside?.(db, fileId) ?? [])]);
    return row;
  } catch (err) {
    await env.UPLOADS.delete(storageKey);
    throw err;
  }
}

export async function getFileRow(deps: Deps, id: number) {
  const { db } = deps;
  const [row] = await db.select().from(files).where(eq(files.id, id));
  if (!row) throw notFound('File', id);
  return row;
}

/**
 * How a stored file is served, to the API and the console alike: under the service's own origin, so
 * a document can never run as a page of it (CSP sandbox, no sniffing), and only images inline; a
 * PDF downloads as an attachment.
 */
export function fileResponse(row: FileRow, object: R2ObjectBody, cacheControl?: string): Response {
  const headers: Record<string, string> = {
    'Content-Type': row.contentType,
    'Content-Length': String(row.sizeBytes),
    ETag: object.httpEtag,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': 'sandbox',
    'Content-Disposition': row.contentType.startsWith('image/') ? 'inline' : 'attachment',
  };
  if (cacheControl) headers['Cache-Control'] = cacheControl;
  return new Response(object.body, { status: 200, headers });
}

/** The stored object as a streamed response, after the access check. */
export async function openFile(deps: Deps, auth: AuthUser, id: number) {
  const { env } = deps;
  const row = await getFileRow(deps, id);
  await assertCanReadFile(deps, auth, row);
  const object = await env.UPLOADS.get(row.storageKey);
  if (!object) throw notFound('File', id);
  return { row, object };
}
