// One JSON log line per request. Only method, path (no query string: it may carry tokens),
// status, duration and request id are written.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  console.log(
    JSON.stringify({
      level: 'info',
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Date.now() - started,
    }),
  );
});
