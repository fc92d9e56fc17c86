// One drizzle client per call over D1: the request's session when there is one (read replicas
// with read-your-writes, see session.ts), the binding itself otherwise.
import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';
import { currentSession } from './session';

export const getDb = (env: { DB: D1Database }) => drizzle((currentSession() ?? env.DB) as D1Database, { schema });
export type Db = ReturnType<typeof getDb>;
