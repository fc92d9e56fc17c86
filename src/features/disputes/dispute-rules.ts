// The money rules of disputes as pure functions: how much a dispute opened after delivery freezes,
// how a resolution splits the price, and the ledger postings of freeze and settlement. No I/O here;
// disputes.service.ts writes them with the ledger machinery.
import {
  ACCOUNTS,
  chargebackSources,
  heldAccount,
  posting,
  receivableAccount,
  escrowOutKey,
  payeeOf,
  walletAccount,
  type Posting,
  type ReservationMoney,
} from '../money';
import type { DISPUTE_RESOLUTIONS, MoneyBackType } from '../../db/schema';
import { msg } from '../../messages';

/** PROTECTION_PAYOUT refunds the price like REFUND_SENDER, and pays the cover on top (protection-payout.ts). */
export type DisputeResolution = (typeof DISPUTE_RESOLUTIONS)[number];

/** Keyed by the dispute's token: the freeze is written in the batch that creates the dispute. */
export const disputeFreezeKey = (disputeToken: string) => `dispute-freeze:${disputeToken}`;
export const disputeSettleKey = (disputeId: number) => `dispute-settle:${disputeId}`;

/**
 * A dispute opened after delivery takes the carrier's released amount back from the payee's
 * wallet, but never more than the wallet holds: what was already withdrawn is the shortfall.
 */
export function freezeAmounts(carrierAmountCents: number, walletBalanceCents: number): { frozenCents: number; shortfallCents: number } {
  const frozenCents = Math.max(0, Math.min(carrierAmountCents, walletBalanceCents));
  return { frozenCents, shortfallCents: carrierAmountCents - frozenCents };
}

/** The freeze: payee wallet -> escrow (the money is held again until the dispute is resolved). */
export function disputeFreeze(r: ReservationMoney, disputeToken: string, frozenCents: number): Posting {
  if (!Number.isSafeInteger(frozenCents) || frozenCents < 0 || frozenCents > r.carrierAmountCents) {
    throw new Error(`freeze must be between 0 and ${r.carrierAmountCents} cents`);
  }
  const payee = payeeOf(r);
  return posting({
    key: disputeFreezeKey(disputeToken),
    type: 'DISPUTE_FREEZE',
    description: msg('ledger.disputeFreeze', { number: r.reservationNumber }),
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: walletAccount(payee), amountCents: -frozenCents },
      { account: ACCOUNTS.escrow, amountCents: frozenCents },
    ],
    transactions: [{ owner: payee, type: 'DISPUTE_HOLD', amountCents: -frozenCents }],
  });
}

/** What the sender gets back for a resolution; `amountCents` only for PARTIAL_REFUND (0 < amount < total). */
export function resolutionRefundCents(resolution: DisputeResolution, totalAmountCents: number, amountCents?: number): number {
  switch (resolution) {
    case 'REFUND_SENDER':
    case 'PROTECTION_PAYOUT':
      return totalAmountCents;
    case 'RELEASE_TO_CARRIER':
      return 0;
    case 'PARTIAL_REFUND':
      if (amountCents === undefined || !Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents >= totalAmountCents) {
        throw new Error(`a partial refund must be between 0 and ${totalAmountCents} cents, both excluded`);
      }
      return amountCents;
  }
}

/**
 * The part of the price the carrier side keeps, split as CONTRACT section 1: the commission is
 * round(retained * rate), the carrier gets the rest. Nothing refunded keeps the booking's own split.
 */
export function retainedSplit(
  r: Pick<ReservationMoney, 'totalAmountCents' | 'platformCommissionCents' | 'carrierAmountCents'>,
  refundCents: number,
  rate: number,
): { carrierCents: number; commissionCents: number } {
  if (refundCents === 0) return { carrierCents: r.carrierAmountCents, commissionCents: r.platformCommissionCents };
  const retained = r.totalAmountCents - refundCents;
  const commissionCents = Math.round(retained * rate);
  return { carrierCents: retained - commissionCents, commissionCents };
}

export interface SettlementInput {
  disputeId: number;
  refundCents: number;
  rate: number;
  /**
   * null: the dispute was opened before delivery, the whole price is still in escrow.
   * A number: the escrow was released at delivery; this much was frozen back from the wallet by a
   * dispute opened before payouts waited for the dispute window (0 since).
   */
  frozenCents: number | null;
  /** After delivery: what is still held of the share (payout_holds), and the payee's available balance. */
  heldCents?: number;
  availableCents?: number;
  /** How the sender's share goes back: refunded after capture, or released from the card hold before. */
  moneyBack: MoneyBackType;
  /** The protection premium going back with the price (REFUND_SENDER of a protected booking). */
  premiumBackCents?: number;
  /**
   * The premium is no longer unearned (earned by the reserve before this dispute, a race at the
   * end of the dispute window): what goes back is funded by the platform, never taken from a
   * reserve that may have paid it out (docs/decisions-protection.md).
   */
  premiumEarned?: boolean;
}

