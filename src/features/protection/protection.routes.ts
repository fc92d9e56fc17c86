// GET /bookings/{id}/protection (CONTRACT section 21): thin handler over protection.service.ts.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { DISPUTE_REASONS, DISPUTE_RESOLUTIONS, DISPUTE_STATUSES } from '../../db/schema';
import { authErrorResponses, jsonContent, signedIn } from '../../lib/openapi';
import { IdParams } from '../../validation';
import { reservationProtection } from './protection.service';

const money = (description: string) => z.number().openapi({ format: 'double', description });

const ProtectionClaimSchema = z
  .object({
    disputeId: z.number().int().openapi({ format: 'int32' }),
    status: z.enum(DISPUTE_STATUSES),
    reason: z.enum(DISPUTE_REASONS),
    resolution: z.enum(DISPUTE_RESOLUTIONS).nullable(),
    payoutAmount: money('Paid to the sender from the protection reserve (PROTECTION_PAYOUT); null otherwise').nullable(),
    openedAt: z.string().openapi({ format: 'date-time' }),
    resolvedAt: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('ProtectionClaim');

const ProtectionSchema = z
  .object({
    protected: z.boolean(),
    declaredValue: money("The items' declared value in total, in the reservation's currency; null when not protected").nullable(),
    premium: money('The premium charged beside the transport price; 0 when not protected'),
    coverage: money('The most a protection payout can reach: the declared value capped at the maximum covered value; null when not protected').nullable(),
    currency: z.string(),
    claim: ProtectionClaimSchema.nullable().openapi({ description: "The reservation's dispute, the claim on its protection; null when none or not protected" }),
  })
  .openapi('Protection');

export const protectionRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'getBookingProtection',
    path: '/bookings/{id}/protection',
    tags: ['Reservations'],
    summary: "A reservation's protection: declared value, premium, coverage and claim",
    description:
      "Whether the reservation was booked with protection (CONTRACT section 21), its declared value, the premium paid beside the transport price, the coverage a PROTECTION_PAYOUT can reach, and the claim (its dispute, with the payout once resolved). The reservation's parties (the trip's agency staff included) and admins, like GET /bookings/{id}.",
    ...signedIn(),
    request: { params: IdParams },
    responses: { 200: jsonContent(ProtectionSchema, 'The protection'), ...authErrorResponses(404) },
  }),
  async (c) => c.json(await reservationProtection(c.get('deps'), c.get('auth'), c.req.valid('param').id), 200),
);
