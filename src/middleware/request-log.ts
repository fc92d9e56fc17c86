// One JSON log line per request. Only method, path (no query string and no recipient token: they
// may carry secrets), status, duration and request id are written. The same request is one metric
// point (providers/metrics): the route's pattern, never the path, so ids and tokens stay out.
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import { requestMetrics } from '../providers/metrics';
import type { AppEnv } from '../env';
import { redactUrlSecrets } from '../lib/urls';

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  const durationMs = Date.now() - started;
  requestMetrics(c.env).request({ method: c.req.method, route: routePath(c) || 'unmatched', status: c.res.status, durationMs });
  console.log(
    JSON.stringify({
      level: 'info',
      requestId: c.get('requestId'),
      method: c.req.method,
      // Recipient and receipt links carry their secret in the path: logged as `:token`.
      path: redactUrlSecrets(c.req.path),
      status: c.res.status,
      durationMs,
    }),
  );
});
