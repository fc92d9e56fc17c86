// Development seed step for the operator console: a KYC record waiting for review (with an
// identity document in R2), an open dispute on a paid, handed-over reservation (with a photo
// and a short conversation), and an e-mail the provider kept refusing (DEAD) for the deliveries
// page. Every step goes through the services the API uses (the DEAD delivery is written as the
// queue consumer leaves one: no service makes a message fail); each step checks where the
// previous run stopped, so running the seed again changes nothing.
import { and, eq, sql } from 'drizzle-orm';
import { announcements, deliveries, disputes, files, kycRecords, reservations, users } from '../../../db/schema';
import { hashPassword } from '../../../lib/password';
import { usesSandbox } from '../../../providers/payment';
import { addMessage, openDispute } from '../../disputes/disputes.service';
import { carryToDeposited, seedAs } from './carry';
import { parisDakarTrip, unpaidDemoReservation, type SeedContext } from './context';
import { damagedParcel, identityCard } from './demo-image';
import { appConfig } from '../../../config';

export const DEMO_KYC_EMAIL = 'kyc-pending@demo.local';
export const DEMO_DISPUTE_RESERVATION = 'DEMO-DISPUTE-1';
/** The provider's answer on the demo's DEAD delivery (a Cloudflare Email Service refusal). */
export const DEMO_DEAD_DELIVERY_REASON = 'E_RECIPIENT_SUPPRESSED: the destination address is on the suppression list (5 attempts)';

async function storeImage(ctx: SeedContext, ownerId: number, purpose: 'KYC_DOCUMENT' | 'DISPUTE_EVIDENCE', png: Uint8Array, extra: { reservationId?: number } = {}) {
  const key = `seed/${purpose.toLowerCase()}/${ownerId}-${crypto.randomUUID()}.png`;
  await ctx.env.UPLOADS.put(key, png, { httpMetadata: { contentType: 'image/png' } });
  const [file] = await ctx.db
    .insert(files)
    .values({ ownerId, purpose, storageKey: key, contentType: 'image/png', sizeBytes: png.length, originalName: `${purpose.toLowerCase()}.png`, ...extra })
    .returning({ id: files.id });
  return file.id;
}

async function seedPendingKyc(ctx: SeedContext) {
  let [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_KYC_EMAIL));
  if (!user) {
    [user] = await ctx.db
      .insert(users)
      .values({ email: DEMO_KYC_EMAIL, passwordHash: await hashPassword(ctx.password), firstName: 'Kim', lastName: 'Pending', roles: ['ROLE_CLIENT'], emailVerified: true, kycStatus: 'PENDING' })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) return;
  }
  const [record] = await ctx.db.select({ id: kycRecords.id }).from(kycRecords).where(eq(kycRecords.userId, user.id));
  if (record) return;
  const sessionId = `seed-${user.id}`;
  await storeImage(ctx, user.id, 'KYC_DOCUMENT', await identityCard());
  await ctx.db.insert(kycRecords).values({
    userId: user.id,
    status: 'PENDING',
    documentType: 'ID_CARD',
    externalUserId: `demo-${user.id}`,
    sessionId,
    kycSessionUrl: `about:blank#${sessionId}`,
    submittedAt: new Date().toISOString(),
  });
}

async function seedOpenDispute(ctx: SeedContext) {
  const carrierId = ctx.userIds['carrier@demo.local'];
  const senderId = ctx.userIds['sender@demo.local'];
  if (!carrierId || !senderId || !usesSandbox(ctx.env)) return;
  const { db, env } = ctx;
  let [r] = await db.select().from(reservations).where(eq(reservations.reservationNumber, DEMO_DISPUTE_RESERVATION));
  if (!r) {
    const [trip] = await db
      .insert(announcements)
      .values({
        ...parisDakarTrip(carrierId, 3),
        reservedWeightG: 6000,
        pricePerKgCents: 1000,
        currency: appConfig(env).platform.currency,
        pickupPoint: 'Gare du Nord, Paris',
        deliveryPoint: 'Marché Sandaga, Dakar',
        description: 'Demo trip with a disputed parcel',
      })
      .returning();
    [r] = await db
      .insert(reservations)
      .values(
        unpaidDemoReservation(env, trip, {
          reservationNumber: DEMO_DISPUTE_RESERVATION,
          senderId,
          carrierId,
          weightG: 6000,
          contentInfo: 'A ceramic vase',
          depositCode: '582046',
          deliveryCode: '913574',
          recipient: { firstName: 'Moussa', lastName: 'Ndiaye', phone: '+221700000001', city: 'Dakar' },
        }),
      )
      .onConflictDoNothing()
      .returning();
    if (!r) return;
  }
  const status = await carryToDeposited(ctx, r, senderId, carrierId);
  const carrier = seedAs(carrierId, ['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
  const [existing] = await db.select({ id: disputes.id }).from(disputes).where(eq(disputes.reservationId, r.id));
  if (existing || status !== 'DEPOSITED') return;
  const photo = await storeImage(ctx, senderId, 'DISPUTE_EVIDENCE', await damagedParcel(), { reservationId: r.id });
  const dispute = await openDispute(ctx, seedAs(senderId), {
    reservationId: r.id,
    reason: 'DAMAGED',
    description: 'The box was torn open at the hand-over point and the vase inside is cracked.',
    evidenceFileIds: [photo],
  });
  await addMessage(ctx, seedAs(senderId), dispute.id, 'Here is a photo of the box as I received it back at the relay point.');
  await addMessage(ctx, carrier, dispute.id, 'The box was intact when I took it; it was handled by the airline after that.');
}

/** The carrier's "password changed" e-mail, given up on after five attempts; marked in its payload so a rerun finds it, retried or not. */
async function seedDeadDelivery(ctx: SeedContext) {
  const carrierId = ctx.userIds['carrier@demo.local'];
  if (!carrierId) return;
  const marker = and(eq(deliveries.userId, carrierId), sql`json_extract(${deliveries.payload}, '$.seed') = 'dead-delivery'`);
  const [existing] = await ctx.db.select({ id: deliveries.id }).from(deliveries).where(marker);
  if (existing) return;
  await ctx.db.insert(deliveries).values({
    userId: carrierId,
    channel: 'EMAIL',
    to: 'carrier@demo.local',
    template: 'PASSWORD_CHANGED',
    locale: 'en',
    payload: { firstName: 'Carla', seed: 'dead-delivery' },
    status: 'DEAD',
    attempts: 5,
    lastError: DEMO_DEAD_DELIVERY_REASON,
  });
}

export async function seedConsoleDemo(ctx: SeedContext) {
  await seedPendingKyc(ctx);
  await seedOpenDispute(ctx);
  await seedDeadDelivery(ctx);
}
