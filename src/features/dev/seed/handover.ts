// Development seed step: one trip of the demo carrier and one reservation of the demo sender already
// handed over (DEPOSITED), so the recipient page has something to show at a known link, and its
// customs declaration two declared items.
import { eq, inArray } from 'drizzle-orm';
import { announcements, categories, reservationItems, reservations } from '../../../db/schema';
import { termsOf } from '../../reservations/reservation-terms';
import { parisDakarTrip, type SeedContext } from './context';

export const DEMO_HANDOVER_RESERVATION_NUMBER = 'DEMO-HANDOVER-1';
/** Known only because this is demo data in a development database (the seed refuses other environments). */
export const DEMO_RECIPIENT_TOKEN = 'demo-recipient-token-0123456789abcdef0123456789abcdef';

export async function seedHandoverDemo(ctx: SeedContext) {
  const [existing] = await ctx.db
    .select({ id: reservations.id })
    .from(reservations)
    .where(eq(reservations.reservationNumber, DEMO_HANDOVER_RESERVATION_NUMBER));
  if (existing) return;
  const carrierId = ctx.userIds['carrier@demo.local'];
  const senderId = ctx.userIds['sender@demo.local'];
  const [trip] = await ctx.db
    .insert(announcements)
    .values({
      ...parisDakarTrip(carrierId, 1),
      reservedWeightG: 3_000,
      pricePerKgCents: 800,
      currency: 'EUR',
      pickupPoint: 'Gare de Lyon, hall 1',
      deliveryPoint: 'Place de l’Indépendance',
      description: 'Demo trip for the hand-over and tracking flow',
    })
    .returning();
  const now = new Date().toISOString();
  const [reservation] = await ctx.db.insert(reservations).values({
    reservationNumber: DEMO_HANDOVER_RESERVATION_NUMBER,
    announcementId: trip.id,
    senderId,
    carrierId,
    status: 'DEPOSITED',
    reservedWeightG: 3_000,
    contentInfo: 'Books and clothes',
    depositCode: '246810',
    deliveryCode: '135791',
    recipient: { firstName: 'Rita', lastName: 'Recipient', city: 'Dakar' },
    recipientToken: DEMO_RECIPIENT_TOKEN,
    pricePerKgCents: 800,
    ...termsOf(trip),
    totalAmountCents: 2_400,
    platformCommissionCents: 360,
    carrierAmountCents: 2_040,
    currency: 'EUR',
    paymentDeadline: now,
    paidAt: now,
    confirmedAt: now,
    depositedAt: now,
  }).returning({ id: reservations.id });
  const byCode = new Map(
    (await ctx.db.select({ id: categories.id, code: categories.code }).from(categories).where(inArray(categories.code, ['BOOKS', 'CLOTHING']))).map((c) => [c.code, c.id]),
  );
  await ctx.db.insert(reservationItems).values([
    { reservationId: reservation.id, categoryId: byCode.get('BOOKS') ?? null, code: 'BOOKS', name: 'Livres', reservedQuantity: 4, weight: 1.6, declaredValueMinor: 6_000 },
    { reservationId: reservation.id, categoryId: byCode.get('CLOTHING') ?? null, code: 'CLOTHING', name: 'Vêtements', description: 'Robes et chemises', reservedQuantity: 5, weight: 1.2, declaredValueMinor: 8_500 },
  ]);
}
