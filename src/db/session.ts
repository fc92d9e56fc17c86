// D1 read replication through the Sessions API: one session per request, anchored at the
// client's last bookmark so a client always reads its own writes, even from a replica.
// The session is held in an AsyncLocalStorage for the request, so getDb(env) picks it up
// wherever it is called; outside a request (cron, Durable Objects) queries go to the primary.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createMiddleware } from 'hono/factory';

/** Request header carrying the client's last bookmark; response header carrying the new one. */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** Bookmarks are opaque but short and plain; anything else is ignored rather than passed to D1. */
const BOOKMARK_SHAPE = /^[A-Za-z0-9._:-]{1,256}$/;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const requestSession = new AsyncLocalStorage<D1DatabaseSession>();

/** The D1 session of the request being served, if any. */
export const currentSession = (): D1DatabaseSession | undefined => requestSession.getStore();

type SessionEnv = { Bindings: { DB: D1Database } };

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
  await requestSession.run(session, next);
  const bookmark = session.getBookmark();
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
});

