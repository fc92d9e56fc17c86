// /notifications: the caller's in-app notifications (CONTRACT section 13).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonContent, signedIn } from '../../lib/openapi';
import { PageSchema, pageQuery } from '../../lib/pagination';
import { IdParams } from '../../validation';
import { languageHeaders, readerLocale } from '../../lib/locale';
import { deleteNotification, listNotifications, markAllRead, markRead, unreadCount } from './notifications.service';
import { NOTIFICATION_KINDS } from '../deliveries/notify';

const NotificationSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(NOTIFICATION_KINDS).openapi('NotificationType', { description: 'The kind of notice; new kinds may be added within v1 (docs/VERSIONING.md)' }),
    title: z.string(),
    message: z.string(),
    data: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'Ids the app navigates to' }),
    read: z.boolean(),
    readAt: z.string().nullable().openapi({ format: 'date-time' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Notification');

const tags = ['Notifications'];

export const notificationsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listNotifications',
      path: '/notifications',
      tags,
      summary: "The caller's notifications, newest first",
      description: 'A page of the caller\'s in-app notifications, newest first by default; unreadOnly=true keeps the unread ones. Each has its kind (type), title and message (in French when Accept-Language prefers it, else in English), the ids the app navigates to (data) and when it was read. Every notification of the service lands here, whatever the caller\'s e-mail, push and SMS preferences; read ones are deleted after 90 days, unread ones after a year.',
      ...signedIn(),
      request: {
        query: pageQuery({ sortable: ['createdAt'], defaultSort: 'createdAt,desc' }).extend({
          unreadOnly: z.stringbool().optional().openapi({ type: 'boolean', description: 'Only unread ones' }),
        }),
      },
      responses: { 200: jsonContent(PageSchema(NotificationSchema, 'NotificationPage'), 'A page'), ...authErrorResponses() },
    }),
    async (c) => {
      const locale = readerLocale(c.req.header('Accept-Language'));
      return c.json(await listNotifications(c.get('deps'), c.get('auth'), c.req.valid('query'), locale), 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'countUnreadNotifications',
      path: '/notifications/unread-count',
      tags,
      summary: 'How many notifications are unread',
      description: 'How many of the caller\'s in-app notifications are unread, for the app\'s badge; marking them read (one or all) or deleting them lowers it.',
      ...signedIn(),
      responses: { 200: jsonContent(z.object({ count: z.number().int() }).openapi('UnreadCount'), 'The count'), ...authErrorResponses() },
    }),
    async (c) => c.json(await unreadCount(c.get('deps'), c.get('auth')), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'markAllNotificationsRead',
      path: '/notifications/read-all',
      tags,
      summary: "Mark all the caller's notifications read",
      description: 'Stamps every unread notification of the caller with the same read time in one statement and answers how many changed; notifications already read keep their first read time.',
      ...signedIn(),
      responses: {
        200: jsonContent(z.object({ updated: z.number().int() }).openapi('ReadAllResult'), 'How many were marked'),
        ...authErrorResponses(),
      },
    }),
    async (c) => c.json(await markAllRead(c.get('deps'), c.get('auth')), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'markNotificationRead',
      path: '/notifications/{id}/read',
      tags,
      summary: 'Mark one notification read (owner)',
      description: 'Marks one of the caller\'s notifications read and answers it; one already read keeps its first read time (the call changes nothing). Another user\'s notification is 403 ACCESS_DENIED (no admin override), an unknown id 404 RESOURCE_NOT_FOUND.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(NotificationSchema, 'The notification'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const locale = readerLocale(c.req.header('Accept-Language'));
      return c.json(await markRead(c.get('deps'), c.get('auth'), c.req.valid('param').id, locale), 200, languageHeaders(locale));
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      operationId: 'deleteNotification',
      path: '/notifications/{id}',
      tags,
      summary: 'Delete one notification (owner)',
      description: 'Deletes one of the caller\'s notifications from the in-app list. Another user\'s notification is 403 ACCESS_DENIED (no admin override), an unknown id 404 RESOURCE_NOT_FOUND.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 204: { description: 'Deleted' }, ...authErrorResponses(404) },
    }),
    async (c) => {
      await deleteNotification(c.get('deps'), c.get('auth'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
