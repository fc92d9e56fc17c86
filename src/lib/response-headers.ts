// Response headers added by middleware after the handler has answered.
import type { Context } from 'hono';

/**
 * Headers set on the finished response in place: c.header() after the handler copies the whole
 * response once per call. A response whose headers are immutable (one a handler passed through
 * from fetch) goes through c.header(), which copies it.
 */
export function setResponseHeaders(c: Context, headers: readonly [string, string][]) {
  if (headers.length === 0) return;
  try {
    for (const [name, value] of headers) c.res.headers.set(name, value);
  } catch {
    for (const [name, value] of headers) c.header(name, value);
  }
}
