// The drizzle client over a D1 handle: the request's session (read replicas with read-your-writes,
// see session.ts) or the binding itself (cron, queues, Durable Objects). Clients are cached per
// handle: building one per call was measurable CPU on every request.
import { drizzle } from 'drizzle-orm/d1';

const clients = new WeakMap<object, ReturnType<typeof drizzle>>();

/** What a statement asked to be told once the batch that ran it has committed (see afterCommit). */
const commitHooks = new WeakMap<object, (result: unknown) => void>();

/**
 * Marks `statement` so that, once a db.batch() holding it commits, `hook` receives its result
 * (the rows its RETURNING clause gave). The transactional outbox uses it to enqueue the rows it
 * wrote only after they exist; a batch that fails calls no hook.
 */
export function afterCommit<T extends object>(statement: T, hook: (result: unknown) => void): T {
  commitHooks.set(statement, hook);
  return statement;
}

export function database(handle: D1Database | D1DatabaseSession) {
  let db = clients.get(handle);
  if (!db) {
    const client = drizzle(handle as D1Database);
    const batch = client.batch.bind(client);
    client.batch = (async (items: readonly object[]) => {
      const results = (await batch(items as never)) as unknown[];
      items.forEach((item, i) => commitHooks.get(item)?.(results[i]));
      return results;
    }) as typeof client.batch;
    db = client;
    clients.set(handle, db);
  }
  return db;
}
export type Db = ReturnType<typeof database>;
