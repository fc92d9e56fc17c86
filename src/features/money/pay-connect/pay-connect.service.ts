// Connected payout accounts (Stripe Connect Express). Every function takes an Owner (a user or
// an agency) so the agency routes (/agencies/{id}/pay-connect/**) can reuse them unchanged.
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../../env';
import { payoutAccounts, users, type PayoutAccountRow } from '../../../db/schema';
import { AppError, notFound, paymentProcessingError } from '../../../errors';
import { ProviderRejectedError, type ConnectedAccountState } from '../../../providers/payment';
import type { Owner } from '../ledger/posting-rules';
import { apiUrl } from '../../../lib/urls';
import { appConfig } from '../../../config';
import { listPayoutAccounts } from '../payout-accounts/payout-accounts.service';

export const providerFailure = (err: unknown) =>
  err instanceof AppError
    ? err
    : paymentProcessingError('money.paymentProviderNotProcess', {
        suggestions: ['money.retryMoment'],
        cause: err,
      });

export async function findPayoutAccount(deps: Deps, owner: Owner): Promise<PayoutAccountRow | null> {
  const [row] = await deps.db
    .select()
    .from(payoutAccounts)
    .where(and(eq(payoutAccounts.ownerType, owner.type), eq(payoutAccounts.ownerId, owner.id)));
  return row ?? null;
}

/** Stores the provider's view of an account (account.updated, return page, status reads). */
export async function syncConnectedAccount(deps: Deps, state: ConnectedAccountState): Promise<PayoutAccountRow | null> {
  const [row] = await deps.db
    .update(payoutAccounts)
    .set({
      chargesEnabled: state.chargesEnabled,
      payoutsEnabled: state.payoutsEnabled,
      detailsSubmitted: state.detailsSubmitted,
      requirements: state.requirements,
      updatedAt: new Date().toISOString(),
    })
    .where(eq(payoutAccounts.providerAccountId, state.id))
    .returning();
  return row ?? null;
}

export const returnUrl = (env: Env, accountId: string) => apiUrl(env, `/pay-connect/return?account=${encodeURIComponent(accountId)}`);
export const refreshUrl = (env: Env, accountId: string) => apiUrl(env, `/pay-connect/refresh?account=${encodeURIComponent(accountId)}`);

/** Creates the Express account once per owner, then a fresh onboarding link. */
export async function startOnboarding(deps: Deps, owner: Owner, email?: string) {
  const provider = deps.providers.payment;
  const db = deps.db;
  try {
    let account = await findPayoutAccount(deps, owner);
    if (!account) {
      const created = await provider.createConnectedAccount({
        ownerType: owner.type,
        ownerId: owner.id,
        email,
        idempotencyKey: `connect-account-${owner.type.toLowerCase()}-${owner.id}`,
      });
      await db
        .insert(payoutAccounts)
        .values({
          ownerType: owner.type,
          ownerId: owner.id,
          providerAccountId: created.id,
          chargesEnabled: created.chargesEnabled,
          payoutsEnabled: created.payoutsEnabled,
          detailsSubmitted: created.detailsSubmitted,
          requirements: created.requirements,
        })
        .onConflictDoNothing();
      account = await findPayoutAccount(deps, owner);
      if (!account) throw new Error('payout account missing after insert');
      if (owner.type === 'USER') {
        await db.update(users).set({ connectedAccountId: account.providerAccountId }).where(eq(users.id, owner.id));
      }
    }
    const link = await provider.createAccountLink(
      account.providerAccountId,
      refreshUrl(deps.env, account.providerAccountId),
      returnUrl(deps.env, account.providerAccountId),
    );
    return {
      connectedAccountId: account.providerAccountId,
      onboardingUrl: link.url,
      expiresAt: new Date(link.expiresAt * 1000).toISOString(),
    };
  } catch (err) {
    throw providerFailure(err);
  }
}

export type AccountStatus = 'NOT_CONNECTED' | 'ONBOARDING' | 'RESTRICTED' | 'ACTIVE';

