// Escrow: what happens to a reservation's money as the reservation moves. Authorisation books the
// price into escrow; capture happens at deposit (or before the card hold lapses) and keeps the
// money in escrow; delivery releases it to the payee's wallet and platform revenue; rejection,
// cancellation and expiry void or refund it. The money side of a transition is a set of effects
// for the transition's plan (features/reservations/lifecycle.ts), so the status change and the
// ledger entry share one D1 batch; the entry key (escrow-in / escrow-out) can exist only once.
// The provider call (capture, void, refund) follows the batch and is retried by the cron.
import { and, eq, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerEntries, MONEY_BACK_TYPES, reservations, transactions, type MoneyBackType, type ReservationRow } from '../../db/schema';
import { rowExists, type Statement } from '../../db/statements';
import type { Deps } from '../../env';
import { amountOf } from '../../lib/money';
import { textAmount, textDay } from '../../lib/message-text';
import { msg } from '../../messages';
import { ProviderRejectedError, ProviderUnavailableError } from '../../providers/payment';
import { commitTransitions, loadReservation, type ReservationSet, type TransitionPlan } from '../reservations/lifecycle';
import { statusChanged, statusChangedOnCommit } from '../reservations/status-feed';
import { reservationRef, toEach } from '../deliveries/notify';
import { carrierSideIds } from '../../access/reservation-access';
import { walletHolderId } from '../../access/agency-scope';
import { holdStatement, releaseAfterDelivery } from './holds';
import { premiumEarnedStatements } from './ledger/premiums';
import { entryExists, hasEntry, newToken, notifyIfPosted, posted, postingStatements } from './ledger/ledger.statements';
import { invoiceAtCapture, invoiceOfRacedCapture, moneyBackDocuments } from './wallet/money-documents';
import { renderLine, storedLine } from './ledger/ledger-text';
import { chargedCents, escrowInKey, escrowOutKey, escrowPayment, lineStatusAtPosting, moneyBackDescription, payeeOf, premiumBackCents, refundEscrow, releaseEscrow } from './ledger/posting-rules';
import { moneyBackNotice, sendRefund } from './refunds';
import { appConfig } from '../../config';
import { reportCaught } from '../../error-tracking';
import { PAYMENT_STATUS } from '../../db/schema/reservations';

/** Payment statuses a reservation goes through (reservation.paymentStatus): defined with the reservation's columns. */
export { PAYMENT_STATUS };

/** Statuses whose provider side is still to be done after the ledger booked a refund. */
const SETTLEMENT_PENDING: readonly string[] = [PAYMENT_STATUS.VOID_PENDING, PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING, PAYMENT_STATUS.REFUND_PENDING];

/** Card holds last about 7 days: capture after 6 so the money stays in escrow. */
export const CAPTURE_BEFORE_MS = 6 * 24 * 3600 * 1000;

/** True while the reservation's price is in escrow (its escrow-in entry exists). */
const escrowed = (db: Db, reservationId: number): SQL => entryExists(db, escrowInKey(reservationId));

// ---------------------------------------------------------------------------------------------
// Authorisation

export type AuthorizeOutcome = 'APPLIED' | 'ALREADY_APPLIED' | 'NOT_PAYABLE';

/**
 * The provider authorised the payment: PENDING_PAYMENT -> PAID, price into escrow (no invoice yet),
 * both parties notified, in one batch. Idempotent; a late authorisation for an expired or
 * cancelled reservation is voided.
 */
