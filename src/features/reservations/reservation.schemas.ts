// The specification's Reservation (English field names) and its zod schema for the OpenAPI
// document; the pieces the super-admin detail (bookings/bookings.dto.ts) shares with it.
import { z } from '@hono/zod-openapi';
import { fromGrams } from '../../lib/money';
import { fromMinor, storedMoney } from '../../lib/amount';
import { receiptUrl } from '../../lib/urls';
import type { ItemView, PartyFields, ReservationDtoView } from './reservation-views';
import { disclosureTo } from '../../access/reservation-access';
import type { AuthUser } from '../../env';
import { PAYMENT_STATUS, RESERVATION_STATUSES, type PaymentStatusValue } from '../../db/schema/reservations';

/** A reservation's status (CONTRACT section 7): one component, so generated clients get one union. */
export const ReservationStatusSchema = z.enum(RESERVATION_STATUSES).openapi('ReservationStatus', {
  description: 'PENDING_PAYMENT, then PAID, CONFIRMED, DEPOSITED, IN_TRANSIT, DELIVERED; or REJECTED, CANCELLED, EXPIRED, DISPUTED, REFUNDED',
});

/** What the payment provider did, null before any checkout. */
export const ProviderPaymentStatusSchema = z.enum(PAYMENT_STATUS).openapi('ProviderPaymentStatus', {
  description:
    'What the payment provider did: PENDING (checkout open), FAILED, EXPIRED (checkout ended unpaid), AUTHORIZED (card hold), ' +
    'CAPTURED (charged, captureId), VOID_PENDING then VOIDED (hold released, nothing charged), PARTIAL_CAPTURE_PENDING then ' +
    'PARTIALLY_CAPTURED (the kept share charged, captureId, the rest of the hold released; no refund), REFUND_PENDING then ' +
    'REFUNDED or PARTIALLY_REFUNDED (money returned after capture, refundId), AUTHORIZATION_EXPIRED (the hold lapsed)',
});

const str = () => z.string().nullable();
/** The payment identifiers and state, with the same names in the Reservation and the super-admin detail. */
export const paymentFields = {
    paymentId: str(),
    authorizationId: str(),
    captureId: str(),
    refundId: str(),
    paymentStatus: ProviderPaymentStatusSchema.nullable(),
    paymentDate: str().openapi({ format: 'date-time' }),
    paymentApprovalUrl: str(),
};
const num = () => z.number().nullable();

export const INVOICE_URL = str().openapi({
  description: 'Signed link to the invoice PDF (the receipt of the payment), opened without a bearer token; it expires after about a day, read the reservation again for a fresh one',
});

/** The signed, expiring link to the invoice of a paid reservation (made at each read: it expires). */
export const invoiceUrlOf = (env: Env, r: { invoiceTransactionId: number | null }) =>
  r.invoiceTransactionId === null ? Promise.resolve(null) : receiptUrl(env, r.invoiceTransactionId);

export const ReservationItemSchema = z
  .object({
    categoryId: z.number().int().nullable(),
    code: str(),
    name: z.string(),
    reservedQuantity: z.number(),
    description: str(),
    weight: num(),
    lengthCm: num(),
    widthCm: num(),
    heightCm: num(),
    isFragile: z.boolean(),
    containsLiquids: z.boolean(),
    imageUrl: str(),
    declaredValue: num().openapi({
      format: 'double',
      description: "What the sender declared the item is worth, in the reservation's currency (CONTRACT 21); null when not declared",
    }),
  })
  .openapi('ReservationItem');

export const RecipientSchema = z
  .object({
    firstName: z.string(),
    lastName: z.string(),
    email: str(),
    phone: str(),
    address: str(),
    city: str(),
    postalCode: str(),
    instructions: str(),
  })
  .openapi('Recipient');

/** The sender's declarations at booking, kept with the reservation and shown to the carrier. */
const DeclarationsSchema = z
  .object({ noProhibitedItems: z.boolean(), acknowledgedRestrictions: z.array(z.string()) })
  .openapi('BookingDeclarations');