export function describeAccount(account: PayoutAccountRow | null) {
  const status: AccountStatus = !account
    ? 'NOT_CONNECTED'
    : account.payoutsEnabled && account.chargesEnabled
      ? 'ACTIVE'
      : account.detailsSubmitted
        ? 'RESTRICTED'
        : 'ONBOARDING';
  return {
    connectedAccountId: account?.providerAccountId ?? null,
    status,
    chargesEnabled: account?.chargesEnabled ?? false,
    payoutsEnabled: account?.payoutsEnabled ?? false,
    detailsSubmitted: account?.detailsSubmitted ?? false,
    requirements: account?.requirements ?? [],
  };
}

/** Reads the account afresh from the provider (when it can) and answers its status. */
export async function accountStatus(deps: Deps, owner: Owner) {
  let account = await findPayoutAccount(deps, owner);
  if (account) {
    try {
      account = (await syncConnectedAccount(deps, await deps.providers.payment.retrieveAccount(account.providerAccountId))) ?? account;
    } catch (err) {
      // The stored state is still a good answer when the provider is unreachable.
      if (err instanceof ProviderRejectedError) throw providerFailure(err);
    }
  }
  return describeAccount(account);
}

export function canReceive(account: PayoutAccountRow | null) {
  const chargesEnabled = account?.chargesEnabled ?? false;
  const payoutsEnabled = account?.payoutsEnabled ?? false;
  const reason = !account
    ? 'No connected payout account: start the onboarding first'
    : !account.detailsSubmitted
      ? 'Onboarding is not finished'
      : !payoutsEnabled
        ? 'The payment provider has not enabled payouts on this account yet'
        : !chargesEnabled
          ? 'The payment provider has not enabled payments on this account yet'
          : null;
  return { canReceivePayments: reason === null, chargesEnabled, payoutsEnabled, reason };
}

/** The connected account's eligibility, and per enabled currency whether a withdrawal in it can be paid out (CONTRACT section 20). */
export async function canReceivePayments(deps: Deps, owner: Owner) {
  const stripe = canReceive(await findPayoutAccount(deps, owner));
  const wallets = await listPayoutAccounts(deps, owner);
  // A currency mobile money pays out in goes to a mobile wallet (withdrawals.service payoutDestination).
  const operators = (await deps.providers.mobileMoney.operators()).filter((o) => o.payout);
  const currencies = appConfig(deps.env).currencies.map((currency) => {
    const offered = [...new Set(operators.filter((o) => o.currency === currency).map((o) => o.displayName))];
    if (offered.length === 0) return { currency, canReceive: stripe.canReceivePayments, reason: stripe.reason };
    const ready = wallets.some((w) => w.currency === currency && w.isDefault);
    return { currency, canReceive: ready, reason: ready ? null : `No mobile wallet for ${currency}: add a ${offered.join(' or ')} account with POST /payout-accounts` };
  });
  return { ...stripe, currencies };
}

async function knownAccount(deps: Deps, accountId: string) {
  const [account] = await deps.db.select().from(payoutAccounts).where(eq(payoutAccounts.providerAccountId, accountId));
  if (!account) throw notFound('Connected account');
  return account;
}

/** The return page: the provider sends the browser back here; re-read the account. */
export async function refreshFromProvider(deps: Deps, accountId: string) {
  // Only accounts we created are looked up: an arbitrary id never reaches the provider.
  await knownAccount(deps, accountId);
  try {
    return await syncConnectedAccount(deps, await deps.providers.payment.retrieveAccount(accountId));
  } catch (err) {
    throw providerFailure(err);
  }
}

/** The refresh page: the link expired or was used; make a new one. */
export async function newOnboardingLink(deps: Deps, accountId: string) {
  await knownAccount(deps, accountId);
  try {
    return await deps.providers.payment.createAccountLink(accountId, refreshUrl(deps.env, accountId), returnUrl(deps.env, accountId));
  } catch (err) {
    throw providerFailure(err);
  }
}
