// Column helpers shared by the tables: ISO date-time text (sortable), integer cents.
import { sql } from 'drizzle-orm';
import { text } from 'drizzle-orm/sqlite-core';

/** ISO 8601 UTC date-time stored as text; lexicographic order is time order. */
export const isoNow = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const createdAt = () => text('created_at').notNull().default(isoNow);
export const updatedAt = () => text('updated_at').notNull().default(isoNow);
