// How an operation is retired (docs/VERSIONING.md): wrap its createRoute() config in retired().
// The document then marks it `deprecated: true` with the dates in its description and the two
// headers on every response; every answer carries `Deprecation` (RFC 9745: when it was
// deprecated, as `@<unix seconds>`), `Sunset` (RFC 8594: the HTTP date after which it may be
// gone) and, when there is one, a `Link` to its successor.
import type { RouteConfig } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';

export interface Retirement {
  /** The day it was deprecated, YYYY-MM-DD (UTC). */
  since: string;
  /** The first day it may be gone, YYYY-MM-DD (UTC); at least six months after `since` within v1. */
  sunset: string;
  /** The operation that replaces it, as a path of this API, e.g. /v1/api/bookings/as-sender. */
  successor?: string;
}

const day = (date: string) => {
  const at = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(at)) throw new Error(`retired(): ${date} is not a YYYY-MM-DD date`);
  return at;
};

/** The response headers of a retired operation (the header values, computed once). */
export function retirementHeaders(retirement: Retirement): Record<string, string> {
  const headers: Record<string, string> = {
    Deprecation: `@${Math.floor(day(retirement.since) / 1000)}`,
    Sunset: new Date(day(retirement.sunset)).toUTCString(),
  };
  if (retirement.successor) headers.Link = `<${retirement.successor}>; rel="successor-version"`;
  return headers;
}

/** Marks a route deprecated: document flag and note, and the headers on all its answers (errors too). */
export function retired<R extends RouteConfig>(route: R, retirement: Retirement): R {
  const headers = retirementHeaders(retirement);
  if (day(retirement.sunset) <= day(retirement.since)) throw new Error('retired(): the sunset must come after the deprecation');
  const announce = createMiddleware<AppEnv>(async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });
  const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware];
  const note =
    `Deprecated since ${retirement.since}; it may be removed after ${retirement.sunset} (Sunset header)` +
    (retirement.successor ? `; use ${retirement.successor} instead.` : '.');
  return {
    ...route,
    deprecated: true,
    description: [note, route.description].filter(Boolean).join('\n\n'),
    // First, so the headers are set on whatever the route's own middleware answers (401, 403...).
    middleware: [announce, ...own],
  } as R;
}
