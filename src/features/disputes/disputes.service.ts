// Disputes: a party opens one on a reservation in progress or recently delivered, which moves it
// to DISPUTED and freezes the carrier's payout; parties and admins exchange messages; an admin
// resolves it by refunding the sender, releasing to the carrier, or splitting. Every money move
// goes through the ledger postings of dispute-rules.ts and the payment provider (refunds), once:
// the dispute's conditional status change, the reservation transition and the ledger entry (unique
// key) share one D1 batch, and the provider call uses the reservation's refund idempotency key.
import { and, count, eq, gte, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isCheckViolation, isUniqueViolation } from '../../db/errors';
import {
  disputeEvidence,
  disputeMessages,
  disputes,
  files,
  ledgerAccounts,
  ledgerEntries,
  reservations,
  type DisputeRow,
  type ReservationRow,
} from '../../db/schema';
import type { DISPUTE_REASONS, DISPUTE_STATUSES } from '../../db/schema';
import { guardedInsert, pageTotal, rowExists, withTotal, type Statement } from '../../db/statements';
import type { AuthUser, Deps } from '../../env';
import { accessDenied, alreadyExists, invalidArgument, invalidState, notFound, msg } from '../../errors';
import { amountOf, formatMoney } from '../../lib/money';
import { textAmount } from '../../lib/message-text';
import { roundToMinor, storedMoney } from '../../lib/amount';
import { offsetOf, orderBy, toPage, type PageParams } from '../../lib/pagination';
import { hasRole } from '../../middleware/auth';
import { auditInsertIfChanged } from '../audit/audit';
import {
  captureLoaded,
  escrowOutKey,
  hasEntry,
  holdRow,
  moneyBackDocuments,
  moneyBackType,
  releaseHeldShares,
  settleHoldStatements,
  newToken,
  payeeOf,
  posted,
  postingStatements,
  settlementAfterRefund,
  settleWithProvider,
  walletAccount,
  accountKey,
  premiumEarnedStatements,
  unearnedPremiumCents,
} from '../money';
import { notify, reservationRef, type Notification } from '../deliveries/notify';
import { commitTransitions, loadReservation } from '../reservations/lifecycle';
import { admittedSide, assertSide, carrierSideCondition, carrierSideIds, partyIds, sideOf } from '../../access/reservation-access';
import { isOwnUpload } from '../../access/uploads';
import { DISPUTE_WINDOW_AFTER_DELIVERY_MS, type ReservationStatus } from '../reservations/reservation-state';
import { disputeFreeze, disputeSettlement, freezeAmounts, resolutionRefundCents, retainedSplit, settlementSources, type DisputeResolution } from './dispute-rules';
import { conversationExcerpt } from '../conversations/conversations.service';
import { ensureProtectionPayout, protectionPayoutStatements, requestedPayoutCents } from './protection-payout';
import { appConfig } from '../../config';
import { reportCaught } from '../../error-tracking';

export type DisputeReason = (typeof DISPUTE_REASONS)[number];
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTABLE_STATUSES: readonly ReservationStatus[] = ['DEPOSITED', 'IN_TRANSIT', 'DELIVERED'];
export const MAX_EVIDENCE_FILES = 10;

export interface NewDispute {
  reservationId: number;
  reason: DisputeReason;
  description: string;
  evidenceFileIds?: number[];
}

const ADMIN_ROLES = ['ROLE_ADMIN'] as const;
const isAdmin = (auth: AuthUser) => hasRole(auth, ...ADMIN_ROLES);

export const toDisputeJson = (d: DisputeRow, currency: string) => ({
  id: d.id,
  reservationId: d.reservationId,
  openedBy: d.openedBy,
  openerRole: d.openerRole,
  reason: d.reason,
  description: d.description,
  status: d.status,
  previousReservationStatus: d.previousStatus,
  frozenAmount: amountOf(d.frozenCents, currency),
  shortfallAmount: amountOf(d.shortfallCents, currency),
  resolution: d.resolution,
  refundAmount: d.refundCents === null ? null : amountOf(d.refundCents, currency),
  resolutionNote: d.resolutionNote,
  resolvedBy: d.resolvedBy,
  resolvedAt: d.resolvedAt,
  currency,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

async function getDispute(db: Db, id: number) {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id));
  if (!row) throw notFound('Dispute', id);
  return row;
}