export async function authorizePayment(
  deps: Deps,
  reservationId: number,
  payment: { paymentId?: string | null; authorizationId: string; captureId?: string | null },
): Promise<AuthorizeOutcome> {
  const { db, env } = deps;
  const r = await loadReservation(db, reservationId);
  // Mobile money is captured at once (CONTRACT section 20): CAPTURED, with its invoice, in the same batch.
  const captured = payment.captureId !== undefined;
  if (r.status === 'PENDING_PAYMENT') {
    const now = new Date().toISOString();
    const token = newToken();
    const carrierSide = await carrierSideIds(deps, r);
    const [applied] = (
      await commitTransitions(db, [
        {
          id: r.id,
          from: 'PENDING_PAYMENT',
          action: 'PAY',
          set: {
            paymentId: payment.paymentId ?? r.paymentId,
            authorizationId: payment.authorizationId,
            paymentStatus: captured ? PAYMENT_STATUS.CAPTURED : PAYMENT_STATUS.AUTHORIZED,
            ...(captured ? { captureId: payment.captureId ?? null } : {}),
            paymentDate: now,
            paidAt: now,
          },
          effects: (guard) => [
            // No invoice yet: an authorisation charges nothing; the capture issues it (markCaptured).
            ...postingStatements(db, escrowPayment(r), token, { guard }),
            ...notifyIfPosted(db, token, [
              { userId: r.senderId, type: 'PAYMENT_AUTHORIZED', text: msg('notice.paymentHeld', { amount: textAmount(chargedCents(r), r.currency), number: r.reservationNumber }), data: reservationRef(r) },
              // The carrier, or each member of the agency trip's acting staff (CONTRACT 25).
              ...toEach(carrierSide, {
                type: 'RESERVATION_PAID',
                text: msg('notice.bookingPaid', {
                  number: r.reservationNumber,
                  kg: r.reservedWeightG / 1000,
                  total: textAmount(r.totalAmountCents, r.currency),
                  share: textAmount(r.carrierAmountCents, r.currency),
                }),
                data: reservationRef(r),
              }),
            ]),
          ],
        },
      ], captured ? { reads: invoiceAtCapture(db, r.id, PAYMENT_STATUS.CAPTURED, appConfig(env).platform.vatRate) } : {})
    ).rows;
    if (applied) return 'APPLIED';
  }
  // Not payable, or someone moved it meanwhile (the same authorisation through another path, a cancel).
  const current = r.status === 'PENDING_PAYMENT' ? await loadReservation(db, r.id) : r;
  if (current.status === 'PENDING_PAYMENT') throw new Error('authorisation batch changed nothing');
  if (await hasEntry(db, escrowInKey(r.id))) return 'ALREADY_APPLIED';
  // A captured payment is not voided: the caller refunds it with its provider.
  if (!captured) await voidLatePayment(deps, current, payment.authorizationId);
  return 'NOT_PAYABLE';
}

/** A payment authorised for a reservation that can no longer be paid: release the card hold. */
async function voidLatePayment(deps: Deps, r: ReservationRow, authorizationId: string) {
  if (r.authorizationId === authorizationId && r.paymentStatus === PAYMENT_STATUS.VOIDED) return;
  try {
    await deps.providers.payment.cancelAuthorization(authorizationId, `void-late-${authorizationId}`);
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'late payment void failed', reservationId: r.id });
    return;
  }
  await deps.db
    .update(reservations)
    .set({ authorizationId, paymentStatus: PAYMENT_STATUS.VOIDED, updatedAt: new Date().toISOString() })
    .where(eq(reservations.id, r.id));
}

// ---------------------------------------------------------------------------------------------
// Capture

/**
 * The provider reports a capture (event or our own capture call): of the whole payment, or
 * (`partial`) of the kept share of a cancellation, the rest of the hold released. The invoice of
 * what was captured is issued in the same batch (once, whichever report records the capture).
 */
export async function markCaptured(deps: Deps, reservationId: number, chargeId: string | null, partial = false): Promise<ReservationRow[]> {
  const { db, env } = deps;
  const [from, to] = partial
    ? [PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING, PAYMENT_STATUS.PARTIALLY_CAPTURED]
    : [PAYMENT_STATUS.AUTHORIZED, PAYMENT_STATUS.CAPTURED];
  const results = await db.batch([
    // Whoever reports the capture (deposit, cron, webhook, settlement): the status feed says so.
    statusChangedOnCommit(
      db
        .update(reservations)
        .set({ captureId: chargeId, paymentStatus: to, updatedAt: new Date().toISOString() })
        .where(and(eq(reservations.id, reservationId), eq(reservations.paymentStatus, from)))
        .returning({ id: reservations.id }),
    ),
    ...invoiceAtCapture(db, reservationId, to, appConfig(env).platform.vatRate),
    // Read back in the batch, with its invoice (the UPDATE's RETURNING precedes it).
    db.select().from(reservations).where(eq(reservations.id, reservationId)),
  ]);
  const [changed, after] = [results[0] as { id: number }[], results[results.length - 1] as ReservationRow[]];
  return changed.length > 0 ? after : [];
}

/**
 * Captures the authorised payment of a reservation the caller has just read or written (no
 * extra read); the money stays in escrow. Returns the row as it is now. Never throws for a
 * provider failure (the cron retries): the row is returned unchanged, still AUTHORIZED.
 */
