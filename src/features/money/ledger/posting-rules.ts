// The posting rules of the double-entry ledger as pure functions: which accounts move, by how
// much, and which history rows the owners see. No I/O here; ledger.service.ts writes them.
import type { AccountKind, LedgerEntryType, MoneyBackType, OwnerType, TransactionStatus, TransactionType } from '../../../db/schema/money';
import { msg, type Message } from '../../../messages';
import { lineAmount } from './ledger-text';

/** A wallet owner: a user, or an agency (agency wallets get their own accounts). */
export interface Owner {
  type: OwnerType;
  id: number;
}

export interface AccountRef {
  key: string;
  kind: AccountKind;
  owner?: Owner;
}

export interface PostingLine {
  account: AccountRef;
  amountCents: number;
}

export interface TransactionSpec {
  owner: Owner;
  type: TransactionType;
  amountCents: number;
}

/**
 * A history line's status when written: a refund after capture is money the provider still has to
 * move, PENDING until it confirms (refunds.ts confirmRefund); every other movement happened.
 */
export const lineStatusAtPosting = (type: TransactionType): TransactionStatus => (type === 'REFUND' ? 'PENDING' : 'COMPLETED');

export interface Posting {
  /** At most one entry per key, ever. */
  key: string;
  type: LedgerEntryType;
  /** What the history line says, in every language (ledger-text.ts); the entry keeps its English. */
  description: Message;
  currency: string;
  reservationId?: number;
  lines: PostingLine[];
  transactions: TransactionSpec[];
}

/** The fields of a reservation the rules need. */
export interface ReservationMoney {
  id: number;
  reservationNumber: string;
  senderId: number;
  carrierId: number;
  agencyId: number | null;
  totalAmountCents: number;
  platformCommissionCents: number;
  carrierAmountCents: number;
  currency: string;
  /** The protection premium paid beside the price (CONTRACT 21); absent or 0 without protection. */
  protectionPremiumCents?: number;
}

/** What the sender was charged: the transport price and the protection premium. */
export const chargedCents = (r: Pick<ReservationMoney, 'totalAmountCents' | 'protectionPremiumCents'>) => r.totalAmountCents + (r.protectionPremiumCents ?? 0);

/** The premium goes back with the transport price only when that price goes back in full. */
export const premiumBackCents = (r: Pick<ReservationMoney, 'totalAmountCents' | 'protectionPremiumCents'>, refundCents: number) =>
  refundCents === r.totalAmountCents ? (r.protectionPremiumCents ?? 0) : 0;

export const ACCOUNTS = {
  escrow: { key: 'ESCROW', kind: 'ESCROW' },
  revenue: { key: 'PLATFORM_REVENUE', kind: 'PLATFORM_REVENUE' },
  payouts: { key: 'PAYOUTS', kind: 'PAYOUTS' },
  /** The outside world on the provider side: money paid in is taken from it, refunds go back to it. */
  clearing: { key: 'PROVIDER_CLEARING', kind: 'PROVIDER_CLEARING' },
  /**
   * Premiums that may still go back with a full refund (docs/decisions-protection.md): each one is
   * that booking's own until it is earned (premiumEarned) or refunded, never spent by a payout.
   */
  premiums: { key: 'PROTECTION_PREMIUMS', kind: 'PROTECTION_PREMIUMS' },
  /** Earned protection premiums; protection payouts are paid from it (docs/decisions-protection.md). */
  reserve: { key: 'PROTECTION_RESERVE', kind: 'PROTECTION_RESERVE' },
  /**
   * What the platform puts into protection payouts beyond the reserve (its balance is minus that):
   * the platform underwrites the cover, out of its own funds, never silently out of revenue.
   */
  protectionFunding: { key: 'PROTECTION_FUNDING', kind: 'PROTECTION_FUNDING' },
} as const satisfies Record<string, AccountRef>;

/**
 * The stored key of an account in one currency: every account is per currency (CONTRACT section
 * 20), `WALLET:USER:12:EUR`, `ESCROW:XOF`. The refs above name the account; a posting's currency
 * picks which one (ledger.statements.ts), so no posting can move two currencies.
 */
