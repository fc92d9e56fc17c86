// What a console page reads from its path and query: the record id, the list's page, size and
// sort, a filter that must be one of known values. A bad value is a 404 (id) or the default.
import { notFound } from '../../errors';
import { pageQuery } from '../../lib/pagination';
import type { ConsoleContext } from './console.http';

export const pathId = (c: ConsoleContext) => {
  const raw = c.req.param('id') ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw notFound('Page');
  return Number(raw);
};

/**
 * A list's reader of page, size and sort from the query (the API's one schema, built once per
 * list at load); a bad value falls back to the defaults.
 */
export function listPage<F extends string>(sortable: readonly F[], defaultSort: `${F},${'asc' | 'desc'}`) {
  const schema = pageQuery({ sortable, defaultSort });
  return (c: ConsoleContext) => {
    const { page: p, size, sort } = c.req.query();
    const parsed = schema.safeParse({ page: p, size, sort });
    return parsed.success ? parsed.data : schema.parse({});
  };
}

export const oneOf = <T extends string>(values: readonly T[], raw: string | undefined): T | undefined =>
  raw && (values as readonly string[]).includes(raw) ? (raw as T) : undefined;
