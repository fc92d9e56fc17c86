// The operators' deliveries (CONTRACT section 16): GET /superadmin/deliveries (page, filters, masked
// addresses) and POST /superadmin/deliveries/{id}/retry (FAILED or DEAD only, audited).
import { createRoute, z } from '@hono/zod-openapi';
import { DELIVERY_CHANNELS, DELIVERY_STATUSES, LOCALES } from '../../db/schema';
import { createRouter } from '../../env';
import { authErrorResponses, jsonContent, withRole } from '../../lib/openapi';
import { PageSchema, pageQuery, toPage } from '../../lib/pagination';
import { decimalInt, IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import { DELIVERY_SORT_FIELDS, listDeliveries, retryDelivery } from './deliveries.admin.service';

const q = (name: string, description: string) => ({ param: { name, in: 'query' as const }, description });

const DeliveryQuery = pageQuery({ sortable: DELIVERY_SORT_FIELDS, defaultSort: 'createdAt,desc' }).extend({
  status: z.enum(DELIVERY_STATUSES).optional().openapi(q('status', 'Only deliveries in this status')),
  channel: z.enum(DELIVERY_CHANNELS).optional().openapi(q('channel', 'Only this channel')),
  template: z.string().trim().min(1).max(100).optional().openapi(q('template', 'Exact template: a notification kind or a transactional message, e.g. EMAIL_VERIFICATION')),
  userId: decimalInt(z.number().int().min(1).max(2_147_483_647)).optional().openapi({ ...q('userId', 'The account it is for'), type: 'integer' }),
});

const DeliverySchema = z
  .object({
    id: z.number().int(),
    userId: z.number().int().nullable().openapi({ description: "Null for a parcel's recipient, who has no account" }),
    channel: z.enum(DELIVERY_CHANNELS),
    to: z.string().openapi({ description: 'The address, masked', example: 'j***@example.com' }),
    template: z.string().openapi({ example: 'PASSWORD_RESET' }),
    locale: z.enum(LOCALES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastError: z.string().nullable().openapi({ description: "The provider's reason for the last failure" }),
    providerMessageId: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    sentAt: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('Delivery');

const TAGS = ['Administration'];

export const deliveriesAdminRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listDeliveries',
      path: '/superadmin/deliveries',
      tags: TAGS,
      summary: 'Outgoing messages (e-mail, push, SMS), newest first, addresses masked',
      description: 'A page of the outbox: every e-mail, push and SMS the service queued (notifications, transactional e-mails, recipients\' links), newest first by default, with its status (QUEUED, SENT, FAILED, DEAD), attempts, the provider\'s last error and message id. Addresses are masked. Filters: status, channel, exact template, userId.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { query: DeliveryQuery },
      responses: { 200: jsonContent(PageSchema(DeliverySchema, 'DeliveryPage'), 'Page of deliveries'), ...authErrorResponses() },
    }),
    async (c) => {
      const { page, size, sort, ...filters } = c.req.valid('query');
      const { content, total } = await listDeliveries(c.get('deps'), filters, { page, size, sort });
      return c.json(toPage(content, total, { page, size }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      operationId: 'retryDelivery',
      path: '/superadmin/deliveries/{id}/retry',
      tags: TAGS,
      summary: 'Send a FAILED or DEAD delivery again: back to QUEUED with its attempts reset (audited)',
      description: 'Puts a FAILED or DEAD delivery back to QUEUED with its attempts and last error reset, and hands it to the delivery queue once committed; the audit entry (DELIVERY_RETRIED) keeps the previous status, attempts and error. Any other status, or a delivery changed meanwhile, is 409 INVALID_STATE; an unknown id 404.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: IdParams },
      responses: { 200: jsonContent(DeliverySchema, 'The delivery, QUEUED again'), ...authErrorResponses(404, 409) },
    }),
    async (c) => {
      const delivery = await retryDelivery(c.get('deps'), { id: c.get('auth').id, ip: clientIp(c) }, c.req.valid('param').id);
      return c.json(delivery, 200);
    },
  );
