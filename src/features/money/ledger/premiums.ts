// Unearned protection premiums (CONTRACT section 21, docs/decisions-protection.md). A premium stays
// in PROTECTION_PREMIUMS, as that booking's own, until it goes back with a full refund or is
// earned by the reserve (premiumEarned). Whether it is still there is read from the booking's own
// lines on that account (they sum to the premium while it is, to 0 once it has left), so no
// posting takes one booking's premium out twice, and no payout spends a premium that may go back.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerLines } from '../../../db/schema';
import type { Statement } from '../../../db/statements';
import { newToken, postingStatements } from './ledger.statements';
import { ACCOUNTS, premiumEarned, type ReservationMoney } from './posting-rules';

type Protected = Pick<ReservationMoney, 'id' | 'reservationNumber' | 'currency' | 'protectionPremiumCents'>;

/** What the reservation's lines on the unearned premiums account sum to. */
const unearnedSum = (db: Db, reservationId: number) =>
  db
    .select({ cents: sql<number>`coalesce(sum(${ledgerLines.amountCents}), 0)` })
    .from(ledgerLines)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerLines.accountId))
    .where(and(eq(ledgerEntries.reservationId, reservationId), eq(ledgerAccounts.kind, ACCOUNTS.premiums.kind)));

/** SQL, true while the reservation's premium (> 0) is still unearned: a guard for the statement that moves it. */
export const premiumUnearned = (db: Db, r: Pick<Protected, 'id' | 'protectionPremiumCents'>): SQL =>
  sql`(${unearnedSum(db, r.id)}) = ${r.protectionPremiumCents ?? 0}`;

/** The reservation's premium still unearned, in minor units: the premium, or 0 (none, refunded or earned). */
export async function unearnedPremiumCents(db: Db, r: Pick<Protected, 'id' | 'protectionPremiumCents'>): Promise<number> {
  const premium = r.protectionPremiumCents ?? 0;
  if (premium <= 0) return 0;
  const [row] = await unearnedSum(db, r.id);
  return Number(row?.cents ?? 0) === premium ? premium : 0;
}

/**
 * The premium becomes the reserve's, in the caller's batch, under `guard` and only while it is
 * still unearned: nothing for an unprotected reservation, nothing if it went back or was earned.
 */
export function premiumEarnedStatements(db: Db, r: Protected, guard: SQL | undefined): Statement[] {
  if ((r.protectionPremiumCents ?? 0) <= 0) return [];
  return postingStatements(db, premiumEarned(r), newToken(), { guard: and(guard, premiumUnearned(db, r)) });
}
