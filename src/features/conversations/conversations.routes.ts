// Conversation routes (CONTRACT section 17): thin handlers over conversations.service.ts. The live
// feed is a WebSocket held by the reservation's conversation object.
import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import { authErrorResponses, jsonBody, jsonContent, signedIn, socketSecurity, withRole } from '../../lib/openapi';
import { toPage } from '../../lib/pagination';
import { requireSocketAuth, socketToken } from '../../middleware/auth';
import { idempotent } from '../../middleware/idempotency';
import { IdParams } from '../../validation';
import { clientIp } from '../audit/audit';
import {
  ConversationPageSchema,
  ConversationsQuery,
  LiveQuery,
  MessagePageSchema,
  MessageSchema,
  MessagesQuery,
  NewMessageSchema,
  ReadSchema,
  UnreadCountSchema,
} from './conversations.schemas';
import { listConversations, listMessages, markRead, openLive, postMessage, superadminMessages, unreadCount } from './conversations.service';

const tags = ['Conversations'];

export const conversationsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listBookingMessages',
      path: '/bookings/{id}/messages',
      tags,
      summary: "A reservation's conversation (its sender and carrier side), newest first",
      description:
        'Page of messages. Catch up after a disconnection with `afterId=<last id seen>&sort=id,asc`, then the next pages: ' +
        'the same messages in the same order as the live feed, without gaps or duplicates.',
      ...signedIn(),
      request: { params: IdParams, query: MessagesQuery },
      responses: { 200: jsonContent(MessagePageSchema, 'Page of messages'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { messages, total } = await listMessages(c.get('deps'), c.get('auth'), c.req.valid('param').id, q);
      return c.json(toPage(messages, total, q), 200);
    },
  )
  .openapi(
    createRoute(
      idempotent({
        method: 'post',
        operationId: 'postBookingMessage',
        path: '/bookings/{id}/messages',
        tags,
        summary: 'Write in the conversation (sender or carrier side)',
        description:
          'Reaches open live sockets at once; a counterpart without an open socket gets a NEW_MESSAGE notification ' +
          '(at most one per conversation per 10 minutes). Read-only 30 days after DELIVERED, 7 days after CANCELLED or ' +
          'REJECTED: 409 INVALID_STATE. More than 30 messages a minute from one user in one conversation: 429.',
        ...signedIn(),
        request: { params: IdParams, body: jsonBody(NewMessageSchema) },
        responses: { 201: jsonContent(MessageSchema, 'The message as stored'), ...authErrorResponses(404, 409, 429) },
      }),
    ),
    async (c) => {
      const message = await postMessage(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.valid('json'));
      return c.json(message, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      operationId: 'markBookingMessagesRead',
      path: '/bookings/{id}/messages/read',
      tags,
      summary: "Mark the conversation read for the caller's side",
      description: 'Marks every message of the conversation so far as read for the caller\'s side (the sender\'s, or the carrier side\'s shared by the carrier and the agency staff acting for the trip): that side\'s unread count drops to 0 and open live sockets receive a `read` event. Answers when it was read. The sender or the carrier side only; anyone else, admins included, gets 403 ACCESS_DENIED, an unknown reservation 404.',
      ...signedIn(),
      request: { params: IdParams },
      responses: { 200: jsonContent(ReadSchema, 'When it was read'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await markRead(c.get('deps'), c.get('auth'), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'openConversationLive',
      path: '/bookings/{id}/messages/live',
      tags,
      summary: 'Live conversation over WebSocket (sender or carrier side)',
      description:
        'Send `Upgrade: websocket` with the access token as the subprotocol: `Sec-WebSocket-Protocol: bearer.<accessToken>` ' +
        '(browsers cannot set headers; the server selects another offered subprotocol if any, else that one). The server ' +
        'pushes `{"type":"message","message":{...}}` and `{"type":"read","userId":...,"readAt":...}`; with `afterId` it first ' +
        'replays the messages after it. Text "ping" is answered "pong"; any other frame is answered ' +
        '`{"type":"error","errorCode":"INVALID_ARGUMENT","message":...}` and the socket stays open. ' +
        'The socket closes with 4401 when the token expires and 4403 once it is revoked (logout). ' +
        'Without the upgrade header: 400 INVALID_ARGUMENT.',
      security: socketSecurity,
      middleware: [requireSocketAuth] as const,
      request: { params: IdParams, query: LiveQuery },
      responses: { 101: { description: 'Switching protocols: the live conversation' }, ...authErrorResponses(404) },
    }),
    async (c) => {
      const { protocol } = socketToken(c.req.raw);
      return openLive(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.raw, protocol, c.req.valid('query').afterId);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'listConversations',
      path: '/conversations',
      tags,
      summary: "The caller's conversations, latest activity first, with unread counts",
      description: 'A page of the conversations of the reservations the caller takes part in (as sender, as carrier, or as staff of the carrying agency: an employee for their branch\'s trips), latest activity first (the last message, else the booking). Each has the counterpart\'s names, the last message (null before the first) and the caller\'s side\'s unread count. Reservations that expired, were cancelled or rejected without a message are left out.',
      ...signedIn(),
      request: { query: ConversationsQuery },
      responses: { 200: jsonContent(ConversationPageSchema, 'Page of conversations'), ...authErrorResponses() },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { content, total } = await listConversations(c.get('deps'), c.get('auth'), q);
      return c.json(toPage(content, total, q), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getConversationsUnreadCount',
      path: '/conversations/unread-count',
      tags,
      summary: "Unread messages over all the caller's conversations",
      description: 'The number of messages unread by the caller\'s side over all the conversations they take part in (as sender, carrier, or staff of the carrying agency), for a badge. Marking a conversation read (PUT /bookings/{id}/messages/read) lowers it.',
      ...signedIn(),
      responses: { 200: jsonContent(UnreadCountSchema, 'The count'), ...authErrorResponses() },
    }),
    async (c) => c.json(await unreadCount(c.get('deps'), c.get('auth')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'superadminListReservationMessages',
      path: '/superadmin/reservations/{id}/messages',
      tags,
      summary: "A reservation's conversation, for super-admins (every read is audited)",
      description: 'A page of the reservation\'s messages, whoever took part, for a super-admin investigating it; each read is audited as CONVERSATION_READ with the page asked and how many messages it returned. Paged and sorted like GET /bookings/{id}/messages. An unknown reservation is 404 RESOURCE_NOT_FOUND.',
      ...withRole('ROLE_SUPERADMIN'),
      request: { params: IdParams, query: MessagesQuery },
      responses: { 200: jsonContent(MessagePageSchema, 'Page of messages'), ...authErrorResponses(404) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { messages, total } = await superadminMessages(c.get('deps'), c.get('auth'), c.req.valid('param').id, q, clientIp(c));
      return c.json(toPage(messages, total, q), 200);
    },
  );
