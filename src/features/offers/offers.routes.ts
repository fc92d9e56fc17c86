// Offers and counter-offers (CONTRACT 22): POST /annonces/{id}/offers, GET /offers/mine,
// GET /offers/{id}, POST /offers/{id}/accept|decline|counter|withdraw. Thin over offers.service.ts.
import { admittedSide } from '../../access/reservation-access';
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { OFFER_STATUSES, type OfferRow } from '../../db/schema';
import { amountSchema } from '../../lib/amount';
import { authErrorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { PageSchema, pageQuery, toPage } from '../../lib/pagination';
import { amountOf } from '../../lib/money';
import { idempotent } from '../../middleware/idempotency';
import { IdParams } from '../../validation';
import { BOOKING_DETAILS, itemsFitWeight, kilograms, optionalText } from '../bookings/bookings.schemas';
import { declarationsOf, normaliseRecipient } from '../bookings/booking-rules';
import { answerOffer, getOffer, listOffers, makeOffer } from './offers.service';
import type { OfferAction } from './offers.rules';

const tags = ['Offers'];

const int32 = () => z.number().int().openapi({ format: 'int32' });
const decimal = () => z.number().openapi({ format: 'double' });
const dateTime = () => z.string().openapi({ format: 'date-time' });

const pricePerKg = (description: string) =>
  amountSchema()
    .positive()
    .openapi({ format: 'double', description: `${description}, in the trip's currency with at most its decimals (2 for EUR, none for XOF)`, example: 9.5 });

const MakeOfferSchema = z
  .object({
    reservedWeight: kilograms.openapi({ format: 'double', description: 'Kilograms, up to 3 decimals', example: 2.5 }),
    pricePerKg: pricePerKg('The price per kg the sender proposes'),
    message: optionalText(1000).openapi({ description: 'A word for the carrier' }),
    ...BOOKING_DETAILS,
  })
  .refine(...itemsFitWeight)
  .openapi('MakeOffer');

const CounterSchema = z.object({ pricePerKg: pricePerKg("The carrier's counter price per kg") }).openapi('CounterOffer');

const OfferItemSchema = z
  .object({
    categoryId: int32(),
    name: z.string().nullable(),
    reservedQuantity: decimal(),
    description: z.string().nullable(),
    weight: decimal().nullable(),
    lengthCm: decimal().nullable(),
    widthCm: decimal().nullable(),
    heightCm: decimal().nullable(),
    isFragile: z.boolean(),
    containsLiquids: z.boolean(),
    imageUrl: z.string().nullable(),
  })
  .openapi('OfferItem');

const OfferSchema = z
  .object({
    id: int32(),
    announcementId: int32(),
    senderId: int32(),
    carrierId: int32(),
    agencyId: int32().nullable(),
    reservedWeight: decimal().openapi({ description: 'Kilograms' }),
    pricePerKg: decimal().openapi({ description: "The sender's price per kg, in `currency`" }),
    counterPricePerKg: decimal().nullable().openapi({ description: "The carrier's counter price per kg; null until countered" }),
    currency: z.string().openapi({ description: "The trip's currency (ISO 4217)" }),
    status: z.enum(OFFER_STATUSES),
    message: z.string().nullable(),
    contentInfo: z.string().nullable(),
    items: z.array(OfferItemSchema),
    recipient: z
      .object({
        firstName: z.string(),
        lastName: z.string(),
        email: z.string().nullable(),
        phone: z.string().nullable(),
        address: z.string().nullable(),
        city: z.string().nullable(),
        postalCode: z.string().nullable(),
        instructions: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: "Shown to the sender only; the carrier sees it on the reservation once the offer is accepted" }),
    declarations: z.object({ noProhibitedItems: z.boolean(), acknowledgedRestrictions: z.array(z.string()) }).nullable(),
    reservationId: int32().nullable().openapi({ description: 'The PENDING_PAYMENT reservation created when the offer was accepted' }),
    expiresAt: dateTime().openapi({ description: '48 hours after the offer (or the counter), at the latest the start of the departure day (UTC)' }),
    answeredAt: dateTime().nullable(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .openapi('Offer');

type OfferDto = z.infer<typeof OfferSchema>;

const itemDto = (item: Record<string, unknown>): OfferDto['items'][number] => {
  const nullable = <T>(v: unknown) => (v ?? null) as T | null;
  return {
    categoryId: item.categoryId as number,
    name: nullable<string>(item.name),
    reservedQuantity: (item.reservedQuantity as number | undefined) ?? 1,
    description: nullable<string>(item.description),
    weight: nullable<number>(item.weight),
    lengthCm: nullable<number>(item.lengthCm),
    widthCm: nullable<number>(item.widthCm),
    heightCm: nullable<number>(item.heightCm),
    isFragile: Boolean(item.isFragile),
    containsLiquids: Boolean(item.containsLiquids),
    imageUrl: nullable<string>(item.imageUrl),
  };
};

/** The Offer as `viewer` sees it: amounts in the currency's decimals, the recipient for the sender only. */
function toOfferDto(o: OfferRow, viewer: number): OfferDto {
  const d: OfferRow['details'] = o.details;
  return {
    id: o.id,
    announcementId: o.announcementId,
    senderId: o.senderId,
    carrierId: o.carrierId,
    agencyId: o.agencyId,
    reservedWeight: o.reservedWeightG / 1000,
    pricePerKg: amountOf(o.pricePerKgMinor, o.currency),
    counterPricePerKg: o.counterPricePerKgMinor === null ? null : amountOf(o.counterPricePerKgMinor, o.currency),
    currency: o.currency,
    status: o.status,
    message: o.message,
    contentInfo: d.contentInfo,
    items: d.items.map(itemDto),
    // Nothing is paid on an offer: the recipient's details are the sender's own (CONTRACT 25).
    recipient: admittedSide(viewer, o) === 'SENDER' ? normaliseRecipient(d.recipient) : null,
    declarations: declarationsOf({ declarations: d.declarations ?? undefined, acknowledgedRestrictions: d.acknowledgedRestrictions }),
    reservationId: o.reservationId,
    expiresAt: o.expiresAt,
    answeredAt: o.answeredAt,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

const MineQuery = pageQuery({ sortable: ['createdAt', 'expiresAt'], defaultSort: 'createdAt,desc' }).extend({
  role: z
    .enum(['sender', 'carrier'])
    .default('sender')
    .openapi({ param: { name: 'role', in: 'query' }, description: "sender: the caller's offers; carrier: offers on the caller's trips (and, for agency staff, their agency's or branch's)" }),
  status: z
    .enum(OFFER_STATUSES)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' }, description: 'Only offers in this status' }),
});

const answers = { 200: jsonContent(OfferSchema, 'The offer after the answer'), ...authErrorResponses(404, 409, 422) };

const answerRoute = (action: 'accept' | 'decline' | 'withdraw', summary: string, description: string) =>
  createRoute(
    idempotent({
      method: 'post',
      operationId: `${action}Offer`,
      path: `/offers/{id}/${action}`,
      tags,
      summary,
      description,
      ...signedIn(),
      request: { params: IdParams },
      responses: answers,
    }),
  );

const ACTIONS: Record<'accept' | 'decline' | 'withdraw', OfferAction> = { accept: 'ACCEPT', decline: 'DECLINE', withdraw: 'WITHDRAW' };

const NOT_OPEN = 'An offer no longer PENDING or COUNTERED, or past its expiresAt: 409 INVALID_STATE.';

export const offersRouter = createRouter()
  .openapi(
    createRoute(
      idempotent({
        method: 'post',
        operationId: 'makeOffer',
        path: '/annonces/{id}/offers',
        tags,
        summary: 'Propose a weight and a price per kg on a trip, with the booking details',
        description:
          'Any signed-in user but the trip\'s carrier and its agency\'s staff. Checked like POST /bookings (the trip takes bookings, has not departed, has the room; ' +
          "the items, the corridor's prohibited and restricted items), the price in the trip currency's decimals. One open offer per sender and trip " +
          '(409 ALREADY_EXISTS). The carrier is notified (OFFER_RECEIVED); the offer expires after 48 hours or at departure.',
        ...signedIn(),
        request: { params: IdParams, body: jsonBody(MakeOfferSchema) },
        responses: { 201: jsonContent(OfferSchema, 'The offer, PENDING'), ...authErrorResponses(404, 409, 422) },
      }),
    ),
    async (c) => {
      const auth = c.get('auth');
      const view = await makeOffer(c.get('deps'), auth, c.req.valid('param').id, c.req.valid('json'));
      return c.json(toOfferDto(view.offer, auth.id), 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listMyOffers',
      path: '/offers/mine',
      tags,
      summary: "The caller's offers, as sender or as carrier (page)",
      description: 'Any signed-in user: `role=sender` (default) lists the offers the caller made; `role=carrier` those on the trips the caller carries or acts for.',
      ...signedIn(),
      request: { query: MineQuery },
      responses: { 200: jsonContent(PageSchema(OfferSchema, 'OfferPage'), 'Page of offers'), ...authErrorResponses() },
    }),
    async (c) => {
      const auth = c.get('auth');
      const q = c.req.valid('query');
      const { rows, total } = await listOffers(c.get('deps'), auth, q.role, q.status, q);
      return c.json(toPage(rows.map((offer) => toOfferDto(offer, auth.id)), total, q), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getOffer',
      path: '/offers/{id}',
      tags,
      summary: 'One offer',
      description: "Its sender, the trip's carrier side (the carrier, or the agency branch's staff) and admins; anyone else 403.",
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(OfferSchema, 'The offer'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const auth = c.get('auth');
      return c.json(toOfferDto((await getOffer(c.get('deps'), auth, c.req.valid('param').id)).offer, auth.id), 200);
    },
  )
  .openapi(
    answerRoute(
      'accept',
      'Accept an offer (carrier) or a counter-offer (sender): a PENDING_PAYMENT reservation at the agreed price',
      "A PENDING offer is the carrier side's to accept, a COUNTERED one the sender's (the other side: 403). The reservation is booked for the sender exactly as " +
        'POST /bookings books (same checks, capacity held atomically: 422 when the kilos are gone), at the agreed price; the offer answers with its reservationId. ' +
        NOT_OPEN,
    ),
    async (c) => {
      const auth = c.get('auth');
      return c.json(toOfferDto((await answerOffer(c.get('deps'), auth, c.req.valid('param').id, ACTIONS.accept)).offer, auth.id), 200);
    },
  )
  .openapi(
    answerRoute('decline', 'Decline an offer (carrier) or a counter-offer (sender)', "A PENDING offer is the carrier side's to decline, a COUNTERED one the sender's (the other side: 403). " + NOT_OPEN),
    async (c) => {
      const auth = c.get('auth');
      return c.json(toOfferDto((await answerOffer(c.get('deps'), auth, c.req.valid('param').id, ACTIONS.decline)).offer, auth.id), 200);
    },
  )
  .openapi(
    answerRoute('withdraw', 'The sender withdraws an open offer', 'The sender only (anyone else 403). ' + NOT_OPEN),
    async (c) => {
      const auth = c.get('auth');
      return c.json(toOfferDto((await answerOffer(c.get('deps'), auth, c.req.valid('param').id, ACTIONS.withdraw)).offer, auth.id), 200);
    },
  )
  .openapi(
    createRoute(
      idempotent({
        method: 'post',
        operationId: 'counterOffer',
        path: '/offers/{id}/counter',
        tags,
        summary: 'The carrier counters a pending offer with its own price per kg',
        description:
          "The trip's carrier side only (the sender: 403). Only a PENDING offer can be countered (else 409 INVALID_STATE). The sender is notified " +
          '(OFFER_COUNTERED) and has 48 hours (at the latest until departure) to accept or decline.',
        ...signedIn(),
        request: { params: IdParams, body: jsonBody(CounterSchema) },
        responses: answers,
      }),
    ),
    async (c) => {
      const auth = c.get('auth');
      return c.json(toOfferDto((await answerOffer(c.get('deps'), auth, c.req.valid('param').id, 'COUNTER', c.req.valid('json').pricePerKg)).offer, auth.id), 200);
    },
  );
