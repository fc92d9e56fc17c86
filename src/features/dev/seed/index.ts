// The idempotent development seed (CONTRACT section 15). Each step inserts with ON CONFLICT DO
// NOTHING or checks first, so running it twice changes nothing.
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema';
import type { Deps } from '../../../env';
import { hashPassword } from '../../../lib/password';
import { seedDemoBooking } from './bookings';
import { seedCatalog } from './catalog';
import { seedConsoleDemo } from './console';
import { seedCorridor } from './corridor';
import { seedCameroon } from './cameroon';
import { seedNearbyTrips } from './nearby';
import { DEFAULT_DEMO_PASSWORD, DEMO_ACCOUNTS, type SeedContext, type SeedStep } from './context';
import { seedHandoverDemo } from './handover';
import { seedPaidReservation } from './money';
import { seedProtectedDispute } from './protection';

async function seedDemoAccounts(ctx: SeedContext) {
  for (const account of DEMO_ACCOUNTS) {
    const [existing] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, account.email));
    if (existing) {
      ctx.userIds[account.email] = existing.id;
      continue;
    }
    const [created] = await ctx.db
      .insert(users)
      .values({
        email: account.email,
        passwordHash: await hashPassword(ctx.password),
        firstName: account.firstName,
        lastName: account.lastName,
        roles: [...account.roles],
        emailVerified: true,
        kycStatus: 'kyc' in account ? 'VERIFIED' : 'NOT_VERIFIED',
      })
      .returning({ id: users.id });
    ctx.userIds[account.email] = created.id;
  }
}

/** Steps run in order. */
// seedDemoBooking needs the catalogue's categories and trips: keep it after their steps.
export const SEED_STEPS: SeedStep[] = [seedDemoAccounts, seedCatalog, seedDemoBooking, seedPaidReservation, seedHandoverDemo, seedConsoleDemo, seedCorridor, seedCameroon, seedNearbyTrips, seedProtectedDispute];

export async function runSeed(deps: Deps) {
  const { env } = deps;
  const password = env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD;
  const ctx: SeedContext = { ...deps, password, userIds: {} };
  for (const step of SEED_STEPS) await step(ctx);
  return {
    accounts: DEMO_ACCOUNTS.map((a) => ({ id: ctx.userIds[a.email], email: a.email, roles: [...a.roles] })),
    password: env.DEMO_PASSWORD ? '(from DEMO_PASSWORD)' : DEFAULT_DEMO_PASSWORD,
  };
}