export async function captureLoaded(deps: Deps, r: ReservationRow): Promise<ReservationRow> {
  if (r.paymentStatus !== PAYMENT_STATUS.AUTHORIZED || !r.authorizationId) return r;
  try {
    const { chargeId } = await deps.providers.payment.capture(r.authorizationId, { idempotencyKey: `capture-${r.id}` });
    const [updated] = await markCaptured(deps, r.id, chargeId);
    // No row changed: a concurrent capture (webhook, cron) recorded it first.
    return updated ?? (await loadReservation(deps.db, r.id));
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'capture failed', reservationId: r.id });
    return r;
  }
}

// ---------------------------------------------------------------------------------------------
// The money side of transitions (effects for a TransitionPlan)

/**
 * Delivery: the carrier's amount moves from escrow to the payee's held account (the agency's when
 * the trip belongs to one) until the dispute window closes (holds.ts), the commission to revenue.
 */
export function releaseEffects(db: Db, r: ReservationRow, now = new Date()): (guard: SQL) => Statement[] {
  const token = newToken();
  const payee = payeeOf(r);
  return (guard) => [
    ...postingStatements(db, releaseEscrow(r), token, { guard: and(guard, escrowed(db, r.id)) }),
    holdStatement(db, r, payee, token, now),
    // Held, not paid: the share and the day it becomes available (FUNDS_AVAILABLE follows, holds.ts).
    ...notifyIfPosted(db, token, [
      {
        userId: walletHolderId(r),
        type: 'FUNDS_HELD',
        text: msg(payee.type === 'AGENCY' ? 'notice.fundsHeldAgency' : 'notice.fundsHeld', {
          amount: textAmount(r.carrierAmountCents, r.currency),
          number: r.reservationNumber,
          date: textDay(releaseAfterDelivery(now)),
        }),
        data: { ...reservationRef(r), amount: amountOf(r.carrierAmountCents, r.currency), currency: r.currency, availableAt: releaseAfterDelivery(now) },
      },
    ]),
  ];
}

/**
 * Where the provider side of a refund goes next, from what the provider holds now. A hold is voided
 * only when everything charged goes back: the price and the premium (`premiumBack`, by default
 * the premium when the price goes back in full; a protection payout keeps it).
 */
export function settlementAfterRefund(
  r: Pick<ReservationRow, 'paymentStatus' | 'totalAmountCents' | 'protectionPremiumCents'>,
  refundCents: number,
  premiumBack = premiumBackCents(r, refundCents),
): string {
  if (r.paymentStatus === PAYMENT_STATUS.CAPTURED) return PAYMENT_STATUS.REFUND_PENDING;
  return refundCents + premiumBack === chargedCents(r) ? PAYMENT_STATUS.VOID_PENDING : PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING;
}

/** How the money goes back for a settlement step: a refund only once captured; before, a hold released. */
export const moneyBackType = (next: string): MoneyBackType => (next === PAYMENT_STATUS.REFUND_PENDING ? 'REFUND' : 'HOLD_RELEASE');

/**
 * Rejection, cancellation, expiry: `refundCents` of the escrowed price goes back to the sender,
 * `carrierKeptCents` to the payee's wallet (a late sender cancellation, CONTRACT section 22), the
 * rest (the commission) to platform revenue; the payment status
 * becomes the provider step still to do (void, partial capture or refund), or `settledStatus`
 * when the provider already released the money (a lapsed card hold). Nothing when nothing is in
 * escrow.
 */
export function refundEffects(db: Db, r: ReservationRow, refundCents: number, settledStatus?: string, carrierKeptCents = 0): (guard: SQL) => Statement[] {
  const token = newToken();
  const next = settledStatus ?? settlementAfterRefund(r, refundCents);
  const type = moneyBackType(next);
  const premiumBack = premiumBackCents(r, refundCents);
  return (guard) => [
    ...postingStatements(db, refundEscrow(r, refundCents, type, carrierKeptCents), token, { guard: and(guard, escrowed(db, r.id)) }),
    // A premium kept with the price (a partial refund) can no longer go back: the reserve earns it.
    ...(premiumBack === 0 ? premiumEarnedStatements(db, r, posted(db, token)) : []),
    db
      .update(reservations)
      .set({ paymentStatus: next })
      .where(and(eq(reservations.id, r.id), posted(db, token))),
    // What is kept goes to revenue (refundEscrow): the reservation's figures follow.
    ...moneyBackDocuments(db, r.id, { token, refundCents, carrierCents: carrierKeptCents, commissionCents: r.totalAmountCents - refundCents - carrierKeptCents }),
    // A released hold or a partial capture is told now; a refund once the provider confirms it (refunds.ts).
    ...notifyIfPosted(db, token, moneyBackNotice(r, refundCents + premiumBack, next)),
  ];
}

