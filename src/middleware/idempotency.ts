// Idempotency-Key on creating POSTs (CONTRACT section 1), backed by KV. The key is scoped to the
// caller and the request path; the same key with the same body within 24 h replays the first
// response (same status, same body); with another body it is 409 INVALID_STATE. While the first
// request runs, a duplicate is refused with 409 too. KV has no compare-and-set, so two duplicates
// arriving at the same instant can both pass the KV check: handlers that create rows must also
// hold a database-level guard (bookings store the key under a unique index) and throw
// `idempotencyConflict()` when it fires, which this middleware never records as the answer.
import { z, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { AppError, invalidArgument, invalidState } from '../errors';
import { sha256Hex } from '../lib/digest';
import { documentedOnly } from '../validation';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** KV's shortest TTL; a crashed request frees its key after this. */
const PENDING_TTL_SECONDS = 60;
const MAX_KEY_LENGTH = 255;

/** The optional header as documented in OpenAPI; the middleware itself checks it and reads it. */
export const IdempotencyHeaders = documentedOnly(z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .optional()
    .openapi({
      param: { name: IDEMPOTENCY_HEADER, in: 'header' },
      description: 'Same key and same body within 24 h replays the first response; the same key with another body is 409 INVALID_STATE',
    }),
}));

const IDEMPOTENCY_NOTE =
  'Honours the optional Idempotency-Key header: the same key and body within 24 h replays the first response; the same key with another body is 409 INVALID_STATE.';

type RequestOf<R extends RouteConfig> = R['request'] extends object ? R['request'] : object;

/**
 * Makes a creating or money-moving POST idempotent: the middleware runs after the route's own
 * (so after requireAuth, which scopes the key to the caller) and the header is documented.
 * Use as `createRoute(idempotent({...}))`.
 */
export function idempotent<R extends RouteConfig>(route: R) {
  const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware];
  return {
    ...route,
    description: [route.description, IDEMPOTENCY_NOTE].filter(Boolean).join('\n\n'),
    middleware: [...own, idempotency],
    request: { ...route.request, headers: IdempotencyHeaders },
  } as Omit<R, 'request'> & { request: RequestOf<R> & { headers: typeof IdempotencyHeaders } };
}

type Stored =
  | { state: 'pending'; bodyHash: string }
  | { state: 'done'; bodyHash: string; status: number; body: string; contentType: string | null };


/** A duplicate caught while the first request runs: never recorded as the key's answer. */
class IdempotencyInProgress extends AppError {
  constructor() {
    super('INVALID_STATE', 'request.idempotencyInProgress', {
      suggestions: ['request.retryLaterSameIdempotency'],
    });
  }
}

/** Raised by a handler whose own database guard caught a concurrent duplicate. */
export const idempotencyConflict = (): AppError => new IdempotencyInProgress();

/** The caller's Idempotency-Key header, if any (validated by the middleware). */
export const idempotencyKeyOf = (c: Context<AppEnv>): string | null => c.req.header(IDEMPOTENCY_HEADER) || null;

/** Use after requireAuth (the key is scoped to `auth.id`; anonymous callers share the `anon` scope). */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw invalidArgument('request.idempotencyKeyLength', { idempotencyHeader: IDEMPOTENCY_HEADER, maxKeyLength: MAX_KEY_LENGTH }, {
      fieldErrors: [{ field: IDEMPOTENCY_HEADER, message: 'request.lengthOutRange', rejectedValue: key }],
    });
  }
  const caller = c.get('auth')?.id ?? 'anon';
  const kvKey = `idem:${caller}:${c.req.method}:${c.req.path}:${await sha256Hex(key)}`;
  const bodyHash = await sha256Hex(await c.req.text());

  const existing = await c.env.KV.get<Stored>(kvKey, 'json');
  if (existing) {
    if (existing.bodyHash !== bodyHash) {
      throw invalidState('request.alreadyUsedAnotherRequest', { idempotencyHeader: IDEMPOTENCY_HEADER }, {
        suggestions: ['request.useNewIdempotencyKey'],
      });
    }
    if (existing.state === 'pending') throw idempotencyConflict();
    return replayed(c, existing);
  }

  await c.env.KV.put(kvKey, JSON.stringify({ state: 'pending', bodyHash } satisfies Stored), {
    expirationTtl: PENDING_TTL_SECONDS,
  });
  await next();

  // Server failures, rate limits (429: retry later) and lost races are not answers worth
  // replaying: free the key instead.
  const lostRace = c.error instanceof IdempotencyInProgress;
  if (c.res.status >= 500 || c.res.status === 429 || lostRace) {
    if (!lostRace) await c.env.KV.delete(kvKey);
    return;
  }
  // Two duplicates that passed the KV check together may both finish: the first answer recorded
  // stays the key's answer, and the later one is answered with it.
  const first = await c.env.KV.get<Stored>(kvKey, 'json');
  if (first?.state === 'done' && first.bodyHash === bodyHash) {
    c.res = replayed(c, first);
    return;
  }
  const body = await c.res.clone().text();
  const record: Stored = { state: 'done', bodyHash, status: c.res.status, body, contentType: c.res.headers.get('Content-Type') };
  await c.env.KV.put(kvKey, JSON.stringify(record), { expirationTtl: IDEMPOTENCY_TTL_SECONDS });
});

function replayed(c: Context<AppEnv>, stored: Extract<Stored, { state: 'done' }>): Response {
  const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' };
  if (stored.contentType) headers['Content-Type'] = stored.contentType;
  return c.body(stored.body, stored.status as 200, headers);
}
