// Test factories for handover and tracking: an announcement and a reservation in any status,
// inserted straight into D1 (booking creation and payment are other features).
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { getDb } from '../../src/db/client';
import { reservations, type AnnouncementRow, type ReservationRow } from '../../src/db/schema';
import type { ReservationStatus } from '../../src/features/reservations/reservation-state';
import { insertAnnouncement } from './reservations';
import { createCarrier, createUser, type TestUser } from './users';

let counter = 0;

export interface HandoverFixture {
  sender: TestUser;
  carrier: TestUser;
  reservation: ReservationRow;
  announcement: AnnouncementRow;
}

const sixDigits = () => String(100000 + Math.floor(Math.random() * 900000));

export async function createReservation(
  options: { status?: ReservationStatus; sender?: TestUser; carrier?: TestUser } = {},
): Promise<HandoverFixture> {
  counter += 1;
  const sender = options.sender ?? (await createUser());
  const carrier = options.carrier ?? (await createCarrier());
  const db = getDb(env);
  const announcement = await insertAnnouncement(carrier.id, {
    reservedWeightG: 2_000,
    pickupPoint: 'Gare de Lyon',
    deliveryPoint: 'Plateau',
  });
  let depositCode = sixDigits();
  let deliveryCode = sixDigits();
  while (deliveryCode === depositCode) deliveryCode = sixDigits();
  const [reservation] = await db
    .insert(reservations)
    .values({
      reservationNumber: `R-TEST-${counter}-${crypto.randomUUID().slice(0, 8)}`,
      announcementId: announcement.id,
      senderId: sender.id,
      carrierId: carrier.id,
      status: options.status ?? 'CONFIRMED',
      reservedWeightG: 2_000,
      contentInfo: 'Books',
      depositCode,
      deliveryCode,
      recipient: { firstName: 'Rita', lastName: 'Recipient', email: 'rita@example.com', phone: '+221700000000' },
      recipientToken: `rt_${crypto.randomUUID().replace(/-/g, '')}${crypto.randomUUID().replace(/-/g, '')}`,
      pricePerKgCents: 1_000,
      totalAmountCents: 2_000,
      platformCommissionCents: 300,
      carrierAmountCents: 1_700,
      currency: 'EUR',
      paymentDeadline: new Date(Date.now() + 30 * 60_000).toISOString(),
    })
    .returning();
  return { sender, carrier, reservation, announcement };
}

export async function reservationStatus(id: number): Promise<ReservationStatus | undefined> {
  const [row] = await getDb(env).select({ status: reservations.status }).from(reservations).where(eq(reservations.id, id));
  return row?.status;
}

export const qrStub = (id: number) => env.RESERVATION_QR.get(env.RESERVATION_QR.idFromName(String(id)));
export const trackingStub = (id: number) => env.RESERVATION_TRACKING.get(env.RESERVATION_TRACKING.idFromName(String(id)));