export const ReservationSchema = z
  .object({
    id: z.number().int(),
    reservationNumber: z.string().openapi({ example: 'PX-7K3M9Q2A' }),
    announcementId: z.number().int(),
    senderId: z.number().int(),
    carrierId: z.number().int(),
    status: ReservationStatusSchema,
    reservedWeight: z.number(),
    contentInfo: str(),
    depositCode: str().openapi({ description: 'Shown to the sender only; null for anyone else' }),
    deliveryCode: str().openapi({ description: 'Shown to the sender only (to pass to the recipient); never to the carrier' }),
    departureCity: z.string(),
    arrivalCity: z.string(),
    departureDate: z.string().openapi({ format: 'date' }),
    arrivalDate: z.string().openapi({ format: 'date' }),
    pickupPoint: str(),
    deliveryPoint: str(),
    pricePerKg: z.number(),
    totalAmount: z.number(),
    platformCommission: z.number(),
    carrierAmount: z.number(),
    currency: z.string().openapi({ example: 'EUR', description: "The trip's currency: every amount of the reservation is in it, with its decimals" }),
    ...paymentFields,
    senderName: z.string(),
    senderEmail: str().openapi({ description: "The sender's e-mail; null for the carrier side until the reservation is paid (administrators see it)" }),
    carrierName: z.string().openapi({ description: "The carrier's name; on an agency's trip, the agency's name" }),
    carrierEmail: str().openapi({
      description: "The carrier's e-mail; on an agency's trip, the agency's contact address, never an employee's. Null for the sender until the reservation is paid (administrators see it)",
    }),
    invoiceId: str(),
    invoiceUrl: INVOICE_URL,
    items: z.array(ReservationItemSchema),
    recipient: RecipientSchema,
    declarations: DeclarationsSchema.nullable().openapi({ description: 'What the sender declared at booking (CONTRACT 21); null when nothing was' }),
    reservationDate: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Reservation');

export type ReservationDto = z.infer<typeof ReservationSchema>;

/** Minor units of the reservation's currency as its JSON number (15000 XOF stays 15000, 1250 EUR is 12.5). */
const amountOut = (minor: number, currency: string) => fromMinor(storedMoney(minor, currency));

export const fullName = (u: Pick<PartyFields, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();

/** The values of paymentFields, in the same order in both DTOs. */
export const paymentFieldsOf = (r: ReservationDtoView['r']) => ({
  paymentId: r.paymentId,
  authorizationId: r.authorizationId,
  captureId: r.captureId,
  refundId: r.refundId,
  paymentStatus: r.paymentStatus as PaymentStatusValue | null, // written only from PAYMENT_STATUS
  paymentDate: r.paymentDate,
  paymentApprovalUrl: r.paymentApprovalUrl,
});

const itemDto = (currency: string) => (i: ItemView) => ({
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
  declaredValue: i.declaredValueMinor === null ? null : amountOut(i.declaredValueMinor, currency),
});

/**
 * The Reservation as `viewer` may see it (access/reservation-access.ts disclosureTo): codes only for
 * the sender, the other party's contact details once paid.
 */
export async function toReservationDto(env: Env, v: ReservationDtoView, viewer: AuthUser): Promise<ReservationDto> {
  const { r, a, sender, carrier, agency } = v;
  const shown = disclosureTo(viewer, r);
  const showCodes = shown.codes;
  return {
    id: r.id,
    reservationNumber: r.reservationNumber,
    announcementId: r.announcementId,
    senderId: r.senderId,
    carrierId: r.carrierId,
    status: r.status,
    reservedWeight: fromGrams(r.reservedWeightG),
    contentInfo: r.contentInfo,
    depositCode: showCodes ? r.depositCode : null,
    deliveryCode: showCodes ? r.deliveryCode : null,
    departureCity: a.departureCity,
    arrivalCity: a.arrivalCity,
    departureDate: a.departureDate,
    arrivalDate: a.arrivalDate,
    pickupPoint: a.pickupPoint,
    deliveryPoint: a.deliveryPoint,
    pricePerKg: amountOut(r.pricePerKgCents, r.currency),
    totalAmount: amountOut(r.totalAmountCents, r.currency),
    platformCommission: amountOut(r.platformCommissionCents, r.currency),
    carrierAmount: amountOut(r.carrierAmountCents, r.currency),
    currency: r.currency,
    ...paymentFieldsOf(r),
    senderName: fullName(sender),
    senderEmail: shown.senderContact ? sender.email : null,
    carrierName: agency.name ?? fullName(carrier),
    carrierEmail: shown.carrierContact ? (agency.email ?? carrier.email) : null,
    invoiceId: r.invoiceId,
    invoiceUrl: await invoiceUrlOf(env, r),
    items: v.items.map(itemDto(r.currency)),
    recipient: {
      firstName: r.recipient.firstName,
      lastName: r.recipient.lastName,
      email: shown.senderContact ? (r.recipient.email ?? null) : null,
      phone: shown.senderContact ? (r.recipient.phone ?? null) : null,
      address: r.recipient.address ?? null,
      city: r.recipient.city ?? null,
      postalCode: r.recipient.postalCode ?? null,
      instructions: r.recipient.instructions ?? null,
    },
    declarations: r.declarations ?? null,
    reservationDate: r.createdAt,
  };
}
