// Agency documents (CONTRACT section 12: POST/GET /agencies/{id}/documents) and their super-admin
// review, shaped like the user KYC review (/superadmin/kyc): a page by status, one document,
// approve, reject with a reason.
import { createRoute, z } from '@hono/zod-openapi';
import { AGENCY_DOCUMENT_TYPES, KYC_STATUSES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, withRole } from '../../lib/openapi';
import { pageQuery, PageSchema } from '../../lib/pagination';
import { requireAuth } from '../../middleware/auth';
import { IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import { FileSchema, uploadBody } from '../files/files.schemas';
import { parseFields, readUploadForm } from '../files/files.service';
import { ReviewRejectionSchema } from '../kyc/kyc.schemas';
import { agencyForOwner } from '../../access/agency-scope';
import {
  agencyDocumentView,
  getAgencyDocument,
  listAgencyDocuments,
  listAllAgencyDocuments,
  reviewAgencyDocument,
  uploadAgencyDocument,
} from './agency-documents.service';

const AgencyDocumentSchema = FileSchema.extend({
  documentType: z.enum(AGENCY_DOCUMENT_TYPES),
  status: z.enum(KYC_STATUSES).openapi({ description: 'PENDING until a super-admin approves (VERIFIED) or rejects (NOT_VERIFIED) it' }),
  rejectionReason: z.string().nullable(),
  reviewedAt: z.string().nullable().openapi({ format: 'date-time' }),
}).openapi('AgencyDocument');

const DocumentFieldsSchema = z.object({ documentType: z.enum(AGENCY_DOCUMENT_TYPES) });

const documentQuery = pageQuery({ sortable: ['createdAt', 'reviewedAt'], defaultSort: 'createdAt,desc' }).extend({
  status: z.enum(KYC_STATUSES).optional().openapi({ param: { name: 'status', in: 'query' } }),
});

const DocumentPage = jsonContent(PageSchema(AgencyDocumentSchema, 'AgencyDocumentPage'), 'Page of agency documents');
const DocumentContent = jsonContent(AgencyDocumentSchema, 'The document');
const tags = ['Agencies', 'Super-admin'];
const superAdmin = withRole('ROLE_SUPERADMIN');

export const agencyDocumentsRouter = createRouter()
  .openapi(
    createRoute({
      operationId: 'uploadAgencyDocument',
      method: 'post',
      path: '/agencies/{id}/documents',
      tags: ['Agencies'],
      summary: 'Upload an agency verification document with its type (PDF or image, at most 10 MB; owner); it waits for review',
      middleware: [requireAuth] as const,
      request: {
        params: IdParams,
        body: uploadBody({ documentType: { type: 'string', enum: [...AGENCY_DOCUMENT_TYPES] } }, ['documentType']),
      },
      responses: { 201: jsonContent(AgencyDocumentSchema, 'Stored document, PENDING'), ...authErrorResponses(404, 413, 415) },
    }),
    async (c) => {
      const { deps } = c.var;
      const auth = c.get('auth');
      const agency = await agencyForOwner(deps, auth, c.req.valid('param').id);
      const { file, fields } = await readUploadForm(c);
      const { documentType } = parseFields(DocumentFieldsSchema, fields);
      return c.json(agencyDocumentView(await uploadAgencyDocument(deps, auth, agency.id, file, documentType)), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: 'listAgencyDocuments',
      method: 'get',
      path: '/agencies/{id}/documents',
      tags: ['Agencies'],
      summary: "The agency's documents with their review, newest first, optionally by status (owner, admins)",
      middleware: [requireAuth] as const,
      request: { params: IdParams, query: documentQuery },
      responses: { 200: DocumentPage, ...authErrorResponses(404) },
    }),
    async (c) => c.json(await listAgencyDocuments(c.var.deps, c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      operationId: 'listAgencyDocumentsForReview',
      method: 'get',
      path: '/superadmin/agency-documents',
      tags,
      summary: "Every agency's documents, newest first, optionally by status (status=PENDING: the review queue)",
      ...superAdmin,
      request: { query: documentQuery },
      responses: { 200: DocumentPage, ...authErrorResponses() },
    }),
    async (c) => c.json(await listAllAgencyDocuments(c.var.deps, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      operationId: 'getAgencyDocumentForReview',
      method: 'get',
      path: '/superadmin/agency-documents/{id}',
      tags,
      summary: 'One agency document with its review (its bytes: url)',
      ...superAdmin,
      request: { params: IdParams },
      responses: { 200: DocumentContent, ...authErrorResponses(404) },
    }),
    async (c) => c.json(agencyDocumentView(await getAgencyDocument(c.var.deps, c.req.valid('param').id)), 200),
  )
  .openapi(
    createRoute({
      operationId: 'approveAgencyDocument',
      method: 'post',
      path: '/superadmin/agency-documents/{id}/approve',
      tags,
      summary: 'Approve an agency document (VERIFIED); the owner is notified',
      ...superAdmin,
      request: { params: IdParams },
      responses: { 200: DocumentContent, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const admin = { id: c.get('auth').id, ip: clientIp(c) };
      return c.json(agencyDocumentView(await reviewAgencyDocument(c.var.deps, admin, c.req.valid('param').id, 'APPROVE')), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: 'rejectAgencyDocument',
      method: 'post',
      path: '/superadmin/agency-documents/{id}/reject',
      tags,
      summary: 'Reject an agency document with a reason (NOT_VERIFIED); the owner is notified',
      ...superAdmin,
      request: { params: IdParams, body: jsonBody(ReviewRejectionSchema) },
      responses: { 200: DocumentContent, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const admin = { id: c.get('auth').id, ip: clientIp(c) };
      const { reason } = c.req.valid('json');
      return c.json(agencyDocumentView(await reviewAgencyDocument(c.var.deps, admin, c.req.valid('param').id, 'REJECT', reason)), 200);
    },
  );
