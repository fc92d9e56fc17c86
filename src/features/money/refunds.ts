// Money going back to a sender, as the sender is told it, and the moment a refund is real: the
// provider confirmed it (its API answered, a webhook, a mobile-money rail). Until then the REFUND
// line is PENDING and has no credit note (CONTRACT 26); the confirmation completes the line, issues
// the credit note and tells the sender where the money went, in one batch, once.
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerEntries, reservations, transactions, type PaymentMethod, type ReservationRow } from '../../db/schema';
import { PAYMENT_STATUS } from '../../db/schema/reservations';
import { rowExists, runBatch } from '../../db/statements';
import type { Deps } from '../../env';
import { amountOf } from '../../lib/money';
import { maskedPhone } from '../../lib/phone';
import { textAmount } from '../../lib/message-text';
import { msg, type Message } from '../../messages';
import { notify, type Notification, type NotificationKind } from '../deliveries/notify';
import { chargedCents } from './ledger/posting-rules';
import { paymentMethodOf, refundMobileMoney } from './mobile-money-settlement';
import { ProviderRejectedError } from '../../providers/payment';
import { creditNoteAtRefund, type PendingRefund } from './wallet/money-documents';

/** Where a confirmed refund leaves the payment: all of the charge back, or part of it. */
const REFUNDED_STATUSES = [PAYMENT_STATUS.REFUNDED, PAYMENT_STATUS.PARTIALLY_REFUNDED] as const;
type RefundedStatus = (typeof REFUNDED_STATUSES)[number];

/**
 * What the sender is told happens to the money, by the payment status it reached: a hold that is
 * only released is not a refund, a partial capture charges the kept part (CONTRACT section 10), and
 * a refund is told once the provider confirmed it, saying where it went (the card, or the mobile
 * money account that paid). A refund still pending says nothing here: the cancellation's own notice
 * already stated the amount, and the confirmation follows.
 */
export function moneyBackNotice(
  r: Pick<ReservationRow, 'id' | 'senderId' | 'reservationNumber' | 'totalAmountCents' | 'currency' | 'protectionPremiumCents'>,
  backCents: number,
  reached: string,
  paidBy: PaymentMethod = 'CARD',
  phone: string | null = null,
): Notification[] {
  if (backCents <= 0) return [];
  const back = textAmount(backCents, r.currency);
  const number = r.reservationNumber;
  const data = { reservationId: r.id, reservationNumber: number, amount: amountOf(backCents, r.currency), currency: r.currency };
  const notice = (type: NotificationKind, text: Message): Notification[] => [{ userId: r.senderId, type, text, data }];
  switch (reached) {
    case PAYMENT_STATUS.REFUND_PENDING:
      return [];
    case PAYMENT_STATUS.REFUNDED:
    case PAYMENT_STATUS.PARTIALLY_REFUNDED:
      if (paidBy === 'CARD') return notice('PAYMENT_REFUNDED', msg('notice.refundedToCard', { amount: back, number }));
      return notice('PAYMENT_REFUNDED', phone ? msg('notice.refundedToNumber', { amount: back, number, phone: maskedPhone(phone) }) : msg('notice.refundedToMobile', { amount: back, number }));
    case PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING:
      return notice('PAYMENT_PARTIALLY_CAPTURED', msg('notice.partialCapture', { kept: textAmount(chargedCents(r) - backCents, r.currency), back, number }));
    default:
      // VOID_PENDING, or a hold the provider already let lapse: nothing was ever charged.
      return notice('PAYMENT_RELEASED', msg('notice.holdReleased', { amount: back, number }));
  }
}

/** The sender's refund line still waiting for the provider, if any. */
async function pendingRefund(db: Db, r: Pick<ReservationRow, 'id' | 'senderId'>): Promise<PendingRefund | null> {
  const [line] = await db
    .select({ transactionId: transactions.id, entryKey: ledgerEntries.key, amountCents: transactions.amountCents })
    .from(transactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, transactions.ledgerEntryId))
    .where(
      and(
        eq(transactions.reservationId, r.id),
        eq(transactions.ownerType, 'USER'),
        eq(transactions.ownerId, r.senderId),
        eq(transactions.type, 'REFUND'),
        eq(transactions.status, 'PENDING'),
      ),
    )
    .limit(1);
  return line ?? null;
}

