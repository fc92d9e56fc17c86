// The guard of the development-only routes (the seed, the development outbox): anywhere but
// ENVIRONMENT=development they answer as a path no route serves. Given as a route's middleware,
// it runs before the route's validators, so bad input cannot tell such a route from no route.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { noEndpoint } from '../errors';

export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.env.ENVIRONMENT !== 'development') throw noEndpoint(c.req.method, c.req.path);
  await next();
});
