// Request and response schemas of the handover routes and the recipient view.
import { z } from '@hono/zod-openapi';
import { PositionSchema } from '../tracking/tracking.schemas';
import { ReservationStatusSchema } from '../reservations/reservation.schemas';

export const QrImageSchema = z
  .object({
    payload: z.string().openapi({ description: 'Opaque signed payload encoded in the QR code; valid 60 s, once' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    svg: z.string().openapi({ description: 'The QR code as an SVG document' }),
  })
  .openapi('QrCode');

export const QrScanSchema = z
  .object({ payload: z.string().min(1).max(2048).openapi({ description: 'The scanned QR payload' }) })
  .openapi('QrScan');

const code = z.string().regex(/^\d{6}$/, 'handover.must6DigitCode');
export const DepositCodeSchema = z.object({ depositCode: code }).openapi('DepositCodeEntry');
export const DeliveryCodeSchema = z.object({ deliveryCode: code }).openapi('DeliveryCodeEntry');

export const RecipientViewSchema = z
  .object({
    reservationNumber: z.string(),
    status: ReservationStatusSchema,
    departureCity: z.string(),
    arrivalCity: z.string(),
    arrivalDate: z.string().openapi({ format: 'date' }),
    carrierName: z.string().openapi({ description: 'First name and initial of the carrier' }),
    lastPosition: PositionSchema.nullable(),
    deliveryQr: QrImageSchema.nullable().openapi({ description: 'Present while the parcel is DEPOSITED or IN_TRANSIT' }),
  })
  .openapi('RecipientView');

export const RecipientTokenParams = z.object({
  recipientToken: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'recipientToken', in: 'path' }, description: 'The secret of the recipient link' }),
});
