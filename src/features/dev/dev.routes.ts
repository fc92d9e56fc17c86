// Development-only endpoints: the seed that `npm start` calls. Anywhere but ENVIRONMENT=development
// they answer as if they did not exist.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { errorResponses, jsonContent } from '../../lib/openapi';
import { developmentOnly } from '../../middleware/development-only';
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
    middleware: [developmentOnly] as const,
    responses: { 200: jsonContent(SeedResultSchema, 'Demo accounts'), ...errorResponses(404) },
  }),
  async (c) => c.json(await runSeed(c.var.deps), 200),
);
