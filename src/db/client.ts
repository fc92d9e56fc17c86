// One drizzle client per request over the D1 binding.
import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

export const getDb = (env: { DB: D1Database }) => drizzle(env.DB, { schema });
export type Db = ReturnType<typeof getDb>;
