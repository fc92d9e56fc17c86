// Disputes (CONTRACT section 13): parties open and discuss them, admins list and resolve them.
import { createRoute, z } from '@hono/zod-openapi';
import { DISPUTE_OPENER_ROLES, DISPUTE_REASONS, DISPUTE_RESOLUTIONS, DISPUTE_STATUSES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { IdParams } from '../../validation';
import { MessageSchema as ConversationMessageSchema } from '../conversations/conversations.schemas';
import { idempotent } from '../../middleware/idempotency';
import { clientIp } from '../audit/audit';
import { ResolveSchema } from './disputes.schemas';
import { addMessage, disputeDetail, listDisputes, MAX_EVIDENCE_FILES, openDispute, resolveDispute } from './disputes.service';
import { ReservationStatusSchema } from '../reservations/reservation.schemas';

const DisputeSchema = z
  .object({
    id: z.number().int(),
    reservationId: z.number().int(),
    openedBy: z.number().int(),
    openerRole: z.enum(DISPUTE_OPENER_ROLES),
    reason: z.enum(DISPUTE_REASONS),
    description: z.string(),
    status: z.enum(DISPUTE_STATUSES),
    previousReservationStatus: ReservationStatusSchema,
    frozenAmount: z.number().openapi({ description: "Taken back from the payee's wallet (dispute after delivery)" }),
    shortfallAmount: z.number().openapi({ description: 'Already withdrawn when the dispute was opened (not recovered)' }),
    resolution: z.enum(DISPUTE_RESOLUTIONS).nullable(),
    refundAmount: z.number().nullable(),
    resolutionNote: z.string().nullable(),
    resolvedBy: z.number().int().nullable(),
    resolvedAt: z.string().nullable().openapi({ format: 'date-time' }),
    currency: z.string(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Dispute');

const DisputeDetailSchema = DisputeSchema.extend({
  reservationNumber: z.string(),
  reservationStatus: ReservationStatusSchema,
  evidenceFileIds: z.array(z.number().int()),
  messages: z.array(z.object({ id: z.number().int(), authorId: z.number().int(), body: z.string(), createdAt: z.string().openapi({ format: 'date-time' }) })),
  conversation: z
    .array(ConversationMessageSchema)
    .openapi({ description: "The reservation's conversation between sender and carrier: its latest 100 messages, oldest first" }),
}).openapi('DisputeDetail');

const NewDisputeSchema = z
  .object({
    reservationId: z.number().int().positive(),
    reason: z.enum(DISPUTE_REASONS),
    description: z.string().trim().min(10).max(4000),
    evidenceFileIds: z.array(z.number().int().positive()).max(MAX_EVIDENCE_FILES).optional(),
  })
  .openapi('NewDispute');

const MessageSchema = z.object({ body: z.string().trim().min(1).max(4000) }).openapi('NewDisputeMessage');

const disputesPage = pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' });
const DisputePageSchema = PageSchema(DisputeSchema, 'DisputePage');

export const disputesRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'openDispute',
      path: '/disputes',
      tags: ['Disputes'],
      summary: "Open a dispute on a reservation (freezes the carrier's payout)",
      description: 'Opens the reservation\'s one dispute, with a reason, a description and up to 10 evidence files the caller uploaded as DISPUTE_EVIDENCE (another file is 400 INVALID_ARGUMENT). The reservation moves to DISPUTED and the carrier\'s payout stays held until an admin resolves it; the other party is notified (DISPUTE_OPENED). Only while DEPOSITED or IN_TRANSIT, or within 72 hours of delivery (else 409 INVALID_STATE); a second dispute is 409 ALREADY_EXISTS. The reservation\'s sender or carrier side only (anyone else 403 ACCESS_DENIED).',
      ...signedIn(),
      request: { body: jsonBody(NewDisputeSchema) },
      responses: { 201: jsonContent(DisputeDetailSchema, 'The dispute'), ...authErrorResponses(400, 404, 409) },
    })),
    async (c) => c.json(await openDispute(c.get('deps'), c.get('auth'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listMyDisputes',
      path: '/disputes/mine',
      tags: ['Disputes'],
      summary: 'Disputes on my reservations',
      description: 'A page of the disputes on reservations where the caller is the sender or the carrier of record, and of those the caller opened, newest first, open and resolved, with their amounts in the reservation\'s currency.',
      ...signedIn(),
      request: { query: disputesPage },
      responses: { 200: jsonContent(DisputePageSchema, 'Disputes page'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listDisputes(c.get('deps'), c.req.valid('query'), { partyId: c.get('auth').id }), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getDispute',
      path: '/disputes/{id}',
      tags: ['Disputes'],
      summary: 'A dispute with its evidence and messages (parties and admins)',
      description: 'The dispute with its evidence file ids (readable through GET /files/{id}), its messages, the outcome once resolved, and the latest 100 messages of the reservation\'s own conversation, oldest first. The reservation\'s sender, its carrier side (the carrier, or the carrying agency\'s owner and the trip\'s branch staff) and admins; anyone else gets 403 ACCESS_DENIED, an unknown id 404.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(DisputeDetailSchema, 'The dispute'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await disputeDetail(c.get('deps'), c.get('auth'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'postDisputeMessage',
      path: '/disputes/{id}/messages',
      tags: ['Disputes'],
      summary: 'Post a message on an open dispute (parties and admins)',
      description: 'Adds the caller\'s message to the dispute\'s thread and notifies the sender and the carrier other than the caller (DISPUTE_MESSAGE); answers the dispute with its messages. A resolved dispute takes no more messages (409 INVALID_STATE). The reservation\'s parties and admins; anyone else gets 403 ACCESS_DENIED.',
      ...signedIn(),
      request: { params: IdParams, body: jsonBody(MessageSchema) },
      responses: { 201: jsonContent(DisputeDetailSchema, 'The dispute with its messages'), ...authErrorResponses(404, 409) },
    })),
    async (c) => c.json(await addMessage(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json').body), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'adminListDisputes',
      path: '/admin/disputes',
      tags: ['Disputes', 'Administration'],
      summary: 'Dispute queue',
      description: 'A page of every dispute, newest first by default, with status keeping the OPEN ones (the queue to resolve) or the RESOLVED ones; each with its reason, the reservation\'s status before the dispute and its amounts.',
      ...withRole('ROLE_ADMIN'),
      request: { query: disputesPage.extend({ status: z.enum(DISPUTE_STATUSES).optional() }) },
      responses: { 200: jsonContent(DisputePageSchema, 'Disputes page'), ...authErrorResponses() },
    }),
    async (c) => {
      const { status, ...page } = c.req.valid('query');
      return c.json(await listDisputes(c.get('deps'), page, { status }), 200);
    },
  )
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'resolveDispute',
      path: '/admin/disputes/{id}/resolve',
      tags: ['Disputes', 'Administration'],
      summary: 'Resolve a dispute: refund the sender, release to the carrier, or split',
      description: 'Resolves an OPEN dispute once, in one batch with the money: REFUND_SENDER refunds the whole price (and the protection premium), PARTIAL_REFUND the amount given (strictly between 0 and the price, else 400 INVALID_ARGUMENT), RELEASE_TO_CARRIER releases the payment to the carrier (reservation back to DELIVERED), PROTECTION_PAYOUT refunds the price and pays the amount given, up to the coverage, to the sender\'s wallet (only on a protected reservation and for LOST, DAMAGED or NOT_DELIVERED: else 422 BUSINESS_RULE_VIOLATION). A refund moves the reservation to REFUNDED; after delivery the carrier gives back from its held share, then its balance, the rest becoming what it owes. Both parties are notified (DISPUTE_RESOLVED) and the resolution is audited; a dispute already resolved is 409 INVALID_STATE.',
      ...withRole('ROLE_ADMIN'),
      request: { params: IdParams, body: jsonBody(ResolveSchema) },
      responses: { 200: jsonContent(DisputeDetailSchema, 'The resolved dispute'), ...authErrorResponses(400, 404, 409) },
    })),
    async (c) =>
      c.json(await resolveDispute(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json'), clientIp(c)), 200),
  );
