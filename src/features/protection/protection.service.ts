// GET /bookings/{id}/protection (CONTRACT section 21): whether a reservation is protected, its
// declared value, premium and coverage, and the claim (its dispute, and the payout if any). Read
// by whoever may read the reservation.
import { eq } from 'drizzle-orm';
import { disputes } from '../../db/schema';
import type { AuthUser, Deps } from '../../env';
import { assertCanRead } from '../../access/reservation-access';
import { amountOf } from '../../lib/money';
import { loadReservation } from '../reservations/lifecycle';

const amountOrNull = (minor: number | null, currency: string) => (minor === null ? null : amountOf(minor, currency));

export async function reservationProtection(deps: Deps, auth: AuthUser, id: number) {
  const r = await loadReservation(deps.db, id);
  await assertCanRead(deps, auth, r);
  const isProtected = r.protectionCoverageCents !== null;
  // The dispute is the claim; only a protected reservation has one, so only then is it read.
  const [d] = !isProtected
    ? []
    : await deps.db
        .select({
          id: disputes.id,
          status: disputes.status,
          reason: disputes.reason,
          resolution: disputes.resolution,
          payoutCents: disputes.protectionPayoutCents,
          createdAt: disputes.createdAt,
          resolvedAt: disputes.resolvedAt,
        })
        .from(disputes)
        .where(eq(disputes.reservationId, r.id));
  return {
    protected: isProtected,
    declaredValue: amountOrNull(r.protectionDeclaredCents, r.currency),
    premium: amountOf(r.protectionPremiumCents, r.currency),
    coverage: amountOrNull(r.protectionCoverageCents, r.currency),
    currency: r.currency,
    claim: d
      ? {
          disputeId: d.id,
          status: d.status,
          reason: d.reason,
          resolution: d.resolution,
          payoutAmount: amountOrNull(d.payoutCents, r.currency),
          openedAt: d.createdAt,
          resolvedAt: d.resolvedAt,
        }
      : null,
  };
}
