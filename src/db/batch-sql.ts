// D1 batch helpers. INSERT ... SELECT built with drizzle, so a batch can insert a row only if a condition holds when
// the batch reaches it (a reservation only if the trip still has room, an item or a notification
// only if that reservation exists). Raw `db.run(sql)` cannot do this: drizzle's D1 batch refuses
// raw statements with parameters.
import { Column, getTableColumns, is, sql, SQL, type Placeholder } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

/** Values, SQL, columns of the source, or placeholders of a compiled query (encoded by their column when bound). */
type RowValues<T extends SQLiteTable> = { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | SQL | Column | Placeholder };

/**
 * `INSERT INTO table SELECT <values> FROM source WHERE condition LIMIT 1`. Plain values are
 * encoded by their column (JSON, booleans); SQL values and columns of `source` are used as is;
 * omitted columns get NULL (so `id` autoincrements; give NOT NULL columns a value).
 */
export function guardedInsert<T extends SQLiteTable>(
  db: Db,
  table: T,
  values: RowValues<T>,
  source: SQLiteTable | undefined,
  condition: SQL | undefined,
) {
  const fields: Record<string, SQL> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = (values as Record<string, unknown>)[key];
    if (value === undefined) fields[key] = sql`NULL`;
    else if (is(value, SQL) || is(value, Column)) fields[key] = sql`${value}`;
    else fields[key] = sql`${sql.param(value, column)}`;
  }
  // The dynamic field map defeats drizzle's static key check; the runtime check still applies.
  // Without a source table the condition stands alone (EXISTS ... over whatever it checks).
  const select = db.select(fields).from(source ?? sql`(SELECT 1)`).where(condition).limit(1);
  return db.insert(table).select(select as never);
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
