// /bookings (CONTRACT section 7, without payment, QR and code handover) and
// /superadmin/reservations: thin handlers over the use cases (create-, accept-, reject-, cancel-booking.ts).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery, ReservationPageSchema, toPage, toReservationPage } from '../../lib/pagination';
import { idempotent, idempotencyKeyOf } from '../../middleware/idempotency';
import { IdParams } from '../../validation';
import { BOOKING_DETAILS, itemsFitWeight, kilograms, optionalText } from './bookings.schemas';
import { loadWalletFigures } from '../users/user-summary';
import { RESERVATION_STATUSES } from '../reservations/reservation-state';
import { getReservationDtoView, getReservationView, listPartyReservationViews, listReservationViews } from '../reservations/reservation-views';
import { AdminReservationSchema, toAdminReservationDto } from './bookings.dto';
import { ReservationSchema, toReservationDto } from '../reservations/reservation.schemas';
import { assertCanRead } from '../../access/reservation-access';
import { acceptReservation, recipientLink } from './accept-booking';
import { cancelReservation } from './cancel-booking';
import { createBooking } from './create-booking';
import { rejectReservation } from './reject-booking';
import { CANCELLATION_POLICIES } from '../../db/schema';
import { CANCELLATION_RULES } from './cancellation-policy';
import { cancellationQuote } from './cancellation-quote';

const tags = ['Reservations'];

const CreateBookingSchema = z
  .object({
    announcementId: z.number().int().positive(),
    reservedWeight: kilograms.openapi({ description: 'Kilograms, up to 3 decimals', example: 2.5 }),
    ...BOOKING_DETAILS,
    protection: z.boolean().optional().openapi({
      description:
        "Protect the parcel (CONTRACT section 21): needs every item's declaredValue; the premium (PROTECTION_RATE of the declared value, within the currency's minimum and maximum covered value) is charged beside the transport price, which totalAmount stays. See GET /bookings/{id}/protection.",
    }),
  })
  .refine(...itemsFitWeight)
  .openapi('CreateBooking');

const CancelSchema = z.object({ reason: optionalText(500) }).openapi('CancelBooking');

const StatusFilter = z.object({
  status: z
    .enum(RESERVATION_STATUSES)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' }, description: 'Only reservations in this status' }),
});

const CarrierQuery = pageQuery({ sortable: ['reservationDate'], defaultSort: 'reservationDate,desc', defaultSize: 5 }).extend(
  StatusFilter.shape,
);
const SORTABLE = ['createdAt', 'reservationDate', 'status', 'reservedWeight', 'totalAmount'] as const;
const ListQuery = pageQuery({ sortable: SORTABLE, defaultSort: 'createdAt,desc' }).extend(StatusFilter.shape);

const RecipientLinkSchema = z.object({ url: z.string(), token: z.string() }).openapi('RecipientLink');

const actionResponses = { 200: jsonContent(ReservationSchema, 'The reservation after the change'), ...authErrorResponses(404, 409) };

const actionRoute = (action: 'accept' | 'reject', summary: string, description: string) =>
  createRoute(idempotent({
    method: 'post',
    operationId: `${action}Booking`,
    path: `/bookings/{id}/${action}`,
    tags,
    summary,
    description,
    ...signedIn(),
    request: { params: IdParams },
    responses: actionResponses,
  }));

const CancellationQuoteSchema = z
  .object({
    refundAmount: z.number().openapi({ description: 'Back to the sender' }),
    keptAmount: z.number().openapi({ description: 'Kept: the commission, and the carrier share the policy keeps' }),
    currency: z.string(),
    policy: z.enum(CANCELLATION_POLICIES),
    rule: z.enum(CANCELLATION_RULES).openapi({ description: 'Why: a case outside the table, or the time window of the policy table' }),
  })
  .openapi('CancellationQuote');

const cancelRoute = createRoute(idempotent({
  method: 'post',
  operationId: 'cancelBooking',
  path: '/bookings/{id}/cancel',
  tags,
  summary: "Sender or carrier cancels before deposit; refund per the trip's cancellation policy (CONTRACT section 22)",
  description: 'Cancels a PENDING_PAYMENT, PAID or CONFIRMED reservation (later statuses: 409 INVALID_STATE) with the optional reason, in one batch: the kilos back to the trip, the other party notified (RESERVATION_CANCELLED), an open checkout closed, and for a paid one the refund GET /bookings/{id}/cancellation-quote announces (the sender\'s by the trip\'s policy and the time left before departure; the carrier side\'s always in full), the provider settling right after. The sender or the carrier side (the carrier, or the carrying agency\'s owner and the trip\'s branch staff); anyone else, admins included, 403 ACCESS_DENIED.',
  ...signedIn(),
  // The reason is optional, and so is the body.
  request: { params: IdParams, body: { required: false, content: { 'application/json': { schema: CancelSchema } } } },
  responses: actionResponses,
}));

