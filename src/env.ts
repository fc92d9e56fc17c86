// Typed Hono environment shared by every router: Cloudflare bindings and per-request variables,
// and the dependencies every service takes first (`deps`).
import { OpenAPIHono } from '@hono/zod-openapi';
import { database, type Db } from './db/client';
import { providersFor, type Providers } from './providers/chosen';
import { isDocumentedOnly, validationHook } from './validation';

/** The authenticated caller, set by `requireAuth`. */
export interface AuthUser {
  id: number;
  roles: string[];
  /** Access token id and expiry, so logout can blacklist exactly this token. */
  jti: string;
  exp: number;
  /** Issue time (seconds): revocation cut-offs compare it (a live socket re-checks its token). */
  iat?: number;
  /** The login session (refresh-token family) the access token belongs to. */
  sid?: string;
}

/**
 * What a service works with, passed explicitly as its first argument: the database handle
 * (the request's D1 session, or the primary outside a request), the configuration and the
 * providers (payment, KYC, e-mail, push, SMS, social login), each chosen when first used.
 */
export interface Deps {
  db: Db;
  env: Env;
  providers: Providers;
}

/** Deps on `db`; outside a request (cron, queue consumers, Durable Objects) queries go to the primary. */
export const depsOf = (env: Env, db: Db = database(env.DB)): Deps => ({ db, env, providers: providersFor(env) });

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    auth: AuthUser;
    /** Built once per request by the D1 session middleware (db/session.ts). */
    deps: Deps;
    /** Nonce of the page's Content-Security-Policy, made by cspNonce() when a page runs a script. */
    cspNonce?: string;
  };
}

/**
 * The roles a route's requireRole() middleware checks (they ride on it as `roles`), written into
 * the route's operation as `x-required-roles`: the document then says who may call it.
 */
function withRequiredRoles<R extends { middleware?: unknown }>(route: R): R {
  const roles = [...new Set([route.middleware].flat().flatMap((m) => (m as { roles?: string[] } | undefined)?.roles ?? []))];
  return roles.length ? { ...route, 'x-required-roles': roles } : route;
}

/**
 * Every router is an OpenAPIHono so its routes reach the document and share the validation hook.
 * A route whose headers are marked `documentedOnly()` is documented with them and mounted without
 * a header validator: its own middleware reads and checks them.
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const mount = router.openapi;
  router.openapi = ((config, handler, hook) => {
    const route = withRequiredRoles(config);
    if (!isDocumentedOnly(route.request?.headers)) return mount(route, handler, hook);
    const { middleware: _middleware, hide, ...documented } = route;
    if (!hide) router.openAPIRegistry.registerPath(documented);
    return mount({ ...route, hide: true, request: { ...route.request, headers: undefined } }, handler, hook);
  }) as typeof mount;
  return router;
}
