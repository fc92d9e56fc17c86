// Response shapes of reservations: the specification's Reservation (English) and the
// super-admin detail (French field names), with their zod schemas for the OpenAPI document.
import { z } from '@hono/zod-openapi';
import { INVOICE_STATUSES } from '../../db/schema';
import { fromCents, fromGrams } from '../../lib/money';
import { receiptUrl } from '../../lib/urls';
import type { ItemView, PartyFields, ReservationDtoView, ReservationView } from '../reservations/reservation-views';
import { ZERO_WALLET, type WalletFigures } from '../money';

const str = () => z.string().nullable();
/** What the money documents say (CONTRACT section 19): null while nothing was captured. */
const INVOICE_STATUS = () =>
  z.enum(INVOICE_STATUSES).nullable().openapi({
    description: 'null while nothing was captured (no invoice); ISSUED at capture; PARTIALLY_CREDITED or CREDITED once refunds after capture issued credit notes',
  });

/** The payment identifiers and state, with the same names in the Reservation and the super-admin detail. */
const paymentFields = {
    paymentId: str(),
    authorizationId: str(),
    captureId: str(),
    refundId: str(),
    paymentStatus: str(),
    paymentDate: str().openapi({ format: 'date-time' }),
    paymentApprovalUrl: str(),
};
const num = () => z.number().nullable();

const INVOICE_URL = str().openapi({
  description: 'Signed link to the invoice PDF (the receipt of the payment), opened without a bearer token; it expires after about a day, read the reservation again for a fresh one',
});

/** The signed, expiring link to the invoice of a paid reservation (made at each read: it expires). */
const invoiceUrlOf = (env: Env, r: { invoiceTransactionId: number | null }) =>
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

export const ReservationSchema = z
  .object({
    id: z.number().int(),
    reservationNumber: z.string().openapi({ example: 'PX-7K3M9Q2A' }),
    announcementId: z.number().int(),
    senderId: z.number().int(),
    carrierId: z.number().int(),
    status: z.string().openapi({ example: 'PENDING_PAYMENT' }),
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
    ...paymentFields,
    senderName: z.string(),
    senderEmail: z.string(),
    carrierName: z.string(),
    carrierEmail: z.string(),
    invoiceId: str(),
    invoiceUrl: INVOICE_URL,
    items: z.array(ReservationItemSchema),
    recipient: RecipientSchema,
    reservationDate: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Reservation');

export type ReservationDto = z.infer<typeof ReservationSchema>;

const fullName = (u: Pick<PartyFields, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim();

/** The values of paymentFields, in the same order in both DTOs. */
const paymentFieldsOf = (r: ReservationDtoView['r']) => ({
  paymentId: r.paymentId,
  authorizationId: r.authorizationId,
  captureId: r.captureId,
  refundId: r.refundId,
  paymentStatus: r.paymentStatus,
  paymentDate: r.paymentDate,
  paymentApprovalUrl: r.paymentApprovalUrl,
});

const itemDto = (i: ItemView) => ({
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
});

/** The Reservation as `viewerId` may see it: codes only for the sender (CONTRACT section 7). */
export async function toReservationDto(env: Env, v: ReservationDtoView, viewerId: number): Promise<ReservationDto> {
  const { r, a, sender, carrier } = v;
  const showCodes = viewerId === r.senderId && viewerId !== r.carrierId;
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
    pricePerKg: fromCents(r.pricePerKgCents),
    totalAmount: fromCents(r.totalAmountCents),
    platformCommission: fromCents(r.platformCommissionCents),
    carrierAmount: fromCents(r.carrierAmountCents),
    ...paymentFieldsOf(r),
    senderName: fullName(sender),
    senderEmail: sender.email,
    carrierName: fullName(carrier),
    carrierEmail: carrier.email,
    invoiceId: r.invoiceId,
    invoiceUrl: await invoiceUrlOf(env, r),
    items: v.items.map(itemDto),
    recipient: {
      firstName: r.recipient.firstName,
      lastName: r.recipient.lastName,
      email: r.recipient.email ?? null,
      phone: r.recipient.phone ?? null,
      address: r.recipient.address ?? null,
      city: r.recipient.city ?? null,
      postalCode: r.recipient.postalCode ?? null,
      instructions: r.recipient.instructions ?? null,
    },
    reservationDate: r.createdAt,
  };
}

// ---------------------------------------------------------------------------------------------
// Super-admin detail

export const UserSummarySchema = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    username: str(),
    phoneNumber: str(),
    nationality: str(),
    email: z.string(),
    birthDate: str(),
    connectedAccountId: str(),
    enabled: z.boolean(),
    walletBalance: z.number(),
    pendingWithdrawalAmount: z.number(),
    totalEarned: z.number(),
    totalWithdrawn: z.number(),
  })
  .openapi('UserSummary');

