// Dev seed step: one complete paid example. carrier@demo.local's trip, booked by
// sender@demo.local, paid through the sandbox checkout and the signed webhook (so the ledger,
// escrow and notifications are the real ones). Idempotent: keyed by a fixed reservation number.
import { eq } from 'drizzle-orm';
import { announcements, reservations } from '../../../db/schema';
import { usesSandbox } from '../../../providers/payment';
import { parisDakarTrip, unpaidDemoReservation, type SeedContext } from './context';
import { createCheckout, paySandboxSession } from '../../money';
import { appConfig } from '../../../config';

export const DEMO_PAID_RESERVATION = 'DEMO-PAID-0001';
const DEMO_TRIP_DESCRIPTION = 'Demo trip with a paid reservation';

export async function seedPaidReservation(ctx: SeedContext) {
  const carrierId = ctx.userIds['carrier@demo.local'];
  const senderId = ctx.userIds['sender@demo.local'];
  if (!carrierId || !senderId) return;
  if (!usesSandbox(ctx.env)) return; // with real provider keys nobody can pay in a seed
  const { db, env } = ctx;
  let [reservation] = await db.select().from(reservations).where(eq(reservations.reservationNumber, DEMO_PAID_RESERVATION));
  if (!reservation) {
    let [trip] = await db.select().from(announcements).where(eq(announcements.description, DEMO_TRIP_DESCRIPTION));
    const weightG = 4000;
    if (!trip) {
      [trip] = await db
        .insert(announcements)
        .values({
          ...parisDakarTrip(carrierId, 10),
          reservedWeightG: weightG,
          pricePerKgCents: 1250,
          currency: appConfig(env).platform.currency,
          pickupPoint: 'Gare de Lyon, Paris',
          deliveryPoint: 'Place de l’Indépendance, Dakar',
          description: DEMO_TRIP_DESCRIPTION,
        })
        .returning();
    }
    [reservation] = await db
      .insert(reservations)
      .values(
        unpaidDemoReservation(env, trip, {
          reservationNumber: DEMO_PAID_RESERVATION,
          senderId,
          carrierId,
          weightG,
          contentInfo: 'Books and clothes',
          depositCode: '482913',
          deliveryCode: '730516',
          recipient: { firstName: 'Awa', lastName: 'Diop', phone: '+221700000000', city: 'Dakar' },
        }),
      )
      .onConflictDoNothing()
      .returning();
    if (!reservation) return; // a concurrent seed inserted it
  }
  if (reservation.status !== 'PENDING_PAYMENT') return;
  const checkout = await createCheckout(ctx, { id: senderId, roles: ['ROLE_CLIENT'], jti: 'seed', exp: 0 }, reservation.id);
  await paySandboxSession(ctx, checkout.paymentId);
}
