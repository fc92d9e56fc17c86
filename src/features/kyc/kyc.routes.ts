// KYC endpoints (CONTRACT section 11): the user's session and status, the provider callback, and
// the super-admin review queue.
import { createRoute, z } from '@hono/zod-openapi';
import { KYC_DOCUMENT_TYPES, KYC_STATUSES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, errorResponses, jsonBody, jsonContent } from '../../lib/openapi';
import { pageQuery, PageSchema } from '../../lib/pagination';
import { requireAuth, requireRole } from '../../middleware/auth';
import { clientIp } from '../audit/audit';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../providers/kyc';
import { IdParams } from '../../validation';
import { ReviewRejectionSchema } from './kyc.schemas';
import {
  adminView,
  getKycRecord,
  handleKycCallback,
  kycStatusOf,
  listKycRecords,
  reviewKyc,
  startKycSession,
} from './kyc.service';
import { idempotent } from '../../middleware/idempotency';

const dateTime = () => z.string().nullable().openapi({ format: 'date-time' });

export const KycRecordSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(KYC_STATUSES),
    documentType: z.enum(KYC_DOCUMENT_TYPES).nullable(),
    userId: z.number().int(),
    rejectionReason: z.string().nullable(),
    submittedAt: dateTime(),
    reviewedAt: dateTime(),
    externalUserId: z.string().nullable(),
    kycSessionUrl: z.string().nullable(),
    kycSessionToken: z.string().nullable().openapi({ description: 'Credential: only in the owner\'s own responses, null elsewhere' }),
    tokenExpiry: dateTime(),
  })
  .openapi('KycRecord');

const KycSessionSchema = z
  .object({
    id: z.number().int(),
    kycSessionUrl: z.string(),
    status: z.enum(KYC_STATUSES),
    kycSessionToken: z.string().nullable(),
    tokenExpiry: dateTime(),
  })
  .openapi('KycSession');

const KycStatusSchema = z
  .object({ status: z.enum(KYC_STATUSES), record: KycRecordSchema.nullable() })
  .openapi('KycStatus');

/** Optional: the document the user means to present, kept on the record until the provider reports the one it checked. */
const KycSessionRequestSchema = z
  .object({
    documentType: z.enum(KYC_DOCUMENT_TYPES).optional().openapi({ description: 'The identity document the user will present' }),
  })
  .openapi('KycSessionRequest');

const superAdmin = [requireAuth, requireRole('ROLE_SUPERADMIN')];

