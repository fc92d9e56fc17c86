// Dev seed step: one demo booking by sender@demo.local on a trip of carrier@demo.local, if the
// catalogue steps have created such a trip and a category. Idempotent: skipped once the sender has
// any reservation.
import { and, asc, eq } from 'drizzle-orm';
import { announcements, categories, reservations } from '../../../db/schema';
import type { SeedContext } from './context';
import { createBooking } from '../../bookings/create-booking';

export async function seedDemoBooking(ctx: SeedContext) {
  const senderId = ctx.userIds['sender@demo.local'];
  const carrierId = ctx.userIds['carrier@demo.local'];
  if (!senderId || !carrierId) return;
  const [existing] = await ctx.db.select({ id: reservations.id }).from(reservations).where(eq(reservations.senderId, senderId)).limit(1);
  if (existing) return;
  const [trip] = await ctx.db
    .select()
    .from(announcements)
    .where(and(eq(announcements.carrierId, carrierId), eq(announcements.status, 'ACTIVE')))
    .orderBy(asc(announcements.departureDate))
    .limit(1);
  const [category] = await ctx.db.select().from(categories).where(eq(categories.prohibited, false)).orderBy(asc(categories.id)).limit(1);
  if (!trip || !category || trip.totalWeightG - trip.reservedWeightG < 1000) return;
  const accepted = trip.acceptedCategoryIds ?? [];
  if (accepted.length > 0 && !accepted.includes(category.id)) return;
  await createBooking(
    ctx,
    { id: senderId, roles: ['ROLE_CLIENT'], jti: 'seed', exp: 0 },
    {
      announcementId: trip.id,
      reservedWeight: 1,
      contentInfo: 'Demo parcel: books',
      items: [{ categoryId: category.id, name: 'Books', reservedQuantity: 2 }],
      recipient: { firstName: 'Rita', lastName: 'Recipient', phone: '+33 6 12 34 56 78', city: trip.arrivalCity },
    },
    null,
  );
}
