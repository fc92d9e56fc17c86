// The OpenAPI 3.1 document (built from the same zod schemas that validate requests) and an
// interactive reference.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import type { AppEnv } from '../../env';
import { ErrorResponseSchema } from '../../errors';

export const OPENAPI_PATH = '/v1/api/openapi.json';

/** Registers /openapi.json and /docs on the root app (the document needs the whole registry). */
export function registerDocs(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from /v1/api/auth/login (15 minutes)',
  });
  app.openAPIRegistry.register('ErrorResponse', ErrorResponseSchema);
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: OPENAPI_PATH,
    tags: ['Service'],
    summary: 'This OpenAPI 3.1 document',
    security: [],
    responses: { 200: { description: 'OpenAPI document', content: { 'application/json': { schema: z.object({}).passthrough() } } } },
  });
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'Parcel Transport Marketplace API',
      version: '2.0.0',
      description: 'Peer-to-peer parcel transport: trips, bookings, payments in escrow, QR handover, tracking.',
    },
    servers: [{ url: new URL(c.req.url).origin }],
    security: [{ bearerAuth: [] }],
  }));
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/api/docs',
      tags: ['Service'],
      summary: 'Interactive API reference',
      security: [],
      responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
    }),
    Scalar<AppEnv>({ url: OPENAPI_PATH, pageTitle: 'Parcel Transport Marketplace API' }) as never,
  );
}
