// The one file that reaches past public APIs: drizzle-orm's prepared-query machinery (for the
// compiled statements of statements.ts) and the transport of workerd's D1 session (for the
// request's round trips and rows, session.ts). Nothing else in src names a private member.
// drizzle-orm is pinned to one exact version in package.json; test/db-statements.test.ts and
// test/round-trips.test.ts fail when an upgrade of drizzle-orm or workerd changes what is used here.
import { Column, fillPlaceholders, getTableName, is, noopDecoder, SQL, Subquery } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

// ---------------------------------------------------------------------------------------------
// drizzle-orm. Why: drizzle turns a builder into SQL text on every call, which for a wide join
// costs more CPU than the D1 read (npm run bench: about 2 ms for the reservation view). Its public
// prepare() binds the statement to one D1 handle, and a handle lives for one request (the
// session); a compiled statement must outlive it. What is used: a builder's `_prepare()` giving a
// prepared query with `getQuery()`, `fields` (as drizzle's orderSelectedFields gives them),
// `joinsNotNullableMap` and `executeMethod`; the D1 session (`db.session`) and its
// `prepareOneTimeQuery(query, fields, executeMethod, isResponseInArrayMode, customResultMapper)`,
// whose mapper receives a select's rows as arrays; the prepared query's `execute()` (a statement
// run alone) and its `mapAllResult(result, isFromBatch)`, replaced for compiled selects.

/** The parts of drizzle's prepared query a compiled statement keeps. */
export interface DrizzlePrepared {
  getQuery(): { sql: string; params: unknown[] };
  fields: unknown;
  joinsNotNullableMap: unknown;
  executeMethod: 'all' | 'run' | 'get';
}

interface DrizzleSession {
  prepareOneTimeQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    executeMethod: DrizzlePrepared['executeMethod'],
    isResponseInArrayMode: boolean,
    customResultMapper?: RowsMapper,
  ): DrizzlePrepared;
}

/** A prepared query's selected fields (drizzle's orderSelectedFields): a result path and a column or SQL. */
interface SelectedField {
  path: string[];
  field: unknown;
}
type NotNullableJoins = Record<string, boolean> | undefined;
type Decoder = { mapFromDriverValue(value: unknown): unknown };
type RowsMapper = (rows: unknown[][]) => Record<string, unknown>[];

/** Decoders that return the driver value as it is: a cell they would decode is taken as it comes. */
const IDENTITY_DECODERS = new Set<unknown>([Column.prototype.mapFromDriverValue, noopDecoder.mapFromDriverValue]);

/** Whether decoding with `decoder` changes nothing (a plain integer or text column, an unmapped SQL). */
export const decodesAsIs = (decoder: Decoder): boolean => IDENTITY_DECODERS.has(decoder.mapFromDriverValue);

/**
 * drizzle's mapResultRow with its per-cell work done once per statement: for every cell it asks
 * which kind of field gives the decoder (`is()` walks prototypes), which table a column belongs
 * to, and walks the result path from the top. Here each cell knows its decoder (none when the
 * column's is the identity) and the object it lands in, by index. The result is the same object
 * (test/db-statements.test.ts compares them): each value decoded unless NULL, nested by path, keys
 * in the same order, and a left-joined table whose columns are all NULL turned into null.
 */
export function rowsMapper(fields: readonly SelectedField[], joinsNotNullableMap: NotNullableJoins): RowsMapper {
  // The nested objects of a row: 0 is the row itself; each other one hangs under `key` of `parent`.
  const nodes: { parent: number; key: string }[] = [{ parent: -1, key: '' }];
  const nodeOf = new Map<string, number>([['', 0]]);
  const plan = fields.map(({ path, field }) => {
    const f = field as { decoder: Decoder; table: SQLiteTable; _: { sql: { decoder: Decoder } }; sql: { decoder: Decoder } };
    const decoder: Decoder = is(field, Column) ? (field as Decoder) : is(field, SQL) ? f.decoder : is(field, Subquery) ? f._.sql.decoder : f.sql.decoder;
    const tableName = joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(f.table) : undefined;
    let node = 0;
    for (let depth = 1; depth < path.length; depth++) {
      const id = path.slice(0, depth).join('\u0000');
      let found = nodeOf.get(id);
      if (found === undefined) {
        found = nodes.push({ parent: node, key: path[depth - 1] }) - 1;
        nodeOf.set(id, found);
      }
      node = found;
    }
    const decode = decodesAsIs(decoder) ? null : decoder;
    return { node, key: path[path.length - 1], decode, tableName, objectName: path[0] };
  });
  // drizzle turns a left-joined object into null when the first of its joined columns is NULL and
  // they all come from one table that may be missing from the join: which objects can, and the cell
  // that decides, are known here, so a row checks one cell per such object.
  const nullable: { objectName: string; index: number; decode: Decoder | null }[] = [];
  if (joinsNotNullableMap) {
    const joined = new Map<string, { index: number; tableName: string | false }>();
    plan.forEach(({ tableName, objectName }, index) => {
      if (tableName === undefined) return;
      const first = joined.get(objectName);
      if (!first) joined.set(objectName, { index, tableName });
      else if (first.tableName !== tableName) first.tableName = false;
    });
    for (const [objectName, { index, tableName }] of joined) if (tableName !== false && !joinsNotNullableMap[tableName]) nullable.push({ objectName, index, decode: plan[index].decode });
  }
  const mapRow = (row: unknown[]) => {
    // Created on their first cell, as mapResultRow does: the parent's keys keep its order.
    const made: (Record<string, unknown> | undefined)[] = new Array(nodes.length);
    const result: Record<string, unknown> = {};
    made[0] = result;
    const objectOf = (n: number): Record<string, unknown> => {
      let object = made[n];
      if (object === undefined) {
        object = {};
        objectOf(nodes[n].parent)[nodes[n].key] = object;
        made[n] = object;
      }
      return object;
    };
    for (let i = 0; i < plan.length; i++) {
      const { node, key, decode } = plan[i];
      const raw = row[i];
      (made[node] ?? objectOf(node))[key] = raw === null ? null : decode === null ? raw : decode.mapFromDriverValue(raw);
    }
    for (const { objectName, index, decode } of nullable) {
      const raw = row[index];
      if (raw === null || (decode !== null && decode.mapFromDriverValue(raw) === null)) result[objectName] = null;
    }
    return result;
  };
  return (rows) => rows.map(mapRow);
}

