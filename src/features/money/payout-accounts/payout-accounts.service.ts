// Mobile payout accounts (CONTRACT section 20): wallets a carrier or an agency is paid out to,
// one default per currency. A new account becomes its currency's default; deleting the default
// makes the newest remaining one the default.
import { and, desc, eq } from 'drizzle-orm';
import { mobilePayoutAccounts, type MobilePayoutAccountRow } from '../../../db/schema';
import { isUniqueViolation } from '../../../db/errors';
import type { Deps } from '../../../env';
import { alreadyExists, businessRule, msg, notFound, validationError } from '../../../errors';
import { waveMobile } from '../../../providers/mobile-money';
import type { Owner } from '../ledger/posting-rules';

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

/**
 * The operator and number a wallet is paid out to: the one named (its rail must read the number as
 * one of its country's), else the one predicted from the number. Wave is an app on any Senegalese or
 * Ivorian number, not an operator a number belongs to: it is predicted only when no operator's rail
 * recognises the number, and a Wave wallet keeps the Wave number rule (400 payout.invalidPhone).
 */
export async function payoutWallet(deps: Deps, provider: string | undefined, phone: string) {
  const rails = deps.providers.mobileMoney;
  const wave = async () => {
    const mobile = waveMobile(phone);
    if (!mobile) throw validationError('payout.invalidPhone', { fieldErrors: [{ field: 'phone', message: 'payout.invalidPhone', rejectedValue: phone }] });
    return { operator: (await rails.operator('WAVE'))!, phone: mobile };
  };
  if (provider === 'WAVE') return wave();
  const named = provider ? await rails.operator(provider) : null;
  if (provider && !named?.payout) throw businessRule('mobilemoney.providerNotOffered', { provider, currency: named?.currency ?? '-' }, { suggestions: ['payment.listMethods'] });
  for (const rail of named ? [rails.rail(named.rail)!] : rails.all.filter((r) => r.code !== 'WAVE')) {
    const predicted = await rail.predictOperator(phone);
    if (!predicted) continue;
    const operator = named ?? (await rails.operator(predicted.operator));
    // A number moved to another operator of the same country is the user's to confirm; another country is not.
    const sameCountry = (await rail.operators()).some((o) => o.code === predicted.operator && o.country === operator?.country);
    if (operator?.payout && sameCountry) return { operator, phone: predicted.phone };
  }
  if (!provider && waveMobile(phone) && rails.rail('WAVE')) return wave();
  throw validationError('mobilemoney.phoneNotServed', { phone, provider: provider ?? 'mobile money' }, {
    fieldErrors: [{ field: 'phone', message: msg('mobilemoney.phoneNotServed', { phone, provider: provider ?? 'mobile money' }), rejectedValue: phone }],
  });
}

export async function addPayoutAccount(deps: Deps, owner: Owner, input: { provider?: string; phone: string; name: string }) {
  const { db } = deps;
  const wallet = await payoutWallet(deps, input.provider, input.phone);
  const currency = wallet.operator.currency;
  try {
    const [, inserted] = await db.batch([
      db
        .update(mobilePayoutAccounts)
        .set({ isDefault: false })
        .where(and(ownedBy(owner), eq(mobilePayoutAccounts.currency, currency), eq(mobilePayoutAccounts.isDefault, true))),
      db
        .insert(mobilePayoutAccounts)
        .values({ ownerType: owner.type, ownerId: owner.id, provider: wallet.operator.code, currency, phone: wallet.phone, name: input.name, isDefault: true })
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
