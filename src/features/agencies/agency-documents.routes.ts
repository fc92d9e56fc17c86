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
      description: 'A multipart form with the file part and its documentType. The type is detected from the bytes (JPEG, PNG, WEBP or PDF; a PDF with scripts or embedded files is refused), stored in R2, and the document starts PENDING for a super-admin\'s review. Over 10 MB is 413, another type 415. Only the agency\'s owner or a super-admin (else 403 ACCESS_DENIED); an unknown agency is 404.',
      middleware: [requireAuth] as const,
      request: {
        params: IdParams,
        body: uploadBody({ documentType: { type: 'string', enum: [...AGENCY_DOCUMENT_TYPES] } }, ['documentType']),
      },
      responses: { 201: jsonContent(AgencyDocumentSchema, 'Stored document, PENDING'), ...authErrorResponses(404, 413, 415) },
    }),
    async (c) => {
      const deps = c.get('deps');
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
      description: 'A page of the agency\'s uploaded documents with their type, review status (PENDING, VERIFIED, NOT_VERIFIED), rejection reason and reviewedAt, newest first by default; status keeps one review status. The bytes are at each document\'s url (GET /files/{id}). The agency\'s owner and admins (else 403 ACCESS_DENIED); an unknown agency is 404.',
      middleware: [requireAuth] as const,
      request: { params: IdParams, query: documentQuery },
      responses: { 200: DocumentPage, ...authErrorResponses(404) },
    }),
    async (c) => c.json(await listAgencyDocuments(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      operationId: 'listAgencyDocumentsForReview',
      method: 'get',
      path: '/superadmin/agency-documents',
      tags,
      summary: "Every agency's documents, newest first, optionally by status (status=PENDING: the review queue)",
      description: 'A page of the documents of every agency with their review, newest first by default (sortable by createdAt and reviewedAt); status=PENDING is the queue of documents to review.',
      ...superAdmin,
      request: { query: documentQuery },
      responses: { 200: DocumentPage, ...authErrorResponses() },
    }),
    async (c) => c.json(await listAllAgencyDocuments(c.get('deps'), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      operationId: 'getAgencyDocumentForReview',
      method: 'get',
      path: '/superadmin/agency-documents/{id}',
      tags,
      summary: 'One agency document with its review (its bytes: url)',
      description: 'The document\'s metadata, type and review (status, rejection reason, reviewedAt); its bytes are served at its url (GET /files/{id}). An id that is not an agency document is 404 RESOURCE_NOT_FOUND.',
      ...superAdmin,
      request: { params: IdParams },
      responses: { 200: DocumentContent, ...authErrorResponses(404) },
    }),
    async (c) => c.json(agencyDocumentView(await getAgencyDocument(c.get('deps'), c.req.valid('param').id)), 200),
  )
  .openapi(
    createRoute({
      operationId: 'approveAgencyDocument',
      method: 'post',
      path: '/superadmin/agency-documents/{id}/approve',
      tags,
      summary: 'Approve an agency document (VERIFIED); the owner is notified',
      description: 'Sets the document VERIFIED and clears any rejection reason, audited as AGENCY_DOCUMENT_APPROVED, and notifies the agency\'s owner (AGENCY_DOCUMENT_APPROVED), all in one batch. A document already VERIFIED, or reviewed by someone else at the same moment, is 409 INVALID_STATE; a rejected one may still be approved.',
      ...superAdmin,
      request: { params: IdParams },
      responses: { 200: DocumentContent, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const admin = { id: c.get('auth').id, ip: clientIp(c) };
      return c.json(agencyDocumentView(await reviewAgencyDocument(c.get('deps'), admin, c.req.valid('param').id, 'APPROVE')), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: 'rejectAgencyDocument',
      method: 'post',
      path: '/superadmin/agency-documents/{id}/reject',
      tags,
      summary: 'Reject an agency document with a reason (NOT_VERIFIED); the owner is notified',
      description: 'Sets the document NOT_VERIFIED with the reason given, audited as AGENCY_DOCUMENT_REJECTED, and notifies the agency\'s owner with the reason (AGENCY_DOCUMENT_REJECTED), all in one batch. A document already NOT_VERIFIED, or reviewed by someone else at the same moment, is 409 INVALID_STATE; an approved one may still be rejected.',
      ...superAdmin,
      request: { params: IdParams, body: jsonBody(ReviewRejectionSchema) },
      responses: { 200: DocumentContent, ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const admin = { id: c.get('auth').id, ip: clientIp(c) };
      const { reason } = c.req.valid('json');
      return c.json(agencyDocumentView(await reviewAgencyDocument(c.get('deps'), admin, c.req.valid('param').id, 'REJECT', reason)), 200);
    },
  );
