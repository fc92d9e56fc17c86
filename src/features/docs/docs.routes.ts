// The OpenAPI 3.1 document (built from the same zod schemas that validate requests) and an
// interactive reference served entirely by the worker: Scalar's bundle is a static asset
// (public/vendor, copied from the version pinned in package.json), so the page works offline.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { html, raw } from 'hono/html';
import type { AppEnv } from '../../env';
import { ErrorResponseSchema } from '../../errors';
import { SOCKET_SCHEME } from '../../lib/openapi';
import { API_PREFIX } from '../../lib/urls';
import { cspNonce } from '../../middleware/content-security-policy';
import { finishDocument, type OpenApiDocument } from './document';

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const SCALAR_BUNDLE_PATH = '/vendor/scalar-api-reference.js';

/** Only what the worker serves: no web fonts, telemetry, AI agent, MCP or hosted tools (all off-site). */
const SCALAR_CONFIGURATION = {
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  showToolbar: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
};

/** Registers /openapi.json and /docs on the root app (the document needs the whole registry). */
export function registerDocs(app: OpenAPIHono<AppEnv>) {
  /** Built once per app and origin: the registry does not change after start-up. */
  const documents = new Map<string, OpenApiDocument>();
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from /v1/api/auth/login (15 minutes)',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'socketSubprotocol', SOCKET_SCHEME);
  app.openAPIRegistry.register('ErrorResponse', ErrorResponseSchema);
  app.openapi(
    createRoute({
      method: 'get',
      operationId: 'getOpenApiDocument',
      path: OPENAPI_PATH,
      tags: ['Service'],
      summary: 'This OpenAPI 3.1 document',
      description: 'The machine-readable description of every operation this deployment serves, built once per origin from the route definitions themselves (so it lists exactly the routes mounted here; the development-only ones are absent in production), with the server set to the requesting origin. The SDK\'s types are generated from it. Public, no account needed.',
      security: [],
      responses: { 200: { description: 'OpenAPI document', content: { 'application/json': { schema: z.object({}).passthrough() } } } },
    }),
    (c) => {
      const origin = new URL(c.req.url).origin;
      let doc = documents.get(origin);
      if (!doc) {
        doc = finishDocument(
          app.getOpenAPI31Document({
            openapi: '3.1.0',
            info: {
              title: 'Parcel Transport Marketplace API',
              version: '2.0.0',
              description: 'Peer-to-peer parcel transport: trips, bookings, payments in escrow, QR handover, tracking.',
              contact: { name: 'API reference', url: `${origin}${API_PREFIX}/docs` },
            },
            servers: [{ url: origin }],
            security: [{ bearerAuth: [] }],
          }),
          API_PREFIX,
        );
        documents.set(origin, doc);
      }
      return c.json(doc as unknown as Record<string, unknown>, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      operationId: 'apiReferencePage',
      path: `${API_PREFIX}/docs`,
      tags: ['Service'],
      summary: 'Interactive API reference (served by the worker, works offline)',
      description: 'An HTML page rendering this document with the Scalar API reference, whose script is served by the worker itself (no third-party request, so it works offline), under a content security policy with a per-response nonce. Public, no account needed.',
      security: [],
      responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
    }),
    (c) => {
      const nonce = cspNonce(c);
      return c.html(
        html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parcel Transport Marketplace API</title>
</head>
<body>
<div id="app"></div>
<script src="${SCALAR_BUNDLE_PATH}" nonce="${nonce}"></script>
<script nonce="${nonce}">Scalar.createApiReference('#app', ${raw(JSON.stringify(SCALAR_CONFIGURATION))})</script>
</body>
</html>`,
        200,
      );
    },
  );
}