async function assertEvidence(db: Db, auth: AuthUser, reservationId: number, ids: number[]) {
  if (ids.length === 0) return;
  const rows = await db.select().from(files).where(inArray(files.id, ids));
  const byId = new Map(rows.map((f) => [f.id, f]));
  const bad = ids.find((id) => {
    const f = byId.get(id);
    return !isOwnUpload(auth.id, f, 'DISPUTE_EVIDENCE', reservationId);
  });
  if (bad !== undefined) {
    throw invalidArgument('dispute.evidenceFilesMustOwn', {
      fieldErrors: [{ field: 'evidenceFileIds', message: msg('dispute.fileNotUsableEvidence', { bad }), rejectedValue: bad }],
    });
  }
}

/** Has the reservation's escrow already been released to the payee (a delivered reservation)? */
async function releasedAtDelivery(db: Db, reservationId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.key, escrowOutKey(reservationId)), eq(ledgerEntries.type, 'ESCROW_RELEASED')));
  return row !== undefined;
}

async function walletBalance(db: Db, key: string): Promise<number> {
  const [row] = await db.select({ cents: ledgerAccounts.balanceCents }).from(ledgerAccounts).where(eq(ledgerAccounts.key, key));
  return row?.cents ?? 0;
}

/**
 * A dispute is opened by the sender or the carrier, once per reservation, in a disputable status,
 * and on a delivered reservation only within the window after delivery. Returns the opener's role
 * and the window's start.
 */
async function assertMayOpenDispute(deps: Deps, auth: AuthUser, r: ReservationRow) {
  const role = await assertSide(deps, auth, r, 'dispute.onlySenderCarrierReservation');
  const [existing] = await deps.db.select({ id: disputes.id }).from(disputes).where(eq(disputes.reservationId, r.id));
  if (existing) throw alreadyExists('dispute.alreadyDisputedWithId', { id: r.id, id2: existing.id });
  if (!DISPUTABLE_STATUSES.includes(r.status)) {
    throw invalidState('dispute.cannotOpenDisputeReservation', { status: r.status });
  }
  const cutoff = new Date(Date.now() - DISPUTE_WINDOW_AFTER_DELIVERY_MS).toISOString();
  if (r.status === 'DELIVERED' && (!r.deliveredAt || r.deliveredAt < cutoff)) {
    throw invalidState('dispute.deliveredReservationDisputedOnly');
  }
  return { role, cutoff };
}

/** What opening a dispute freezes: the payee's share, when it was already released to its wallet. */
async function freezeAtOpening(db: Db, r: ReservationRow) {
  const delivered = r.status === 'DELIVERED' && (await releasedAtDelivery(db, r.id));
  // Since payouts wait for the dispute window the share is still held: nothing to freeze. Only a
  // share credited straight to the wallet (delivered before holds existed) is frozen back.
  const held = delivered && (await holdRow(db, r.id)) !== null;
  const released = delivered && !held;
  const payeeKey = accountKey(walletAccount(payeeOf(r)), r.currency);
  const { frozenCents, shortfallCents } = released
    ? freezeAmounts(r.carrierAmountCents, await walletBalance(db, payeeKey))
    : { frozenCents: 0, shortfallCents: 0 };
  return { delivered, released, frozenCents, shortfallCents };
}

