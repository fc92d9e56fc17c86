// One JSON log line per request. Only method, path (no query string and no recipient token: they
// may carry secrets), status, duration and request id are written.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';

/** Recipient and receipt links carry their secret in the path: logged as `:token`. */
const redactPath = (path: string) => path.replace(/^(\/r|\/v1\/api\/public\/recipient|\/v1\/api\/public\/receipts)\/[^/]+/, '$1/:token');

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  console.log(
    JSON.stringify({
      level: 'info',
      requestId: c.get('requestId'),
      method: c.req.method,
      path: redactPath(c.req.path),
      status: c.res.status,
      durationMs: Date.now() - started,
    }),
  );
});
