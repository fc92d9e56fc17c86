// D1 read replication through the Sessions API: one session per request, anchored at the
// client's last bookmark so a client always reads its own writes, even from a replica.
// Not mounted yet: the lead wires `d1Session` into app.ts and makes getDb() use `sessionDb(c.get('d1Session'))`
// (see docs/SCALING.md). Until then every query goes to the primary, as before.
import { createMiddleware } from 'hono/factory';
import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

/** Request header carrying the client's last bookmark; response header carrying the new one. */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** Bookmarks are opaque but short and plain; anything else is ignored rather than passed to D1. */
const BOOKMARK_SHAPE = /^[A-Za-z0-9._:-]{1,256}$/;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface SessionVariables {
  d1Session: D1DatabaseSession;
}

type SessionEnv = { Bindings: { DB: D1Database }; Variables: SessionVariables };

/**
 * Where the session starts:
 * - the client's bookmark when it sent a well-formed one: reads see at least everything the
 *   client saw or wrote before (read-your-writes across requests and across replicas);
 * - otherwise `first-primary` for writes (the write and the reads around it see the latest data)
 *   and `first-unconstrained` for reads (the nearest replica answers).
 */
export function sessionConstraint(method: string, bookmark: string | undefined): string {
  if (bookmark && BOOKMARK_SHAPE.test(bookmark)) return bookmark;
  return WRITE_METHODS.has(method.toUpperCase()) ? 'first-primary' : 'first-unconstrained';
}

export function openSession(db: D1Database, method: string, bookmark: string | undefined): D1DatabaseSession {
  const constraint = sessionConstraint(method, bookmark);
  try {
    return db.withSession(constraint);
  } catch {
    // A bookmark D1 does not accept (expired, from another database) must not fail the request.
    return db.withSession(sessionConstraint(method, undefined));
  }
}

/** Opens the request's session and returns its latest bookmark in the response header. */
export const d1Session = createMiddleware<SessionEnv>(async (c, next) => {
  const session = openSession(c.env.DB, c.req.method, c.req.header(BOOKMARK_HEADER));
  c.set('d1Session', session);
  await next();
  const bookmark = session.getBookmark();
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
});

/** A drizzle client over the request's session, `sessionDb(c.get('d1Session'))` (drizzle only calls prepare and batch on it). */
export const sessionDb = (session: D1DatabaseSession) => drizzle(session as unknown as D1Database, { schema });