export async function openDispute(deps: Deps, auth: AuthUser, input: NewDispute) {
  const { db } = deps;
  const evidence = [...new Set(input.evidenceFileIds ?? [])];
  for (let attempt = 0; ; attempt += 1) {
    const r = await loadReservation(db, input.reservationId);
    const { role, cutoff } = await assertMayOpenDispute(deps, auth, r);
    await assertEvidence(db, auth, r.id, evidence);
    const { delivered, released, frozenCents, shortfallCents } = await freezeAtOpening(db, r);

    const token = newToken();
    const created = rowExists(db, disputes, eq(disputes.token, token));
    // The other side: the sender, or the carrier side now (an agency trip's acting staff).
    const others = role === 'SENDER' ? await carrierSideIds(deps, r) : [r.senderId];
    // The carrier side hears that its share is frozen (CONTRACT 26) whenever the payout waits on the dispute.
    const frozen = role === 'SENDER' && (delivered || r.status !== 'DELIVERED');
    const note = (userId: number): Notification => ({
      userId,
      type: 'DISPUTE_OPENED',
      text: frozen
        ? msg('notice.fundsFrozen', { number: r.reservationNumber, amount: textAmount(r.carrierAmountCents, r.currency) })
        : msg('notice.disputeOpened', { number: r.reservationNumber }),
      data: reservationRef(r),
    });
    const effects = (guard: SQL): Statement[] => [
      // The dispute exists only with the transition (and, delivered, still within the window).
      guardedInsert(
        db,
        disputes,
        {
          reservationId: r.id,
          openedBy: auth.id,
          openerRole: role,
          reason: input.reason,
          description: input.description,
          status: 'OPEN',
          previousStatus: r.status,
          frozenCents,
          shortfallCents,
          token,
        },
        undefined,
        r.status === 'DELIVERED' ? and(guard, rowExists(db, reservations, and(eq(reservations.id, r.id), gte(reservations.deliveredAt, cutoff)))) : guard,
      ),
      ...evidence.map((fileId) => guardedInsert(db, disputeEvidence, { disputeId: disputes.id, fileId }, disputes, eq(disputes.token, token))),
      // Evidence uploaded without a reservation now belongs to this one (its parties may read it).
      ...(evidence.length
        ? [db.update(files).set({ reservationId: r.id }).where(and(isNull(files.reservationId), inArray(files.id, evidence), created))]
        : []),
      // The dispute id exists only inside the batch: the freeze is keyed by the dispute's token.
      ...(released && frozenCents > 0 ? postingStatements(db, disputeFreeze(r, token, frozenCents), newToken(), { guard: created }) : []),
      ...notify(db, others.map(note), created),
    ];
    try {
      await commitTransitions(db, [{ id: r.id, from: r.status, action: 'OPEN_DISPUTE', effects }]);
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyExists('dispute.alreadyDisputed', { id: r.id });
      // The wallet changed between our read and the batch (a withdrawal): the CHECK refused a
      // negative wallet and rolled everything back; read again and retry.
      if (isCheckViolation(err) && attempt < 3) continue;
      throw err;
    }
    const [row] = await db.select().from(disputes).where(eq(disputes.token, token));
    if (!row) {
      // The reservation moved meanwhile: the checks above answer on the next pass.
      if (attempt < 3) continue;
      throw invalidState('dispute.reservationChangedWhileDispute', { id: r.id });
    }
    return disputeDetail(deps, auth, row.id);
  }
}

export async function disputeDetail(deps: Deps, auth: AuthUser, id: number) {
  const { db } = deps;
  const d = await getDispute(db, id);
  const r = await loadReservation(db, d.reservationId);
  if (!isAdmin(auth) && !(await sideOf(deps, auth, r))) throw accessDenied();
  const [evidence, messages] = await db.batch([
    db.select({ fileId: disputeEvidence.fileId }).from(disputeEvidence).where(eq(disputeEvidence.disputeId, id)).orderBy(disputeEvidence.fileId),
    db.select().from(disputeMessages).where(eq(disputeMessages.disputeId, id)).orderBy(disputeMessages.id),
  ]);
  return {
    ...toDisputeJson(d, r.currency),
    reservationNumber: r.reservationNumber,
    reservationStatus: r.status,
    evidenceFileIds: evidence.map((e) => e.fileId),
    messages: messages.map((m) => ({ id: m.id, authorId: m.authorId, body: m.body, createdAt: m.createdAt })),
    // The parties' own conversation, so the admins resolving the dispute read what was agreed.
    conversation: await conversationExcerpt(deps.env, r.id),
  };
}

export async function listDisputes({ db }: Deps, p: PageParams<'createdAt'>, filters: { partyId?: number; status?: DisputeStatus }) {
  const conditions: SQL[] = [];
  if (filters.partyId !== undefined) {
    const me = filters.partyId;
    // The sender, or the carrier side now (an agency trip's acting staff: CONTRACT 25); whoever
    // opened it is one of them, unless they have since left the agency.
    conditions.push(rowExists(db, reservations, and(eq(reservations.id, disputes.reservationId), or(eq(reservations.senderId, me), carrierSideCondition(db, sql`${me}`))))!);
  }
  if (filters.status) conditions.push(eq(disputes.status, filters.status));
  const where = conditions.length ? and(...conditions) : undefined;
  const countAll = db.select({ total: count() }).from(disputes).where(where);
  const offset = offsetOf(p);
  const found = await db
    .select(withTotal({ d: disputes, currency: reservations.currency }, countAll))
    .from(disputes)
    .innerJoin(reservations, eq(reservations.id, disputes.reservationId))
    .where(where)
    .orderBy(...orderBy(p.sort, { createdAt: disputes.createdAt }, disputes.id))
    .limit(p.size)
    .offset(offset);
  const total = await pageTotal(db, found, offset, () => countAll);
  return toPage(
    found.map((x) => toDisputeJson(x.d, x.currency)),
    total,
    p,
  );
}

