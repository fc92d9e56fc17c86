// Small builders so each createRoute() states who may call it, its body, its success and its error responses the same way.
import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ErrorResponseSchema } from '../errors';
import { requireAuth, requireRole, type Role } from '../middleware/auth';

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (VALIDATION_ERROR, INVALID_ARGUMENT, MISSING_PARAMETER, TYPE_MISMATCH)',
  401: 'Missing, expired or revoked access token (UNAUTHORIZED) or wrong credentials (AUTHENTICATION_ERROR)',
  402: 'Payment declined or not completed (PAYMENT_ERROR)',
  403: 'Insufficient permissions or not the owner of the resource (ACCESS_DENIED)',
  404: 'Resource not found (RESOURCE_NOT_FOUND)',
  409: 'Conflict (ALREADY_EXISTS, INVALID_STATE)',
  413: 'Request body too large (INVALID_ARGUMENT)',
  415: 'Unsupported media type (INVALID_ARGUMENT)',
  422: 'Business rule violated (BUSINESS_RULE_VIOLATION, INSUFFICIENT_FUNDS, STRIPE_CONNECT_NOT_CONFIGURED)',
  429: 'Too many requests (BUSINESS_RULE_VIOLATION, with Retry-After)',
  500: 'Unexpected error (INTERNAL_ERROR)',
  502: 'Payment provider failure (PAYMENT_PROCESSING_ERROR)',
};

const errorResponse = (status: number) => ({
  description: ERROR_DESCRIPTIONS[status] ?? 'Error',
  content: { 'application/json': { schema: ErrorResponseSchema } },
});

/** Error responses for a route: 400 and 500 always, plus the ones given. */
export function errorResponses(...statuses: number[]) {
  const all = [...new Set([400, 500, ...statuses])].sort();
  return Object.fromEntries(all.map((s) => [s, errorResponse(s)])) as Record<number, ReturnType<typeof errorResponse>>;
}

/** The usual error set of an authenticated route. */
export const authErrorResponses = (...statuses: number[]) => errorResponses(401, 403, ...statuses);

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  description,
  content: { 'application/json': { schema } },
});

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The body of a response that only confirms (logged out, e-mail sent, account deleted). */
export const MessageSchema = z.object({ message: z.string() }).openapi('Message');

export const bearerSecurity = [{ bearerAuth: [] }];

/**
 * The sockets' real authentication: the access token as the subprotocol `bearer.<accessToken>`
 * (browsers cannot set headers on a WebSocket), or, outside browsers, the usual bearer header.
 * The scheme is registered with the document (features/docs/docs.routes.ts).
 */
export const SOCKET_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: 'Sec-WebSocket-Protocol',
  description:
    'WebSockets: offer the subprotocol `bearer.<accessToken>` (e.g. `new WebSocket(url, [`bearer.${accessToken}`])`); the handshake ' +
    'selects another subprotocol offered beside it, else that one. Clients that can set headers may send Authorization: Bearer instead.',
} as const;
export const socketSecurity: Record<string, string[]>[] = [{ socketSubprotocol: [] }, { bearerAuth: [] }];

/** The bearer scheme and the route's middleware, as a tuple so the handler's env is inferred from each one. */
const bearerRoute = <M extends MiddlewareHandler<AppEnv>[]>(...middleware: M) => ({ security: bearerSecurity, middleware });

/** A route for signed-in callers: documents the bearer token and runs requireAuth. Spread it: `...signedIn(),`. */
export const signedIn = () => bearerRoute(requireAuth);

/** A route for signed-in callers holding one of the roles (a super-admin holds them all): `...withRole('ROLE_ADMIN'),`. */
export const withRole = (...roles: Role[]) => bearerRoute(requireAuth, requireRole(...roles));

/** A path parameter an id: it matches digits only, so /annonces/mine is not /annonces/{id}. */
const isIdParam = (name: string) => /(^id|Id)$/.test(name);

/**
 * A lookup of per-route middleware settings by OpenAPI path, for one middleware that serves a
 * whole table (rate limits, public caching) instead of one registration per route: the router
 * then holds only the endpoints, with plain `:param`s it can compile into one expression. A path
 * matches as the router would match it (a parameter is one segment, an id one of digits only); a
 * GET entry answers HEAD too, like the GET route. Static paths are one Map lookup.
 */
export function routeTable<T>(entries: readonly { method: string; path: string; value: T }[]) {
  const exact = new Map<string, T>();
  const patterns: { method: string; pattern: RegExp; value: T }[] = [];
  for (const { method, path, value } of entries) {
    const upper = method.toUpperCase();
    if (!path.includes('{')) {
      if (!exact.has(`${upper} ${path}`)) exact.set(`${upper} ${path}`, value);
      continue;
    }
    const source = path
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return name ? (isIdParam(name) ? '[0-9]+' : '[^/]+') : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      })
      .join('');
    patterns.push({ method: upper, pattern: new RegExp(`^${source}$`), value });
  }
  return (method: string, path: string): T | undefined => {
    const m = method === 'HEAD' ? 'GET' : method;
    const found = exact.get(`${m} ${path}`);
    if (found !== undefined) return found;
    for (const p of patterns) if (p.method === m && p.pattern.test(path)) return p.value;
    return undefined;
  };
}
