// The drizzle client over a D1 handle: the request's session (read replicas with read-your-writes,
// see session.ts) or the binding itself (cron, queues, Durable Objects). Clients are cached per
// handle: building one per call was measurable CPU on every request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { drizzle } from 'drizzle-orm/d1';

const clients = new WeakMap<object, ReturnType<typeof drizzle>>();

export function database(handle: D1Database | D1DatabaseSession) {
  let db = clients.get(handle);
  if (!db) {
    db = drizzle(handle as D1Database);
    clients.set(handle, db);
  }
  return db;
}
export type Db = ReturnType<typeof database>;

// TRANSITIONAL, removed once every service takes deps: the request's session found through an
// AsyncLocalStorage, for code not yet given `deps.db`.
export const requestSession = new AsyncLocalStorage<D1DatabaseSession>();
export const currentSession = (): D1DatabaseSession | undefined => requestSession.getStore();
export const getDb = (env: { DB: D1Database }) => database(currentSession() ?? env.DB);