/**
 * Commits a transition that returns money (reject, cancel, a lapsed hold) with its refund in one
 * batch, then does the provider side. Returns the row as it is at the end.
 */
export async function commitWithSettlement(deps: Deps, plan: TransitionPlan): Promise<ReservationRow | null> {
  const [row] = (await commitTransitions(deps.db, [plan])).rows;
  if (!row) return null;
  return needsSettlement(row) ? settleWithProvider(deps, row.id) : row;
}

/** After a committed refund: is a provider call still to be made? */
export const needsSettlement = (row: Pick<ReservationRow, 'paymentStatus'>) => SETTLEMENT_PENDING.includes(row.paymentStatus ?? '');

// ---------------------------------------------------------------------------------------------
// Provider settlement

/**
 * The provider side of a refund booked in the ledger: void, partial capture or refund, with an
 * idempotency key per reservation. Leaves the *_PENDING status on a transient failure.
 */
export async function settleWithProvider(deps: Deps, reservationId: number, retried = false): Promise<ReservationRow> {
  const { db } = deps;
  const r = await loadReservation(db, reservationId);
  // A reservation's money goes back at most once: by its escrow-out entry (rejection, cancellation,
  // a dispute before delivery) or by a dispute settlement after delivery (disputes feature).
  const [refund] = await db
    .select({ amount: transactions.amountCents })
    .from(transactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, transactions.ledgerEntryId))
    .where(and(eq(ledgerEntries.reservationId, r.id), inArray(transactions.type, [...MONEY_BACK_TYPES])));
  // What goes back: the price refunded and, with a full refund, the protection premium.
  const refundCents = refund?.amount ?? 0;
  const pi = r.authorizationId;
  if (!pi) return r;
  statusChanged(db, r.id); // the provider's answer moves the payment status: the status feed reads it again
  const provider = deps.providers.payment;
  const set = async (values: ReservationSet) => {
    await db
      .update(reservations)
      .set({ ...values, updatedAt: new Date().toISOString() })
      .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, r.paymentStatus ?? '')));
  };
  try {
    switch (r.paymentStatus) {
      case PAYMENT_STATUS.VOID_PENDING:
        await provider.cancelAuthorization(pi, `void-${r.id}`);
        await set({ paymentStatus: PAYMENT_STATUS.VOIDED });
        break;
      case PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING: {
        const { chargeId } = await provider.capture(pi, {
          amountCents: chargedCents(r) - refundCents,
          idempotencyKey: `capture-${r.id}`,
        });
        // The kept share is charged and the rest released: a capture, not a refund (no refundId).
        await markCaptured(deps, r.id, chargeId, true);
        break;
      }
      case PAYMENT_STATUS.REFUND_PENDING:
        if (refundCents === 0) {
          await set({ paymentStatus: PAYMENT_STATUS.CAPTURED });
          break;
        }
        await sendRefund(deps, r, refundCents);
        break;
      default:
        break;
    }
  } catch (err) {
    reportCaught(deps.env, err, { msg: 'provider settlement failed', reservationId: r.id });
    await recordRefusal(db, r, err);
    const uncapturedPath = r.paymentStatus === PAYMENT_STATUS.VOID_PENDING || r.paymentStatus === PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING;
    if (!(err instanceof ProviderUnavailableError) && uncapturedPath) {
      // Refused because the payment was captured meanwhile (a capture raced the rejection): refund
      // instead, and the sender's history line says it is a refund now; the capture's invoice is
      // issued with it, the refund's credit note once the provider confirms (CONTRACT 19, 26).
      const [back] = await db.select({ token: ledgerEntries.token }).from(ledgerEntries).where(eq(ledgerEntries.key, escrowOutKey(r.id)));
      await db.batch([
        db
          .update(reservations)
          .set({ paymentStatus: PAYMENT_STATUS.REFUND_PENDING, updatedAt: new Date().toISOString() })
          .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, r.paymentStatus ?? ''))),
        ...relabelAsRefund(db, r, refundCents),
        ...(back ? racedCaptureDocuments(deps, r, refundCents, back) : []),
      ]);
      if (!retried) return settleWithProvider(deps, reservationId, true);
    }
  }
  return loadReservation(db, r.id);
}

