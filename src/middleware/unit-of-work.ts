// After the response: what the request's committed batches left to do (db/client.ts UnitOfWork),
// so the request never waits for it: the outbox's deliveries to the queue, the status feeds of
// the reservations it changed. The cron run does the same at its end (scheduled.ts).
import { createMiddleware } from 'hono/factory';
import type { AppEnv, Deps } from '../env';

export const afterUnitOfWork = (...tasks: ((deps: Deps) => Promise<void>)[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const deps = c.get('deps');
    const work = deps?.db.$work;
    if (!work || (work.deliveries.size === 0 && work.statusChanged.size === 0)) return;
    let ctx: { waitUntil(promise: Promise<unknown>): void } | undefined;
    try {
      ctx = c.executionCtx;
    } catch {
      // Called without an execution context (app.request() in a test): done before answering.
    }
    const done = Promise.all(tasks.map((task) => task(deps)));
    if (ctx) ctx.waitUntil(done);
    else await done;
  });
