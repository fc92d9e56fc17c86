// The drizzle client over a D1 handle: the request's session (read replicas with read-your-writes,
// see session.ts) or the binding itself (cron, queues, Durable Objects). Each client is one unit
// of work (a request, a cron run): what its committed batches leave to do afterwards is kept on
// it, never in module state shared between requests. A client costs under a microsecond to build.
import { drizzle } from 'drizzle-orm/d1';

/**
 * What one unit of work's committed batches left to do once it ends: the outbox's rows to hand
 * to the queue (deliveries/outbox.ts), the reservations whose status feed to refresh
 * (reservations/status-feed.ts).
 */
export interface UnitOfWork {
  /** Ids of deliveries rows its batches committed, not yet handed to the queue. */
  readonly deliveries: Set<number>;
  /** Ids of reservations whose status or payment status it changed, not yet published. */
  readonly statusChanged: Set<number>;
}

type CommitHook = (result: unknown, work: UnitOfWork) => void;

/** Where a statement carries its commit hook (set by afterCommit, read by the client's batch()). */
const COMMIT_HOOK = Symbol('afterCommit');

/**
 * Marks `statement` so that, once a db.batch() holding it commits, `hook` receives its result
 * (the rows its RETURNING clause gave) and the unit of work of the client that ran it. The
 * transactional outbox uses it to enqueue the rows it wrote only after they exist; a batch that
 * fails calls no hook.
 */
export function afterCommit<T extends object>(statement: T, hook: CommitHook): T {
  (statement as { [COMMIT_HOOK]?: CommitHook })[COMMIT_HOOK] = hook;
  return statement;
}

/** A client of its own unit of work; db.batch() calls the commit hooks of the statements it ran. */
export function database(handle: D1Database | D1DatabaseSession) {
  const work: UnitOfWork = { deliveries: new Set(), statusChanged: new Set() };
  const client = drizzle(handle as D1Database);
  const batch = client.batch.bind(client);
  return Object.assign(client, {
    batch: (async (items: readonly object[]) => {
      const results = (await batch(items as never)) as unknown[];
      items.forEach((item, i) => (item as { [COMMIT_HOOK]?: CommitHook })[COMMIT_HOOK]?.(results[i], work));
      return results;
    }) as typeof client.batch,
    /** This client's unit of work. */
    $work: work,
  });
}
export type Db = ReturnType<typeof database>;
