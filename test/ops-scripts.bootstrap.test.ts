// `npm run admin:bootstrap` (CONTRACT section 27): the first super-admin without hand-written SQL.
// The script's own SQL (scripts/lib/admin-bootstrap.mjs) runs here on a real D1, as
// `wrangler d1 execute` runs it: the lookup, the decision, the promotion and its audit entry.
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { decide, lookupSql, parseBootstrapArgs, promoteSql, ROLE_ORDER, type Promotion } from '../scripts/lib/admin-bootstrap.mjs';
import { auditLogs, users } from '../src/db/schema';
import { hashPassword } from '../src/lib/password';
import { ROLES } from '../src/middleware/auth';
import { login, PASSWORD } from './helpers/auth';
import { db } from './helpers/db';
import { aUser } from './helpers/factories';
import { get } from './helpers/http';

const lookup = async (email: string) => (await env.DB.prepare(lookupSql(email)).all()).results[0];
/** As the script runs the promotion: its statements in one request. */
const run = (statements: string[]) => env.DB.batch(statements.map((s) => env.DB.prepare(s)));
const rolesOf = async (id: number) => (await db().select({ roles: users.roles }).from(users).where(eq(users.id, id)))[0].roles;
const bootstrapAudits = async (id: number) =>
  (await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(id)))).filter((a) => a.action === 'ROLES_CHANGED' && a.details?.via === 'admin:bootstrap');

beforeEach(async () => {
  // No super-admin in this file's database unless a test makes one.
  await db().update(users).set({ roles: ['ROLE_CLIENT'] }).where(sql`EXISTS (SELECT 1 FROM json_each(${users.roles}) WHERE value = 'ROLE_SUPERADMIN')`);
});

describe('admin:bootstrap arguments', () => {
  it('needs an e-mail address, defaults to the local D1, and reads --remote, --env, --force', () => {
    expect(parseBootstrapArgs([])).toEqual({ error: '--email is required' });
    expect(parseBootstrapArgs(['--email', 'Ops@Colis.fr'])).toEqual({ email: 'ops@colis.fr', target: 'local', env: null, persistTo: null, force: false });
    expect(parseBootstrapArgs(['--email=ops@colis.fr', '--remote', '--env', 'production', '--force'])).toEqual({ email: 'ops@colis.fr', target: 'remote', env: 'production', persistTo: null, force: true });
    expect(parseBootstrapArgs(['--email', 'not-an-address'])).toEqual({ error: '--email "not-an-address" is not an e-mail address' });
    expect(parseBootstrapArgs(['--email', 'a@b.fr;DROP@x.fr'])).toMatchObject({ error: expect.stringContaining('is not an e-mail address') });
    expect(parseBootstrapArgs(['--email', 'a@b.fr', '--remote', '--persist-to', '/tmp/x'])).toEqual({ error: '--persist-to is for --local only' });
    expect(parseBootstrapArgs(['--email'])).toEqual({ error: '--email needs a value' });
    expect(parseBootstrapArgs(['--email', 'a@b.fr', '--yes'])).toEqual({ error: 'unknown argument --yes' });
  });

  it('keeps roles in the order the service does', () => {
    expect(ROLE_ORDER).toEqual([...ROLES]);
  });
});

describe('admin:bootstrap on a real D1', () => {
  it('promotes a verified account when there is no super-admin, audited; the account then reads super-admin routes', async () => {
    const user = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], passwordHash: await hashPassword(PASSWORD) });
    const decision = decide(await lookup(user.email), { email: user.email, force: false });
    expect(decision).toEqual({ promote: { id: user.id, before: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], after: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER', 'ROLE_SUPERADMIN'] } });
    await run(promoteSql((decision as { promote: Promotion }).promote, { force: false }));
    expect(await rolesOf(user.id)).toEqual(['ROLE_CLIENT', 'ROLE_VERIFIED_USER', 'ROLE_SUPERADMIN']);
    const [entry] = await bootstrapAudits(user.id);
    expect(entry).toMatchObject({ actorId: null, action: 'ROLES_CHANGED', targetType: 'USER', targetId: String(user.id), ip: null });
    expect(entry.details).toEqual({ before: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], after: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER', 'ROLE_SUPERADMIN'], added: ['ROLE_SUPERADMIN'], removed: [], via: 'admin:bootstrap', force: false });
    const signedIn = await login(user.email);
    expect((await get('/v1/api/superadmin/incidents', { token: signedIn.body.accessToken })).status).toBe(200);
    // Run again: nothing to do.
    expect(decide(await lookup(user.email), { email: user.email, force: false })).toEqual({ done: `${user.email} is already a super-admin: nothing changed` });
  });

  it('refuses when a super-admin exists, naming them, unless --force', async () => {
    const root = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] });
    const second = await aUser();
    expect(decide(await lookup(second.email), { email: second.email, force: false })).toEqual({
      refuse: `a super-admin already exists (${root.email}): they grant roles from the console or PUT /v1/api/superadmin/users/{id}/roles; --force adds one anyway`,
    });
    const forced = decide(await lookup(second.email), { email: second.email, force: true }) as { promote: Promotion };
    await run(promoteSql(forced.promote, { force: true }));
    expect(await rolesOf(second.id)).toEqual(['ROLE_CLIENT', 'ROLE_SUPERADMIN']);
    expect((await bootstrapAudits(second.id))[0].details).toMatchObject({ force: true });
  });

  it('a promotion decided before another super-admin appeared writes nothing, not even its audit entry', async () => {
    const late = await aUser();
    const decision = decide(await lookup(late.email), { email: late.email, force: false }) as { promote: Promotion };
    await aUser({ roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] });
    await run(promoteSql(decision.promote, { force: false }));
    expect(await rolesOf(late.id)).toEqual(['ROLE_CLIENT']);
    expect(await bootstrapAudits(late.id)).toEqual([]);
  });

  it('refuses an unknown, unverified, suspended or deleted account, saying what to do', async () => {
    expect(decide(await lookup('nobody@colis.test'), { email: 'nobody@colis.test', force: false })).toEqual({
      refuse: 'no account with the e-mail nobody@colis.test: register it first (the app, or POST /v1/api/auth/register), verify its address, then run this again',
    });
    const unverified = await aUser();
    await db().update(users).set({ emailVerified: false }).where(eq(users.id, unverified.id));
    expect(decide(await lookup(unverified.email), { email: unverified.email, force: false })).toEqual({
      refuse: `the account ${unverified.email} has not verified its e-mail address: open the verification link it was sent, then run this again`,
    });
    const suspended = await aUser();
    await db().update(users).set({ enabled: false }).where(eq(users.id, suspended.id));
    expect(decide(await lookup(suspended.email), { email: suspended.email, force: false })).toEqual({ refuse: `the account ${suspended.email} is suspended` });
    const deleted = await aUser();
    await db().update(users).set({ deletedAt: new Date().toISOString() }).where(eq(users.id, deleted.id));
    expect(decide(await lookup(deleted.email), { email: deleted.email, force: false })).toEqual({ refuse: `the account ${deleted.email} was deleted` });
  });

  it('an address with a quote is a literal, never SQL', async () => {
    const quoted = await aUser({ email: `o'hara-${Date.now()}@colis.test` });
    expect((await lookup(quoted.email)).id).toBe(quoted.id);
    const injected = await lookup(`x' OR 1=1 --@colis.test`);
    expect(injected.id).toBeNull();
  });
});
