// POST /annonces/{id}/travel-proof (CONTRACT 21): the carrier attaches a ticket or boarding pass
// to a trip; operators review it in the console (console/pages/travel-proofs.tsx).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn } from '../../lib/openapi';
import { IdParams } from '../../validation';
import { TRAVEL_PROOF_STATUSES } from '../../db/schema';
import { submitTravelProof } from './travel-proof.service';

const SubmitSchema = z.object({ fileId: z.number().int().positive().openapi({ description: 'A file the caller uploaded with purpose TRAVEL_PROOF' }) }).openapi('TravelProofRequest');

const TravelProofSchema = z
  .object({
    id: z.number().int(),
    announcementId: z.number().int(),
    fileId: z.number().int(),
    status: z.enum(TRAVEL_PROOF_STATUSES),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('TravelProof');

export const travelProofRouter = createRouter().openapi(
  createRoute({
    method: 'post',
    operationId: 'submitTravelProof',
    path: '/annonces/{id}/travel-proof',
    tags: ['Announcements'],
    summary: 'Attach a ticket or boarding pass to a trip, for an operator to review',
    description:
      'The trip\'s carrier, or the staff of its branch for an agency trip. A file of another owner or purpose: 400 ' +
      'VALIDATION_ERROR on fileId. A trip closed or cancelled, or already verified: 409 INVALID_STATE. A newer proof ' +
      'replaces a pending one. The trip shows travelVerified once an operator approves it.',
    ...signedIn(),
    request: { params: IdParams, body: jsonBody(SubmitSchema) },
    responses: { 201: jsonContent(TravelProofSchema, 'The proof, pending review'), ...authErrorResponses(404, 409) },
  }),
  async (c) => {
    const proof = await submitTravelProof(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json').fileId);
    const { id, announcementId, fileId, status, createdAt } = proof;
    return c.json({ id, announcementId, fileId, status, createdAt }, 201);
  },
);