/** A refund the provider refused waits for an operator's retry (GET /superadmin/reconciliation), with the refusal. */
async function recordRefusal(db: Db, r: ReservationRow, err: unknown) {
  if (r.paymentStatus !== PAYMENT_STATUS.REFUND_PENDING || !(err instanceof ProviderRejectedError) || err instanceof ProviderUnavailableError) return;
  await db
    .update(reservations)
    .set({ settlementError: err.message.slice(0, 500), updatedAt: new Date().toISOString() })
    .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, PAYMENT_STATUS.REFUND_PENDING), eq(reservations.refundAttempt, r.refundAttempt)));
}

/**
 * The money went back as a refund after all (the payment was captured before the void or partial
 * capture reached the provider): the sender's HOLD_RELEASE line becomes a PENDING REFUND line, in
 * the batch that moves the status to REFUND_PENDING; the sender is told once the provider confirms.
 */
function relabelAsRefund(db: Db, r: ReservationRow, refundCents: number): Statement[] {
  const released = and(eq(transactions.reservationId, r.id), eq(transactions.type, 'HOLD_RELEASE'));
  const escrowOut = db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.key, escrowOutKey(r.id)), eq(ledgerEntries.type, 'ESCROW_REFUNDED')));
  const refundLine = moneyBackDescription(r, refundCents, 'REFUND');
  const refund = { type: 'REFUND', status: lineStatusAtPosting('REFUND') } as const;
  return [
    // The escrow-out entry's line takes the rule's wording; a dispute settlement's keeps its own.
    db
      .update(transactions)
      .set({ ...refund, description: renderLine(refundLine, 'en'), descriptionText: storedLine(refundLine) })
      .where(and(released, inArray(transactions.ledgerEntryId, escrowOut))),
    db.update(transactions).set(refund).where(released),
  ];
}

/**
 * The documents of a capture that raced a void or partial capture: the whole price was captured
 * (split at the configured commission rate, as booked) and `refundCents` of it is refunded; the
 * reservation's figures already say what is kept. After relabelAsRefund (the REFUND line exists).
 */
function racedCaptureDocuments(deps: Deps, r: ReservationRow, refundCents: number, back: { token: string }): Statement[] {
  const { db, env } = deps;
  const commissionCents = Math.round(r.totalAmountCents * appConfig(env).platform.commissionRate);
  const refunding = rowExists(db, reservations, and(eq(reservations.id, r.id), eq(reservations.paymentStatus, PAYMENT_STATUS.REFUND_PENDING)))!;
  return [
    ...invoiceOfRacedCapture(db, r.id, { carrierCents: r.totalAmountCents - commissionCents, commissionCents }, appConfig(env).platform.vatRate, refunding),
    ...moneyBackDocuments(db, r.id, { token: back.token, refundCents, carrierCents: r.carrierAmountCents, commissionCents: r.platformCommissionCents }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Cron

/** Cron: capture authorisations about to lapse (or deposited but not yet captured). */
export async function captureAgingAuthorizations(deps: Deps, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - CAPTURE_BEFORE_MS).toISOString();
  const due = await deps.db
    .select()
    .from(reservations)
    .where(
      and(
        eq(reservations.paymentStatus, PAYMENT_STATUS.AUTHORIZED),
        or(inArray(reservations.status, ['DEPOSITED', 'IN_TRANSIT', 'DELIVERED', 'DISPUTED']), lte(reservations.paidAt, cutoff)),
      ),
    )
    .limit(50);
  let captured = 0;
  for (const r of due) if ((await captureLoaded(deps, r)).paymentStatus === PAYMENT_STATUS.CAPTURED) captured += 1;
  return captured;
}

/** Cron: finish voids, partial captures and refunds whose provider call failed. */
export async function retryPendingSettlements(deps: Deps): Promise<number> {
  const due = await deps.db
    .select({ id: reservations.id })
    .from(reservations)
    // A refund the provider refused is not sent again with the same key (it would replay the refusal): it waits for an operator.
    .where(and(inArray(reservations.paymentStatus, [...SETTLEMENT_PENDING]), isNull(reservations.settlementError)))
    .limit(50);
  for (const { id } of due) await settleWithProvider(deps, id);
  return due.length;
}
