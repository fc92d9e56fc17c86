// One JSON log line per request. Only method, path (no query string and no recipient token: they
// may carry secrets), status, duration and request id are written.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { redactUrlSecrets } from '../lib/urls';

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  console.log(
    JSON.stringify({
      level: 'info',
      requestId: c.get('requestId'),
      method: c.req.method,
      // Recipient and receipt links carry their secret in the path: logged as `:token`.
      path: redactUrlSecrets(c.req.path),
      status: c.res.status,
      durationMs: Date.now() - started,
    }),
  );
});
