// The PROTECTION_PAYOUT resolution (CONTRACT section 21, docs/decisions-protection.md): on a
// protected reservation disputed for loss or damage, the price is refunded as by REFUND_SENDER
// (the premium is kept: it bought the cover, and the payout hands it to the reserve) and `amount`,
// at most the coverage, is paid to the sender's wallet from the protection reserve. What the
// reserve cannot cover the platform funds (ACCOUNTS.protectionFunding, never revenue), so the
// reserve never goes below zero. The sender withdraws the money like any wallet balance (Connect
// or a mobile wallet).
import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts, type ReservationRow } from '../../db/schema';
import { rowExists, type Statement } from '../../db/statements';
import type { Deps } from '../../env';
import { businessRule, invalidArgument, msg } from '../../errors';
import { roundToMinor, storedMoney } from '../../lib/amount';
import { formatMoney } from '../../lib/money';
import {
  accountKey,
  ACCOUNTS,
  hasEntry,
  lineAmount,
  newToken,
  posting,
  postingStatements,
  premiumUnearned,
  unearnedPremiumCents,
  walletAccount,
  type Posting,
  type ReservationMoney,
} from '../money';

/** The dispute reasons protection covers: a parcel lost (or never delivered) or damaged. */
export const COVERED_REASONS: readonly string[] = ['LOST', 'DAMAGED', 'NOT_DELIVERED'];

export const protectionPayoutKey = (disputeId: number) => `protection-payout:${disputeId}`;

/**
 * The payout's posting: the booking's own premium, while still unearned (`unearnedCents`), moves
 * to the reserve (the cover is used: it can no longer go back); then `amountCents` to the sender's
 * wallet, from the reserve as far as its balance `reserveCents` and that premium go, the rest
 * funded by the platform.
 */
export function protectionPayout(
  r: Pick<ReservationMoney, 'id' | 'reservationNumber' | 'senderId' | 'currency'>,
  disputeId: number,
  amountCents: number,
  reserveCents: number,
  unearnedCents = 0,
): Posting {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error('a protection payout must be positive minor units');
  if (!Number.isSafeInteger(unearnedCents) || unearnedCents < 0) throw new Error('an unearned premium must be non-negative minor units');
  const fromReserve = Math.min(amountCents, Math.max(0, reserveCents) + unearnedCents);
  const sender = { type: 'USER' as const, id: r.senderId };
  return posting({
    key: protectionPayoutKey(disputeId),
    type: 'PROTECTION_PAYOUT',
    description: msg('ledger.protectionPayout', { number: r.reservationNumber, amount: lineAmount(amountCents, r.currency) }),
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: ACCOUNTS.premiums, amountCents: -unearnedCents },
      { account: ACCOUNTS.reserve, amountCents: unearnedCents - fromReserve },
      { account: ACCOUNTS.protectionFunding, amountCents: -(amountCents - fromReserve) },
      { account: walletAccount(sender), amountCents },
    ],
    transactions: [{ owner: sender, type: 'PROTECTION_PAYOUT', amountCents }],
  });
}

/**
 * The payout a PROTECTION_PAYOUT resolution asks for, in minor units, checked: the booking is
 * protected (422), the dispute is about loss or damage (422), and 0 < amount <= coverage (400 on
 * `amount`). 0 for the other resolutions.
 */
export function requestedPayoutCents(input: { resolution: string; amount?: number }, r: ReservationRow, reason: string): number {
  if (input.resolution !== 'PROTECTION_PAYOUT') return 0;
  if (r.protectionCoverageCents === null) {
    throw businessRule('protection.notProtected', { number: r.reservationNumber }, { suggestions: ['protection.chooseAnotherResolution'] });
  }
  if (!COVERED_REASONS.includes(reason)) {
    throw businessRule('protection.reasonNotCovered', { reason }, { suggestions: ['protection.chooseAnotherResolution'] });
  }
  const cents = input.amount === undefined ? undefined : roundToMinor(input.amount, storedMoney(0, r.currency).currency);
  if (cents === undefined || cents <= 0 || cents > r.protectionCoverageCents) {
    throw invalidArgument('protection.payoutNeedsAmount', {
      fieldErrors: [
        {
          field: 'amount',
          message: msg('protection.payoutBounds', { coverage: formatMoney(r.protectionCoverageCents, r.currency) }),
          rejectedValue: input.amount ?? null,
        },
      ],
    });
  }
  return cents;
}

const reserveKey = (currency: string) => accountKey(ACCOUNTS.reserve, currency);

async function reserveBalance(db: Db, currency: string): Promise<number> {
  const [row] = await db.select({ cents: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(eq(ledgerAccounts.key, reserveKey(currency)));
  return row?.cents ?? 0;
}

/**
 * The payout's statements for the resolution's batch, guarded by `when` (the resolution happened),
 * by the reserve still holding what was read and by the booking's premium still being as read
 * (unearned or not): a concurrent payout that emptied the reserve meanwhile leaves the entry
 * unwritten, and ensureProtectionPayout posts it again from fresh figures.
 */
export async function protectionPayoutStatements(db: Db, r: ReservationRow, disputeId: number, amountCents: number, when: SQL): Promise<Statement[]> {
  if (amountCents <= 0) return [];
  const unearned = await unearnedPremiumCents(db, r);
  const p = protectionPayout(r, disputeId, amountCents, await reserveBalance(db, r.currency), unearned);
  // What the posting takes from the reserve's balance, net of the premium it brings in.
  const fromReserve = -(p.lines.find((l) => l.account.key === ACCOUNTS.reserve.key)?.amountCents ?? 0);
  const holds = rowExists(db, ledgerAccounts, and(eq(ledgerAccounts.key, reserveKey(r.currency)), gte(ledgerAccounts.balanceCents, fromReserve)));
  const premiumAsRead = unearned > 0 ? premiumUnearned(db, r) : undefined;
  return postingStatements(db, p, newToken(), { guard: and(when, fromReserve > 0 ? holds : undefined, premiumAsRead) });
}

/** After the resolution's commit: the payout is posted, once (its key), even if the batch's guard skipped it. */
export async function ensureProtectionPayout(deps: Deps, r: ReservationRow, disputeId: number, amountCents: number): Promise<void> {
  for (let attempt = 0; amountCents > 0 && attempt < 5; attempt += 1) {
    if (await hasEntry(deps.db, protectionPayoutKey(disputeId))) return;
    const statements = await protectionPayoutStatements(deps.db, r, disputeId, amountCents, sql`1 = 1`);
    await deps.db.batch(statements as [Statement, ...Statement[]]);
  }
}
