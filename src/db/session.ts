// D1 read replication through the Sessions API: one session per request, anchored at the
// client's last bookmark so a client always reads its own writes, even from a replica. The
// middleware builds the request's `deps` (its database handle and env) once, in c.var; services
// receive them as their first argument. Outside a request (cron, Durable Objects), depsOf(env).
import { createMiddleware } from 'hono/factory';
import { depsOf, type AppEnv } from '../env';
import { setResponseHeaders } from '../lib/response-headers';
import { database } from './client';

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

export interface D1Counter {
  roundTrips: number;
  rowsRead: number;
  rowsWritten: number;
}

type D1Meta = { meta?: { rows_read?: number; rows_written?: number } };

/**
 * workerd's session sends every request to D1 through one of two methods: `_send` (statements'
 * all/first/run/raw and batch(), one call each; failures come back as results) or `_queryOrThrow`
 * (the same under the d1_binding_jsrpc flag). Their results carry D1's `meta` for each statement,
 * which first() and raw() drop before returning. Not public API: test/round-trips.test.ts checks
 * the counts against a binding counted from the outside, so a workerd that renames them fails there.
 */
interface SessionTransport {
  _send?: (...args: unknown[]) => Promise<D1Meta | D1Meta[]>;
  _queryOrThrow?: (...args: unknown[]) => Promise<D1Meta[]>;
}

/**
 * The session, counting round trips (one per statement executed outside a batch, one per batch)
 * and summing the rows D1 reports read and written. The request's own session object is
 * instrumented in place (its two transport methods shadowed on the instance): statements stay
 * native, batch() receives them as they are, and nothing is proxied per property access.
 */
export function countingSession(session: D1DatabaseSession, counter: D1Counter): D1DatabaseSession {
  const add = (result: D1Meta | D1Meta[] | undefined) => {
    for (const r of Array.isArray(result) ? result : [result]) {
      counter.rowsRead += r?.meta?.rows_read ?? 0;
      counter.rowsWritten += r?.meta?.rows_written ?? 0;
    }
  };
  const transport = session as unknown as SessionTransport;
  for (const name of ['_send', '_queryOrThrow'] as const) {
    const original = transport[name];
    if (typeof original !== 'function') continue;
    Object.defineProperty(session, name, {
      configurable: true,
      writable: true,
      value: async (...args: unknown[]) => {
        counter.roundTrips += 1;
        const result = await original.apply(session, args);
        add(result);
        return result;
      },
    });
  }
  return session;
}

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
  c.set('deps', { db: database(session), env: c.env });
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
