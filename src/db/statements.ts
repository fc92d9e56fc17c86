// The statement layer: what every feature builds its D1 statements with, typed by the schema
// (a renamed column fails the typecheck). Conditional writes inside a batch (guardedInsert,
// rowExists), wide joins that survive D1's batch (aliasedColumns), and statements compiled once
// for the hot paths (compiled, compiledShapes). No feature writes SQL text naming a table.
import { Column, count, exists, getTableColumns, getTableName, is, sql, SQL, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { offsetOf } from '../lib/pagination';
import type { Db } from './client';
import { boundQuery, compileBuilder, decodesAsIs, executeAlone, type CompiledQuery } from './internals';

export type Statement = BatchItem<'sqlite'>;

/**
 * One statement on its own: one round trip, like a batch of one, but cheaper to read back (a
 * select's rows arrive as arrays, not as objects keyed by column). The hot reads that need nothing
 * else in their round trip use it.
 */
export const runAlone = <S extends Statement>(statement: S): Promise<BatchResponse<[S]>[0]> => executeAlone(statement) as Promise<BatchResponse<[S]>[0]>;

/** Runs statements as one atomic D1 batch (one round trip); the results in statement order. */
export async function runBatch(db: Db, statements: readonly Statement[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  return db.batch(statements as [Statement, ...Statement[]]);
}

/** `EXISTS (SELECT 1 FROM table WHERE condition)`: the guard of a conditional statement. */
export const rowExists = (db: Db, table: SQLiteTable, condition: SQL | undefined): SQL =>
  exists(db.select({ one: sql`1` }).from(table).where(condition));

/** Values, SQL, columns of the source, or placeholders of a compiled statement (encoded by their column when bound). */
type RowValues<T extends SQLiteTable> = { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | SQL | Column | Placeholder };

/**
 * `INSERT INTO table SELECT <values> FROM source WHERE condition LIMIT 1`: a row inserted only if
 * a condition holds when the batch reaches it (a reservation only if the trip still has room, a
 * ledger line only if its entry was written). Plain values are encoded by their column (JSON,
 * booleans); SQL values and columns of `source` are used as they are; an omitted column takes its
 * default, or NULL (so `id` autoincrements). Without a source the condition stands alone.
 */
export function guardedInsert<T extends SQLiteTable>(
  db: Db,
  table: T,
  values: RowValues<T>,
  source: GuardedSource,
  condition: SQL | undefined,
) {
  return db.insert(table).select(guardedSelect(db, table, { values, condition, source }));
}

/** What guarded rows are selected from: a table, a FROM clause with its joins, or nothing (the condition alone). */
export type GuardedSource = SQLiteTable | SQL | undefined;

/**
 * One SELECT of a guarded insert: its values, the condition it is written under and, when it has
 * its own, what it reads from; `limit` rows at most (one unless said: a source joined to a list
 * writes one row per member of the list).
 */
export interface GuardedRows<T extends SQLiteTable> {
  values: RowValues<T>;
  condition: SQL | undefined;
  source?: GuardedSource;
  limit?: number;
}

/**
 * `"table"."column"`: drizzle drops the table of a column selected from one table, which a source
 * with joins (an SQL FROM clause) makes ambiguous.
 */
export const qualified = (column: Column) => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** The SELECT of a guarded insert: every column of `table` in order. */
function guardedSelect<T extends SQLiteTable>(db: Db, table: T, { values, condition, source, limit = 1 }: GuardedRows<T>) {
  const fields: Record<string, SQL> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = (values as Record<string, unknown>)[key];
    if (value === undefined) fields[key] = column.default === undefined ? sql`NULL` : is(column.default, SQL) ? column.default : sql`${sql.param(column.default, column)}`;
    else if (is(value, Column)) fields[key] = qualified(value);
    else if (is(value, SQL)) fields[key] = sql`${value}`;
    else fields[key] = sql`${sql.param(value, column)}`;
  }
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`a guarded insert writes at least one row: limit ${limit}`);
  // The dynamic field map defeats drizzle's static key check; the runtime check still applies.
  const select = db.select(fields).from(source ?? sql`(SELECT 1)`).where(condition);
  // The bound written as a literal, not bound: SQLite prepares an INSERT ... SELECT whose LIMIT is a
  // parameter at 0.05-0.3 ms more CPU (npm run bench, the deposit's deliveries insert the most).
  return sql`${select.getSQL()} LIMIT ${sql.raw(String(limit))}`;
}

