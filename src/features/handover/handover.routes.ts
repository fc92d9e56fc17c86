// Handover routes (CONTRACT sections 7 and 8): deposit QR for the sender, QR scans and manual codes
// for the carrier, and the recipient's public JSON view.
import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { notFound } from '../../errors';
import { authErrorResponses, errorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { IdParams } from '../../validation';
import {
  DeliveryCodeSchema,
  DepositCodeSchema,
  QrImageSchema,
  QrScanSchema,
  RecipientTokenParams,
  RecipientViewSchema,
} from './handover.schemas';
import { depositQr, processCode, processQr, recipientView } from './handover.service';
import { ReservationSchema, toReservationDto } from '../reservations/reservation.schemas';
import { idempotent } from '../../middleware/idempotency';

const tags = ['Handover'];
const handoverErrors = authErrorResponses(404, 409, 429);

export const handoverRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getDepositQrCode',
      path: '/bookings/{id}/qrcode/deposit',
      tags,
      summary: 'Current dynamic deposit QR code (sender; reservation CONFIRMED)',
      description:
        'Issues a new signed QR payload (with its SVG) for the carrier to scan at deposit, valid 60 s; it replaces the ' +
        'previous deposit payload, which then no longer works. Only the reservation\'s sender (anyone else 403 ACCESS_DENIED), ' +
        'and only while the reservation is CONFIRMED (else 409 INVALID_STATE naming its status).',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(QrImageSchema, 'The deposit QR code'), ...authErrorResponses(404, 409) },
    }),
    async (c) => c.json(await depositQr(c.get('deps'), c.get('auth'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'processDepositQrCode',
      path: '/qrcode/process/depot',
      tags,
      summary: 'Process a scanned deposit QR code (carrier): CONFIRMED to DEPOSITED',
      description:
        'Spends the scanned payload once and moves the reservation from CONFIRMED to DEPOSITED: the sender is notified ' +
        '(RESERVATION_DEPOSITED), the recipient gets their link again (their page now shows the delivery QR), and a card ' +
        'payment is captured right after. Malformed, forged, expired, replaced or wrong-purpose payloads: 400 INVALID_ARGUMENT. ' +
        'Already used or reservation not CONFIRMED: 409 INVALID_STATE. Caller not on the carrier side (the carrier, or the ' +
        'carrying agency\'s owner and the trip\'s branch staff): 403 ACCESS_DENIED.',
      ...signedIn(),
      request: { body: jsonBody(QrScanSchema) },
      responses: { 200: jsonContent(ReservationSchema, 'The deposited Reservation'), ...handoverErrors },
    })),
    async (c) => {
      const auth = c.get('auth');
      return c.json(await toReservationDto(c.env, await processQr(c.get('deps'), auth, c.req.valid('json').payload, 'DEPOSIT'), auth), 200);
    },
  )
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'depositWithCode',
      path: '/bookings/{id}/deposit',
      tags,
      summary: 'Deposit by manual 6-digit code (carrier): CONFIRMED to DEPOSITED',
      description:
        'The fallback of the deposit scan: the carrier side types the sender\'s 6-digit deposit code, and the reservation ' +
        'moves from CONFIRMED to DEPOSITED with the same effects (sender notified, recipient\'s link, capture). Not ' +
        'CONFIRMED: 409 INVALID_STATE, without spending an attempt. Wrong code: 400 INVALID_ARGUMENT. After 5 wrong deposit ' +
        'or delivery codes, code entry for the reservation is locked 15 minutes: 429 BUSINESS_RULE_VIOLATION with Retry-After.',
      ...signedIn(),
      request: { params: IdParams, body: jsonBody(DepositCodeSchema) },
      responses: { 200: jsonContent(ReservationSchema, 'The deposited Reservation'), ...handoverErrors },
    })),
    async (c) => {
      const auth = c.get('auth');
      return c.json(await toReservationDto(c.env, await processCode(c.get('deps'), auth, c.req.valid('param').id, c.req.valid('json').depositCode, 'DEPOSIT'), auth), 200);
    },
  )
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'processDeliveryQrCode',
      path: '/qrcode/process/livraison',
      tags,
      summary: "Process the delivery QR code scanned on the recipient's page (carrier): to DELIVERED",
      description:
        'Spends the payload scanned on the recipient\'s page once and moves the reservation to DELIVERED in one batch with ' +
        'the money: a payment still only authorised is captured first, the carrier\'s (or agency\'s) share goes to its ' +
        'wallet, held until the 72-hour dispute window closes, and the commission to revenue; sender and carrier are ' +
        'notified (RESERVATION_DELIVERED). Same refusals as the deposit scan; the reservation must be DEPOSITED or IN_TRANSIT.',
      ...signedIn(),
      request: { body: jsonBody(QrScanSchema) },
      responses: { 200: jsonContent(ReservationSchema, 'The delivered Reservation'), ...handoverErrors },
    })),
    async (c) => {
      const auth = c.get('auth');
      return c.json(await toReservationDto(c.env, await processQr(c.get('deps'), auth, c.req.valid('json').payload, 'DELIVERY'), auth), 200);
    },
  )
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'deliverWithCode',
      path: '/bookings/{id}/deliver',
      tags,
      summary: 'Deliver by manual 6-digit code given by the recipient (carrier): to DELIVERED',
      description:
        'The fallback of the delivery scan: the carrier side types the 6-digit delivery code the recipient gives, and the ' +
        'reservation moves from DEPOSITED or IN_TRANSIT to DELIVERED with the same effects (capture if needed, share to the ' +
        'wallet held 72 hours, notifications). Wrong code: 400 INVALID_ARGUMENT; locked code entry: 429 ' +
        'BUSINESS_RULE_VIOLATION with Retry-After; another status: 409 INVALID_STATE.',
      ...signedIn(),
      request: { params: IdParams, body: jsonBody(DeliveryCodeSchema) },
      responses: { 200: jsonContent(ReservationSchema, 'The delivered Reservation'), ...handoverErrors },
    })),
    async (c) => {
      const auth = c.get('auth');
      return c.json(await toReservationDto(c.env, await processCode(c.get('deps'), auth, c.req.valid('param').id, c.req.valid('json').deliveryCode, 'DELIVERY'), auth), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getRecipientView',
      path: '/public/recipient/{recipientToken}',
      tags,
      summary: 'Recipient view (no account): parcel summary, last position, delivery QR',
      description:
        'JSON twin of the page GET /r/{recipientToken}, for whoever holds the link: the reservation number and status, the ' +
        'route and arrival date, the carrier\'s name, the last position, and while the parcel is DEPOSITED or IN_TRANSIT the ' +
        'delivery QR to show the carrier (null otherwise); never e-mails, phones, codes or sender details. Unknown or revoked ' +
        'token, a reservation cancelled, expired or rejected, or 30 days after it finished: 404 RESOURCE_NOT_FOUND.',
      security: [],
      request: { params: RecipientTokenParams },
      responses: { 200: jsonContent(RecipientViewSchema, 'What the recipient may see'), ...errorResponses(404) },
    }),
    async (c) => {
      const view = await recipientView(c.get('deps'), c.req.valid('param').recipientToken);
      if (!view) throw notFound('Recipient link');
      c.header('Cache-Control', 'no-store');
      return c.json(view, 200);
    },
  );
