// The dev seed's protected, disputed demo reservation (CONTRACT 21; the console's dispute page and
// the browser test resolve it PROTECTION_PAYOUT): paid with its premium, carried, reported LOST,
// once however often the seed runs.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { disputes, ledgerAccounts, reservations } from '../src/db/schema';
import { DEMO_PROTECTED_DECLARED_CENTS, DEMO_PROTECTED_DISPUTE_RESERVATION } from '../src/features/dev/seed/protection';
import { db } from './helpers/db';
import { unearnedPremiumCents } from '../src/features/money';
import { BASE, get, post } from './helpers/http';

describe('the demo seed: a protected parcel reported lost', () => {
  it('is paid with its premium (unearned while the claim is open), DISPUTED by an open LOST dispute, once, its protection and open claim through the API', async () => {
    const app = createApp();
    const devEnv = { ...env, ENVIRONMENT: 'development', STRIPE_SECRET_KEY: '' } as Env;
    const seed = () => app.request(`${BASE}/v1/api/dev/seed`, { method: 'POST' }, devEnv);
    expect((await seed()).status).toBe(200);
    expect((await seed()).status).toBe(200);
    const found = await db().select().from(reservations).where(eq(reservations.reservationNumber, DEMO_PROTECTED_DISPUTE_RESERVATION));
    expect(found).toHaveLength(1);
    const [r] = found;
    // 400.00 declared at the default 3 %: a 12.00 premium, all of it covered.
    expect(r).toMatchObject({ status: 'DISPUTED', protectionDeclaredCents: DEMO_PROTECTED_DECLARED_CENTS, protectionCoverageCents: 40_000, protectionPremiumCents: 1_200 });
    expect(await db().select().from(disputes).where(eq(disputes.reservationId, r.id))).toMatchObject([{ status: 'OPEN', reason: 'LOST' }]);
    // Disputed, not decided: the premium may still go back, so it waits in the unearned premiums.
    const [premiums] = await db().select().from(ledgerAccounts).where(eq(ledgerAccounts.key, `PROTECTION_PREMIUMS:${r.currency}`));
    expect(premiums.balanceCents).toBeGreaterThanOrEqual(1_200);
    expect(await unearnedPremiumCents(db(), r)).toBe(1_200);

    const sender = await post('/v1/api/auth/login', { email: 'sender@demo.local', password: 'Demo-password-1' });
    const protection = await get(`/v1/api/bookings/${r.id}/protection`, { token: sender.body.accessToken });
    expect(protection.status).toBe(200);
    expect(protection.body).toMatchObject({ protected: true, declaredValue: 400, premium: 12, coverage: 400, claim: { reason: 'LOST', status: 'OPEN', resolution: null, payoutAmount: null } });
  });
});
