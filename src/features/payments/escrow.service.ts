// Escrow: what happens to a reservation's money as the reservation moves. Authorisation books
// the price into escrow; capture happens at deposit (or before the card hold expires) and keeps
// the money in escrow; delivery releases it to the payee's wallet and platform revenue; rejection
// and cancellation void or refund it. Each runs once: status change and ledger entry share one
// D1 batch, and the entry key (escrow-in / escrow-out) can exist only once.
//
// For the deposit, delivery, reject and cancel handlers:
//   captureLoaded(env, row)                           after the DEPOSIT transition (row as written)
//   releaseOnDelivery(env, id, { action: 'DELIVER', set })   performs the transition itself, or
//   releaseOnDelivery(env, id, null)                  once the reservation is already DELIVERED
//   voidOrRefund(env, id, refundCents, { action: 'REJECT' | 'CANCEL', set })   idem, or without
//                                                     a transition once it is REJECTED/CANCELLED/EXPIRED
//   releaseForReservation(env, reservation, decision) the bookings hook's shape ({paid, refundCents})
//   cancellationRefundCents(reservation, status, by)  the refund rule of CONTRACT section 7
import { and, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '../../db/client';
import { reservations, type ReservationRow } from '../../db/schema';
import { AppError } from '../../errors';
import { fromCents } from '../../lib/money';
import { getPaymentProvider, ProviderUnavailableError } from '../../providers/payment';
import { applyTransition, TRANSITIONS, type ReservationAction } from '../bookings/reservation-state';
import { loadReservation, transitionStatement } from '../bookings/reservation-transition';
import { newToken, notificationsIfPosted, postedSql, postingStatements, rawStatement, wasPosted } from '../ledger/ledger.service';
import { cancellationRefundCents, ESCROW_IN_PREFIX, ESCROW_OUT_PREFIX, escrowPayment, payeeOf, refundEscrow, releaseEscrow } from '../ledger/posting-rules';

export { cancellationRefundCents } from '../ledger/posting-rules';

type ReservationSet = NonNullable<Parameters<typeof transitionStatement>[3]>;

export interface TransitionSpec {
  action: ReservationAction;
  set?: ReservationSet;
}

/** Payment statuses a reservation goes through (reservation.paymentStatus). */
export const PAYMENT_STATUS = {
  PENDING: 'PENDING',
  FAILED: 'FAILED',
  AUTHORIZED: 'AUTHORIZED',
  CAPTURED: 'CAPTURED',
  VOID_PENDING: 'VOID_PENDING',
  VOIDED: 'VOIDED',
  PARTIAL_CAPTURE_PENDING: 'PARTIAL_CAPTURE_PENDING',
  REFUND_PENDING: 'REFUND_PENDING',
  REFUNDED: 'REFUNDED',
  PARTIALLY_REFUNDED: 'PARTIALLY_REFUNDED',
  AUTHORIZATION_EXPIRED: 'AUTHORIZATION_EXPIRED',
} as const;

/** Card holds last about 7 days: capture after 6 so the money stays in escrow. */
export const CAPTURE_BEFORE_MS = 6 * 24 * 3600 * 1000;

const statusIs = (id: number, statuses: readonly string[]): SQL =>
  sql`EXISTS (SELECT 1 FROM reservations WHERE id = ${id} AND status IN (${sql.join(
    statuses.map((s) => sql`${s}`),
    sql`, `,
  )}))`;

const escrowedSql = (id: number): SQL => sql`EXISTS (SELECT 1 FROM ledger_entries WHERE key = ${`escrow-in:${id}`})`;

const money = (cents: number, currency: string) => `${fromCents(cents).toFixed(2)} ${currency}`;

export type AuthorizeOutcome = 'APPLIED' | 'ALREADY_APPLIED' | 'NOT_PAYABLE';

/**
 * The provider authorised the payment: PENDING_PAYMENT -> PAID, price into escrow, both parties
 * notified. Idempotent; a late authorisation for an expired or cancelled reservation is voided.
 */
export async function authorizePayment(
  env: Env,
  reservationId: number,
  payment: { paymentId?: string | null; authorizationId: string },
): Promise<AuthorizeOutcome> {
  const db = getDb(env);
  const r = await loadReservation(db, reservationId);
  if (r.status !== 'PENDING_PAYMENT') {
    if (await hasEntry(db, `escrow-in:${r.id}`)) return 'ALREADY_APPLIED';
    await voidLatePayment(env, r, payment.authorizationId);
    return 'NOT_PAYABLE';
  }
  const now = new Date().toISOString();
  const token = newToken();
  const invoiceId = `INV-${r.reservationNumber}`;
  const results = await db.batch([
    transitionStatement(db, r.id, 'PAY', {
      paymentId: payment.paymentId ?? r.paymentId,
      authorizationId: payment.authorizationId,
      paymentStatus: PAYMENT_STATUS.AUTHORIZED,
      paymentDate: now,
      paidAt: now,
      invoiceId,
    }),
    ...postingStatements(db, escrowPayment(r), token, { guard: statusIs(r.id, ['PAID']) }),
    // The receipt of this payment is its PAYMENT transaction.
    rawStatement(db, sql`UPDATE reservations SET invoice_url = ${`${baseUrl(env)}/v1/api/transactions/`} ||
      (SELECT t.id FROM transactions t JOIN ledger_entries e ON e.id = t.ledger_entry_id WHERE e.token = ${token} AND t.type = 'PAYMENT')
      || '/receipt' WHERE id = ${r.id} AND ${postedSql(token)}`),
    ...notificationsIfPosted(db, token, [
      {
        userId: r.senderId,
        type: 'PAYMENT_AUTHORIZED',
        title: 'Payment received',
        message: `Your payment of ${money(r.totalAmountCents, r.currency)} for reservation ${r.reservationNumber} is held until delivery.`,
        data: { reservationId: r.id },
      },
      {
        userId: r.carrierId,
        type: 'RESERVATION_PAID',
        title: 'New paid reservation',
        message: `Reservation ${r.reservationNumber} has been paid. Please accept or reject it.`,
        data: { reservationId: r.id },
      },
    ]),
  ]);
  const transitioned = (results[0] as unknown[]).length > 0;
  if (transitioned) return 'APPLIED';
  // Someone else moved it meanwhile (the same authorisation through another path, or a cancel).
  const current = await loadReservation(db, r.id);
  if (current.status === 'PENDING_PAYMENT') throw new Error('authorisation batch changed nothing');
  if (await hasEntry(db, `escrow-in:${r.id}`)) return 'ALREADY_APPLIED';
  await voidLatePayment(env, current, payment.authorizationId);
  return 'NOT_PAYABLE';
}

async function hasEntry(db: Db, key: string) {
  const row = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ledger_entries WHERE key = ${key}`);
  return (row?.n ?? 0) > 0;
}

/** A payment authorised for a reservation that can no longer be paid: release the card hold. */
async function voidLatePayment(env: Env, r: ReservationRow, authorizationId: string) {
  if (r.authorizationId === authorizationId && r.paymentStatus === PAYMENT_STATUS.VOIDED) return;
  try {
    await getPaymentProvider(env).cancelAuthorization(authorizationId, `void-late-${authorizationId}`);
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'late payment void failed', reservationId: r.id, error: String(err) }));
    return;
  }
  await getDb(env)
    .update(reservations)
    .set({ authorizationId, paymentStatus: PAYMENT_STATUS.VOIDED, updatedAt: new Date().toISOString() })
    .where(eq(reservations.id, r.id));
}

/** The provider reports the payment captured (event or our own capture call). */
export async function markCaptured(db: Db, reservationId: number, chargeId: string | null) {
  return db
    .update(reservations)
    .set({ captureId: chargeId, paymentStatus: PAYMENT_STATUS.CAPTURED, updatedAt: new Date().toISOString() })
    .where(and(eq(reservations.id, reservationId), eq(reservations.paymentStatus, PAYMENT_STATUS.AUTHORIZED)))
    .returning();
}

/**
 * Captures the authorised payment of a reservation the caller has just read or written (no
 * extra read); the money stays in escrow. Returns the row as it is now. Never throws for a
 * provider failure (the cron retries): the row is returned unchanged, still AUTHORIZED.
 */
export async function captureLoaded(env: Env, r: ReservationRow): Promise<ReservationRow> {
  if (r.paymentStatus !== PAYMENT_STATUS.AUTHORIZED || !r.authorizationId) return r;
  const db = getDb(env);
  try {
    const { chargeId } = await getPaymentProvider(env).capture(r.authorizationId, { idempotencyKey: `capture-${r.id}` });
    const [updated] = await markCaptured(db, r.id, chargeId);
    // No row changed: a concurrent capture (webhook, cron) recorded it first.
    return updated ?? (await loadReservation(db, r.id));
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'capture failed', reservationId: r.id, error: String(err) }));
    return r;
  }
}

/**
 * Captures by reservation id: for the delivery fallback and the cron before a card hold expires.
 * Returns whether the payment is captured now.
 */
export async function captureOnDeposit(env: Env, reservationId: number): Promise<boolean> {
  const r = await loadReservation(getDb(env), reservationId);
  return (await captureLoaded(env, r)).paymentStatus === PAYMENT_STATUS.CAPTURED;
}

/** Runs `statements` after an optional transition; answers like transitionReservation when it cannot apply. */
async function runWithTransition(db: Db, r: ReservationRow, transition: TransitionSpec | null | undefined, build: (guard: SQL) => any[]) {
  const target = transition ? [TRANSITIONS[transition.action].to] : null;
  const first = transition ? [transitionStatement(db, r.id, transition.action, transition.set)] : [];
  const guardStatuses = target ?? [r.status];
  const statements = [...first, ...build(statusIs(r.id, guardStatuses))];
  if (statements.length === 0) return r;
  const results = await db.batch(statements as [any, ...any[]]);
  if (transition && (results[0] as unknown[]).length === 0) {
    const current = await loadReservation(db, r.id);
    applyTransition(current.status, transition.action); // throws 409 INVALID_STATE
    throw new Error('unreachable: transition allowed but no row changed');
  }
  return loadReservation(db, r.id);
}

/**
 * Delivery: the carrier's amount moves from escrow to the payee's wallet (the agency's when the
 * trip belongs to one) and the commission to platform revenue. With `transition` (normally
 * DELIVER, or RESOLVE_RELEASE for a dispute) the status change is part of the same batch;
 * with `null` the reservation must already be DELIVERED.
 */
export async function releaseOnDelivery(
  env: Env,
  reservationId: number,
  transition: TransitionSpec | null = { action: 'DELIVER' },
): Promise<ReservationRow> {
  const db = getDb(env);
  let r = await loadReservation(db, reservationId);
  if (!transition && r.status !== 'DELIVERED') throw new AppError('INVALID_STATE', `Reservation ${r.id} is not delivered`);
  // Money released to a wallet must have been captured first.
  if (r.paymentStatus === PAYMENT_STATUS.AUTHORIZED) {
    await captureOnDeposit(env, r.id);
    r = await loadReservation(db, r.id);
  }
  const token = newToken();
  const payee = payeeOf(r);
  return runWithTransition(db, r, transition, (guard) => [
    ...postingStatements(db, releaseEscrow(r), token, { guard: sql`${guard} AND ${escrowedSql(r.id)}` }),
    ...notificationsIfPosted(db, token, [
      {
        userId: r.carrierId,
        type: 'FUNDS_RELEASED',
        title: 'Payment released',
        message: `${money(r.carrierAmountCents, r.currency)} for reservation ${r.reservationNumber} ${
          payee.type === 'AGENCY' ? "is now in your agency's wallet" : 'is now in your wallet'
        }.`,
        data: { reservationId: r.id },
      },
    ]),
  ]);
}

/** Statuses in which a reservation's payment goes back (when the caller did the transition itself). */
const REFUNDABLE_AFTER: readonly string[] = ['REJECTED', 'CANCELLED', 'EXPIRED', 'REFUNDED'];

/**
 * For callers that commit the status change themselves first (the bookings feature's
 * `releaseReservationPayment(env, reservation, decision)` hook: reject, cancel, expiry, no answer):
 * returns the payment per the decision. Unpaid reservations have nothing to return.
 */
export async function releaseForReservation(
  env: Env,
  reservation: { id: number },
  decision: { paid: boolean; refundCents: number },
): Promise<ReservationRow | null> {
  if (!decision.paid) return null;
  return voidOrRefund(env, reservation.id, decision.refundCents);
}

/**
 * Rejection or cancellation: `refundCents` of the escrowed price goes back to the sender, the rest
 * (the commission, for a late sender cancellation) to platform revenue. Before capture the
 * authorisation is voided (or partially captured for the kept part); after capture it is refunded.
 * The ledger and status change first, in one batch; the provider call follows and is retried by
 * the cron if it fails (paymentStatus stays *_PENDING until then). `settledStatus` skips the
 * provider call when the provider already released the money (a lapsed authorisation).
 */
export async function voidOrRefund(
  env: Env,
  reservationId: number,
  refundCents: number,
  transition?: TransitionSpec,
  options: { settledStatus?: string } = {},
): Promise<ReservationRow> {
  const db = getDb(env);
  const r = await loadReservation(db, reservationId);
  if (!transition && !REFUNDABLE_AFTER.includes(r.status)) {
    // Without a transition the caller already moved the reservation out of the flow; a live one keeps its escrow.
    throw new AppError('INVALID_STATE', `Reservation ${r.id} is ${r.status}; its payment cannot be returned`);
  }
  const escrowed = await hasEntry(db, `escrow-in:${r.id}`);
  const pending =
    !escrowed
      ? null
      : options.settledStatus
        ? options.settledStatus // the provider side is already settled (a lapsed card hold)
        : r.paymentStatus === PAYMENT_STATUS.CAPTURED
        ? PAYMENT_STATUS.REFUND_PENDING
        : refundCents === r.totalAmountCents
          ? PAYMENT_STATUS.VOID_PENDING
          : PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING;
  const token = newToken();
  const next = transition ? { ...transition } : undefined;
  const statements = (guard: SQL) => {
    if (!pending) return [];
    return [
      ...postingStatements(db, refundEscrow(r, refundCents), token, { guard: sql`${guard} AND ${escrowedSql(r.id)}` }),
      rawStatement(db, sql`UPDATE reservations SET payment_status = ${pending} WHERE id = ${r.id} AND ${postedSql(token)}`),
      ...notificationsIfPosted(
        db,
        token,
        refundCents > 0
          ? [
              {
                userId: r.senderId,
                type: 'PAYMENT_REFUNDED',
                title: 'Refund on its way',
                message: `${money(refundCents, r.currency)} for reservation ${r.reservationNumber} is being returned to your card.`,
                data: { reservationId: r.id },
              },
            ]
          : [],
      ),
    ];
  };
  const updated = await runWithTransition(db, r, next, statements);
  if (pending && !options.settledStatus && (await wasPosted(db, token))) return settleWithProvider(env, updated.id);
  return updated;
}

/**
 * The provider side of a refund booked in the ledger: void, partial capture or refund, with an
 * idempotency key per reservation. Leaves the *_PENDING status on a transient failure.
 */
export async function settleWithProvider(env: Env, reservationId: number, retried = false): Promise<ReservationRow> {
  const db = getDb(env);
  const r = await loadReservation(db, reservationId);
  // A reservation is refunded at most once: by its escrow-out entry (rejection, cancellation, a
  // dispute before delivery) or by a dispute settlement after delivery (disputes feature).
  const refund = await db.get<{ amount: number }>(
    sql`SELECT t.amount_cents AS amount FROM transactions t JOIN ledger_entries e ON e.id = t.ledger_entry_id
        WHERE e.reservation_id = ${r.id} AND t.type = 'REFUND'`,
  );
  const refundCents = refund?.amount ?? 0;
  const pi = r.authorizationId;
  if (!pi) return r;
  const provider = getPaymentProvider(env);
  const set = async (values: Partial<typeof reservations.$inferInsert>) => {
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
          amountCents: r.totalAmountCents - refundCents,
          idempotencyKey: `capture-${r.id}`,
        });
        await set({ paymentStatus: PAYMENT_STATUS.PARTIALLY_REFUNDED, captureId: chargeId });
        break;
      }
      case PAYMENT_STATUS.REFUND_PENDING:
        if (refundCents === 0) {
          await set({ paymentStatus: PAYMENT_STATUS.CAPTURED });
          break;
        }
        {
          const { refundId } = await provider.refund(pi, refundCents, `refund-${r.id}`);
          await set({
            refundId,
            paymentStatus: refundCents === r.totalAmountCents ? PAYMENT_STATUS.REFUNDED : PAYMENT_STATUS.PARTIALLY_REFUNDED,
          });
        }
        break;
      default:
        break;
    }
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'provider settlement failed', reservationId: r.id, error: String(err) }));
    const uncapturedPath =
      r.paymentStatus === PAYMENT_STATUS.VOID_PENDING || r.paymentStatus === PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING;
    if (!(err instanceof ProviderUnavailableError) && uncapturedPath) {
      // Refused because the payment was captured meanwhile (a capture raced the rejection): refund instead.
      await set({ paymentStatus: PAYMENT_STATUS.REFUND_PENDING });
      if (!retried) return settleWithProvider(env, reservationId, true);
    }
  }
  return loadReservation(db, r.id);
}

/** Cron: capture authorisations about to lapse (or deposited but not yet captured). */
export async function captureAgingAuthorizations(env: Env, now = new Date()): Promise<number> {
  const db = getDb(env);
  const cutoff = new Date(now.getTime() - CAPTURE_BEFORE_MS).toISOString();
  const due = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        eq(reservations.paymentStatus, PAYMENT_STATUS.AUTHORIZED),
        or(inArray(reservations.status, ['DEPOSITED', 'IN_TRANSIT', 'DELIVERED', 'DISPUTED']), lte(reservations.paidAt, cutoff)),
      ),
    )
    .limit(50);
  let captured = 0;
  for (const { id } of due) if (await captureOnDeposit(env, id)) captured += 1;
  return captured;
}

/** Cron: finish voids, partial captures and refunds whose provider call failed. */
export async function retryPendingSettlements(env: Env): Promise<number> {
  const db = getDb(env);
  const due = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      inArray(reservations.paymentStatus, [
        PAYMENT_STATUS.VOID_PENDING,
        PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING,
        PAYMENT_STATUS.REFUND_PENDING,
      ]),
    )
    .limit(50);
  for (const { id } of due) await settleWithProvider(env, id);
  return due.length;
}

/** How long a reservation out of the flow may wait for its own request to return its money. */
export const ORPHAN_GRACE_MS = 10 * 60_000;
/** Orphans are looked for among reservations paid this recently (index on status, paid_at). */
const ORPHAN_LOOKBACK_MS = 90 * 24 * 60 * 60_000;
const OUT_OF_FLOW = ['CANCELLED', 'REJECTED', 'EXPIRED'] as const;

/** What the rules would have returned: in full, except a sender cancelling after acceptance. */
function orphanRefundCents(r: ReservationRow): number {
  if (r.status !== 'CANCELLED') return r.totalAmountCents;
  const by = r.cancelledBy === r.senderId ? 'SENDER' : 'CARRIER';
  return cancellationRefundCents(r, r.confirmedAt ? 'CONFIRMED' : 'PAID', by);
}

/**
 * Safety net for the cancel, reject and expiry handlers, which commit the status change first and
 * return the money in a second batch: if the request stopped in between, the reservation is out of
 * the flow with its price still in escrow. The cron returns it with the amount the rules give.
 */
export async function refundOrphanedEscrows(env: Env, now = new Date()): Promise<number> {
  const db = getDb(env);
  const orphans = await db
    .select()
    .from(reservations)
    .where(
      and(
        inArray(reservations.status, [...OUT_OF_FLOW]),
        gte(reservations.paidAt, new Date(now.getTime() - ORPHAN_LOOKBACK_MS).toISOString()),
        lte(reservations.updatedAt, new Date(now.getTime() - ORPHAN_GRACE_MS).toISOString()),
        sql`EXISTS (SELECT 1 FROM ledger_entries WHERE key = ${ESCROW_IN_PREFIX} || ${reservations.id})`,
        sql`NOT EXISTS (SELECT 1 FROM ledger_entries WHERE key = ${ESCROW_OUT_PREFIX} || ${reservations.id})`,
      ),
    )
    .limit(50);
  for (const r of orphans) {
    console.error(JSON.stringify({ level: 'warn', msg: 'escrow left behind by an interrupted request: returning it', reservationId: r.id, status: r.status }));
    await voidOrRefund(env, r.id, orphanRefundCents(r));
  }
  return orphans.length;
}

export const baseUrl = (env: Env) => (env.PUBLIC_BASE_URL || 'http://127.0.0.1:8787').replace(/\/$/, '');