export function toUserSummary(u: PartyFields, wallet: WalletFigures = ZERO_WALLET): z.infer<typeof UserSummarySchema> {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    username: u.username,
    phoneNumber: u.phoneNumber,
    nationality: u.nationality,
    email: u.email,
    birthDate: u.birthDate,
    connectedAccountId: u.connectedAccountId,
    enabled: u.enabled,
    ...wallet,
  };
}

export const AdminReservationSchema = z
  .object({
    id: z.number().int(),
    reservationNumber: z.string(),
    idCreateur: z.number().int().openapi({ description: 'Carrier user id' }),
    idExpediteur: z.number().int().openapi({ description: 'Sender user id' }),
    statut: z.string(),
    annonceId: z.number().int(),
    poidsReserve: z.number(),
    expediteur: UserSummarySchema,
    createurProfil: UserSummarySchema,
    createur: z.string().openapi({ description: 'Carrier full name' }),
    lieuArrivee: z.string(),
    lieuDepart: z.string(),
    dateDepart: z.string().openapi({ format: 'date' }),
    dateArrivee: z.string().openapi({ format: 'date' }),
    annonce: z.string().openapi({ description: 'Announcement title: route and departure date' }),
    codeDepot: str(),
    createurEmail: z.string(),
    infosContenu: str(),
    codeLivraison: str(),
    pointRdv: str(),
    pointLivraison: str(),
    ...paymentFields,
    reservationDate: z.string().openapi({ format: 'date-time' }),
    items: z.array(
      z.object({ categorieId: z.number().int().nullable(), nom: z.string(), quantiteReserve: z.number(), code: str() }),
    ),
    invoiceId: str(),
    invoiceUrl: INVOICE_URL,
    invoiceStatus: INVOICE_STATUS(),
  })
  .openapi('AdminReservationDetail');

export type AdminReservationDto = z.infer<typeof AdminReservationSchema>;

/**
 * The super-admin detail. Codes are shown (support staff may need them to unblock a handover),
 * except to a super-admin who is the carrier of this very reservation.
 */
export async function toAdminReservationDto(
  env: Env,
  v: ReservationView,
  viewerId: number,
  wallets: ReadonlyMap<number, WalletFigures> = new Map(),
): Promise<AdminReservationDto> {
  const { r, a, sender, carrier } = v;
  const showCodes = viewerId !== r.carrierId;
  return {
    id: r.id,
    reservationNumber: r.reservationNumber,
    idCreateur: r.carrierId,
    idExpediteur: r.senderId,
    statut: r.status,
    annonceId: r.announcementId,
    poidsReserve: fromGrams(r.reservedWeightG),
    expediteur: toUserSummary(sender, wallets.get(sender.id)),
    createurProfil: toUserSummary(carrier, wallets.get(carrier.id)),
    createur: fullName(carrier),
    lieuArrivee: a.arrivalCity,
    lieuDepart: a.departureCity,
    dateDepart: a.departureDate,
    dateArrivee: a.arrivalDate,
    annonce: `${a.departureCity} - ${a.arrivalCity} (${a.departureDate})`,
    codeDepot: showCodes ? r.depositCode : null,
    createurEmail: carrier.email,
    infosContenu: r.contentInfo,
    codeLivraison: showCodes ? r.deliveryCode : null,
    pointRdv: a.pickupPoint,
    pointLivraison: a.deliveryPoint,
    ...paymentFieldsOf(r),
    reservationDate: r.createdAt,
    items: v.items.map((i) => ({ categorieId: i.categoryId, nom: i.name, quantiteReserve: i.reservedQuantity, code: i.code })),
    invoiceId: r.invoiceId,
    invoiceUrl: await invoiceUrlOf(env, r),
    invoiceStatus: r.invoiceStatus,
  };
}

