// Withdrawals from a wallet to the owner's connected payout account, manual and automatic.
// The balance check, the withdrawal row and its ledger entry are one D1 batch: the row is
// inserted only if the cached wallet balance covers it, and everything else follows that row, so
// concurrent requests never drive a balance below zero (the CHECK on wallets is the backstop).
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Deps } from '../../../env';
import type { Db } from '../../../db/client';
import { agencies, ledgerAccounts, withdrawals, withdrawalSettings, type WithdrawalRow } from '../../../db/schema';
import { isUniqueViolation } from '../../../db/errors';
import { guardedInsert, readPage, rowExists } from '../../../db/statements';
import { connectNotConfigured, insufficientFunds, invalidState, paymentProcessingError } from '../../../errors';
import { idempotencyConflict } from '../../../middleware/idempotency';
import { amountOf, formatMoney } from '../../../lib/money';
import { orderBy, toPage, type PageParams } from '../../../lib/pagination';
import { ProviderRejectedError } from '../../../providers/payment';
import { ensureAccountStatements, newToken, notifyIfPosted, postingStatements } from '../ledger/ledger.statements';
import { accountKey, walletAccount, withdrawalPosting, withdrawalReversal, type Owner } from '../ledger/posting-rules';
import { notify, type Notification } from '../../deliveries/notify';
import { textAmount } from '../../../lib/message-text';
import { msg } from '../../../messages';
import { findPayoutAccount } from '../pay-connect/pay-connect.service';
import { currencyOrMain, mainCurrency } from '../../../lib/main-currency';
import { toMinor } from '../../../lib/amount';
import { appConfig } from '../../../config';
import type { MobileMoneyOperationRow } from '../../../db/schema';
import type { OperationResult } from '../../../providers/mobile-money';
import { businessRule } from '../../../errors';
import { defaultPayoutAccount } from '../payout-accounts/payout-accounts.service';
import { limitBreach } from '../mobile-money/limits';
import { recordOutcome } from '../mobile-money/operations';
import { destinationWords, isMobileDestination, mobileDestination, sendMobilePayout } from './mobile-payout';
import { assertNotPaused, isPaused } from '../pauses';
import { auditInsertIfChanged } from '../../audit/audit';
import { reportCaught } from '../../../error-tracking';

export function toWithdrawal(w: WithdrawalRow) {
  return {
    id: w.id,
    amount: amountOf(w.amountCents, w.currency),
    currency: w.currency,
    status: w.status,
    automatic: w.automatic,
    transferId: w.transferId,
    failureReason: w.failureReason,
    createdAt: w.createdAt,
    completedAt: w.completedAt,
  };
}

const ownerIs = (owner: Owner) => and(eq(withdrawals.ownerType, owner.type), eq(withdrawals.ownerId, owner.id));

/**
 * Moves `amountCents` out of the wallet and sends it to the connected account. 422
 * STRIPE_CONNECT_NOT_CONFIGURED without a payout-ready account, 422 INSUFFICIENT_FUNDS when the
 * balance does not cover it. A refused transfer puts the money back and answers 502.
 */
/**
 * A withdrawal body's amount in minor units of its currency: the one named (enabled, else 400),
 * else the main one; more decimals than that currency has is the 400 naming `amount`.
 */
export function withdrawalAmount(env: Env, body: { amount: number; currency?: string }, field = 'amount') {
  const currency = walletCurrency(env, body.currency);
  return { minor: toMinor(body.amount, currency, field).minor, currency };
}

/** The currency named (enabled, else the 400 naming `currency`), else the main one. */
export const walletCurrency = (env: Env, asked: string | undefined) => currencyOrMain(appConfig(env), asked);


