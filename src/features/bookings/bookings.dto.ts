// The super-admin detail of a reservation (French field names) and its zod schema for the OpenAPI
// document; the specification's Reservation is reservations/reservation.schemas.ts.
import { operatorSeesCodes } from '../../access/reservation-access';
import { z } from '@hono/zod-openapi';
import { INVOICE_STATUSES } from '../../db/schema';
import { fromGrams } from '../../lib/money';
import type { PartyFields, ReservationView } from '../reservations/reservation-views';
import { fullName, INVOICE_URL, invoiceUrlOf, paymentFields, paymentFieldsOf } from '../reservations/reservation.schemas';
import { ZERO_WALLET, type WalletFigures } from '../money';

const str = () => z.string().nullable();
/** What the money documents say (CONTRACT section 19): null while nothing was captured. */
const INVOICE_STATUS = () =>
  z.enum(INVOICE_STATUSES).nullable().openapi({
    description: 'null while nothing was captured (no invoice); ISSUED at capture; PARTIALLY_CREDITED or CREDITED once refunds after capture issued credit notes',
  });

export const UserSummarySchema = z
  .object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    username: str(),
    phoneNumber: str(),
    nationality: str(),
    email: z.string(),
    birthDate: str().openapi({ format: 'date' }),
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
  const showCodes = operatorSeesCodes(viewerId, r);
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

