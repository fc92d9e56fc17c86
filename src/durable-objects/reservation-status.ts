// One Durable Object per reservation (idFromName(reservationId)) holding the sockets of its status
// feed (CONTRACT 28, docs/decisions-sdk.md): a frame each time the reservation's status or payment
// status changes, the first one the current state. The object keeps no copy of the reservation: D1
// is the truth, read when a unit of work that changed it ends (refresh(), status-feed.ts) and on
// every sweep, so a frame can never say what D1 does not. Hibernating WebSockets; "ping" is
// answered "pong" without waking the object. Callers arrive authorised by the feed's route.
import { DurableObject } from 'cloudflare:workers';
import { completeClose, refuseFrame } from './feed-socket';
import { eq } from 'drizzle-orm';
import { stillOnSide, type Side } from '../access/reservation-access';
import { isTokenRevoked } from '../lib/token-revocation';
import { depsOf } from '../env';
import { PAYMENT_STATUS, reservations, type PaymentStatusValue, type ReservationStatus } from '../db/schema/reservations';

/** A frame of the feed (documented as ReservationStatusFrame, status-feed.routes.ts). */
export interface StatusFrame {
  type: 'status';
  reservationId: number;
  status: ReservationStatus;
  paymentStatus: PaymentStatusValue | null;
  updatedAt: string;
  /** Nothing will change any more: the server closes the socket (1000) after this frame. */
  closed: boolean;
}

/** Statuses no transition leaves (reservation-state.ts TRANSITIONS). */
export const CLOSED_STATUSES: readonly ReservationStatus[] = ['REJECTED', 'CANCELLED', 'EXPIRED', 'REFUNDED'];

/** Payment statuses the provider still moves: an open checkout, or a void, capture or refund to settle. */
const MOVING_PAYMENT: readonly string[] = [PAYMENT_STATUS.PENDING, PAYMENT_STATUS.VOID_PENDING, PAYMENT_STATUS.PARTIAL_CAPTURE_PENDING, PAYMENT_STATUS.REFUND_PENDING];

/** A reservation is closed once its status is final and its money settled with the provider. */
export const isClosed = (r: { status: ReservationStatus; paymentStatus: string | null }): boolean =>
  CLOSED_STATUSES.includes(r.status) && !MOVING_PAYMENT.includes(r.paymentStatus ?? '');

/** The frame, keys always in this order (stable JSON). */
export const statusFrame = (r: { id: number; status: ReservationStatus; paymentStatus: string | null; updatedAt: string }): StatusFrame => ({
  type: 'status',
  reservationId: r.id,
  status: r.status,
  paymentStatus: r.paymentStatus as PaymentStatusValue | null,
  updatedAt: r.updatedAt,
  closed: isClosed(r),
});

/** Who holds a socket, set by the route after its access check (never by the client); kept across hibernation. */
export interface StatusViewer {
  reservationId: number;
  userId: number;
  side: Side | 'ADMIN';
  jti: string;
  iat: number;
  /** Access-token expiry (seconds): the socket closes then (4401). */
  exp: number;
  /** The subprotocol the handshake selects, if the client offered one. */
  protocol?: string;
}

/** A socket's attachment: its viewer and the state it was last sent (status|paymentStatus). */
interface Attachment extends StatusViewer {
  sent?: string;
}

export const STATUS_VIEWER_HEADER = 'X-Status-Viewer';
/** Open sockets have their token, their side and the reservation re-read this often. */
export const STATUS_SWEEP_MS = 30 * 1000;
/** Close codes: the chat's (conversation.ts), and 1000 once the reservation is closed (its last frame said so). */
export const STATUS_CLOSE = { CLOSED: 1000, TOKEN_EXPIRED: 4401, TOKEN_REVOKED: 4403, NOT_FOUND: 4404 } as const;

const stateKey = (f: Pick<StatusFrame, 'status' | 'paymentStatus'>) => `${f.status}|${f.paymentStatus ?? ''}`;

