// Dev seed helper: a demo reservation taken from wherever a previous run left it to DEPOSITED, as
// the API would (sandbox payment, the carrier's acceptance, the deposit code), one step at a time.
import { eq } from 'drizzle-orm';
import { reservations, type ReservationRow } from '../../../db/schema';
import type { AuthUser } from '../../../env';
import { acceptReservation } from '../../bookings/accept-booking';
import { processCode } from '../../handover/handover.service';
import { createCheckout, paySandboxSession } from '../../money';
import type { SeedContext } from './context';

export const seedAs = (id: number, roles = ['ROLE_CLIENT']): AuthUser => ({ id, roles, jti: 'seed', exp: 0 });

/** Pays, accepts and deposits `r` as far as it has not been; returns its status afterwards. */
export async function carryToDeposited(ctx: SeedContext, r: ReservationRow, senderId: number, carrierId: number): Promise<string> {
  if (r.status === 'PENDING_PAYMENT') {
    const checkout = await createCheckout(ctx, seedAs(senderId), r.id);
    await paySandboxSession(ctx, checkout.paymentId);
    [r] = await ctx.db.select().from(reservations).where(eq(reservations.id, r.id));
  }
  const carrier = seedAs(carrierId, ['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
  let status: string = r.status;
  if (status === 'PAID') {
    await acceptReservation(ctx, carrier, r.id);
    status = 'CONFIRMED';
  }
  if (status === 'CONFIRMED') {
    await processCode(ctx, carrier, r.id, r.depositCode, 'DEPOSIT');
    status = 'DEPOSITED';
  }
  return status;
}