/**
 * Several guarded SELECTs in one statement (`INSERT ... SELECT ... UNION ALL SELECT ...`), each
 * with its own condition (and source, when it has one; `source` otherwise): one statement's
 * overhead in the batch instead of one per row (an insert costs D1 reads even when it inserts nothing).
 */
export function guardedInsertAll<T extends SQLiteTable>(db: Db, table: T, rows: readonly GuardedRows<T>[], source?: GuardedSource) {
  if (rows.length === 1) return db.insert(table).select(guardedSelect(db, table, { ...rows[0], source: rows[0].source ?? source }));
  // Each member in a subquery of its own: SQLite allows no LIMIT on a member of a compound SELECT.
  const members = rows.map((row) => sql`SELECT * FROM (${guardedSelect(db, table, { ...row, source: row.source ?? source })})`);
  return db.insert(table).select(sql.join(members, sql` UNION ALL `));
}

/**
 * The rows of `table` matching `where` as one JSON column of another statement's row
 * (`json_group_array`), decoded back like the columns: a one-to-many read (a reservation's items,
 * a booking's categories) without a statement of its own. `omit` leaves columns out.
 */
export function rowsAsJson<T extends SQLiteTable, K extends keyof T['$inferSelect'] & string = never>(
  table: T,
  where: SQL | undefined,
  options: { omit?: readonly K[]; orderBy?: SQL | Column } = {},
) {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => !(options.omit as readonly string[] | undefined)?.includes(key));
  // json_object() gives every column under its key, in order: only the cells a column decodes
  // (booleans, JSON) are rewritten, in place.
  const decoded = columns.filter(([, column]) => !decodesAsIs(column));
  const decode = (raw: Record<string, unknown>) => {
    for (const [key, column] of decoded) if (raw[key] !== null) raw[key] = column.mapFromDriverValue(raw[key]);
    return raw;
  };
  const pairs = sql.join(
    columns.map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
    sql`, `,
  );
  const order = options.orderBy ? sql` ORDER BY ${options.orderBy}` : sql``;
  return sql`(SELECT json_group_array(json_object(${pairs})${order}) FROM ${table} WHERE ${where})`.mapWith((text: string) =>
    (JSON.parse(text) as Record<string, unknown>[]).map(decode),
  ) as SQL<Omit<T['$inferSelect'], K>[]>;
}

/**
 * Every column of `table` under a unique alias (`prefix_column`), decoded like the column. D1's
 * batch returns rows as objects keyed by column name, so a join of tables sharing names (`id`,
 * `created_at`) loses columns inside db.batch(); aliased selections keep them apart. `only` keeps
 * wide joins under D1's limit of 100 result columns.
 */
export function aliasedColumns<T extends SQLiteTable, K extends keyof T['$inferSelect'] & string = keyof T['$inferSelect'] & string>(
  table: T,
  prefix: string,
  only?: readonly K[],
) {
  const fields: Record<string, SQL.Aliased> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (only && !only.includes(key as K)) continue;
    fields[key] = sql`${column}`.mapWith(column).as(`${prefix}_${column.name}`);
  }
  return fields as { [P in K]: SQL.Aliased<T['$inferSelect'][P]> };
}

// ---------------------------------------------------------------------------------------------
// Compiled statements, for the hot paths only (the endpoints of docs/BENCHMARKS.md). Drizzle turns
// a builder into SQL text on every call, and for wide joins that costs more CPU than the D1 read
// itself (npm run bench: about 2 ms for the reservation view, 0.3 ms for a one-table select). A
// compiled statement is built once with placeholders; each use only binds values. It is a batch
// item like any builder, decoded the same way. How it is bound lives in internals.ts, the one file
// that uses drizzle's private API.

/** The placeholders of a compiled statement: one per value it binds, named and typed by it. */
export type Placeholders<V> = { readonly [K in keyof V]: Placeholder<K & string, V[K]> };

/**
 * `build(db, p)` compiled on first use, with `p.name` standing for the value bound later under
 * `name`: the values' type (`p: Placeholders<{ id: number }>`) names the placeholders the
 * statement may use and the values each use must bind. Values are bound as given: columns
 * drizzle encodes (JSON, booleans) need driver values. The compiled text depends on nothing but
 * `build` itself: it takes no other input.
 */
