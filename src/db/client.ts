// One drizzle client per D1 handle over D1: the request's session when there is one (read
// replicas with read-your-writes, see session.ts), the binding itself otherwise. Clients are
// cached per handle: building one per getDb call was measurable CPU on every request.
import { drizzle } from 'drizzle-orm/d1';
import { currentSession } from './session';

const clients = new WeakMap<object, ReturnType<typeof drizzle>>();

export const getDb = (env: { DB: D1Database }) => {
  const handle = (currentSession() ?? env.DB) as D1Database;
  let db = clients.get(handle);
  if (!db) {
    db = drizzle(handle);
    clients.set(handle, db);
  }
  return db;
};
export type Db = ReturnType<typeof getDb>;