export const bookingsRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createBooking',
      path: '/bookings',
      tags,
      summary: 'Book capacity on an announcement (status PENDING_PAYMENT, 30 minutes to pay)',
      description: 'Books reservedWeight kilos of the trip for the caller as PENDING_PAYMENT, priced at the trip\'s price per kg (commission included; the protection premium beside it when asked), with 30 minutes to pay before it expires; the kilos are held at once and the carrier is notified. The trip must be visible, ACTIVE, not departed and have the room (else 422 BUSINESS_RULE_VIOLATION), and its price unchanged since it was read (409 INVALID_STATE); its carrier, or staff of its agency, cannot book it (422). Items must be of categories the trip accepts and the corridor allows (a prohibited item 422; a restricted one needs its code in acknowledgedRestrictions). An unknown or hidden trip is 404 RESOURCE_NOT_FOUND; a suspended account 403.',
      ...signedIn(),
      request: { body: jsonBody(CreateBookingSchema) },
      responses: { 201: jsonContent(ReservationSchema, 'The new reservation'), ...authErrorResponses(404, 409, 422) },
    })),
    async (c) => {
      const auth = c.get('auth');
      const view = await createBooking(c.get('deps'), auth, c.req.valid('json'), idempotencyKeyOf(c));
      return c.json(await toReservationDto(c.env, view, auth), 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listCarrierReservations',
      path: '/bookings/as-carrier',
      tags,
      summary: "Reservations on the caller's trips, newest first (Reservation page, default size 5)",
      description: "A page of the reservations on trips the caller carries (as their carrier of record), newest reservationDate first, 5 per page by default; status keeps one status. On an agency trip only while the caller still acts for it (the agency's owner, or an employee of the trip's branch): a publisher who moved branch or left no longer lists its bookings. The delivery and deposit codes are never shown to the carrier.",
      ...signedIn(),
      request: { query: CarrierQuery },
      responses: { 200: jsonContent(ReservationPageSchema(ReservationSchema), 'Reservation page'), ...authErrorResponses() },
    }),
    async (c) => {
      const auth = c.get('auth');
      const q = c.req.valid('query');
      const { rows, total } = await listPartyReservationViews(c.get('deps').db, 'carrierId', auth.id, q.status, q.sort, q);
      return c.json(toReservationPage(await Promise.all(rows.map((v) => toReservationDto(c.env, v, auth))), total, q), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listSenderBookings',
      path: '/bookings/as-sender',
      tags,
      summary: "The caller's own bookings (page)",
      description: 'A page of the reservations the caller booked as sender, newest first by default (sortable by createdAt, reservationDate, status, reservedWeight, totalAmount); status keeps one status. The deposit and delivery codes are included, since the sender hands them over.',
      ...signedIn(),
      request: { query: ListQuery },
      responses: { 200: jsonContent(PageSchema(ReservationSchema, 'ReservationGenericPage'), 'Page of reservations'), ...authErrorResponses() },
    }),
    async (c) => {
      const auth = c.get('auth');
      const q = c.req.valid('query');
      const { rows, total } = await listPartyReservationViews(c.get('deps').db, 'senderId', auth.id, q.status, q.sort, q);
      return c.json(toPage(await Promise.all(rows.map((v) => toReservationDto(c.env, v, auth))), total, q), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getBooking',
      path: '/bookings/{id}',
      tags,
      summary: 'One reservation (its sender, its carrier, admins); codes only for the sender',
      description: 'One reservation with its trip terms, items, amounts, payment status and recipient. Its sender, its carrier side (the carrier, or the carrying agency\'s owner and the trip\'s branch staff) and admins read it; anyone else gets 403 ACCESS_DENIED, an unknown id 404. The deposit and delivery codes appear only for the sender.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(ReservationSchema, 'The reservation'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const auth = c.get('auth');
      const { db } = c.get('deps');
      const view = await getReservationDtoView(db, c.req.valid('param').id);
      await assertCanRead(c.get('deps'), auth, view.r);
      return c.json(await toReservationDto(c.env, view, auth), 200);
    },
  )
  .openapi(actionRoute(
    'accept',
    'Carrier accepts a paid booking (PAID to CONFIRMED)',
    "Moves the reservation from PAID to CONFIRMED: the sender is notified (RESERVATION_CONFIRMED) and the recipient gets the link to the parcel's public page by e-mail and SMS, in the same batch. The parcel is then handed over at deposit. The carrier side only: the trip's carrier, or for an agency trip its owner and the employees of its branch (anyone else 403 ACCESS_DENIED, admins included). A reservation not PAID is 409 INVALID_STATE naming its status; left unanswered 24 hours after payment, the booking is rejected automatically.",
  ), async (c) => {
    const auth = c.get('auth');
    return c.json(await toReservationDto(c.env, await acceptReservation(c.get('deps'), auth, c.req.valid('param').id), auth), 200);
  })
  .openapi(actionRoute(
    'reject',
    'Carrier rejects a paid booking (PAID to REJECTED); the payment is released',
    'Moves the reservation from PAID to REJECTED in one batch: the kilos go back to the trip (a FULL trip is ACTIVE again), the sender is notified (RESERVATION_REJECTED) and the whole amount paid is returned (in the ledger at once; the provider voids or refunds the payment right after). The carrier side only: the trip\'s carrier, or for an agency trip its owner and the employees of its branch (anyone else 403 ACCESS_DENIED). A reservation not PAID is 409 INVALID_STATE naming its status.',
  ), async (c) => {
    const auth = c.get('auth');
    return c.json(await toReservationDto(c.env, await rejectReservation(c.get('deps'), auth, c.req.valid('param').id), auth), 200);
  })
  .openapi(cancelRoute, async (c) => {
    const auth = c.get('auth');
    const body = (c.req.valid('json') ?? {}) as z.infer<typeof CancelSchema>;
    return c.json(await toReservationDto(c.env, await cancelReservation(c.get('deps'), auth, c.req.valid('param').id, body.reason ?? null), auth), 200);
  })
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getCancellationQuote',
      path: '/bookings/{id}/cancellation-quote',
      tags,
      summary: 'What cancelling now would refund and keep, exactly what POST /bookings/{id}/cancel then does',
      description:
        "Parties (the trip's agency staff included) and admins. The carrier side sees its own cancellation (always a full refund); the sender and admins the sender's, by the trip's policy and the time left before the start of the departure day (UTC).",
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(CancellationQuoteSchema, 'The quote'), ...authErrorResponses(404, 409) },
    }),
    async (c) => c.json(await cancellationQuote(c.get('deps'), c.get('auth'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getRecipientLink',
      path: '/bookings/{id}/recipient-link',
      tags,
      summary: 'The public recipient page link to share with the recipient (sender only)',
      description: 'The URL of the public page (GET /r/{recipientToken}) where the recipient follows the parcel without an account, and its token, for the sender to share; the recipient also gets it by e-mail and SMS once the carrier accepts. Only the reservation\'s sender (anyone else 403 ACCESS_DENIED); an unknown id is 404.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(RecipientLinkSchema, 'Link and token'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await recipientLink(c.get('deps'), c.get('auth'), c.req.valid('param').id), 200),
  );

export const superadminReservationsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'superadminListReservations',
      path: '/superadmin/reservations',
      tags: ['Super-admin'],
      summary: 'Every reservation (page of super-admin details)',
      description: 'A page of every reservation on the platform with the super-admin details (French field names of the specification, both parties with their wallet figures), newest first by default; status keeps one status, and the same sorts as GET /bookings/as-sender apply.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { query: ListQuery },
      responses: {
        200: jsonContent(PageSchema(AdminReservationSchema, 'AdminReservationPage'), 'Page of reservations'),
        ...authErrorResponses(),
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { db } = c.get('deps');
      const { rows, total } = await listReservationViews(db, q.status, q.sort, q);
      const wallets = await loadWalletFigures(c.get('deps'), rows.flatMap((v) => [v.sender.id, v.carrier.id]));
      const viewer = c.get('auth').id;
      return c.json(toPage(await Promise.all(rows.map((v) => toAdminReservationDto(c.env, v, viewer, wallets))), total, q), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'superadminGetReservation',
      path: '/superadmin/reservations/{id}',
      tags: ['Super-admin'],
      summary: 'One reservation with the French field names of the specification',
      description: 'One reservation with the super-admin details: the French field names of the specification, the trip, both parties with their wallet figures, the amounts and the payment status. An unknown id is 404 RESOURCE_NOT_FOUND.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: IdParams },
      responses: { 200: jsonContent(AdminReservationSchema, 'Super-admin reservation detail'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const { db } = c.get('deps');
      const view = await getReservationView(db, c.req.valid('param').id);
      const wallets = await loadWalletFigures(c.get('deps'), [view.sender.id, view.carrier.id]);
      return c.json(await toAdminReservationDto(c.env, view, c.get('auth').id, wallets), 200);
    },
  );
