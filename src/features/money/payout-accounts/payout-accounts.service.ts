// Mobile payout accounts (CONTRACT section 20): wallets a carrier or an agency is paid out to,
// one default per currency. A new account becomes its currency's default; deleting the default
// makes the newest remaining one the default.
import { and, desc, eq } from 'drizzle-orm';
import { mobilePayoutAccounts, type MobilePayoutAccountRow } from '../../../db/schema';
import { isUniqueViolation } from '../../../db/errors';
import type { Deps } from '../../../env';
import { alreadyExists, notFound } from '../../../errors';
import type { Owner } from '../ledger/posting-rules';
import { PAYOUT_CURRENCY } from './payout-accounts.rules';

export const toPayoutAccount = (a: MobilePayoutAccountRow) => ({
  id: a.id,
  type: a.type,
  provider: a.provider,
  currency: a.currency,
  phone: a.phone,
  name: a.name,
  isDefault: a.isDefault,
  createdAt: a.createdAt,
});

const ownedBy = (owner: Owner) => and(eq(mobilePayoutAccounts.ownerType, owner.type), eq(mobilePayoutAccounts.ownerId, owner.id));

export async function addPayoutAccount(deps: Deps, owner: Owner, input: { provider: 'WAVE'; phone: string; name: string }) {
  const { db } = deps;
  const currency = PAYOUT_CURRENCY[input.provider];
  try {
    const [, inserted] = await db.batch([
      db
        .update(mobilePayoutAccounts)
        .set({ isDefault: false })
        .where(and(ownedBy(owner), eq(mobilePayoutAccounts.currency, currency), eq(mobilePayoutAccounts.isDefault, true))),
      db
        .insert(mobilePayoutAccounts)
        .values({ ownerType: owner.type, ownerId: owner.id, provider: input.provider, currency, phone: input.phone, name: input.name, isDefault: true })
        .returning(),
    ]);
    return toPayoutAccount(inserted[0]);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists('payout.alreadyRegistered');
    throw err;
  }
}

export async function listPayoutAccounts(deps: Deps, owner: Owner) {
  const rows = await deps.db.select().from(mobilePayoutAccounts).where(ownedBy(owner)).orderBy(desc(mobilePayoutAccounts.id));
  return rows.map(toPayoutAccount);
}

export async function deletePayoutAccount(deps: Deps, owner: Owner, id: number) {
  const { db } = deps;
  const [row] = await db.select().from(mobilePayoutAccounts).where(and(ownedBy(owner), eq(mobilePayoutAccounts.id, id)));
  // Another owner's account is as unknown as a missing one.
  if (!row) throw notFound('Payout account', id);
  const [next] = row.isDefault
    ? await db
        .select({ id: mobilePayoutAccounts.id })
        .from(mobilePayoutAccounts)
        .where(and(ownedBy(owner), eq(mobilePayoutAccounts.currency, row.currency), eq(mobilePayoutAccounts.isDefault, false)))
        .orderBy(desc(mobilePayoutAccounts.id))
        .limit(1)
    : [];
  await db.batch([
    db.delete(mobilePayoutAccounts).where(eq(mobilePayoutAccounts.id, row.id)),
    ...(next ? [db.update(mobilePayoutAccounts).set({ isDefault: true }).where(eq(mobilePayoutAccounts.id, next.id))] : []),
  ]);
}

/** The owner's default wallet for `currency`, or null. */
export async function defaultPayoutAccount(deps: Deps, owner: Owner, currency: string): Promise<MobilePayoutAccountRow | null> {
  const [row] = await deps.db
    .select()
    .from(mobilePayoutAccounts)
    .where(and(ownedBy(owner), eq(mobilePayoutAccounts.currency, currency), eq(mobilePayoutAccounts.isDefault, true)));
  return row ?? null;
}