export async function requestWithdrawal(
  deps: Deps,
  owner: Owner,
  amountCents: number,
  automatic = false,
  idempotencyKey: string | null = null,
  /** The wallet's currency (CONTRACT section 20); default the main one. */
  currency: string = mainCurrency(appConfig(deps.env)),
  /** An operator's retry of a FAILED withdrawal (reconciliation/retries.ts): at most one each, audited in the batch. */
  retry?: { of: number; actorId: number; ip: string | null },
): Promise<WithdrawalRow> {
  const { db } = deps;
  const replay = idempotencyKey ? await replayWithdrawal(deps, owner, idempotencyKey, amountCents) : null;
  if (replay) return replay;
  const destination = await payoutDestination(deps, owner, currency, amountCents);
  // A paused provider takes no new payout: refused before the wallet is debited.
  await assertNotPaused(db, payoutProvider(destination), 'PAYOUT');
  const token = newToken();
  const wallet = walletAccount(owner);
  const ensure = ensureAccountStatements(db, [wallet], currency);
  let results: unknown[];
  try {
    results = await db.batch([
      ensure[0],
      // Inserted only if the cached wallet balance covers it when the batch reaches it.
      guardedInsert(
        db,
        withdrawals,
        {
          ownerType: owner.type,
          ownerId: owner.id,
          amountCents,
          currency,
          status: 'PENDING',
          automatic,
          destinationAccountId: destination,
          token,
          idempotencyKey,
          retryOf: retry?.of ?? null,
        },
        ledgerAccounts,
        and(
          eq(ledgerAccounts.key, accountKey(wallet, currency)),
          gte(ledgerAccounts.balanceCents, amountCents),
          retry ? rowExists(db, withdrawals, and(eq(withdrawals.id, retry.of), eq(withdrawals.status, 'FAILED'))) : undefined,
        ),
      ),
      ...(retry ? [auditInsertIfChanged(db, { actorId: retry.actorId, action: 'PAYOUT_RETRIED', targetType: 'WITHDRAWAL', targetId: retry.of, ip: retry.ip, details: { token } })] : []),
      ...postingStatements(db, withdrawalPosting(owner, amountCents, currency, token), token, {
        guard: rowExists(db, withdrawals, eq(withdrawals.token, token)),
        withdrawalToken: token,
      }),
    ]);
  } catch (err) {
    // A concurrent request with the same Idempotency-Key won the unique index. Its answer is not
    // final yet (the transfer is being sent): the caller retries and gets the winner's replay.
    if (idempotencyKey && isUniqueViolation(err) && (await replayWithdrawal(deps, owner, idempotencyKey, amountCents))) throw idempotencyConflict();
    // A concurrent retry of the same failed withdrawal won the unique index: nothing of this one was written.
    if (retry && isUniqueViolation(err)) throw invalidState('reconciliation.payoutAlreadyRetried', { id: retry.of }, { suggestions: ['reconciliation.seePending'] });
    throw err;
  }
  if ((results[1] as D1Result).meta.changes !== 1) {
    throw insufficientFunds('money.walletBalanceNotCover', {
      suggestions: [
        'money.checkAvailableBalanceGet',
        // CONTRACT section 19: a delivered share is withdrawable only once its dispute window has closed.
        'money.heldBalanceAfterDisputeWindow',
      ],
    });
  }
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.token, token));
  return sendTransfer(deps, row);
}

/**
 * Where a withdrawal in `currency` goes: a currency mobile money pays out in (XOF, XAF) to the
 * owner's default mobile wallet (`mobile:<payout account id>`), within its operator's limits (422
 * naming them); any other to the Stripe connected account. 422 STRIPE_CONNECT_NOT_CONFIGURED when
 * there is none able to receive it.
 */
async function payoutDestination(deps: Deps, owner: Owner, currency: string, amountMinor: number): Promise<string> {
  const mobile = (await deps.providers.mobileMoney.operators()).filter((o) => o.currency === currency && o.payout);
  if (mobile.length > 0) {
    const wallet = await defaultPayoutAccount(deps, owner, currency);
    if (!wallet) throw connectNotConfigured('payout.noMobileWallet', { currency });
    const operator = mobile.find((o) => o.code === wallet.provider);
    const breach = operator ? limitBreach(operator, 'payout', amountMinor) : null;
    if (breach) throw businessRule(breach.key, breach.params as never, { suggestions: [breach.key === 'mobilemoney.amountOutOfLimits' ? 'payout.withinLimits' : 'payout.checkWallet'] });
    return mobileDestination(wallet.id);
  }
  const account = await findPayoutAccount(deps, owner);
  if (!account?.payoutsEnabled) {
    throw connectNotConfigured('money.noConnectedPayoutAccount', {
      suggestions: ['money.completeOnboarding'],
    });
  }
  return account.providerAccountId;
}

/** The withdrawal made earlier with this Idempotency-Key; the same key for another amount is 409. */
async function replayWithdrawal(deps: Deps, owner: Owner, key: string, amountCents: number): Promise<WithdrawalRow | null> {
  const [existing] = await deps.db
    .select()
    .from(withdrawals)
    .where(and(ownerIs(owner), eq(withdrawals.idempotencyKey, key)));
  if (!existing) return null;
  if (existing.amountCents !== amountCents) {
    throw invalidState('money.idempotencyKeyAlreadyUsed', {
      suggestions: ['money.useNewIdempotencyKey'],
    });
  }
  return existing;
}

/** The provider a destination is paid through, as the payment methods name it (pauses.ts). */
const payoutProvider = (destination: string) => (isMobileDestination(destination) ? 'WAVE' : 'STRIPE');

