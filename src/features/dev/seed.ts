// The idempotent development seed (CONTRACT section 15). Each step inserts with ON CONFLICT DO
// NOTHING or checks first, so running it twice changes nothing.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { hashPassword } from '../../lib/password';
import { seedCatalog } from '../announcements/announcements.seed';
import { seedHandoverDemo } from '../handover/handover.seed';
import { seedDemoBooking } from '../bookings/bookings.seed';
import { seedPaidReservation } from '../payments/money.seed';

export const DEFAULT_DEMO_PASSWORD = 'Demo-password-1';

export const DEMO_ACCOUNTS = [
  { email: 'superadmin@demo.local', firstName: 'Sam', lastName: 'Super', roles: ['ROLE_CLIENT', 'ROLE_SUPERADMIN'] },
  { email: 'admin@demo.local', firstName: 'Ada', lastName: 'Admin', roles: ['ROLE_CLIENT', 'ROLE_ADMIN'] },
  { email: 'carrier@demo.local', firstName: 'Carla', lastName: 'Carrier', roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'], kyc: true },
  { email: 'sender@demo.local', firstName: 'Sid', lastName: 'Sender', roles: ['ROLE_CLIENT'] },
] as const;

export interface SeedContext {
  db: Db;
  env: Env;
  password: string;
  /** Ids of the demo accounts by email, filled by the first step. */
  userIds: Record<string, number>;
}

export type SeedStep = (ctx: SeedContext) => Promise<void>;

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

/** Steps run in order; features append theirs. */
// seedDemoBooking needs the catalogue's categories and trips: keep it after their steps.
export const SEED_STEPS: SeedStep[] = [seedDemoAccounts, seedCatalog, seedDemoBooking, seedPaidReservation, seedHandoverDemo];

export async function runSeed(db: Db, env: Env) {
  const password = env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD;
  const ctx: SeedContext = { db, env, password, userIds: {} };
  for (const step of SEED_STEPS) await step(ctx);
  return {
    accounts: DEMO_ACCOUNTS.map((a) => ({ id: ctx.userIds[a.email], email: a.email, roles: [...a.roles] })),
    password: env.DEMO_PASSWORD ? '(from DEMO_PASSWORD)' : DEFAULT_DEMO_PASSWORD,
  };
}
