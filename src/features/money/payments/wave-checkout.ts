// MOBILE_MONEY checkout (CONTRACT section 20): a Wave checkout session for the reservation, whose
// launch URL the sender is sent to (paymentApprovalUrl, as the card checkout's URL). Wave's signed
// webhook completes it (wave.webhook.ts): nothing here marks anything paid.
import { and, eq } from 'drizzle-orm';
import { paymentSessions, reservations, type ReservationRow } from '../../../db/schema';
import type { Deps } from '../../../env';
import { paymentError, paymentProcessingError } from '../../../errors';
import { apiUrl } from '../../../lib/urls';
import { ProviderRejectedError, type MobileMoneyCheckout } from '../../../providers/mobile-money';
import { PAYMENT_STATUS } from '../escrow';
import { chargedCents } from '../ledger/posting-rules';

/** Where Wave sends the payer back: a page that only says to return to the app (the webhook decides). */
export const waveReturnUrl = (env: Env, outcome: 'success' | 'error') => apiUrl(env, `/payments/callback/wave/${outcome}`);

export async function openWaveCheckout(deps: Deps, r: ReservationRow, attempt: number) {
  const { db } = deps;
  let checkout: MobileMoneyCheckout;
  try {
    checkout = await deps.providers.mobileMoney.createCheckout({
      // The price and the protection premium, in one payment (CONTRACT 21).
      amountMinor: chargedCents(r),
      currency: r.currency,
      clientReference: r.reservationNumber,
      successUrl: waveReturnUrl(deps.env, 'success'),
      errorUrl: waveReturnUrl(deps.env, 'error'),
      idempotencyKey: `checkout-${r.id}-${attempt}`,
    });
  } catch (err) {
    const raise = err instanceof ProviderRejectedError ? paymentError : paymentProcessingError;
    throw raise('money.checkoutNotOpened', { suggestions: ['money.retryMoment'], cause: err });
  }
  const expiresAt = new Date(checkout.expiresAt * 1000).toISOString();
  await db.batch([
    db
      .insert(paymentSessions)
      .values({
        reservationId: r.id,
        provider: 'wave',
        method: 'MOBILE_MONEY',
        sessionId: checkout.id,
        attempt,
        url: checkout.launchUrl,
        amountCents: chargedCents(r),
        currency: r.currency,
        expiresAt,
      })
      .onConflictDoNothing(),
    db
      .update(reservations)
      .set({ paymentId: checkout.id, paymentApprovalUrl: checkout.launchUrl, paymentStatus: PAYMENT_STATUS.PENDING, updatedAt: new Date().toISOString() })
      .where(and(eq(reservations.id, r.id), eq(reservations.status, 'PENDING_PAYMENT'))),
  ]);
  return { paymentId: checkout.id, paymentApprovalUrl: checkout.launchUrl, expiresAt };
}
