// Drizzle turns a query builder into SQL text on every call, and for wide joins that costs more
// CPU than the D1 read itself (npm run bench: about 2.2 ms to build the reservation view, 0.3 ms
// for a one-table select). A compiled query is built once with placeholders; each use only binds
// the values. It is a batch item like any query builder, mapped to rows the same way. Values are
// bound as given: columns that drizzle encodes (JSON, booleans) need driver values.
import { fillPlaceholders, sql, type Placeholder } from 'drizzle-orm';
import type { Db } from './client';

interface PreparedSelect {
  getQuery(): { sql: string; params: unknown[] };
  fields: unknown;
  joinsNotNullableMap: unknown;
  executeMethod: 'all' | 'run' | 'get';
}

interface DrizzleSession {
  prepareOneTimeQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    executeMethod: PreparedSelect['executeMethod'],
    isResponseInArrayMode: boolean,
  ): PreparedSelect;
}

/** `build(db, p)` with `p.name` standing for the value given later under `name` (a select, or a write). */
export function compiledQuery<B extends object, K extends string>(build: (db: Db, p: Record<K, Placeholder>) => B) {
  let compiled: { sql: string; params: unknown[]; fields: unknown; joinsNotNullableMap: unknown; method: PreparedSelect['executeMethod'] } | undefined;
  const placeholders = new Proxy({} as Record<K, Placeholder>, { get: (_, name) => sql.placeholder(String(name)) });
  return (db: Db, values: Record<K, unknown>): B => {
    if (!compiled) {
      const prepared = (build(db, placeholders) as unknown as { _prepare(): PreparedSelect })._prepare();
      const { sql: text, params } = prepared.getQuery();
      compiled = { sql: text, params, fields: prepared.fields, joinsNotNullableMap: prepared.joinsNotNullableMap, method: prepared.executeMethod };
    }
    const { sql: text, params, fields, joinsNotNullableMap, method } = compiled;
    // What db.batch() needs of a query builder: _prepare() giving a prepared query with bound values.
    const item = {
      _prepare() {
        const session = (db as unknown as { session: DrizzleSession }).session;
        const prepared = session.prepareOneTimeQuery({ sql: text, params: fillPlaceholders(params, values) }, fields, method, true);
        prepared.joinsNotNullableMap = joinsNotNullableMap;
        return prepared;
      },
    };
    return item as unknown as B;
  };
}

/**
 * Compiled queries per shape (which filters are present, which sort): `create` runs on a key's
 * first use. Past `max` shapes, new ones are built for the request and not kept.
 */
export function perShape<A extends unknown[], T>(create: (...args: A) => T, max = 256) {
  const shapes = new Map<string, T>();
  return (key: string, ...args: A): T => {
    let shape = shapes.get(key);
    if (!shape) {
      shape = create(...args);
      if (shapes.size < max) shapes.set(key, shape);
    }
    return shape;
  };
}
