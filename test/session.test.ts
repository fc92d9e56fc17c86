// D1 Sessions API middleware (src/db/session.ts), inside workerd: bookmark out, bookmark in,
// read-your-writes, and no failure on a bookmark D1 refuses.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { categories } from '../src/db/schema';
import { BOOKMARK_HEADER, d1Session, sessionConstraint } from '../src/db/session';
import type { AppEnv } from '../src/env';
import { get } from './helpers/http';

// Handlers reach the session only through c.var.deps, as every feature does.
const app = new Hono<AppEnv>()
  .use(d1Session)
  .post('/categories/:code', async (c) => {
    const [row] = await c.var.deps.db.insert(categories).values({ code: c.req.param('code'), name: 'Session test' }).returning();
    return c.json(row, 201);
  })
  .get('/categories/:code', async (c) => {
    const [row] = await c.var.deps.db.select().from(categories).where(eq(categories.code, c.req.param('code')));
    return row ? c.json(row) : c.json({ found: false }, 404);
  })
  .get('/nothing', (c) => c.json({ ok: true, session: c.var.deps !== undefined }));

const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  app.request(`http://api.test${path}`, { method, headers }, env);

describe('D1 sessions (read replication with bookmarks)', () => {
  it('starts reads unconstrained, writes on the primary, and a bookmark where the client left off', () => {
    expect(sessionConstraint('GET', undefined)).toBe('first-unconstrained');
    expect(sessionConstraint('POST', undefined)).toBe('first-primary');
    expect(sessionConstraint('DELETE', '')).toBe('first-primary');
    expect(sessionConstraint('GET', '0000000a-00000001-00004f8e-abc')).toBe('0000000a-00000001-00004f8e-abc');
    expect(sessionConstraint('GET', 'x'.repeat(300))).toBe('first-unconstrained');
    expect(sessionConstraint('GET', 'bad bookmark\n')).toBe('first-unconstrained');
  });

  it('a write returns a bookmark, and a read carrying it sees the write', async () => {
    const code = `S${crypto.randomUUID().slice(0, 8)}`;
    const write = await request('POST', `/categories/${code}`);
    expect(write.status).toBe(201);
    const bookmark = write.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(/\S+/);

    const read = await request('GET', `/categories/${code}`, { [BOOKMARK_HEADER]: bookmark! });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ code, name: 'Session test' });
    // The read's bookmark is at least as recent as the write's (bookmarks sort lexicographically).
    expect(read.headers.get(BOOKMARK_HEADER)! >= bookmark!).toBe(true);
  });

  it('the API mounts it: responses that touched D1 carry a bookmark', async () => {
    const res = await get('/v1/api/categories');
    expect(res.status).toBe(200);
    expect(res.headers.get(BOOKMARK_HEADER)).toMatch(/\S+/);
  });

  it('a request that runs no query sends no bookmark', async () => {
    const res = await request('GET', '/nothing');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, session: true });
    expect(res.headers.get(BOOKMARK_HEADER)).toBeNull();
  });

  it('a malformed or unknown bookmark never fails the request', async () => {
    for (const bookmark of ['not a bookmark!', 'ffffffff-ffffffff-ffffffff-0000', 'x'.repeat(1000)]) {
      const res = await request('GET', '/categories/none', { [BOOKMARK_HEADER]: bookmark });
      expect(res.status).toBe(404);
    }
  });
});
