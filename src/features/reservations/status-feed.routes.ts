// GET /bookings/{id}/status/live (CONTRACT 28): the reservation's status feed, a WebSocket held by
// the reservation's status object (durable-objects/reservation-status.ts); published by status-feed.ts.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../env';
import type { AuthUser, Deps } from '../../env';
import { invalidArgument } from '../../errors';
import { assertCanRead, sideOf } from '../../access/reservation-access';
import { STATUS_VIEWER_HEADER, type StatusViewer } from '../../durable-objects/reservation-status';
import { authErrorResponses, socketSecurity } from '../../lib/openapi';
import { IdParams } from '../../validation';
import { requireSocketAuth, socketToken } from '../../middleware/auth';
import { loadReservation } from './lifecycle';
import { ProviderPaymentStatusSchema, ReservationStatusSchema } from './reservation.schemas';
import { statusFeedObject } from './status-feed';

/** One frame of the feed (status-frame.ts), documented so generated clients get its unions. */
export const StatusFrameSchema = z
  .object({
    type: z.enum(['status']),
    reservationId: z.number().int(),
    status: ReservationStatusSchema,
    paymentStatus: ProviderPaymentStatusSchema.nullable(),
    updatedAt: z.string().openapi({ format: 'date-time' }),
    closed: z.boolean().openapi({
      description: 'True once the status is final (REJECTED, CANCELLED, EXPIRED, REFUNDED) and the provider has nothing left to settle: the server then closes the socket with 1000',
    }),
  })
  .openapi('ReservationStatusFrame', { description: "A frame of GET /bookings/{id}/status/live: the reservation's state after a change of its status or payment status" });

/**
 * Whoever may read the reservation (assertCanRead: its sender, its carrier side, admins) opens a
 * socket held by the reservation's status object.
 */
async function openStatusFeed(deps: Deps, auth: AuthUser, id: number, request: Request, protocol: string | undefined): Promise<Response> {
  const r = await loadReservation(deps.db, id);
  await assertCanRead(deps, auth, r);
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
    throw invalidArgument('conversation.endpointNeedsWebSocketUpgrade', {
      headers: { Upgrade: 'websocket' },
      suggestions: ['tracking.openWebSocketClient'],
    });
  }
  const side = (await sideOf(deps, auth, r)) ?? 'ADMIN';
  const viewer: StatusViewer = { reservationId: id, userId: auth.id, side, jti: auth.jti, iat: auth.iat ?? 0, exp: auth.exp, protocol };
  // A fresh request: the viewer header is the worker's, never the client's.
  const headers = new Headers(request.headers);
  headers.set(STATUS_VIEWER_HEADER, JSON.stringify(viewer));
  return statusFeedObject(deps.env, id).fetch(new Request(request.url, { headers }));
}

export const statusFeedRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    operationId: 'openReservationStatusLive',
    path: '/bookings/{id}/status/live',
    tags: ['Reservations'],
    summary: "A reservation's status and payment status over WebSocket (sender, carrier side, admins)",
    description:
      'Wait for a payment (or any status change) without polling GET /payments/{reservationId}/status. Send `Upgrade: websocket` ' +
      'with the access token as the subprotocol `Sec-WebSocket-Protocol: bearer.<accessToken>` (browsers cannot set headers; the ' +
      'server selects another offered subprotocol if any, else that one) or the Authorization header. The first frame is the ' +
      'current state, then one frame each time `status` or `paymentStatus` changes: ' +
      '`{"type":"status","reservationId":...,"status":...,"paymentStatus":...,"updatedAt":...,"closed":false}` (ReservationStatusFrame). ' +
      'Once `closed` is true nothing changes any more and the server closes the socket with 1000. Text "ping" is answered "pong"; ' +
      'any other frame is answered `{"type":"error","errorCode":"INVALID_ARGUMENT","message":...}`. The socket closes with 4401 when ' +
      'the token expires and 4403 once it is revoked or its holder no longer acts for the reservation. Who may read the reservation ' +
      'may open it (its sender, its carrier side, admins); anyone else 403 ACCESS_DENIED, an unknown reservation 404. Without the ' +
      'upgrade header: 400 INVALID_ARGUMENT.',
    security: socketSecurity,
    middleware: [requireSocketAuth] as const,
    request: { params: IdParams },
    responses: {
      101: { description: 'Switching protocols: the status feed, whose frames are ReservationStatusFrame', content: { 'application/json': { schema: StatusFrameSchema } } },
      ...authErrorResponses(404),
    },
  }),
  async (c) => {
    const { protocol } = socketToken(c.req.raw);
    // The 101's content documents the frames the socket carries, not a body this handler returns.
    return (await openStatusFeed(c.get('deps'), c.get('auth'), c.req.valid('param').id, c.req.raw, protocol)) as never;
  },
);
