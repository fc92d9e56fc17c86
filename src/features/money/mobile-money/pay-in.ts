// Paying a reservation by mobile money through the port (CONTRACT section 29): the pay-in is
// recorded, then sent once (operations.ts); a hosted page (Wave) is handed back to open, a PIN prompt
// (pawaPay) is PENDING until the callback or a status check settles it. Settling is one function
// whatever told us (callback, status check, cron): COMPLETED pays the reservation (PENDING_PAYMENT to
// PAID through the lifecycle, once), FAILED tells the sender, a payment arriving after the booking
// ended goes straight back.
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { mobileMoneyOperations, paymentSessions, reservations, type MobileMoneyOperationRow, type ReservationRow } from '../../../db/schema';
import type { Deps } from '../../../env';
import { businessRule, msg, paymentError, paymentProcessingError, validationError } from '../../../errors';
import { apiUrl } from '../../../lib/urls';
import type { MobileMoneyRail, Operator, PayInResult } from '../../../providers/mobile-money';
import { auditInsert } from '../../audit/audit';
import { authorizePayment, PAYMENT_STATUS } from '../escrow';
import { statusChangedOnCommit } from '../../reservations/status-feed';
import { chargedCents } from '../ledger/posting-rules';
import { paymentFailed } from '../payments/payments.webhook';
import { assertWithinLimits } from './limits';
import { drive, operationFor, recordOutcome } from './operations';
import { refundLatePayIn } from '../mobile-money-settlement';
import { reportCaught } from '../../../error-tracking';

/** How long a PIN prompt may take before the pay-in is given up locally (the rail may still settle it). */
export const PIN_PROMPT_WINDOW_S = 15 * 60;
/** A pay-in without news for this long is asked about by the cron. */
export const STALE_PAYIN_MS = 2 * 60 * 1000;

/** Where Wave sends the payer back: a page that only says to return to the app (the webhook decides). */
export const waveReturnUrl = (env: Env, outcome: 'success' | 'error') => apiUrl(env, `/payments/callback/wave/${outcome}`);

export interface PayInChoice {
  provider?: string;
  phone?: string;
}

/** The operator asked for (or the only one for the currency), or the 422 naming those that can. */
async function chosenOperator(deps: Deps, currency: string, provider: string | undefined): Promise<Operator> {
  const offered = (await deps.providers.mobileMoney.operators()).filter((o) => o.currency === currency && o.payIn);
  const codes = [...new Set(offered.map((o) => o.code))];
  // Before pawaPay, a MOBILE_MONEY checkout named no provider: Wave, the one rail of XOF then.
  const code = provider ?? (codes.includes('WAVE') ? 'WAVE' : codes.length === 1 ? codes[0] : null);
  if (!code) throw validationError('mobilemoney.providerRequired', { offered: codes.join(', ') || '-' });
  const operator = offered.find((o) => o.code === code);
  if (!operator) throw businessRule('mobilemoney.providerNotOffered', { provider: code, currency }, { suggestions: ['payment.listMethods'] });
  return operator;
}

const phoneError = (provider: string, phone: string | undefined) => {
  const text = phone ? msg('mobilemoney.phoneNotServed', { phone, provider }) : msg('mobilemoney.phoneRequired', { provider });
  return validationError(text, { fieldErrors: [{ field: 'phone', message: text, rejectedValue: phone ?? null }] });
};

/** The payer's number as the rail writes it, checked to belong to the operator's country. */
async function payerPhone(rail: MobileMoneyRail, operator: Operator, phone: string | undefined): Promise<string | null> {
  if (!phone) {
    if (operator.approval === 'PIN_PROMPT') throw phoneError(operator.code, phone);
    return null;
  }
  const predicted = await rail.predictOperator(phone);
  if (!predicted) throw phoneError(operator.code, phone);
  const ops = (await rail.operators()).filter((o) => o.code === predicted.operator);
  // Another operator of the same country is fine (numbers move between operators); another country is not.
  if (!ops.some((o) => o.country === operator.country)) throw phoneError(operator.code, phone);
  return predicted.phone;
}

export async function openMobileMoneyPayIn(deps: Deps, r: ReservationRow, attempt: number, choice: PayInChoice) {
  const { db } = deps;
  const operator = await chosenOperator(deps, r.currency, choice.provider);
  const rail = deps.providers.mobileMoney.rail(operator.rail)!;
  const amountMinor = chargedCents(r); // the price and the protection premium, in one payment (CONTRACT 21)
  assertWithinLimits(operator, 'payIn', amountMinor);
  const phone = await payerPhone(rail, operator, choice.phone);
  const op = await operationFor(db, {
    subject: `payin:${r.id}:${attempt}`,
    kind: 'PAYIN',
    rail: rail.code,
    operator: operator.code,
    amountMinor,
    currency: r.currency,
    phone,
    reservationId: r.id,
    reference: r.reservationNumber,
  });
  const input = { id: op.id, amountMinor, currency: r.currency, operator: operator.code, phone, reference: r.reservationNumber, returnUrls: { success: waveReturnUrl(deps.env, 'success'), error: waveReturnUrl(deps.env, 'error') } };
  const driven = await drive(db, op, { send: () => rail.payIn(input), status: (ref) => rail.payInStatus(op.id, ref) });
  if (driven.row.status === 'FAILED' && !driven.result) {
    const reason = `${driven.row.failureCode}: ${driven.row.failureMessage}`;
    throw paymentError('mobilemoney.payInRefused', { provider: operator.code, reason }, { suggestions: ['money.retryMoment'] });
  }
  const result = driven.result;
  // A hosted page we could not get (Wave unreachable): nothing to hand out, the same id next time.
  if (operator.approval === 'REDIRECT' && !result?.approvalUrl) throw paymentProcessingError('money.checkoutNotOpened', { suggestions: ['money.retryMoment'] });
  const ref = result?.ref || driven.row.ref || op.id;
  const expiresAt = new Date((result?.expiresAt ?? Math.floor(Date.now() / 1000) + PIN_PROMPT_WINDOW_S) * 1000).toISOString();
  const url = result?.approvalUrl ?? null;
  await db.batch([
    db
      .insert(paymentSessions)
      .values({ reservationId: r.id, provider: rail.code.toLowerCase(), method: 'MOBILE_MONEY', sessionId: ref, attempt, url: url ?? '', amountCents: amountMinor, currency: r.currency, expiresAt })
      .onConflictDoNothing(),
    // The pay-in is open: the status feed says PENDING.
    statusChangedOnCommit(
      db
        .update(reservations)
        .set({ paymentId: ref, paymentApprovalUrl: url, paymentStatus: PAYMENT_STATUS.PENDING, updatedAt: new Date().toISOString() })
        .where(and(eq(reservations.id, r.id), eq(reservations.status, 'PENDING_PAYMENT')))
        .returning({ id: reservations.id }),
    ),
  ]);
  // Settled on the spot (a rail that answers at once): applied now, like a callback would.
  if (result && result.status !== 'PENDING' && result.status !== 'UNKNOWN') await settlePayIn(deps, driven.row, result);
  return { paymentId: ref, paymentApprovalUrl: url, expiresAt, status: 'PENDING' as const, provider: operator.code, approval: operator.approval };
}