export async function addMessage(deps: Deps, auth: AuthUser, id: number, body: string) {
  const { db } = deps;
  const d = await getDispute(db, id);
  const r = await loadReservation(db, d.reservationId);
  const role = await sideOf(deps, auth, r);
  if (!role && !isAdmin(auth)) throw accessDenied();
  if (d.status !== 'OPEN') throw invalidState('dispute.disputeResolved', { id });
  const notes = (await partyIds(deps, r))
    .filter((u) => u !== auth.id)
    .map((userId) => ({
      userId,
      type: 'DISPUTE_MESSAGE' as const,
      text: msg('notice.disputeMessage', { number: r.reservationNumber }),
      data: { disputeId: id, ...reservationRef(r) },
    }));
  await db.batch([db.insert(disputeMessages).values({ disputeId: id, authorId: auth.id, body }), ...notify(db, notes)]);
  return disputeDetail(deps, auth, id);
}

export interface ResolveInput {
  resolution: DisputeResolution;
  amount?: number;
  note: string;
}

/** The refund a resolution gives: a PARTIAL_REFUND's amount lies strictly between 0 and the price; the others take no amount. */
function resolutionRefund(input: ResolveInput, r: ReservationRow): number {
  // In the reservation's currency: whole francs for XOF, cents for EUR.
  const amountCents = input.amount === undefined ? undefined : roundToMinor(input.amount, storedMoney(0, r.currency).currency);
  if (input.resolution === 'PARTIAL_REFUND') {
    if (amountCents === undefined || amountCents <= 0 || amountCents >= r.totalAmountCents) {
      throw invalidArgument('dispute.partialRefundNeedsAmount', {
        fieldErrors: [
          { field: 'amount', message: msg('dispute.amountBounds', { total: formatMoney(r.totalAmountCents, r.currency) }), rejectedValue: input.amount ?? null },
        ],
      });
    }
  } else if (amountCents !== undefined && input.resolution !== 'PROTECTION_PAYOUT') {
    throw invalidArgument('dispute.noAmountWith', { resolution: input.resolution }, {
      fieldErrors: [{ field: 'amount', message: 'dispute.onlyPartialRefundTakes', rejectedValue: input.amount }],
    });
  }
  return resolutionRefundCents(input.resolution, r.totalAmountCents, amountCents);
}

/** What a resolution gives each side, in money: the sender's refund (premium included) and payout, the carrier side's share. */
interface ResolutionMoney {
  refundCents: number;
  premiumBackCents: number;
  payoutCents: number;
  carrierCents: number;
}

/** Both parties are told the outcome with what each gets (CONTRACT 26): the sender, and the carrier side. */
function resolutionNotes(r: ReservationRow, parties: number[], disputeId: number, resolution: DisputeResolution, m: ResolutionMoney): Notification[] {
  const money = (cents: number) => textAmount(cents, r.currency);
  const values = { number: r.reservationNumber, refund: money(m.refundCents + m.premiumBackCents), payout: money(m.payoutCents), share: money(m.carrierCents), total: money(r.totalAmountCents) };
  const [toSender, toCarrier] =
    resolution === 'RELEASE_TO_CARRIER'
      ? (['notice.disputeReleasedToSender', 'notice.disputeReleasedToCarrier'] as const)
      : m.payoutCents > 0
        ? (['notice.disputePayoutToSender', 'notice.disputePayoutToCarrier'] as const)
        : (['notice.disputeRefundToSender', 'notice.disputeRefundToCarrier'] as const);
  const data = { disputeId, ...reservationRef(r), resolution, refundAmount: amountOf(m.refundCents + m.premiumBackCents, r.currency), payoutAmount: amountOf(m.payoutCents, r.currency), currency: r.currency };
  return parties.map((userId) => ({ userId, type: 'DISPUTE_RESOLVED', text: { key: admittedSide(userId, r) === 'SENDER' ? toSender : toCarrier, params: values }, data }));
}