export const accountKey = (account: AccountRef | string, currency: string): string => `${typeof account === 'string' ? account : account.key}:${currency}`;

export const walletAccount = (owner: Owner): AccountRef => ({ key: `WALLET:${owner.type}:${owner.id}`, kind: 'WALLET', owner });
/** Delivered shares inside the dispute window: the owner's, but not withdrawable (CONTRACT section 19). */
export const heldAccount = (owner: Owner): AccountRef => ({ key: `HELD:${owner.type}:${owner.id}`, kind: 'HELD', owner });
/** What the owner owes after a chargeback: its balance is minus the debt, never above zero. */
export const receivableAccount = (owner: Owner): AccountRef => ({ key: `RECEIVABLE:${owner.type}:${owner.id}`, kind: 'RECEIVABLE', owner });

/** Who is paid on delivery: the owning agency when the trip belongs to one, else the carrier. */
export const payeeOf = (r: Pick<ReservationMoney, 'agencyId' | 'carrierId'>): Owner =>
  r.agencyId ? { type: 'AGENCY', id: r.agencyId } : { type: 'USER', id: r.carrierId };

/** Entry keys are these prefixes and the reservation id (SQL builds them the same way for many rows). */
export const ESCROW_IN_PREFIX = 'escrow-in:';
export const ESCROW_OUT_PREFIX = 'escrow-out:';
export const escrowInKey = (reservationId: number) => `${ESCROW_IN_PREFIX}${reservationId}`;
/** Release and refund share one key: a reservation's escrow leaves exactly once, one way. */
export const escrowOutKey = (reservationId: number) => `${ESCROW_OUT_PREFIX}${reservationId}`;

export function assertBalanced(lines: readonly PostingLine[]): void {
  if (lines.some((l) => !Number.isSafeInteger(l.amountCents))) throw new Error('ledger amounts must be integer cents');
  const sum = lines.reduce((s, l) => s + l.amountCents, 0);
  if (sum !== 0) throw new Error(`unbalanced posting: lines sum to ${sum}`);
}

/** A posting with its zero lines and zero transactions dropped; throws unless it balances. */
export function posting(p: Posting): Posting {
  const lines = p.lines.filter((l) => l.amountCents !== 0);
  assertBalanced(lines);
  return { ...p, lines, transactions: p.transactions.filter((t) => t.amountCents !== 0) };
}

/** Authorised payment: the whole price is held in escrow, the protection premium with the unearned premiums. */
export function escrowPayment(r: ReservationMoney): Posting {
  const premium = r.protectionPremiumCents ?? 0;
  return posting({
    key: escrowInKey(r.id),
    type: 'PAYMENT_ESCROWED',
    description:
      premium > 0
        ? msg('ledger.paymentEscrowedProtected', { number: r.reservationNumber, premium: lineAmount(premium, r.currency) })
        : msg('ledger.paymentEscrowed', { number: r.reservationNumber }),
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: ACCOUNTS.clearing, amountCents: -chargedCents(r) },
      { account: ACCOUNTS.escrow, amountCents: r.totalAmountCents },
      { account: ACCOUNTS.premiums, amountCents: premium },
    ],
    transactions: [{ owner: { type: 'USER', id: r.senderId }, type: 'PAYMENT', amountCents: -chargedCents(r) }],
  });
}

/** Delivery: the carrier's amount to the payee's wallet, the commission to platform revenue. */
export function releaseEscrow(r: ReservationMoney): Posting {
  if (r.carrierAmountCents + r.platformCommissionCents !== r.totalAmountCents) {
    throw new Error('carrier amount and commission must add up to the total');
  }
  const payee = payeeOf(r);
  return posting({
    key: escrowOutKey(r.id),
    type: 'ESCROW_RELEASED',
    description: msg('ledger.escrowReleased', { number: r.reservationNumber }),
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: ACCOUNTS.escrow, amountCents: -r.totalAmountCents },
      { account: heldAccount(payee), amountCents: r.carrierAmountCents },
      { account: ACCOUNTS.revenue, amountCents: r.platformCommissionCents },
    ],
    transactions: [{ owner: payee, type: 'EARNING', amountCents: r.carrierAmountCents }],
  });
}

