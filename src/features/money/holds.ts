// Payouts wait for the dispute window (CONTRACT section 19). At delivery the payee's share goes to
// its HELD account with a payout_holds row; the cron (or a dispute resolved in the payee's
// favour) releases it to the wallet once the window has closed with no open dispute, repaying
// first what the payee owes (its RECEIVABLE) from that share. Each release is its own posting
// under `held-release:<reservation>`, so running twice never releases twice.
import { walletHolderId } from '../../access/agency-scope';
import { and, asc, eq, gt, inArray, isNull, lte, not, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { disputes, ledgerAccounts, payoutHolds, reservations, type PayoutHoldRow } from '../../db/schema';
import { guardedInsert, rowExists, runBatch, type Statement } from '../../db/statements';
import type { Deps } from '../../env';
import { DISPUTE_WINDOW_AFTER_DELIVERY_MS } from '../reservations/reservation-state';
import { entryExists, newToken, notifyIfPosted, posted, postingStatements } from './ledger/ledger.statements';
import { amountOf } from '../../lib/money';
import { textAmount } from '../../lib/message-text';
import { msg } from '../../messages';
import { premiumEarnedStatements } from './ledger/premiums';
import { accountKey, heldReleaseKey, receivableAccount, recoveryCents, releaseHeld, type Owner, type ReservationMoney } from './ledger/posting-rules';

/** Holds released per cron run, and per batch (a release is about a dozen statements). */
const RELEASES_PER_RUN = 50;
const RELEASES_PER_BATCH = 10;

/** When a share delivered now becomes available: the same window the dispute opening rule uses. */
export const releaseAfterDelivery = (deliveredAt: Date) => new Date(deliveredAt.getTime() + DISPUTE_WINDOW_AFTER_DELIVERY_MS).toISOString();

/** The hold of a delivery, written only if the delivery's posting (`token`) was. */
export function holdStatement(db: Db, r: Pick<ReservationMoney, 'id' | 'carrierAmountCents' | 'currency'>, payee: Owner, token: string, now = new Date()): Statement {
  return guardedInsert(
    db,
    payoutHolds,
    {
      reservationId: r.id,
      ownerType: payee.type,
      ownerId: payee.id,
      amountCents: r.carrierAmountCents,
      currency: r.currency,
      releaseAfter: releaseAfterDelivery(now),
    },
    undefined,
    posted(db, token),
  );
}

export async function holdRow(db: Db, reservationId: number): Promise<PayoutHoldRow | null> {
  const [row] = await db.select().from(payoutHolds).where(eq(payoutHolds.reservationId, reservationId));
  return row ?? null;
}

/** True while the hold is exactly as read (nothing released or taken from it since). */
export const holdUnchanged = (db: Db, h: Pick<PayoutHoldRow, 'reservationId' | 'amountCents'>): SQL =>
  rowExists(db, payoutHolds, and(eq(payoutHolds.reservationId, h.reservationId), isNull(payoutHolds.releasedAt), eq(payoutHolds.amountCents, h.amountCents)));

/**
 * A dispute's settlement took `takenCents` of the held share (in its batch, under `guard`): what is
 * left is due at `releaseAfter` (the resolution: the dispute no longer holds it); nothing left
 * ends the hold.
 */
export function settleHoldStatements(db: Db, h: Pick<PayoutHoldRow, 'reservationId' | 'amountCents'>, takenCents: number, releaseAfter: string, guard: SQL): Statement[] {
  const left = h.amountCents - takenCents;
  return [
    db
      .update(payoutHolds)
      .set({ amountCents: left, releaseAfter, releasedAt: left === 0 ? releaseAfter : null })
      .where(and(eq(payoutHolds.reservationId, h.reservationId), isNull(payoutHolds.releasedAt), eq(payoutHolds.amountCents, h.amountCents), guard)),
  ];
}

const noOpenDispute = (db: Db): SQL => not(rowExists(db, disputes, and(eq(disputes.reservationId, payoutHolds.reservationId), eq(disputes.status, 'OPEN'))));

/**
 * Cron (and a dispute resolved in the payee's favour, for its own reservation): every hold whose
 * window has passed with no open dispute becomes available, less what repays the owner's debt.
 * Returns how many were released.
 */
export async function releaseHeldShares(deps: Deps, now = new Date(), only?: { reservationId: number }): Promise<number> {
  const { db } = deps;
  const due = await db
    .select({ hold: payoutHolds, reservationNumber: reservations.reservationNumber, premium: reservations.protectionPremiumCents, carrierId: reservations.carrierId, agencyId: reservations.agencyId })
    .from(payoutHolds)
    .innerJoin(reservations, eq(reservations.id, payoutHolds.reservationId))
    .where(
      and(
        isNull(payoutHolds.releasedAt),
        lte(payoutHolds.releaseAfter, now.toISOString()),
        noOpenDispute(db),
        only ? eq(payoutHolds.reservationId, only.reservationId) : undefined,
      ),
    )
    .orderBy(asc(payoutHolds.releaseAfter))
    .limit(RELEASES_PER_RUN);
  if (due.length === 0) return 0;

  // What each owner owes now (minus its receivable's balance); repaid in order, share by share.
  const owners = new Map(due.map(({ hold }) => [accountKey(receivableAccount({ type: hold.ownerType, id: hold.ownerId }), hold.currency), 0]));
  const debts = await db
    .select({ key: ledgerAccounts.key, cents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.key, [...owners.keys()]));
  for (const d of debts) owners.set(d.key, Math.max(0, -d.cents));

  let released = 0;
  for (let i = 0; i < due.length; i += RELEASES_PER_BATCH) {
    const statements: Statement[] = [];
    const holdUpdates: number[] = [];
    for (const { hold, reservationNumber, premium, carrierId, agencyId } of due.slice(i, i + RELEASES_PER_BATCH)) {
      const owner: Owner = { type: hold.ownerType, id: hold.ownerId };
      // The window closed: a protection premium still unearned can no longer go back (the reserve earns it).
      const protectedRow = { id: hold.reservationId, reservationNumber, currency: hold.currency, protectionPremiumCents: premium };
      // What the owner owes in the hold's currency only: a franc debt is repaid in francs.
      const receivable = { key: accountKey(receivableAccount(owner), hold.currency) };
      const token = newToken();
      const releasedAt = now.toISOString();
      if (hold.amountCents === 0) {
        statements.push(db.update(payoutHolds).set({ releasedAt }).where(and(eq(payoutHolds.reservationId, hold.reservationId), isNull(payoutHolds.releasedAt))));
        statements.push(...premiumEarnedStatements(db, protectedRow, noOpenDisputeOn(db, hold.reservationId)));
        continue;
      }
      const recovered = recoveryCents(hold.amountCents, owners.get(receivable.key) ?? 0);
      owners.set(receivable.key, (owners.get(receivable.key) ?? 0) - recovered);
      const p = releaseHeld({ id: hold.reservationId, reservationNumber, currency: hold.currency }, owner, hold.amountCents, recovered);
      const guard = and(
        holdUnchanged(db, hold),
        noOpenDisputeOn(db, hold.reservationId),
        // Repay no more than is still owed when the batch reaches it (a concurrent release may have).
        recovered > 0 ? rowExists(db, ledgerAccounts, and(eq(ledgerAccounts.key, receivable.key), lte(ledgerAccounts.balanceCents, -recovered))) : undefined,
      );
      statements.push(...postingStatements(db, p, token, { guard }));
      statements.push(...premiumEarnedStatements(db, protectedRow, posted(db, token)));
      // The carrier is told the share is available now, less what repaid a debt.
      statements.push(...fundsAvailableNotice(db, { id: hold.reservationId, reservationNumber, carrierId, agencyId, currency: hold.currency }, hold.amountCents - recovered, token));
      holdUpdates.push(statements.length);
      statements.push(
        db
          .update(payoutHolds)
          .set({ releasedAt })
          .where(and(eq(payoutHolds.reservationId, hold.reservationId), isNull(payoutHolds.releasedAt), gt(payoutHolds.amountCents, 0), or(posted(db, token), entryExists(db, heldReleaseKey(hold.reservationId))))),
      );
    }
    const results = await runBatch(db, statements);
    released += holdUpdates.filter((at) => (results[at] as D1Result).meta.changes === 1).length;
  }
  return released;
}

/** FUNDS_AVAILABLE: the share released to the wallet (CONTRACT section 26), once its posting is written. */
function fundsAvailableNotice(db: Db, r: { id: number; reservationNumber: string; carrierId: number; agencyId: number | null; currency: string }, availableCents: number, token: string): Statement[] {
  if (availableCents <= 0) return [];
  return notifyIfPosted(db, token, [
    {
      // The wallet's holder: the carrier, or the agency's owner (CONTRACT 25).
      userId: walletHolderId(r),
      type: 'FUNDS_AVAILABLE',
      text: msg('notice.fundsAvailable', { amount: textAmount(availableCents, r.currency), number: r.reservationNumber }),
      data: { reservationId: r.id, reservationNumber: r.reservationNumber, amount: amountOf(availableCents, r.currency), currency: r.currency },
    },
  ]);
}

const noOpenDisputeOn = (db: Db, reservationId: number): SQL =>
  not(rowExists(db, disputes, and(eq(disputes.reservationId, reservationId), eq(disputes.status, 'OPEN'))));