export function compiled<B extends object, V extends Record<string, unknown>>(build: (db: Db, p: Placeholders<V>) => B) {
  let query: CompiledQuery | undefined;
  const placeholders = new Proxy({} as Placeholders<V>, { get: (_, name) => sql.placeholder(String(name)) });
  return (db: Db, values: V): B => boundQuery<B>(db, (query ??= compileBuilder(build(db, placeholders))), values);
}

/** The plain values that decide a statement's SQL text (which filters are present, which sort). */
export type Shape = Readonly<Record<string, string | number | boolean | null>>;

/**
 * A shape's cache key. Strings are tagged, so "1" and 1 or "null" and null differ; shape values
 * are names the code chooses (filters present, sort, action), never free text.
 */
const shapeKey = (shape: Shape) =>
  Object.keys(shape)
    .sort()
    .map((k) => {
      const v = shape[k];
      return `${k}=${typeof v === 'string' ? `s:${v}` : String(v)}`;
    })
    .join('&');

/**
 * Compiled statements per shape: `create(shape)` runs on a shape's first use. The cache key is
 * the whole shape (plain values only), so every input that changes the SQL changes the key.
 * Past `max` shapes, new ones are built for the request and not kept.
 */
export function compiledShapes<S extends Shape, T>(create: (shape: S) => T, max = 256) {
  const shapes = new Map<string, T>();
  return (shape: S): T => {
    const key = shapeKey(shape);
    let found = shapes.get(key);
    if (!found) {
      found = create(shape);
      if (shapes.size < max) shapes.set(key, found);
    }
    return found;
  };
}

/**
 * A page's selected fields plus `pageTotal`: the count of every row matching the page's filter,
 * as one more column. The page and its total are then one statement instead of two (SQLite runs
 * the uncorrelated count once per statement, not per row), which is the cost of a statement
 * saved on every listing. Read it back with pageTotal().
 */
export const withTotal = <F extends Record<string, unknown>>(fields: F, countQuery: SQLWrapper) => ({
  ...fields,
  pageTotal: sql<number>`coalesce((${countQuery}), 0)`.mapWith(Number).as('page_total'),
});

/**
 * The total of a withTotal() page. Any row carries it; a page past the end has none, so the
 * count statement `countAlone()` (a `{ total }` select) runs then: a second round trip, only for
 * a page asked beyond the last.
 */
export async function pageTotal(db: Db, rows: readonly { pageTotal: number }[], offset: number, countAlone: () => Statement): Promise<number> {
  if (rows.length > 0) return rows[0].pageTotal;
  if (offset === 0) return 0;
  const [counted] = (await runBatch(db, [countAlone()])) as { total: number }[][];
  return counted[0]?.total ?? 0;
}

/** A withTotal() page as rows without the total column, and its total (pageTotal()). */
export async function totalledPage<R extends { pageTotal: number }>(
  db: Db,
  rows: readonly R[],
  offset: number,
  countAlone: () => Statement,
): Promise<{ rows: Omit<R, 'pageTotal'>[]; total: number }> {
  const total = await pageTotal(db, rows, offset, countAlone);
  return { rows: rows.map(({ pageTotal: _, ...row }) => row), total };
}

/**
 * One page of a table's rows and the count of all rows matching `where`, in one statement (the
 * page carries its total, withTotal); the count alone only for a page past the last.
 */
export async function readPage<T extends SQLiteTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  order: SQL[],
  page: { page: number; size: number },
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const countAll = db.select({ total: count() }).from(table).where(where);
  const offset = offsetOf(page);
  const found = (await db
    .select(withTotal(getTableColumns(table), countAll))
    .from(table as SQLiteTable)
    .where(where)
    .orderBy(...order)
    .limit(page.size)
    .offset(offset)) as (T['$inferSelect'] & { pageTotal: number })[];
  return totalledPage(db, found, offset, () => countAll) as Promise<{ rows: T['$inferSelect'][]; total: number }>;
}

/**
 * `column IN (values)` read in slices: D1 binds at most 100 parameters per statement, so `read`
 * gets at most `size` distinct values at a time (room left for its other parameters).
 */
export async function inSlices<V, T>(values: readonly V[], read: (slice: V[]) => Promise<T[]>, size = 90): Promise<T[]> {
  const out: T[] = [];
  const unique = [...new Set(values)];
  for (let i = 0; i < unique.length; i += size) out.push(...(await read(unique.slice(i, i + size))));
  return out;
}