/** Sends (or re-sends, same idempotency key) the transfer of a PENDING withdrawal. */
export async function sendTransfer(deps: Deps, w: WithdrawalRow): Promise<WithdrawalRow> {
  // Paused since it was requested: it stays PENDING and the cron sends it once payouts resume.
  if (await isPaused(deps.db, payoutProvider(w.destinationAccountId), 'PAYOUT')) return w;
  if (isMobileDestination(w.destinationAccountId)) return recordMobilePayout(deps, w);
  try {
    const { transferId } = await deps.providers.payment.transfer({
      amountCents: w.amountCents,
      currency: w.currency,
      destination: w.destinationAccountId,
      idempotencyKey: `withdrawal-${w.id}`,
      metadata: { withdrawalId: String(w.id), ownerType: w.ownerType, ownerId: String(w.ownerId) },
    });
    return await completeWithdrawal(deps, w, transferId);
  } catch (err) {
    if (!(err instanceof ProviderRejectedError)) return w; // transient: stays PENDING, the cron retries
    await failWithdrawal(deps, w, err.message);
    deps.providers.metrics.event('PAYOUT_FAILED', `transfer ${w.currency}`);
    throw paymentProcessingError('money.paymentProviderRefusedTransfer', {
      suggestions: ['money.checkConnectedPayoutAccount'],
      cause: err,
    });
  }
}

/** Pays a withdrawal out to a mobile wallet; a refusal puts the money back with the provider's reason (502). */
async function recordMobilePayout(deps: Deps, w: WithdrawalRow): Promise<WithdrawalRow> {
  const outcome = await sendMobilePayout(deps, w);
  if (outcome.kind === 'completed') return completeWithdrawal(deps, w, outcome.payoutId);
  if (outcome.kind === 'pending') {
    // Still processing (or unknown): the payout's reference kept; the callback or the cron settles it.
    if (!outcome.payoutId || w.transferId) return w;
    const [kept] = await deps.db
      .update(withdrawals)
      .set({ transferId: outcome.payoutId })
      .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PENDING')))
      .returning();
    return kept ?? w;
  }
  await failWithdrawal(deps, w, outcome.reason);
  deps.providers.metrics.event('PAYOUT_FAILED', `mobile ${w.currency}`);
  throw paymentProcessingError('payout.providerRefusedPayout', { reason: outcome.reason }, { suggestions: ['payout.checkWallet'] });
}

/** A payout's outcome told by its rail (callback): recorded, and the withdrawal completed or failed once. */
export async function settleMobilePayout(deps: Deps, op: MobileMoneyOperationRow, result: OperationResult) {
  const { row, finalisedNow } = await recordOutcome(deps.db, op, result);
  if (!finalisedNow || !row.withdrawalId) return;
  const [w] = await deps.db.select().from(withdrawals).where(eq(withdrawals.id, row.withdrawalId));
  if (!w) return;
  if (row.status === 'COMPLETED') await completeWithdrawal(deps, w, row.ref ?? row.id);
  else await failWithdrawal(deps, w, `${row.failureCode}: ${row.failureMessage}`);
}

/**
 * The wallet's holder told about a withdrawal: the amount, where it went and by whom (the user, or
 * an agency's owner: CONTRACT 25).
 */
async function withdrawalNotice(deps: Deps, w: WithdrawalRow, type: 'WITHDRAWAL_COMPLETED' | 'WITHDRAWAL_FAILED'): Promise<Notification[]> {
  const [holder] =
    w.ownerType === 'USER' ? [{ id: w.ownerId }] : await deps.db.select({ id: agencies.ownerId }).from(agencies).where(eq(agencies.id, w.ownerId));
  if (!holder) return [];
  const words = { amount: textAmount(w.amountCents, w.currency), ...(await destinationWords(deps, w.destinationAccountId)) };
  return [{
    userId: holder.id,
    type,
    text: msg(type === 'WITHDRAWAL_COMPLETED' ? 'notice.withdrawalSent' : 'notice.withdrawalFailed', words),
    data: { withdrawalId: w.id, amount: amountOf(w.amountCents, w.currency), currency: w.currency },
  }];
}

/** PENDING -> COMPLETED with the provider's transfer (or payout) id, the owner told, once. */
export async function completeWithdrawal(deps: Deps, w: WithdrawalRow, transferId: string): Promise<WithdrawalRow> {
  const { db } = deps;
  const completedAt = new Date().toISOString();
  // Told once: only the batch whose update completed it (its stamp) writes the notice.
  const completedNow = rowExists(db, withdrawals, and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'COMPLETED'), eq(withdrawals.completedAt, completedAt)));
  const [done] = await db.batch([
    db
      .update(withdrawals)
      .set({ status: 'COMPLETED', transferId, completedAt })
      .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PENDING')))
      .returning(),
    ...notify(db, await withdrawalNotice(deps, w, 'WITHDRAWAL_COMPLETED'), completedNow),
  ]);
  return done[0] ?? w;
}