export class ReservationStatusFeed extends DurableObject<Env> {
  /** The read in flight, and whether another was asked meanwhile: reads run one at a time, in order. */
  private reading: Promise<void> | null = null;
  private again = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
  }

  /**
   * Reads the reservation from D1 and sends its state to every socket that was not sent it yet.
   * Called when a unit of work that changed it ends; does nothing (no read) while no one watches.
   * Reads never overlap: one asked during another runs after it, so the last frame is the latest state.
   */
  refresh(reservationId: number): Promise<void> {
    if (this.ctx.getWebSockets().length === 0) return Promise.resolve();
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        await this.push(reservationId);
      } while (this.again);
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async push(reservationId: number): Promise<void> {
    const [row] = await depsOf(this.env)
      .db.select({ id: reservations.id, status: reservations.status, paymentStatus: reservations.paymentStatus, updatedAt: reservations.updatedAt })
      .from(reservations)
      .where(eq(reservations.id, reservationId));
    const now = Date.now();
    for (const ws of this.ctx.getWebSockets()) {
      if (!row) {
        ws.close(STATUS_CLOSE.NOT_FOUND, 'Reservation not found');
        continue;
      }
      const viewer = ws.deserializeAttachment() as Attachment | null;
      if (!viewer) continue;
      if (viewer.exp * 1000 <= now) {
        ws.close(STATUS_CLOSE.TOKEN_EXPIRED, 'Access token expired');
        continue;
      }
      const frame = statusFrame(row);
      if (viewer.sent === stateKey(frame)) continue;
      try {
        ws.send(JSON.stringify(frame));
        ws.serializeAttachment({ ...viewer, sent: stateKey(frame) } satisfies Attachment);
        // Nothing more will change: the last frame said so (closed: true), the socket ends cleanly.
        if (frame.closed) ws.close(STATUS_CLOSE.CLOSED, 'Reservation closed');
      } catch {
        // A socket closing concurrently: its close handler cleans up.
      }
    }
  }

  /** WebSocket upgrade, already authorised by the route: accepted with hibernation, then sent the current state. */
  override async fetch(request: Request): Promise<Response> {
    const raw = request.headers.get(STATUS_VIEWER_HEADER);
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket' || !raw) {
      return new Response('Expected an authorised WebSocket upgrade', { status: 426 });
    }
    const viewer = JSON.parse(raw) as StatusViewer;
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(viewer satisfies Attachment);
    // The first frame is the state read now, after the socket joined: a change committed meanwhile
    // either is in that read or refreshes again after it (refresh() runs reads in order).
    await this.refresh(viewer.reservationId);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null) await this.ctx.storage.setAlarm(Math.min(Date.now() + STATUS_SWEEP_MS, viewer.exp * 1000));
    const headers = viewer.protocol ? { 'Sec-WebSocket-Protocol': viewer.protocol } : undefined;
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    refuseFrame(ws, message);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string) {
    completeClose(ws, code, reason);
  }

  override async webSocketError(ws: WebSocket) {
    ws.close(1011, 'WebSocket error');
  }

  /**
   * Every 30 s while sockets are open: closes those whose token expired or was revoked, or whose
   * holder no longer acts for the reservation (CONTRACT 25), then reads the reservation again (a
   * change made where no unit of work publishes still arrives within the sweep).
   */
  override async alarm() {
    const now = Date.now();
    const deps = depsOf(this.env);
    let reservationId: number | null = null;
    for (const ws of this.ctx.getWebSockets()) {
      const viewer = ws.deserializeAttachment() as Attachment | null;
      if (!viewer) continue;
      if (viewer.exp * 1000 <= now) ws.close(STATUS_CLOSE.TOKEN_EXPIRED, 'Access token expired');
      else if (await isTokenRevoked(this.env.KV, { jti: viewer.jti, sub: String(viewer.userId), iat: viewer.iat })) ws.close(STATUS_CLOSE.TOKEN_REVOKED, 'Access token revoked');
      else if (!(await stillOnSide(deps, viewer.userId, viewer.reservationId, viewer.side))) ws.close(STATUS_CLOSE.TOKEN_REVOKED, 'No longer a party of this reservation');
      else reservationId = viewer.reservationId;
    }
    if (reservationId === null) return;
    await this.refresh(reservationId);
    const open = this.ctx.getWebSockets().map((ws) => (ws.deserializeAttachment() as Attachment | null)?.exp ?? 0);
    if (open.length > 0) await this.ctx.storage.setAlarm(Math.min(now + STATUS_SWEEP_MS, Math.min(...open) * 1000));
  }
}
