// The cross-cutting middleware registered as one handler. Each app.use('*') is one more entry the
// router walks and sorts on every request (with thirteen of them, matching was a few percent of a
// small GET); chained here, the router finds one. Semantics are hono's own compose: a middleware
// answers by returning a Response or by setting c.res, and an error is turned into the error
// response where it is thrown, so the middleware around it see that response, not the exception.
import type { ErrorHandler, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

export function chain(onError: ErrorHandler<AppEnv>, ...handlers: MiddlewareHandler<AppEnv>[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const run = async (i: number): Promise<void> => {
      let res: Response | void;
      let isError = false;
      try {
        res = i === handlers.length ? await next() : await handlers[i](c, () => run(i + 1));
      } catch (err) {
        if (!(err instanceof Error)) throw err;
        c.error = err;
        res = await onError(err, c);
        isError = true;
      }
      if (res instanceof Response && (!c.finalized || isError)) c.res = res;
    };
    await run(0);
  };
}

/** `handler` for the requests under `prefix` only (what app.use(`${prefix}/*`, handler) does). */
export const under =
  (prefix: string, handler: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) => {
    const path = c.req.path;
    return path === prefix || path.startsWith(`${prefix}/`) ? handler(c, next) : next();
  };