export const heldReleaseKey = (reservationId: number) => `held-release:${reservationId}`;

/**
 * The dispute window closed (or a dispute ended in the payee's favour): what is still held of a
 * reservation's share becomes available, less `recoveredCents` that repays the owner's receivable.
 * No history row: the earning was shown at delivery, a chargeback when it happened.
 */
export function releaseHeld(
  r: Pick<ReservationMoney, 'id' | 'reservationNumber' | 'currency'>,
  owner: Owner,
  amountCents: number,
  recoveredCents: number,
): Posting {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error('a held release must be positive cents');
  if (!Number.isSafeInteger(recoveredCents) || recoveredCents < 0 || recoveredCents > amountCents) {
    throw new Error(`recovery must be between 0 and ${amountCents} cents`);
  }
  return posting({
    key: heldReleaseKey(r.id),
    type: 'HELD_RELEASED',
    description:
      recoveredCents > 0
        ? msg('ledger.shareAvailableRepaying', { number: r.reservationNumber, recovered: lineAmount(recoveredCents, r.currency) })
        : msg('ledger.shareAvailable', { number: r.reservationNumber }),
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: heldAccount(owner), amountCents: -amountCents },
      { account: walletAccount(owner), amountCents: amountCents - recoveredCents },
      { account: receivableAccount(owner), amountCents: recoveredCents },
    ],
    transactions: [],
  });
}

/** What a release repays of a debt: as much of the released amount as is owed (`owedCents` >= 0). */
export const recoveryCents = (amountCents: number, owedCents: number) => Math.max(0, Math.min(amountCents, owedCents));

/**
 * Where a chargeback of `lossCents` (what the payee must give back of its share) comes from, in
 * order: a legacy dispute freeze still in escrow (`frozenCents`; what it does not need goes back to
 * the wallet), the share still held, the available balance, and the rest becomes a receivable owed
 * by the payee. Never from platform revenue.
 */
export function chargebackSources(input: { lossCents: number; frozenCents: number; heldCents: number; availableCents: number }) {
  const { lossCents, frozenCents, heldCents, availableCents } = input;
  for (const [name, v] of Object.entries(input)) {
    if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${name} must be non-negative cents`);
  }
  const fromFrozen = Math.min(lossCents, frozenCents);
  const fromHeld = Math.min(lossCents - fromFrozen, heldCents);
  const fromWallet = Math.min(lossCents - fromFrozen - fromHeld, availableCents);
  return {
    fromFrozen,
    /** The part of a legacy freeze the payee keeps: back to the wallet. */
    frozenToWallet: frozenCents - fromFrozen,
    fromHeld,
    fromWallet,
    receivableCents: lossCents - fromFrozen - fromHeld - fromWallet,
  };
}

/**
 * What the sender's history line says about money going back, by what the provider does with it:
 * a refund (after capture), a hold released in full (void, lapsed hold), or a partial capture of
 * the kept share with the rest released.
 */
export function moneyBackDescription(
  r: Pick<ReservationMoney, 'reservationNumber' | 'totalAmountCents' | 'currency' | 'protectionPremiumCents'>,
  backCents: number,
  type: MoneyBackType,
): Message {
  const number = r.reservationNumber;
  const back = lineAmount(backCents, r.currency);
  const kept = lineAmount(chargedCents(r) - backCents, r.currency);
  const full = backCents === chargedCents(r);
  if (type === 'REFUND') return full ? msg('ledger.refunded', { number, back }) : msg('ledger.refundedPart', { number, back, kept });
  return full ? msg('ledger.holdReleased', { number, back }) : msg('ledger.holdCapturedPart', { number, back, kept });
}

/**
 * Rejection or cancellation: `refundCents` back to the sender, `carrierKeptCents` (a sender's late
 * cancellation under the trip's policy, CONTRACT section 22) to the payee's wallet at once (no
 * dispute window: nothing is delivered), the rest (the commission) to platform revenue.
 * `type` is how the money goes back (see MONEY_BACK_TYPES): the sender's history line says so.
 */
export function refundEscrow(r: ReservationMoney, refundCents: number, type: MoneyBackType, carrierKeptCents = 0): Posting {
  if (!Number.isSafeInteger(refundCents) || refundCents < 0 || refundCents > r.totalAmountCents) {
    throw new Error(`refund must be between 0 and ${r.totalAmountCents} cents`);
  }
  if (!Number.isSafeInteger(carrierKeptCents) || carrierKeptCents < 0 || carrierKeptCents > r.totalAmountCents - refundCents) {
    throw new Error(`the carrier's kept share must be between 0 and ${r.totalAmountCents - refundCents} cents`);
  }
  const payee = payeeOf(r);
  // A full refund of the price takes the premium back too (CONTRACT 21): from the unearned
  // premiums, where it always still is before this escrow-out (a kept premium is earned after it).
  const premiumBack = premiumBackCents(r, refundCents);
  return posting({
    key: escrowOutKey(r.id),
    type: 'ESCROW_REFUNDED',
    description: moneyBackDescription(r, refundCents + premiumBack, type),
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: ACCOUNTS.escrow, amountCents: -r.totalAmountCents },
      { account: ACCOUNTS.premiums, amountCents: -premiumBack },
      { account: ACCOUNTS.clearing, amountCents: refundCents + premiumBack },
      { account: ACCOUNTS.revenue, amountCents: r.totalAmountCents - refundCents - carrierKeptCents },
      { account: walletAccount(payee), amountCents: carrierKeptCents },
    ],
    transactions: [
      { owner: { type: 'USER', id: r.senderId }, type, amountCents: refundCents + premiumBack },
      { owner: payee, type: 'EARNING', amountCents: carrierKeptCents },
    ],
  });
}

