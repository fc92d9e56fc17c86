// Development seed step for the protection option (CONTRACT section 21): a protected reservation
// (a camera declared at 400 in the platform's currency, its premium paid beside the price) that
// the carrier took and the sender then reported LOST, so the console's dispute page offers
// PROTECTION_PAYOUT. Through the services the API uses, each step checking where the previous run
// stopped, like DEMO-DISPUTE-1: running the seed again changes nothing.
import { eq } from 'drizzle-orm';
import { announcements, disputes, reservations } from '../../../db/schema';
import { appConfig } from '../../../config';
import { usesSandbox } from '../../../providers/payment';
import { bookingProtection } from '../../protection/protection.rules';
import { openDispute } from '../../disputes/disputes.service';
import { carryToDeposited, seedAs } from './carry';
import { parisDakarTrip, unpaidDemoReservation, type SeedContext } from './context';

export const DEMO_PROTECTED_DISPUTE_RESERVATION = 'DEMO-PROTECTED-1';
/** The declared value of the demo's protected parcel, in minor units of the platform's currency. */
export const DEMO_PROTECTED_DECLARED_CENTS = 40_000;

async function protectedReservation(ctx: SeedContext, senderId: number, carrierId: number) {
  const { db, env } = ctx;
  const [found] = await db.select().from(reservations).where(eq(reservations.reservationNumber, DEMO_PROTECTED_DISPUTE_RESERVATION));
  if (found) return found;
  const config = appConfig(env);
  const currency = config.platform.currency;
  const [trip] = await db
    .insert(announcements)
    .values({
      ...parisDakarTrip(carrierId, 4),
      reservedWeightG: 2000,
      pricePerKgCents: 1200,
      currency,
      pickupPoint: 'Gare de Lyon, Paris',
      deliveryPoint: 'Plateau, Dakar',
      description: 'Demo trip with a protected parcel reported lost',
    })
    .returning();
  const [r] = await db
    .insert(reservations)
    .values({
      ...unpaidDemoReservation(env, trip, {
        reservationNumber: DEMO_PROTECTED_DISPUTE_RESERVATION,
        senderId,
        carrierId,
        weightG: 2000,
        contentInfo: 'A camera, protected',
        depositCode: '604172',
        deliveryCode: '718293',
        recipient: { firstName: 'Fatou', lastName: 'Sow', phone: '+221700000002', city: 'Dakar' },
      }),
      ...bookingProtection(config.protection, true, [DEMO_PROTECTED_DECLARED_CENTS], currency),
    })
    .onConflictDoNothing()
    .returning();
  return r;
}

export async function seedProtectedDispute(ctx: SeedContext) {
  const carrierId = ctx.userIds['carrier@demo.local'];
  const senderId = ctx.userIds['sender@demo.local'];
  if (!carrierId || !senderId || !usesSandbox(ctx.env)) return;
  const { db } = ctx;
  const r = await protectedReservation(ctx, senderId, carrierId);
  if (!r) return;
  const status = await carryToDeposited(ctx, r, senderId, carrierId);
  const [existing] = await db.select({ id: disputes.id }).from(disputes).where(eq(disputes.reservationId, r.id));
  if (existing || status !== 'DEPOSITED') return;
  await openDispute(ctx, seedAs(senderId), {
    reservationId: r.id,
    reason: 'LOST',
    description: 'The carrier landed in Dakar without my parcel: the camera is lost.',
    evidenceFileIds: [],
  });
}
