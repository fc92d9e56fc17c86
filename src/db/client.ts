// The drizzle client over a D1 handle: the request's session (read replicas with read-your-writes,
// see session.ts) or the binding itself (cron, queues, Durable Objects). Clients are cached per
// handle: building one per call was measurable CPU on every request.
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