/** A refund the provider carried out: its id, whether it was a part, and where it went. */
interface RefundDone {
  refundId: string;
  partial: boolean;
  paidBy: PaymentMethod;
  /** The mobile number paid back (E.164), when the rail named one. */
  phone?: string | null;
}

/**
 * The provider confirmed the refund of `r` (loaded after the money went back): REFUNDED or
 * PARTIALLY_REFUNDED from REFUND_PENDING and, while the sender's line is still PENDING, its credit
 * note, the notice and the line COMPLETED, in that order in one batch. A second confirmation (the
 * cron and a webhook's settlement racing) finds the line completed and adds nothing.
 */
async function confirmRefund(deps: Deps, r: ReservationRow, done: RefundDone): Promise<void> {
  const { db } = deps;
  const line = await pendingRefund(db, r);
  const paymentStatus: RefundedStatus = done.partial ? PAYMENT_STATUS.PARTIALLY_REFUNDED : PAYMENT_STATUS.REFUNDED;
  const now = new Date().toISOString();
  const update = db
    .update(reservations)
    .set({ paymentStatus, refundId: done.refundId, refundedAt: now, settlementError: null, updatedAt: now })
    .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, PAYMENT_STATUS.REFUND_PENDING)));
  if (!line) {
    await update;
    return;
  }
  const confirmed: SQL = and(
    rowExists(db, reservations, and(eq(reservations.id, r.id), inArray(reservations.paymentStatus, [...REFUNDED_STATUSES]))),
    rowExists(db, transactions, and(eq(transactions.id, line.transactionId), eq(transactions.status, 'PENDING'))),
  )!;
  await runBatch(db, [
    update,
    ...creditNoteAtRefund(db, r, line, confirmed),
    ...notify(db, moneyBackNotice(r, line.amountCents, paymentStatus, done.paidBy, done.phone ?? null), confirmed),
    db.update(transactions).set({ status: 'COMPLETED' }).where(and(eq(transactions.id, line.transactionId), confirmed)),
  ]);
}

/**
 * The provider side of a refund after capture (REFUND_PENDING, `backCents` > 0): a mobile-money
 * refund of the checkout that paid, else a card refund. A refund the provider answered PENDING is
 * asked about by its id, never sent again (an idempotency key is kept 24 hours); FAILED is a refusal
 * (thrown: the settlement records it for an operator). An operator's retry (reconciliation/retries.ts)
 * is a new attempt: a new idempotency key, since the provider replays a refusal for the old one.
 */
export async function sendRefund(deps: Deps, r: ReservationRow, backCents: number): Promise<void> {
  if ((await paymentMethodOf(deps.db, r.paymentId)) === 'MOBILE_MONEY') {
    const refund = await refundMobileMoney(deps, r, backCents);
    if (refund) await confirmRefund(deps, r, { ...refund, paidBy: 'MOBILE_MONEY' });
    return;
  }
  const provider = deps.providers.payment;
  const { refundId, outcome } = r.refundId
    ? { refundId: r.refundId, outcome: await provider.refundOutcome(r.refundId) }
    : await provider.refund(r.authorizationId ?? '', backCents, r.refundAttempt === 0 ? `refund-${r.id}` : `refund-${r.id}-${r.refundAttempt}`);
  if (outcome === 'SUCCEEDED') return confirmRefund(deps, r, { refundId, partial: backCents !== chargedCents(r), paidBy: 'CARD' });
  await deps.db
    .update(reservations)
    .set({ refundId, settlementError: null, updatedAt: new Date().toISOString() })
    .where(and(eq(reservations.id, r.id), eq(reservations.paymentStatus, PAYMENT_STATUS.REFUND_PENDING)));
  if (outcome === 'FAILED') throw new ProviderRejectedError(`refund ${refundId} failed at the provider`);
}
