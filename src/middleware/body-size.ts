// Request body size limit: 1 MiB for JSON, more for the upload routes (the file itself is checked
// against its own 10 MB limit there).
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { invalidArgument } from '../errors';

export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 10 * 1024 * 1024 + 64 * 1024; // file + multipart envelope

const tooLarge = (limit: number) => () => {
  throw invalidArgument('request.bodyTooLarge', { limit }, { status: 413 });
};

const jsonLimit = bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: tooLarge(JSON_BODY_LIMIT) });
const uploadLimit = bodyLimit({ maxSize: UPLOAD_BODY_LIMIT, onError: tooLarge(UPLOAD_BODY_LIMIT) });

/** Routes that take a multipart file: POST /files and agency documents. */
const isUploadPath = (path: string) => path.startsWith('/v1/api/files') || /^\/v1\/api\/agencies\/[^/]+\/documents$/.test(path);

export const bodySizeLimit = createMiddleware<AppEnv>((c, next) =>
  isUploadPath(c.req.path) ? uploadLimit(c, next) : jsonLimit(c, next),
);
