// Pause switches (CONTRACT 27, docs/OPERATIONS.md "Pause switches"): a super-admin pauses the new
// checkouts or the new payouts of one provider while it is down. The providers are Stripe and the
// mobile-money rails configured (providers/mobile-money: Wave, ...), so a rail added there can be
// paused with no change here (a rail paused pauses every operator it reaches). A paused checkout or withdrawal answers 503 with Retry-After before
// anything is charged or debited; the payout crons leave paused providers' transfers PENDING.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { providerPauses, type PauseOperation } from '../../db/schema';
import type { Deps } from '../../env';
import { AppError, invalidArgument } from '../../errors';
import { auditInsert } from '../audit/audit';
import type { PaymentMethod } from '../../db/schema';
import { mobileMoneyRails } from '../../providers/mobile-money';

/** What Retry-After says: a provider incident is checked again in a quarter of an hour. */
export const PAUSE_RETRY_AFTER_SECONDS = 15 * 60;

/** Stripe and the mobile-money rails, in their order (STRIPE, WAVE, ...). */
export const pausableProviders = (env: Env): string[] => ['STRIPE', ...mobileMoneyRails(env).all.map((r) => r.code)];

/** A provider's name for people ("Stripe", "Wave"). */
const providerName = (provider: string) => provider.charAt(0) + provider.slice(1).toLowerCase();

export interface PauseState {
  provider: string;
  operation: PauseOperation;
  paused: boolean;
  reason: string | null;
  pausedAt: string | null;
  pausedBy: number | null;
}

/** Every provider and operation with its switch. */
export async function pauseStates(deps: Deps): Promise<PauseState[]> {
  const rows = await deps.db.select().from(providerPauses);
  return pausableProviders(deps.env).flatMap((provider) =>
    (['CHECKOUT', 'PAYOUT'] as const).map((operation) => {
      const row = rows.find((r) => r.provider === provider && r.operation === operation);
      return { provider, operation, paused: Boolean(row), reason: row?.reason ?? null, pausedAt: row?.pausedAt ?? null, pausedBy: row?.pausedBy ?? null };
    }),
  );
}

/** Pauses or resumes one switch (audited PROVIDER_PAUSED / PROVIDER_RESUMED, with the change). */
export async function setPause(
  deps: Deps,
  actorId: number,
  change: { provider: string; operation: PauseOperation; paused: boolean; reason?: string | null },
  ip: string | null,
): Promise<PauseState> {
  const { db } = deps;
  const provider = change.provider.toUpperCase();
  const providers = pausableProviders(deps.env);
  if (!providers.includes(provider)) throw invalidArgument('pause.unknownProvider', { provider: change.provider, providers: providers.join(', ') });
  const key = and(eq(providerPauses.provider, provider), eq(providerPauses.operation, change.operation));
  const write = change.paused
    ? db
        .insert(providerPauses)
        .values({ provider, operation: change.operation, reason: change.reason ?? null, pausedBy: actorId })
        .onConflictDoUpdate({ target: [providerPauses.provider, providerPauses.operation], set: { reason: change.reason ?? null } })
    : db.delete(providerPauses).where(key);
  await db.batch([
    write,
    auditInsert(db, {
      actorId,
      action: change.paused ? 'PROVIDER_PAUSED' : 'PROVIDER_RESUMED',
      targetType: 'PROVIDER',
      targetId: `${provider}:${change.operation}`,
      ip,
      details: change.reason ? { reason: change.reason } : undefined,
    }),
  ]);
  return (await pauseStates(deps)).find((s) => s.provider === provider && s.operation === change.operation)!;
}

export async function isPaused(db: Db, provider: string, operation: PauseOperation): Promise<boolean> {
  const [row] = await db
    .select({ provider: providerPauses.provider })
    .from(providerPauses)
    .where(and(eq(providerPauses.provider, provider), eq(providerPauses.operation, operation)));
  return Boolean(row);
}

/** 503 with Retry-After when the provider's `operation` is paused. */
export async function assertNotPaused(db: Db, provider: string, operation: PauseOperation): Promise<void> {
  if (!(await isPaused(db, provider, operation))) return;
  const checkout = operation === 'CHECKOUT';
  throw new AppError('PAYMENT_PROCESSING_ERROR', { key: checkout ? 'pause.checkoutPaused' : 'pause.payoutPaused', params: { provider: providerName(provider) } }, {
    status: 503,
    headers: { 'Retry-After': String(PAUSE_RETRY_AFTER_SECONDS) },
    suggestions: [checkout ? 'pause.retryLaterOrOther' : 'pause.retryLater'],
  });
}

/** 503 when the provider of `method` (for mobile money: the rail of the operator chosen, Wave by default) has its new checkouts paused. */
export async function assertCheckoutOpen(deps: Deps, method: PaymentMethod, operator?: string): Promise<void> {
  if (method === 'CARD') return assertNotPaused(deps.db, 'STRIPE', 'CHECKOUT');
  const found = await deps.providers.mobileMoney.operator(operator ?? 'WAVE');
  await assertNotPaused(deps.db, found?.rail ?? operator ?? 'WAVE', 'CHECKOUT');
}