/**
 * What a resolution does with the protection premium (docs/decisions-protection.md): REFUND_SENDER
 * gives it back (`earned`: the reserve had already earned it, so the platform funds it); a
 * PROTECTION_PAYOUT keeps it and its posting hands it to the reserve; PARTIAL_REFUND and
 * RELEASE_TO_CARRIER decide that it can no longer go back, so the reserve earns it (`earns`).
 * Read while the dispute is OPEN: nothing else earns a premium then (holds.ts waits for it).
 */
async function premiumOutcome(db: Db, r: ReservationRow, resolution: DisputeResolution) {
  const unearned = await unearnedPremiumCents(db, r);
  const back = resolution === 'REFUND_SENDER';
  return { backCents: back ? r.protectionPremiumCents : 0, earned: back && unearned === 0, earns: !back && resolution !== 'PROTECTION_PAYOUT' };
}

interface Resolved {
  disputeId: number;
  reservationId: number;
  auth: AuthUser;
  input: ResolveInput;
  refundCents: number;
  sources: ReturnType<typeof settlementSources> | null;
  ip: string | null;
  resolvedAt: string;
  payoutCents: number;
}

/** The dispute's OPEN -> RESOLVED and its audit line, with the reservation's transition (`guard`). */
function markResolved(db: Db, { disputeId, reservationId, auth, input, refundCents, sources, ip, resolvedAt, payoutCents }: Resolved, guard: SQL): Statement[] {
  return [
    // Reached only with the reservation DISPUTED, i.e. while its one dispute is OPEN: a losing
    // concurrent resolve finds it REFUNDED/DELIVERED and changes nothing.
    db
      .update(disputes)
      .set({
        status: 'RESOLVED',
        resolution: input.resolution,
        refundCents,
        ...(payoutCents > 0 ? { protectionPayoutCents: payoutCents } : {}),
        // After delivery: what the payee still owes once its held and available money is taken.
        ...(sources ? { shortfallCents: sources.receivableCents } : {}),
        resolutionNote: input.note,
        resolvedBy: auth.id,
        resolvedAt,
        updatedAt: resolvedAt,
      })
      .where(and(eq(disputes.id, disputeId), eq(disputes.status, 'OPEN'), guard)),
    auditInsertIfChanged(db, {
      actorId: auth.id,
      action: 'DISPUTE_RESOLVED',
      targetType: 'DISPUTE',
      targetId: disputeId,
      ip,
      details: {
        reservationId,
        resolution: input.resolution,
        refundCents,
        ...(payoutCents > 0 ? { protectionPayoutCents: payoutCents } : {}),
        ...(sources?.receivableCents ? { receivableCents: sources.receivableCents } : {}),
      },
    }),
  ];
}

/**
 * Resolves an OPEN dispute once. The batch: the dispute's conditional OPEN -> RESOLVED update,
 * the reservation transition (RESOLVE_REFUND / RESOLVE_RELEASE), the settlement posting guarded
 * by this resolution (unique key), the payment status to settle, audit and notifications. A
 * concurrent second resolve changes nothing and answers 409. The provider refund follows.
 */