/**
 * Applies what a rail says about a pay-in (callback, status check): COMPLETED pays the reservation
 * once, for the amount and currency asked (else audited, not applied); FAILED marks the payment
 * failed and tells the sender; PENDING changes nothing.
 */
export async function settlePayIn(deps: Deps, op: MobileMoneyOperationRow | null, result: Omit<PayInResult, 'approvalUrl' | 'expiresAt'>) {
  const { db } = deps;
  const [session] = await db
    .select()
    .from(paymentSessions)
    .where(and(eq(paymentSessions.sessionId, result.ref), eq(paymentSessions.method, 'MOBILE_MONEY')));
  // A pay-in this service did not open (another integration on the wallet): acknowledged, ignored.
  if (!session) return;
  if (result.amountMinor !== null && (result.amountMinor !== session.amountCents || result.currency?.toUpperCase() !== session.currency.toUpperCase())) {
    return reportMismatch(deps, session, result);
  }
  if (op) await recordOutcome(db, op, result);
  if (result.status === 'COMPLETED') {
    const outcome = await authorizePayment(deps, session.reservationId, { paymentId: result.ref, authorizationId: result.ref, captureId: result.providerTransactionId });
    // Paid after the booking ended (cancelled, expired): the money goes straight back.
    if (outcome === 'NOT_PAYABLE') await refundLatePayIn(deps, session.reservationId, result.ref, session.amountCents, session.currency);
    return;
  }
  if (result.status === 'FAILED') await paymentFailed(deps, session.reservationId);
}

async function reportMismatch(deps: Deps, session: { reservationId: number; amountCents: number; currency: string }, result: Omit<PayInResult, 'approvalUrl' | 'expiresAt'>) {
  const details = {
    expected: { amountCents: session.amountCents, currency: session.currency },
    received: { amountCents: result.amountMinor, currency: result.currency, sessionId: result.ref },
  };
  console.warn(JSON.stringify({ level: 'warn', event: 'payment_event.mismatch', reservationId: session.reservationId, ...details }));
  await auditInsert(deps.db, { actorId: null, action: 'PAYMENT_EVENT_MISMATCH', targetType: 'RESERVATION', targetId: session.reservationId, ip: null, details });
}

/**
 * Cron: pay-ins whose callback never came (PENDING or UNKNOWN for a while) are asked about with the
 * status call and settled either way; one the rail never got is sent again with the same id.
 */
export async function checkPendingPayIns(deps: Deps, now = new Date()): Promise<number> {
  const { db } = deps;
  const before = new Date(now.getTime() - STALE_PAYIN_MS).toISOString();
  const open = await db
    .select()
    .from(mobileMoneyOperations)
    .where(and(eq(mobileMoneyOperations.kind, 'PAYIN'), inArray(mobileMoneyOperations.status, ['PENDING', 'UNKNOWN']), lte(mobileMoneyOperations.updatedAt, before)))
    .orderBy(asc(mobileMoneyOperations.updatedAt))
    .limit(50);
  let settled = 0;
  for (const op of open) {
    const rail = deps.providers.mobileMoney.rail(op.rail);
    if (!rail) continue;
    try {
      const driven = await drive(db, op, {
        // Never a new prompt from the cron: a pay-in the rail never got is failed, the payer starts again.
        send: async () => ({ status: 'FAILED', ref: op.ref ?? op.id, providerTransactionId: null, failure: { code: 'NOT_FOUND', message: 'The provider never received this payment' }, amountMinor: null, currency: null, approvalUrl: null, expiresAt: null }),
        status: (ref) => rail.payInStatus(op.id, ref),
      });
      if (driven.result && driven.result.status !== 'PENDING' && driven.result.status !== 'UNKNOWN') {
        await settlePayIn(deps, driven.row, driven.result);
        settled += 1;
      } else {
        await db.update(mobileMoneyOperations).set({ updatedAt: now.toISOString() }).where(eq(mobileMoneyOperations.id, op.id));
      }
    } catch (err) {
      reportCaught(deps.env, err, { msg: 'pay-in status check failed', job: 'money', operation: op.id });
    }
  }
  return settled;
}