/** A builder's prepared form (drizzle-internal `_prepare`). */
export const prepareBuilder = (builder: unknown): DrizzlePrepared => (builder as { _prepare(): DrizzlePrepared })._prepare();

/**
 * A builder or compiled statement executed alone (the prepared query's own `execute`): a select
 * reads its rows with D1's raw(), as arrays, where a batch of one gets objects that are then
 * turned back into arrays.
 */
export const executeAlone = (builder: unknown): Promise<unknown> => (prepareBuilder(builder) as DrizzlePrepared & { execute(): Promise<unknown> }).execute();

/** A builder turned into what binding it needs: its SQL text with placeholders, and how its rows are decoded. */
export interface CompiledQuery {
  sql: string;
  params: unknown[];
  fields: unknown;
  joinsNotNullableMap: unknown;
  method: DrizzlePrepared['executeMethod'];
  /** The rows of a select decoded in one pass (rowsMapper); null for writes, which drizzle maps itself. */
  mapRows: RowsMapper | null;
}

/** Compiles a builder built with placeholders, once. */
export function compileBuilder(builder: unknown): CompiledQuery {
  const prepared = prepareBuilder(builder);
  const { sql, params } = prepared.getQuery();
  const { fields, joinsNotNullableMap, executeMethod: method } = prepared;
  const mapRows = method === 'all' && Array.isArray(fields) ? rowsMapper(fields as SelectedField[], joinsNotNullableMap as NotNullableJoins) : null;
  return { sql, params, fields, joinsNotNullableMap, method, mapRows };
}

/**
 * A compiled query bound to `values`, as what db.batch() and an awaiting caller need of a
 * builder: `_prepare()` answering with the query prepared on `db`'s own D1 handle.
 */
export function boundQuery<B>(db: Db, compiled: CompiledQuery, values: Record<string, unknown>): B {
  const { sql, params, fields, joinsNotNullableMap, method, mapRows } = compiled;
  const item = {
    _prepare() {
      const session = (db as unknown as { session: DrizzleSession }).session;
      const prepared = session.prepareOneTimeQuery({ sql, params: fillPlaceholders(params, values) }, fields, method, true, mapRows ?? undefined);
      prepared.joinsNotNullableMap = joinsNotNullableMap;
      if (mapRows) {
        // Inside a batch D1 answers rows as objects keyed by column (aliased: no two share a name),
        // which drizzle turns back into arrays key by key; Object.values gives the same arrays.
        const prepare = prepared as DrizzlePrepared & { mapAllResult(result: unknown, isFromBatch?: boolean): unknown };
        prepare.mapAllResult = (result, isFromBatch) =>
          mapRows(isFromBatch ? (result as { results: Record<string, unknown>[] }).results.map(Object.values) : (result as unknown[][]));
      }
      return prepared;
    },
  };
  return item as unknown as B;
}

// ---------------------------------------------------------------------------------------------
// workerd's D1 session. Why: the rows D1 reports read and written (meta.rows_read, rows_written)
// are dropped by the public raw() and first(), and drizzle reads selects with raw(); a
// D1Database-shaped wrapper would miss them. What is used: the session sends every request to D1
// through one of two methods, `_send` (statements' all/first/run/raw and batch(), one call each;
// failures come back as results) or `_queryOrThrow` (the same under the d1_binding_jsrpc flag),
// whose results carry each statement's `meta`. test/round-trips.test.ts checks the counts against
// a binding counted from the outside, so a workerd that renames them fails there.

/** A request's D1 round trips and rows read / written. */
export interface D1Counter {
  roundTrips: number;
  rowsRead: number;
  rowsWritten: number;
}

type D1Meta = { meta?: { rows_read?: number; rows_written?: number } };

interface SessionTransport {
  _send?: (...args: unknown[]) => Promise<D1Meta | D1Meta[]>;
  _queryOrThrow?: (...args: unknown[]) => Promise<D1Meta[]>;
}

/**
 * The session, counting round trips (one per statement executed outside a batch, one per batch)
 * and summing the rows D1 reports read and written. The request's own session object is
 * instrumented in place (its two transport methods shadowed on the instance): statements stay
 * native, batch() receives them as they are, and nothing is proxied per property access.
 */
export function countingSession(session: D1DatabaseSession, counter: D1Counter): D1DatabaseSession {
  const add = (result: D1Meta | D1Meta[] | undefined) => {
    for (const r of Array.isArray(result) ? result : [result]) {
      counter.rowsRead += r?.meta?.rows_read ?? 0;
      counter.rowsWritten += r?.meta?.rows_written ?? 0;
    }
  };
  const transport = session as unknown as SessionTransport;
  for (const name of ['_send', '_queryOrThrow'] as const) {
    const original = transport[name];
    if (typeof original !== 'function') continue;
    Object.defineProperty(session, name, {
      configurable: true,
      writable: true,
      value: async (...args: unknown[]) => {
        counter.roundTrips += 1;
        const result = await original.apply(session, args);
        add(result);
        return result;
      },
    });
  }
  return session;
}