export async function resolveDispute(deps: Deps, auth: AuthUser, id: number, input: ResolveInput, ip: string | null) {
  const { db, env } = deps;
  const d = await getDispute(db, id);
  if (d.status !== 'OPEN') throw invalidState('dispute.disputeAlreadyResolved', { id });
  let r = await loadReservation(db, d.reservationId);
  if (r.status !== 'DISPUTED') throw invalidState('dispute.reservationNotDisputed', { id: r.id, status: r.status });

  const refundCents = resolutionRefund(input, r);
  const [payoutCents, premium] = [requestedPayoutCents(input, r, d.reason), await premiumOutcome(db, r, input.resolution)];
  const premiumBackCents = premium.backCents;
  const released = await releasedAtDelivery(db, r.id);
  // Money released to a wallet must have been captured: capture first when only authorised.
  if (!released && refundCents < r.totalAmountCents) r = await captureLoaded(deps, r);
  const escrowed = await hasEntry(db, `escrow-in:${r.id}`);
  const pending = refundCents === 0 ? null : settlementAfterRefund(r, refundCents, premiumBackCents);
  const payeeKey = accountKey(walletAccount(payeeOf(r)), r.currency);

  for (let attempt = 0; ; attempt += 1) {
    // After delivery the payee gives back what it no longer earns: from the held share, then its
    // available balance, and what those cannot cover it owes (a receivable), never platform revenue.
    const hold = released ? await holdRow(db, r.id) : null;
    const stillHeld = hold && hold.releasedAt === null ? hold : null;
    const settlement = {
      disputeId: d.id,
      refundCents,
      rate: appConfig(env).platform.commissionRate,
      frozenCents: released ? d.frozenCents : null,
      heldCents: stillHeld?.amountCents ?? 0,
      availableCents: released ? await walletBalance(db, payeeKey) : 0,
      moneyBack: moneyBackType(pending ?? ''),
      premiumBackCents,
      premiumEarned: premium.earned,
    };
    const posting = disputeSettlement(r, settlement);
    const sources = released ? settlementSources(r, settlement) : null;

    const resolvedAt = new Date().toISOString();
    const resolvedByMe = rowExists(
      db,
      disputes,
      and(eq(disputes.id, d.id), eq(disputes.status, 'RESOLVED'), eq(disputes.resolvedBy, auth.id), eq(disputes.resolvedAt, resolvedAt)),
    );
    const [token, writesPosting] = [newToken(), escrowed && posting.lines.length > 0];
    const payout = await protectionPayoutStatements(db, r, d.id, payoutCents, resolvedByMe);
    const parties = await partyIds(deps, r); // the sender and the carrier side now (CONTRACT 25)
    const effects = (guard: SQL): Statement[] => [
      ...markResolved(db, { disputeId: d.id, reservationId: r.id, auth, input, refundCents, sources, ip, resolvedAt, payoutCents }, guard),
      ...(writesPosting ? postingStatements(db, posting, token, { guard: resolvedByMe }) : []),
      // The refunded share leaves the reservation's figures; after capture its credit note follows the provider's confirmation.
      ...(writesPosting
        ? moneyBackDocuments(db, r.id, { token, refundCents, ...retainedSplit(r, refundCents, appConfig(env).platform.commissionRate) })
        : []),
      // What stays held is no longer the dispute's: due now, released after the commit (or by the cron).
      ...(stillHeld && sources ? settleHoldStatements(db, stillHeld, sources.fromHeld, resolvedAt, resolvedByMe) : []),
      ...(writesPosting && pending ? [db.update(reservations).set({ paymentStatus: pending }).where(and(eq(reservations.id, r.id), posted(db, token)))] : []),
      ...(premium.earns ? premiumEarnedStatements(db, r, resolvedByMe) : []),
      ...payout,
      ...notify(db, resolutionNotes(r, parties, d.id, input.resolution, { refundCents, premiumBackCents, payoutCents, carrierCents: retainedSplit(r, refundCents, settlement.rate).carrierCents }), resolvedByMe),
    ];
    const action = input.resolution === 'RELEASE_TO_CARRIER' ? 'RESOLVE_RELEASE' : 'RESOLVE_REFUND';
    let row: ReservationRow | null | undefined;
    try {
      [row] = (await commitTransitions(db, [{ id: r.id, from: 'DISPUTED', action, effects }])).rows;
    } catch (err) {
      // The available balance changed between our read and the batch (a withdrawal): the CHECK
      // refused a negative wallet and rolled everything back; read again and retry.
      if (isCheckViolation(err) && attempt < 3) continue;
      throw err;
    }
    if (!row) throw invalidState('dispute.disputeAlreadyResolved', { id });
    await ensureProtectionPayout(deps, r, d.id, payoutCents);
    if (stillHeld && sources && stillHeld.amountCents > sources.fromHeld) {
      await releaseHeldShares(deps, new Date(), { reservationId: r.id }).catch((err) =>
        reportCaught(deps.env, err, { msg: 'held share release failed', reservationId: r.id }),
      );
    }
    if (writesPosting && pending && row.paymentStatus === pending) await settleWithProvider(deps, r.id);
    return disputeDetail(deps, auth, d.id);
  }
}
