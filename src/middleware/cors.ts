// CORS for the API: the browser origins of CORS_ORIGINS. Preflights (OPTIONS) are answered by hono's
// cors middleware. Other requests get the same headers set on the finished answer in place: hono's
// middleware sets them on a placeholder before the handler and appends Vary after it, which copies
// the whole answer twice a request.
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { BOOKMARK_HEADER } from '../db/session';
import type { AppEnv } from '../env';
import { setResponseHeaders } from '../lib/response-headers';

const allowedOrigins = new WeakMap<Env, string[]>();

/** CORS_ORIGINS parsed once per environment. */
function corsOrigins(env: Env): string[] {
  let origins = allowedOrigins.get(env);
  if (!origins) {
    origins = (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    allowedOrigins.set(env, origins);
  }
  return origins;
}

const EXPOSED = ['X-Request-Id', 'Retry-After', BOOKMARK_HEADER].join(',');

const preflight = cors({
  origin: (origin, c) => (corsOrigins(c.env).includes(origin) ? origin : null),
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', BOOKMARK_HEADER],
  exposeHeaders: EXPOSED.split(','),
  maxAge: 600,
});

export const apiCors = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'OPTIONS') return preflight(c, next);
  await next();
  const origin = c.req.header('Origin');
  const headers: [string, string][] = [];
  if (origin && corsOrigins(c.env).includes(origin)) headers.push(['Access-Control-Allow-Origin', origin]);
  headers.push(['Access-Control-Expose-Headers', EXPOSED]);
  setResponseHeaders(c, headers);
  try {
    c.res.headers.append('Vary', 'Origin');
  } catch {
    c.header('Vary', 'Origin', { append: true }); // immutable headers (an answer passed through): hono copies it
  }
});
