// Development-only endpoints: the seed that `npm start` calls. Anywhere but ENVIRONMENT=development
// they answer as if they did not exist.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { endpointNotFound } from '../../errors';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { runSeed } from './seed';

const SeedResultSchema = z
  .object({
    accounts: z.array(z.object({ id: z.number().int(), email: z.string(), roles: z.array(z.string()) })),
    password: z.string(),
  })
  .openapi('SeedResult');

export const devRouter = createRouter().openapi(
  createRoute({
    method: 'post',
    operationId: 'seedDemoData',
    path: '/dev/seed',
    tags: ['Development'],
    summary: 'Seed demo data (ENVIRONMENT=development only; idempotent)',
    security: [],
    responses: { 200: jsonContent(SeedResultSchema, 'Demo accounts'), ...errorResponses(404) },
  }),
  async (c) => {
    if (c.env.ENVIRONMENT !== 'development') {
      throw endpointNotFound(`No endpoint ${c.req.method} ${c.req.path}`, {
        suggestions: ['See the API reference at /v1/api/docs'],
      });
    }
    return c.json(await runSeed(c.var.deps), 200);
  },
);
