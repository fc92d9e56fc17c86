// Direct inserts of announcements and reservations in any status, for tests of features that
// come after booking (reviews, reports, disputes...).
import { env } from 'cloudflare:workers';
import { getDb } from '../../src/db/client';
import { announcements, reservations } from '../../src/db/schema';
import type { ReservationStatus } from '../../src/features/reservations/reservation-state';
import { splitPrice } from '../../src/lib/money';

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function insertAnnouncement(carrierId: number, overrides: Partial<typeof announcements.$inferInsert> = {}) {
  const [row] = await getDb(env)
    .insert(announcements)
    .values({
      carrierId,
      departureCity: 'Paris',
      departureCountry: 'FR',
      arrivalCity: 'Dakar',
      arrivalCountry: 'SN',
      departureCityKey: 'paris',
      arrivalCityKey: 'dakar',
      departureDate: daysFromNow(10),
      arrivalDate: daysFromNow(11),
      totalWeightG: 20_000,
      pricePerKgCents: 1_000,
      currency: 'EUR',
      transportMode: 'PLANE',
      ...overrides,
    })
    .returning();
  return row;
}

export async function insertReservation(
  announcement: { id: number; carrierId: number; pricePerKgCents: number },
  senderId: number,
  status: ReservationStatus = 'PENDING_PAYMENT',
  overrides: Partial<typeof reservations.$inferInsert> = {},
) {
  const reservedWeightG = overrides.reservedWeightG ?? 2_000;
  const split = splitPrice(reservedWeightG, announcement.pricePerKgCents, 0.15);
  const [row] = await getDb(env)
    .insert(reservations)
    .values({
      reservationNumber: `T-${crypto.randomUUID().slice(0, 12)}`,
      announcementId: announcement.id,
      senderId,
      carrierId: announcement.carrierId,
      status,
      reservedWeightG,
      contentInfo: 'Books',
      depositCode: '123456',
      deliveryCode: '654321',
      recipient: { firstName: 'Rita', lastName: 'Recipient', phone: '+221700000000' },
      recipientToken: crypto.randomUUID().replace(/-/g, '') + crypto.randomUUID().replace(/-/g, ''),
      pricePerKgCents: announcement.pricePerKgCents,
      ...split,
      currency: 'EUR',
      paymentDeadline: new Date(Date.now() + 30 * 60_000).toISOString(),
      ...overrides,
    })
    .returning();
  return row;
}
