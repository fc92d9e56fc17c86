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
    description: 'Creates the demo data `npm start` relies on: demo accounts of each role (e-mail verified), categories and trips, a pending booking, a paid reservation, a handover in progress, console examples, a corridor\'s prohibited items and a protected dispute. Each step inserts only what is missing, so running it again changes nothing. Answers the demo accounts and their password (or that it comes from DEMO_PASSWORD). Outside ENVIRONMENT=development it answers 404 as if it did not exist.',
    security: [],
    middleware: [developmentOnly] as const,
    responses: { 200: jsonContent(SeedResultSchema, 'Demo accounts'), ...errorResponses(404) },
  }),
  async (c) => c.json(await runSeed(c.get('deps')), 200),
);