/** PENDING -> FAILED and the amount back to the wallet, in one batch, once. */
export async function failWithdrawal(deps: Deps, w: WithdrawalRow, reason: string) {
  const { db } = deps;
  const owner: Owner = { type: w.ownerType, id: w.ownerId };
  const token = newToken();
  await db.batch([
    db
      .update(withdrawals)
      .set({ status: 'FAILED', failureReason: reason.slice(0, 500), completedAt: new Date().toISOString() })
      .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PENDING'))),
    ...postingStatements(db, withdrawalReversal(owner, w.amountCents, w.currency, w.id), token, {
      guard: rowExists(db, withdrawals, and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'FAILED'))),
      withdrawalToken: w.token,
    }),
    ...notifyIfPosted(db, token, await withdrawalNotice(deps, w, 'WITHDRAWAL_FAILED')),
  ]);
}

export async function listWithdrawals(deps: Deps, owner: Owner, q: PageParams<'createdAt' | 'amount'>) {
  const db = deps.db;
  const order = orderBy(q.sort, { createdAt: withdrawals.createdAt, amount: withdrawals.amountCents }, withdrawals.id);
  const { rows, total } = await readPage(db, withdrawals, ownerIs(owner), order, q);
  return toPage(rows.map(toWithdrawal), total, q);
}

/** The automatic-withdrawal setting of the owner's wallet in `currency` (CONTRACT section 20: one per currency). */
export async function getAutoWithdrawal(deps: Deps, owner: Owner, currency: string) {
  const [row] = await deps.db
    .select()
    .from(withdrawalSettings)
    .where(and(eq(withdrawalSettings.ownerType, owner.type), eq(withdrawalSettings.ownerId, owner.id), eq(withdrawalSettings.currency, currency)));
  return { enabled: row?.enabled ?? false, threshold: row ? amountOf(row.thresholdCents, currency) : null, currency };
}

/** Sets the automatic withdrawal of the owner's wallet in `currency`; the threshold in its minor units. */
export async function setAutoWithdrawal(deps: Deps, owner: Owner, enabled: boolean, thresholdMinor: number, currency: string) {
  await deps.db
    .insert(withdrawalSettings)
    .values({ ownerType: owner.type, ownerId: owner.id, enabled, thresholdCents: thresholdMinor, currency })
    .onConflictDoUpdate({
      target: [withdrawalSettings.ownerType, withdrawalSettings.ownerId, withdrawalSettings.currency],
      set: { enabled, thresholdCents: thresholdMinor, updatedAt: new Date().toISOString() },
    });
  return getAutoWithdrawal(deps, owner, currency);
}

/**
 * Cron: every wallet at or above its enabled threshold is paid out in full, each currency against
 * its own threshold and through its own rail (requestWithdrawal: XOF to the default mobile wallet,
 * a Stripe currency through Connect).
 */
export async function runAutoWithdrawals(deps: Deps): Promise<number> {
  const db = deps.db;
  const due = await db
    .select({ ownerType: withdrawalSettings.ownerType, ownerId: withdrawalSettings.ownerId, balance: ledgerAccounts.balanceCents, currency: ledgerAccounts.currency })
    .from(withdrawalSettings)
    .innerJoin(
      ledgerAccounts,
      and(
        eq(ledgerAccounts.kind, 'WALLET'),
        eq(ledgerAccounts.ownerType, withdrawalSettings.ownerType),
        eq(ledgerAccounts.ownerId, withdrawalSettings.ownerId),
        // A threshold is an amount of its own currency: only that currency's wallet is compared with it.
        eq(ledgerAccounts.currency, withdrawalSettings.currency),
      ),
    )
    .where(and(eq(withdrawalSettings.enabled, true), gte(ledgerAccounts.balanceCents, withdrawalSettings.thresholdCents), sql`${ledgerAccounts.balanceCents} > 0`))
    .limit(50);
  let paid = 0;
  for (const d of due) {
    try {
      await requestWithdrawal(deps, { type: d.ownerType!, id: d.ownerId! }, d.balance, true, null, d.currency);
      paid += 1;
    } catch (err) {
      // One owner's missing payout account or refused transfer must not stop the others.
      reportCaught(deps.env, err, { msg: 'auto withdrawal failed', owner: `${d.ownerType}:${d.ownerId}` });
    }
  }
  return paid;
}

/** Cron: re-send transfers left PENDING by a transient provider failure (same idempotency key). */
export async function retryPendingWithdrawals(deps: Deps, now = new Date()): Promise<number> {
  const db = deps.db;
  const before = new Date(now.getTime() - 5 * 60 * 1000).toISOString();
  const pending = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.status, 'PENDING'), lte(withdrawals.createdAt, before)))
    .orderBy(asc(withdrawals.createdAt))
    .limit(50);
  for (const w of pending) await sendTransfer(deps, w).catch(() => undefined);
  return pending.length;
}

