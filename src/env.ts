// Typed Hono environment shared by every router: Cloudflare bindings and per-request variables.
import { OpenAPIHono } from '@hono/zod-openapi';
import { validationHook } from './validation';

/** The authenticated caller, set by `requireAuth`. */
export interface AuthUser {
  id: number;
  roles: string[];
  /** Access token id and expiry, so logout can blacklist exactly this token. */
  jti: string;
  exp: number;
  /** The login session (refresh-token family) the access token belongs to. */
  sid?: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    auth: AuthUser;
  };
}

/** Every router is an OpenAPIHono so its routes reach the document and share the validation hook. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