/** After delivery: what the payee gives back (the loss) and where it comes from (chargebackSources). */
export function settlementSources(r: ReservationMoney, input: SettlementInput) {
  const { carrierCents } = retainedSplit(r, input.refundCents, input.rate);
  return chargebackSources({
    lossCents: Math.max(0, r.carrierAmountCents - carrierCents),
    frozenCents: input.frozenCents ?? 0,
    heldCents: input.heldCents ?? 0,
    availableCents: input.availableCents ?? 0,
  });
}

/**
 * The resolution's ledger entry.
 * - Price still in escrow (opened before delivery): escrow empties under the reservation's
 *   escrow-out key (so it can never also be released or refunded otherwise): `refund` to the
 *   card side, the carrier's share to the payee's wallet, the commission on the retained part to
 *   revenue.
 * - Released at delivery: the payee gives back what it no longer earns (chargebackSources: a
 *   legacy freeze, then the held share, then the available balance, then a receivable it owes);
 *   revenue gives back only the commission it no longer earns, never the carrier's part. What
 *   stays held is released afterwards like any held share.
 */
export function disputeSettlement(r: ReservationMoney, input: SettlementInput): Posting {
  const { refundCents, frozenCents } = input;
  if (!Number.isSafeInteger(refundCents) || refundCents < 0 || refundCents > r.totalAmountCents) {
    throw new Error(`refund must be between 0 and ${r.totalAmountCents} cents`);
  }
  const payee = payeeOf(r);
  const { carrierCents, commissionCents } = retainedSplit(r, refundCents, input.rate);
  const sender = { type: 'USER' as const, id: r.senderId };
  const description = msg('ledger.disputeResolved', { number: r.reservationNumber });
  const premiumBack = input.premiumBackCents ?? 0;
  if (!Number.isSafeInteger(premiumBack) || premiumBack < 0 || premiumBack > (r.protectionPremiumCents ?? 0)) {
    throw new Error('the premium given back must be between 0 and the premium paid');
  }
  const premiumFrom = input.premiumEarned ? ACCOUNTS.protectionFunding : ACCOUNTS.premiums;
  if (frozenCents === null) {
    return posting({
      key: escrowOutKey(r.id),
      type: 'DISPUTE_SETTLED',
      description,
      currency: r.currency,
      reservationId: r.id,
      lines: [
        { account: ACCOUNTS.escrow, amountCents: -r.totalAmountCents },
        { account: premiumFrom, amountCents: -premiumBack },
        { account: ACCOUNTS.clearing, amountCents: refundCents + premiumBack },
        { account: walletAccount(payee), amountCents: carrierCents },
        { account: ACCOUNTS.revenue, amountCents: commissionCents },
      ],
      transactions: [
        { owner: sender, type: input.moneyBack, amountCents: refundCents + premiumBack },
        { owner: payee, type: 'EARNING', amountCents: carrierCents },
      ],
    });
  }
  if (!Number.isSafeInteger(frozenCents) || frozenCents < 0 || frozenCents > r.carrierAmountCents) {
    throw new Error(`frozen amount must be between 0 and ${r.carrierAmountCents} cents`);
  }
  const src = settlementSources(r, input);
  const takenBack = src.fromHeld + src.fromWallet + src.receivableCents;
  return posting({
    key: disputeSettleKey(input.disputeId),
    type: 'DISPUTE_SETTLED',
    description,
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: ACCOUNTS.escrow, amountCents: -frozenCents },
      { account: heldAccount(payee), amountCents: -src.fromHeld },
      { account: walletAccount(payee), amountCents: src.frozenToWallet - src.fromWallet },
      { account: receivableAccount(payee), amountCents: -src.receivableCents },
      { account: premiumFrom, amountCents: -premiumBack },
      { account: ACCOUNTS.clearing, amountCents: refundCents + premiumBack },
      { account: ACCOUNTS.revenue, amountCents: commissionCents - r.platformCommissionCents },
    ],
    transactions: [
      { owner: sender, type: input.moneyBack, amountCents: refundCents + premiumBack },
      { owner: payee, type: 'DISPUTE_HOLD_RELEASE', amountCents: src.frozenToWallet },
      { owner: payee, type: 'DISPUTE_HOLD', amountCents: -takenBack },
    ],
  });
}