export const kycRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'startKycSession',
      path: '/kyc/sessions',
      tags: ['KYC'],
      summary: 'Start (or resume) an identity verification session',
      description:
        'Any signed-in user not yet verified. Opens a session with the identity provider (or hands back the unfinished one) and ' +
        'answers the URL to complete it at; the body is optional. 409 INVALID_STATE when already verified or while a review is pending.',
      middleware: [requireAuth] as const,
      request: { body: { ...jsonBody(KycSessionRequestSchema), required: false } },
      responses: { 201: jsonContent(KycSessionSchema, 'Session to complete at kycSessionUrl'), ...authErrorResponses(409) },
    })),
    async (c) => {
      const { documentType } = c.req.valid('json') ?? {};
      const r = await startKycSession(c.get('deps'), c.get('auth').id, documentType);
      return c.json({ id: r.id, kycSessionUrl: r.kycSessionUrl, status: r.status, kycSessionToken: r.kycSessionToken, tokenExpiry: r.tokenExpiry }, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getKycStatus',
      path: '/kyc/status',
      tags: ['KYC'],
      summary: "The caller's verification status and current record",
      description: 'The caller\'s verification status (NOT_VERIFIED, PENDING, VERIFIED) and their latest KYC record, or null before the first session: its document type, rejection reason, dates, and while unfinished the session URL and token to resume it at. A VERIFIED status carries ROLE_VERIFIED_USER, needed to publish trips as an individual.',
      middleware: [requireAuth] as const,
      responses: { 200: jsonContent(KycStatusSchema, 'Status'), ...authErrorResponses() },
    }),
    async (c) => c.json(await kycStatusOf(c.get('deps'), c.get('auth').id), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'receiveKycProviderEvent',
      path: '/webhooks/kyc-provider/status-update',
      tags: ['KYC', 'Webhooks'],
      summary: 'Status callback of the identity provider (HMAC-signed)',
      description:
        `The body is a JSON string holding the event {eventId, sessionId, status: APPROVED|REJECTED|REVIEW|REVOKED, documentType?, reason?}. ` +
        `${SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the shared secret>; ${TIMESTAMP_HEADER}: unix seconds, ` +
        'accepted within 5 minutes. Each eventId is applied once. Answers a JSON string: APPLIED, ALREADY_PROCESSED or IGNORED.',
      security: [],
      request: {
        // A plain schema (not zod) so the raw bytes reach the handler unparsed: the signature covers them.
        body: { required: true, content: { 'application/json': { schema: { type: 'string' } } } },
        headers: z.object({
          [SIGNATURE_HEADER]: z.string().optional().openapi({ param: { name: SIGNATURE_HEADER, in: 'header' } }),
          [TIMESTAMP_HEADER]: z.string().optional().openapi({ param: { name: TIMESTAMP_HEADER, in: 'header' } }),
        }),
      },
      responses: { 200: jsonContent(z.string(), 'Outcome'), ...errorResponses(401) },
    }),
    async (c) => {
      const raw = new Uint8Array(await c.req.arrayBuffer());
      const outcome = await handleKycCallback(c.get('deps'), raw, {
        signature: c.req.header(SIGNATURE_HEADER),
        timestamp: c.req.header(TIMESTAMP_HEADER),
      });
      return c.json(outcome, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'superadminListKyc',
      path: '/superadmin/kyc',
      tags: ['KYC', 'Super-admin'],
      summary: 'KYC records, newest first, optionally by status',
      description: 'A page of the identity verification records of every user, newest submission first by default (sortable by submittedAt and reviewedAt); status keeps one status, PENDING being the records waiting for a verdict. Session tokens are never shown here.',
      middleware: superAdmin,
      request: {
        query: pageQuery({ sortable: ['submittedAt', 'reviewedAt'], defaultSort: 'submittedAt,desc' }).extend({
          status: z.enum(KYC_STATUSES).optional().openapi({ param: { name: 'status', in: 'query' } }),
        }),
      },
      responses: { 200: jsonContent(PageSchema(KycRecordSchema, 'KycRecordPage'), 'Page of KYC records'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listKycRecords(c.get('deps'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'superadminGetKyc',
      path: '/superadmin/kyc/{id}',
      tags: ['KYC', 'Super-admin'],
      summary: 'One KYC record',
      description: 'One identity verification record: its user, status, document type, rejection reason, submission and review dates and the provider\'s session URL; the session token is never shown here. An unknown id is 404 RESOURCE_NOT_FOUND.',
      middleware: superAdmin,
      request: { params: IdParams },
      responses: { 200: jsonContent(KycRecordSchema, 'KYC record'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(adminView(await getKycRecord(c.get('deps'), c.req.valid('param').id)), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'approveKyc',
      path: '/superadmin/kyc/{id}/approve',
      tags: ['KYC', 'Super-admin'],
      summary: 'Approve a KYC record by hand (grants ROLE_VERIFIED_USER)',
      description: 'Sets the record and its user VERIFIED and grants ROLE_VERIFIED_USER in one batch, with a KYC_APPROVED notification to the user and the audit entry; the role applies from the user\'s next token refresh. A record already VERIFIED is 409 INVALID_STATE; an unknown id 404. Later provider events no longer override this decision.',
      middleware: superAdmin,
      request: { params: IdParams },
      responses: { 200: jsonContent(KycRecordSchema, 'KYC record'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const record = await reviewKyc(c.get('deps'), c.req.valid('param').id, c.get('auth').id, 'APPROVE', clientIp(c));
      return c.json(adminView(record), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'rejectKyc',
      path: '/superadmin/kyc/{id}/reject',
      tags: ['KYC', 'Super-admin'],
      summary: 'Reject a KYC record (revokes ROLE_VERIFIED_USER if it was verified)',
      description: 'Sets the record and its user NOT_VERIFIED with the reason given, in one batch with the notification (KYC_REJECTED, or KYC_REVOKED for a user who was verified) and the audit entry. A verified user loses ROLE_VERIFIED_USER and every token at once, so publishing stops immediately. A record already NOT_VERIFIED is 409 INVALID_STATE; an unknown id 404.',
      middleware: superAdmin,
      request: { params: IdParams, body: jsonBody(ReviewRejectionSchema) },
      responses: { 200: jsonContent(KycRecordSchema, 'KYC record'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const { reason } = c.req.valid('json');
      const record = await reviewKyc(c.get('deps'), c.req.valid('param').id, c.get('auth').id, 'REJECT', clientIp(c), reason);
      return c.json(adminView(record), 200);
    },
  );

