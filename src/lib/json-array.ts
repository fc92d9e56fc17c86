// Conditions and values over JSON array columns (users.roles, announcements.accepted_category_ids),
// through SQLite's json_each: the column is always the schema's, so renaming it fails the typecheck.
import { sql, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';

/** True when the JSON array in `column` holds `value`. */
export const jsonArrayIncludes = (column: AnySQLiteColumn, value: unknown): SQL =>
  sql`EXISTS (SELECT 1 FROM json_each(${column}) WHERE json_each.value = ${value})`;

/** The JSON array in `column` with `value` appended unless it already holds it. */
export const jsonArrayWith = (column: AnySQLiteColumn, value: unknown): SQL =>
  sql`CASE WHEN ${jsonArrayIncludes(column, value)} THEN ${column} ELSE json_insert(${column}, '$[#]', ${value}) END`;

/** The JSON array in `column` without any element equal to `value`. */
export const jsonArrayWithout = (column: AnySQLiteColumn, value: unknown): SQL =>
  sql`(SELECT coalesce(json_group_array(value), '[]') FROM json_each(${column}) WHERE value <> ${value})`;
