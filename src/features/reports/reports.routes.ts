// Reports: users report users, announcements and reviews; admins review and close them.
import { createRoute, z } from '@hono/zod-openapi';
import { REPORT_ACTIONS, REPORT_STATUSES, REPORT_TARGET_TYPES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import { closeReport, createReport, listReports } from './reports.service';
import { idempotent } from '../../middleware/idempotency';

const ReportSchema = z
  .object({
    id: z.number().int(),
    reporterId: z.number().int(),
    targetType: z.enum(REPORT_TARGET_TYPES),
    targetId: z.number().int(),
    reason: z.string(),
    description: z.string().nullable(),
    status: z.enum(REPORT_STATUSES),
    action: z.enum(REPORT_ACTIONS).nullable(),
    resolutionNote: z.string().nullable(),
    closedBy: z.number().int().nullable(),
    closedAt: z.string().nullable().openapi({ format: 'date-time' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Report');

const NewReportSchema = z
  .object({
    targetType: z.enum(REPORT_TARGET_TYPES),
    targetId: z.number().int().positive(),
    reason: z.string().trim().min(3).max(200),
    description: z.string().trim().max(4000).optional(),
  })
  .openapi('NewReport');

const CloseReportSchema = z
  .object({ action: z.enum(REPORT_ACTIONS), note: z.string().trim().max(2000).optional() })
  .openapi('CloseReport');

const reportsPage = pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' });
const ReportPageSchema = PageSchema(ReportSchema, 'ReportPage');

export const reportsRouter = createRouter()
  .openapi(
    createRoute(idempotent({
      method: 'post',
      operationId: 'createReport',
      path: '/reports',
      tags: ['Reports'],
      summary: 'Report a user, an announcement or a review',
      description: 'Files an OPEN report about a user, a trip (announcement) or a review, with a reason and an optional description, for the moderators\' queue; nothing changes for the target until an admin closes it with an action. A target that does not exist is 404 RESOURCE_NOT_FOUND; reporting oneself is 422 BUSINESS_RULE_VIOLATION; a second open report of the caller on the same target is 409 ALREADY_EXISTS. The reporter is notified when it is closed.',
      ...signedIn(),
      request: { body: jsonBody(NewReportSchema) },
      responses: { 201: jsonContent(ReportSchema, 'The report'), ...authErrorResponses(404, 409, 422) },
    })),
    async (c) => c.json(await createReport(c.get('deps'), c.get('auth'), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listMyReports',
      path: '/reports/mine',
      tags: ['Reports'],
      summary: 'Reports I filed',
      description: 'A page of the reports the caller filed, newest first by default, with their status and, once closed, the action taken and the moderator\'s note.',
      ...signedIn(),
      request: { query: reportsPage },
      responses: { 200: jsonContent(ReportPageSchema, 'Reports page'), ...authErrorResponses() },
    }),
    async (c) => c.json(await listReports(c.get('deps'), c.req.valid('query'), { reporterId: c.get('auth').id }), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'adminListReports',
      path: '/admin/reports',
      tags: ['Reports', 'Administration'],
      summary: 'Moderation queue',
      description: 'A page of every report, newest first by default; status keeps the OPEN (the queue) or CLOSED ones, targetType those about users, trips or reviews.',
      ...withRole('ROLE_ADMIN'),
      request: {
        query: reportsPage.extend({
          status: z.enum(REPORT_STATUSES).optional(),
          targetType: z.enum(REPORT_TARGET_TYPES).optional(),
        }),
      },
      responses: { 200: jsonContent(ReportPageSchema, 'Reports page'), ...authErrorResponses() },
    }),
    async (c) => {
      const { status, targetType, ...page } = c.req.valid('query');
      return c.json(await listReports(c.get('deps'), page, { status, targetType }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'closeReport',
      path: '/admin/reports/{id}/close',
      tags: ['Reports', 'Administration'],
      summary: 'Close a report, applying an action (hide the announcement or review, suspend the user)',
      description: 'Closes an OPEN report with an action and an optional note, in one batch with the action, the reporter\'s REPORT_CLOSED notification and the audit entry. NONE changes nothing; HIDE_ANNOUNCEMENT (a trip report) sets the trip CANCELLED at once (out of the search; bookings and offers on it are refused from then on, 422 BUSINESS_RULE_VIOLATION), tells its carrier (TRIP_REMOVED, with the note) and, before answering, cancels its reservations not yet handed over (PENDING_PAYMENT, PAID, CONFIRMED) with a full refund of what was paid (the card hold voided or the payment refunded), capacity released and each sender told (RESERVATION_CANCELLED, data.reason TRIP_REMOVED), and closes its open offers (OFFER_EXPIRED, the sender told); a parcel already handed over (DEPOSITED, IN_TRANSIT, DELIVERED, DISPUTED) keeps its delivery, and the trip stays readable to its parties (a cancellation cut short is finished by the cron); HIDE_REVIEW (a review report) hides the review and takes it out of the ratings; SUSPEND_USER suspends the target\'s user (the trip\'s carrier, the review\'s author) as POST /admin/users/{id}/suspend does, tokens revoked and reservations cancelled. An action that does not fit the target is 400 INVALID_ARGUMENT; a closed report 409 INVALID_STATE (of two concurrent closes one succeeds, the other is 409 and changes nothing); suspending a staff account needs a super-admin (403).',
      ...withRole('ROLE_ADMIN'),
      request: { params: IdParams, body: jsonBody(CloseReportSchema) },
      responses: { 200: jsonContent(ReportSchema, 'The closed report'), ...authErrorResponses(404, 409) },
    }),
    async (c) =>
      c.json(await closeReport(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json'), clientIp(c)), 200),
  );
