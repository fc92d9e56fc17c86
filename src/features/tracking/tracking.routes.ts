// Tracking routes (CONTRACT section 9): carrier posts positions, parties read the history, parties
// or the recipient open the live WebSocket feed served by the reservation's tracking object.
import { createRoute, z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { createRouter, type AppEnv } from '../../env';
import { invalidArgument } from '../../errors';
import { authErrorResponses, jsonBody, jsonContent, signedIn, socketSecurity } from '../../lib/openapi';
import { authenticate, socketToken } from '../../middleware/auth';
import { pathId, toValidationError } from '../../validation';
import { PositionSchema, PositionsBodyDocumented, PositionsBodySchema } from './tracking.schemas';
import { assertLiveAccess, liveRequest, postPositions, trackingObject, trackingView } from './tracking.service';
import { ReservationStatusSchema } from '../reservations/reservation.schemas';

const tags = ['Tracking'];
const Params = z.object({ reservationId: pathId('reservationId') });

const PostResultSchema = z
  .object({
    reservationId: z.number().int(),
    status: ReservationStatusSchema,
    accepted: z.number().int(),
    lastPosition: PositionSchema.nullable(),
  })
  .openapi('PositionsAccepted');

const TrackingSchema = z
  .object({
    reservationId: z.number().int(),
    status: ReservationStatusSchema,
    lastPosition: PositionSchema.nullable(),
    positions: z.array(PositionSchema),
  })
  .openapi('Tracking');

const LiveQuery = z.object({
  token: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'Recipient token (the recipient has no account); parties use the bearer token instead' }),
});

const isSinglePoint = (raw: unknown) =>
  raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !('positions' in raw);

/**
 * The shared validation hook, with field names as the client sent them: a point sent alone was
 * normalised to a batch of one, so `positions.0.lat` is reported as `lat`.
 */
function rethrowPositionsError(result: { success: boolean; error?: z.ZodError; data?: unknown; target?: string }): void {
  if (result.success || !result.error) return;
  const issues = isSinglePoint(result.data)
    ? result.error.issues.map((issue) => ({ ...issue, path: issue.path.slice(2) }))
    : result.error.issues;
  throw toValidationError(issues, result.data, result.target ?? 'json');
}

/**
 * The recipient authenticates with `?token=`; everyone else with their access token, as the
 * subprotocol `bearer.<accessToken>` (browsers cannot set headers on a socket; the chat socket's
 * rule, CONTRACT section 19) or the usual Authorization header.
 */
const bearerUnlessRecipientToken = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.query('token') !== undefined) return next();
  c.set('auth', await authenticate(c.env, socketToken(c.req.raw).token));
  await next();
});

/** POST positions: mounted hidden, documented with the body shapes a client may send (PositionsBodyDocumented). */
const postPositionsRoute = createRoute({
  method: 'post',
  operationId: 'postTrackingPositions',
  path: '/tracking/{reservationId}/positions',
  tags,
  summary: 'Post one position or a batch (carrier; reservation DEPOSITED or IN_TRANSIT)',
  description:
    'Body: one point, or `{positions: [...]}` with 1 to 100 points. lat in [-90, 90], lng in [-180, 180], ' +
    'accuracy >= 0, speed 0-350 m/s, heading in [0, 360), recordedAt not in the future (60 s skew) nor older ' +
    'than 24 h. The first point moves a DEPOSITED reservation to IN_TRANSIT. Other statuses: 409 INVALID_STATE.',
  ...signedIn(),
  request: { params: Params, body: jsonBody(PositionsBodySchema) },
  responses: { 201: jsonContent(PostResultSchema, 'Points stored and pushed to live viewers'), ...authErrorResponses(404, 409) },
});

const router = createRouter();
const { middleware: _middleware, ...documentedPost } = postPositionsRoute;
router.openAPIRegistry.registerPath({ ...documentedPost, request: { ...postPositionsRoute.request, body: jsonBody(PositionsBodyDocumented) } });

export const trackingRouter = router
  .openapi(
    { ...postPositionsRoute, hide: true },
    async (c) => {
      const { positions } = c.req.valid('json');
      const field = isSinglePoint(await c.req.json()) ? () => 'recordedAt' : (i: number) => `positions[${i}].recordedAt`;
      const result = await postPositions(c.get('deps'), c.get('auth'), c.req.valid('param').reservationId, positions, field);
      return c.json(result, 201);
    },
    (result) => {
      rethrowPositionsError(result as Parameters<typeof rethrowPositionsError>[0]);
      return undefined;
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'getTrackingHistory',
      path: '/tracking/{reservationId}',
      tags,
      summary: 'Tracking history (sender, carrier, admins)',
      description: 'The reservation\'s status, the carrier\'s last reported position (null before the first) and the kept history, oldest first, as the carrier side posted them with POST /tracking/{reservationId}/positions; the latest 1000 points are kept, and all are deleted 30 days after the reservation finishes. For live updates open GET /tracking/{reservationId}/live. The reservation\'s sender, its carrier side and admins; anyone else gets 403 ACCESS_DENIED, an unknown reservation 404.',
      ...signedIn(),
      request: { params: Params },
      responses: { 200: jsonContent(TrackingSchema, 'Last position and the kept history, oldest first'), ...authErrorResponses(404) },
    }),
    async (c) => c.json(await trackingView(c.get('deps'), c.get('auth'), c.req.valid('param').reservationId), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      operationId: 'openLiveTracking',
      path: '/tracking/{reservationId}/live',
      tags,
      summary: 'Live positions over WebSocket (parties with bearer token, or the recipient with ?token=)',
      description:
        'Send `Upgrade: websocket`; a party sends the access token as the subprotocol `Sec-WebSocket-Protocol: ' +
        'bearer.<accessToken>` (browsers cannot set headers; the server selects another offered subprotocol if any, ' +
        'else that one) or the Authorization header. The server first sends `{"type":"snapshot","lastPosition":...}`, then ' +
        '`{"type":"position","position":{...}}` for every new point. Text "ping" is answered "pong"; any other frame ' +
        'is answered `{"type":"error","errorCode":"INVALID_ARGUMENT","message":...}` (the feed is read-only). ' +
        'Without the upgrade header: 400 INVALID_ARGUMENT (CONTRACT section 2 has no 426).',
      security: [...socketSecurity, {}],
      middleware: [bearerUnlessRecipientToken] as const,
      request: { params: Params, query: LiveQuery },
      responses: {
        101: { description: 'Switching protocols: the live feed' },
        ...authErrorResponses(404),
      },
    }),
    async (c) => {
      const id = c.req.valid('param').reservationId;
      const { token } = c.req.valid('query');
      const viewer = await assertLiveAccess(c.get('deps'), id, token !== undefined ? { recipientToken: token } : { auth: c.get('auth') });
      if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') {
        throw invalidArgument('conversation.endpointNeedsWebSocketUpgrade', {
          headers: { Upgrade: 'websocket' },
          suggestions: ['tracking.openWebSocketClient'],
        });
      }
      const res = await trackingObject(c.env, id).fetch(liveRequest(c.req.raw, viewer));
      // The handshake names the subprotocol it selected, as the chat socket does, or browsers drop the socket.
      const { protocol } = socketToken(c.req.raw);
      if (res.status !== 101 || !protocol || !res.webSocket) return res;
      return new Response(null, { status: 101, webSocket: res.webSocket, headers: { 'Sec-WebSocket-Protocol': protocol } });
    },
  );
