// D1 read replication through the Sessions API: one session per request, anchored at the
// client's last bookmark so a client always reads its own writes, even from a replica. The
// middleware builds the request's `deps` (its database handle and env) once, in c.var; services
// receive them as their first argument. Outside a request (cron, Durable Objects), depsOf(env).
import { createMiddleware } from 'hono/factory';
import { depsOf, type AppEnv } from '../env';
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

/** Response header with the number of D1 round trips the request made (outside production). */
export const ROUND_TRIPS_HEADER = 'x-d1-round-trips';

const EXECUTING = new Set(['all', 'first', 'run', 'raw']);

/**
 * The session, counting round trips: one per executed statement, one per batch. Statements are
 * wrapped to count their execution; batch() gets the native ones back (workerd checks their type).
 */
export function countingSession(session: D1DatabaseSession, counter: { roundTrips: number }): D1DatabaseSession {
  const native = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args: unknown[]) => wrap(value.apply(target, args));
        if (typeof prop === 'string' && EXECUTING.has(prop)) {
          return (...args: unknown[]) => {
            counter.roundTrips += 1;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    native.set(proxy, statement);
    return proxy;
  };
  return new Proxy(session, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'prepare') return (query: string) => wrap(value.call(target, query));
      if (prop === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          counter.roundTrips += 1;
          return value.call(target, statements.map((st) => native.get(st) ?? st));
        };
      }
      return value.bind(target);
    },
  });
}

/**
 * Opens the request's session and returns its latest bookmark in the response header; outside
 * production, also the request's D1 round trips (the benchmark and the tests check them).
 */
export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
  const opened = openSession(c.env.DB, c.req.method, c.req.header(BOOKMARK_HEADER));
  const counter = { roundTrips: 0 };
  const counted = c.env.ENVIRONMENT !== 'production';
  const session = counted ? countingSession(opened, counter) : opened;
  c.set('deps', { db: database(session), env: c.env });
  await next();
  const bookmark = opened.getBookmark();
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
  if (counted) c.header(ROUND_TRIPS_HEADER, String(counter.roundTrips));
});

/** Pages outside the API (recipient page, sandbox pages) read and write the primary. */
export const primaryDeps = createMiddleware<AppEnv>(async (c, next) => {
  c.set('deps', depsOf(c.env));
  await next();
});
