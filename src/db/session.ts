// D1 read replication through the Sessions API: one session per request, anchored at the
// client's last bookmark so a client always reads its own writes, even from a replica. The
// middleware builds the request's `deps` (its database handle, env and providers) once (read with
// c.get('deps')); services receive them as their first argument. Outside a request (cron, Durable
// Objects), depsOf(env).
import { createMiddleware } from 'hono/factory';
import { depsOf, type AppEnv } from '../env';
import { setResponseHeaders } from '../lib/response-headers';
import { database } from './client';
import { countingSession, type D1Counter } from './internals';

/** Request header carrying the client's last bookmark; response header carrying the new one. */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** Bookmarks are opaque but short and plain; anything else is ignored rather than passed to D1. */
const BOOKMARK_SHAPE = /^[A-Za-z0-9._:-]{1,256}$/;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

/** Response headers with the request's D1 round trips and rows read / written (outside production). */
export const ROUND_TRIPS_HEADER = 'x-d1-round-trips';
export const ROWS_READ_HEADER = 'x-d1-rows-read';
export const ROWS_WRITTEN_HEADER = 'x-d1-rows-written';

/**
 * Opens the request's session and returns its latest bookmark in the response header; outside
 * production, also the request's D1 round trips and rows read and written (the benchmark and the
 * tests check them).
 */
export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
  const opened = openSession(c.env.DB, c.req.method, c.req.header(BOOKMARK_HEADER));
  const counter: D1Counter = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const counted = c.env.ENVIRONMENT !== 'production';
  const session = counted ? countingSession(opened, counter) : opened;
  c.set('deps', depsOf(c.env, database(session)));
  await next();
  const headers: [string, string][] = [];
  const bookmark = opened.getBookmark();
  if (bookmark) headers.push([BOOKMARK_HEADER, bookmark]);
  if (counted) {
    headers.push([ROUND_TRIPS_HEADER, String(counter.roundTrips)], [ROWS_READ_HEADER, String(counter.rowsRead)], [ROWS_WRITTEN_HEADER, String(counter.rowsWritten)]);
  }
  setResponseHeaders(c, headers);
});

/** Pages outside the API (recipient page, sandbox pages) read and write the primary. */
export const primaryDeps = createMiddleware<AppEnv>(async (c, next) => {
  c.set('deps', depsOf(c.env));
  await next();
});

/**
 * The request's deps, built once: the API's session under `apiPrefix` (what `${apiPrefix}/*`
 * matches), the primary elsewhere.
 */
export const requestDeps = (apiPrefix: string) =>
  createMiddleware<AppEnv>((c, next) => {
    const path = c.req.path;
    return path === apiPrefix || path.startsWith(`${apiPrefix}/`) ? d1Session(c, next) : primaryDeps(c, next);
  });
