// The Reservation object of the specification, built in ONE function for the handover routes.
// Stand-in until the bookings feature's mapper is merged: the lead replaces `toReservationJson`
// (and `ReservationSchema`) with the bookings ones, callers stay unchanged.
import { z } from '@hono/zod-openapi';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { announcements, reservationItems, users, type ReservationRow } from '../../db/schema';
import { fromCents, fromGrams } from '../../lib/money';

const ReservationItemSchema = z.object({
  categoryId: z.number().int().nullable(),
  code: z.string().nullable(),
  name: z.string(),
  reservedQuantity: z.number(),
  description: z.string().nullable(),
  weight: z.number().nullable(),
  lengthCm: z.number().nullable(),
  widthCm: z.number().nullable(),
  heightCm: z.number().nullable(),
  isFragile: z.boolean(),
  containsLiquids: z.boolean(),
  imageUrl: z.string().nullable(),
});

const RecipientSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  instructions: z.string().nullable(),
});

export const HandoverReservationSchema = z
  .object({
    id: z.number().int(),
    reservationNumber: z.string(),
    announcementId: z.number().int(),
    senderId: z.number().int(),
    carrierId: z.number().int(),
    status: z.string(),
    reservedWeight: z.number(),
    contentInfo: z.string().nullable(),
    depositCode: z.string().nullable().openapi({ description: 'Shown to the sender only' }),
    deliveryCode: z.string().nullable().openapi({ description: 'Shown to the sender only, never to the carrier' }),
    departureCity: z.string(),
    arrivalCity: z.string(),
    departureDate: z.string(),
    arrivalDate: z.string(),
    pickupPoint: z.string().nullable(),
    deliveryPoint: z.string().nullable(),
    pricePerKg: z.number(),
    totalAmount: z.number(),
    platformCommission: z.number(),
    carrierAmount: z.number(),
    paymentId: z.string().nullable(),
    authorizationId: z.string().nullable(),
    captureId: z.string().nullable(),
    refundId: z.string().nullable(),
    paymentStatus: z.string().nullable(),
    paymentDate: z.string().nullable(),
    paymentApprovalUrl: z.string().nullable(),
    senderName: z.string(),
    senderEmail: z.string(),
    carrierName: z.string(),
    carrierEmail: z.string(),
    invoiceId: z.string().nullable(),
    invoiceUrl: z.string().nullable(),
    items: z.array(ReservationItemSchema),
    recipient: RecipientSchema,
    reservationDate: z.string(),
  })
  .openapi('HandoverReservation');

export type ReservationJson = z.infer<typeof HandoverReservationSchema>;

/** The Reservation as `viewerId` may see it (codes only for the sender). */
export async function toReservationJson(db: Db, row: ReservationRow, viewerId: number): Promise<ReservationJson> {
  const [[announcement], people, items] = await db.batch([
    db.select().from(announcements).where(eq(announcements.id, row.announcementId)),
    db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(inArray(users.id, [row.senderId, row.carrierId])),
    db.select().from(reservationItems).where(eq(reservationItems.reservationId, row.id)),
  ]);
  const sender = people.find((p) => p.id === row.senderId);
  const carrier = people.find((p) => p.id === row.carrierId);
  const isSender = viewerId === row.senderId;
  const r = row.recipient;
  return {
    id: row.id,
    reservationNumber: row.reservationNumber,
    announcementId: row.announcementId,
    senderId: row.senderId,
    carrierId: row.carrierId,
    status: row.status,
    reservedWeight: fromGrams(row.reservedWeightG),
    contentInfo: row.contentInfo,
    depositCode: isSender ? row.depositCode : null,
    deliveryCode: isSender ? row.deliveryCode : null,
    departureCity: announcement?.departureCity ?? '',
    arrivalCity: announcement?.arrivalCity ?? '',
    departureDate: announcement?.departureDate ?? '',
    arrivalDate: announcement?.arrivalDate ?? '',
    pickupPoint: announcement?.pickupPoint ?? null,
    deliveryPoint: announcement?.deliveryPoint ?? null,
    pricePerKg: fromCents(row.pricePerKgCents),
    totalAmount: fromCents(row.totalAmountCents),
    platformCommission: fromCents(row.platformCommissionCents),
    carrierAmount: fromCents(row.carrierAmountCents),
    paymentId: row.paymentId,
    authorizationId: row.authorizationId,
    captureId: row.captureId,
    refundId: row.refundId,
    paymentStatus: row.paymentStatus,
    paymentDate: row.paymentDate,
    paymentApprovalUrl: row.paymentApprovalUrl,
    senderName: sender ? `${sender.firstName} ${sender.lastName}` : '',
    senderEmail: sender?.email ?? '',
    carrierName: carrier ? `${carrier.firstName} ${carrier.lastName}` : '',
    carrierEmail: carrier?.email ?? '',
    invoiceId: row.invoiceId,
    invoiceUrl: row.invoiceUrl,
    items: items.map((i) => ({
      categoryId: i.categoryId,
      code: i.code,
      name: i.name,
      reservedQuantity: i.reservedQuantity,
      description: i.description,
      weight: i.weight,
      lengthCm: i.lengthCm,
      widthCm: i.widthCm,
      heightCm: i.heightCm,
      isFragile: i.isFragile,
      containsLiquids: i.containsLiquids,
      imageUrl: i.imageUrl,
    })),
    recipient: {
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email ?? null,
      phone: r.phone ?? null,
      address: r.address ?? null,
      city: r.city ?? null,
      postalCode: r.postalCode ?? null,
      instructions: r.instructions ?? null,
    },
    reservationDate: row.createdAt,
  };
}