export const premiumEarnedKey = (reservationId: number) => `premium-earned:${reservationId}`;

/**
 * The reservation's premium can no longer go back (the price kept in part, the dispute window
 * closed, a dispute decided without a full refund): it leaves the unearned premiums for the
 * reserve, which pays protection payouts. Once per reservation (its key, and the guard of
 * ledger/premiums.ts: only while that premium is still unearned). No history row: the sender's
 * payment line already shows the premium.
 */
export function premiumEarned(r: Pick<ReservationMoney, 'id' | 'reservationNumber' | 'currency' | 'protectionPremiumCents'>): Posting {
  const premium = r.protectionPremiumCents ?? 0;
  return posting({
    key: premiumEarnedKey(r.id),
    type: 'PROTECTION_PREMIUM_EARNED',
    description: msg('ledger.premiumEarned', { number: r.reservationNumber, premium: lineAmount(premium, r.currency) }),
    currency: r.currency,
    reservationId: r.id,
    lines: [
      { account: ACCOUNTS.premiums, amountCents: -premium },
      { account: ACCOUNTS.reserve, amountCents: premium },
    ],
    transactions: [],
  });
}

/** Withdrawal requested: the wallet pays into the payouts account until the transfer settles. */
export function withdrawalPosting(owner: Owner, amountCents: number, currency: string, token: string): Posting {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error('withdrawal amount must be positive cents');
  return posting({
    key: `withdrawal:${token}`,
    type: 'WITHDRAWAL',
    description: msg('ledger.withdrawal'),
    currency,
    lines: [
      { account: walletAccount(owner), amountCents: -amountCents },
      { account: ACCOUNTS.payouts, amountCents },
    ],
    transactions: [{ owner, type: 'WITHDRAWAL', amountCents: -amountCents }],
  });
}

/** A failed transfer: the money comes back to the wallet. */
export function withdrawalReversal(owner: Owner, amountCents: number, currency: string, withdrawalId: number): Posting {
  return posting({
    key: `withdrawal-reversal:${withdrawalId}`,
    type: 'WITHDRAWAL_REVERSED',
    description: msg('ledger.withdrawalReversed', { id: withdrawalId }),
    currency,
    lines: [
      { account: ACCOUNTS.payouts, amountCents: -amountCents },
      { account: walletAccount(owner), amountCents },
    ],
    transactions: [{ owner, type: 'WITHDRAWAL_REVERSAL', amountCents }],
  });
}
