// One Durable Object per reservation (idFromName(reservationId)) for GPS tracking: the position
// history in the object's SQLite storage (bounded) and the live feed over hibernating WebSockets.
// Points arrive already validated and authorised by the tracking routes.
import { restoreBookmarks, restoreOnNextSession } from './point-in-time';
import { DurableObject } from 'cloudflare:workers';
import { completeClose, refuseFrame } from './feed-socket';
import { stillOnSide } from '../access/reservation-access';
import { depsOf } from '../env';

/** Who holds a live socket, set by the route after its access check (never by the client). */
export interface TrackingViewer {
  reservationId: number;
  userId?: number;
  side: 'SENDER' | 'CARRIER' | 'ADMIN' | 'RECIPIENT';
}
export const VIEWER_HEADER = 'X-Tracking-Viewer';
/** A party's side is re-checked this often while its socket is open (CONTRACT 25: closed within 60 s). */
export const SIDE_SWEEP_MS = 30 * 1000;
/** The close code of a socket whose holder no longer acts for the reservation. */
export const CLOSE_NO_LONGER_PARTY = 4403;

/** Retention: only the most recent points are kept. */
export const MAX_STORED_POSITIONS = 1000;

export interface PositionInput {
  lat: number;
  lng: number;
  accuracy?: number | null;
  speed?: number | null;
  heading?: number | null;
  recordedAt: string;
}

export interface Position {
  lat: number;
  lng: number;
  accuracy: number | null;
  speed: number | null;
  heading: number | null;
  recordedAt: string;
  receivedAt: string;
}

interface PositionRow extends Record<string, SqlStorageValue> {
  seq: number;
  lat: number;
  lng: number;
  accuracy: number | null;
  speed: number | null;
  heading: number | null;
  recorded_at: string;
  received_at: string;
}

const toPosition = (r: PositionRow): Position => ({
  lat: r.lat,
  lng: r.lng,
  accuracy: r.accuracy,
  speed: r.speed,
  heading: r.heading,
  recordedAt: r.recorded_at,
  receivedAt: r.received_at,
});

export class ReservationTracking extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** The last point by recording time, once read: points are posted every few seconds. */
  private last: Position | null | undefined;
  /** How many points are stored, once counted: the object is their only writer, so a trim runs only when over the limit. */
  private stored: number | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS positions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      lat REAL NOT NULL,
      lng REAL NOT NULL,
      accuracy REAL,
      speed REAL,
      heading REAL,
      recorded_at TEXT NOT NULL,
      received_at TEXT NOT NULL
    )`);
    // The last point by recording time is read on every post and every viewer snapshot.
    this.sql.exec('CREATE INDEX IF NOT EXISTS positions_recorded ON positions (recorded_at, seq)');
    // Keeps sockets open across hibernation without waking the object for keep-alives.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
  }

  /** The bookmarks of a point-in-time restore of this object's storage (point-in-time.ts). */
  storageBookmarks(target: { at: number } | { bookmark: string }) {
    return restoreBookmarks(this.ctx.storage, target);
  }

  /** Restores the storage to `bookmark` on the next session, ending this one (point-in-time.ts). */
  restoreStorage(bookmark: string) {
    return restoreOnNextSession(this.ctx, bookmark);
  }

  /** Stores the points (in recordedAt order), trims the history, pushes each to live sockets. */
  append(points: PositionInput[]): { accepted: number; lastPosition: Position | null } {
    const receivedAt = new Date().toISOString();
    const sorted = [...points].sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
    const stored: Position[] = sorted.map((p) => ({
      lat: p.lat,
      lng: p.lng,
      accuracy: p.accuracy ?? null,
      speed: p.speed ?? null,
      heading: p.heading ?? null,
      recordedAt: p.recordedAt,
      receivedAt,
    }));
    let last = this.lastPosition();
    this.stored ??= this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM positions').one().n;
    for (const p of stored) {
      this.sql.exec(
        `INSERT INTO positions (lat, lng, accuracy, speed, heading, recorded_at, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        p.lat,
        p.lng,
        p.accuracy,
        p.speed,
        p.heading,
        p.recordedAt,
        p.receivedAt,
      );
      // Ties go to the later insert, as ORDER BY recorded_at DESC, seq DESC does.
      if (!last || p.recordedAt >= last.recordedAt) last = p;
    }
    this.stored += stored.length;
    let trimmed = 0;
    if (this.stored > MAX_STORED_POSITIONS) {
      trimmed = this.sql.exec('DELETE FROM positions WHERE seq <= (SELECT MAX(seq) FROM positions) - ?', MAX_STORED_POSITIONS).rowsWritten;
      this.stored = MAX_STORED_POSITIONS;
    }
    // A trim may drop an early-inserted point that was the latest by recording time: read again.
    this.last = trimmed > 0 ? undefined : last;
    for (const ws of this.ctx.getWebSockets()) {
      for (const position of stored) {
        try {
          ws.send(JSON.stringify({ type: 'position', position }));
        } catch {
          // A socket closing concurrently: its close handler cleans up.
        }
      }
    }
    return { accepted: stored.length, lastPosition: this.lastPosition() };
  }

  /** The most recent points, oldest first, and the last one by recording time. */
  history(limit = MAX_STORED_POSITIONS): { lastPosition: Position | null; positions: Position[] } {
    const rows = this.sql
      .exec<PositionRow>('SELECT * FROM positions ORDER BY recorded_at DESC, seq DESC LIMIT ?', limit)
      .toArray()
      .reverse();
    const positions = rows.map(toPosition);
    return { lastPosition: positions.at(-1) ?? null, positions };
  }

  /** The retention job (CONTRACT 24): every stored point deleted, 30 days after the reservation finished. */
  purge(): { deleted: number } {
    const deleted = this.sql.exec('DELETE FROM positions').rowsWritten;
    this.last = null;
    this.stored = 0;
    return { deleted };
  }

  lastPosition(): Position | null {
    if (this.last === undefined) {
      const [row] = this.sql.exec<PositionRow>('SELECT * FROM positions ORDER BY recorded_at DESC, seq DESC LIMIT 1').toArray();
      this.last = row ? toPosition(row) : null;
    }
    return this.last;
  }

  /** WebSocket upgrade, already authorised by the route: accepted with the hibernation API. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
      return new Response('Expected a WebSocket upgrade', { status: 426 });
    }
    const raw = request.headers.get(VIEWER_HEADER);
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server);
    if (raw) server.serializeAttachment(JSON.parse(raw) as TrackingViewer);
    // The client starts from the last known point, then receives every new one.
    server.send(JSON.stringify({ type: 'snapshot', lastPosition: this.lastPosition() }));
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + SIDE_SWEEP_MS);
    return new Response(null, { status: 101, webSocket: client });
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

  /** Closes the sockets of parties who no longer act for the reservation (an agency's staff moved or removed). */
  override async alarm() {
    const sockets = this.ctx.getWebSockets();
    const deps = depsOf(this.env);
    for (const ws of sockets) {
      const viewer = ws.deserializeAttachment() as TrackingViewer | null;
      if (!viewer?.userId || (viewer.side !== 'SENDER' && viewer.side !== 'CARRIER')) continue;
      if (!(await stillOnSide(deps, viewer.userId, viewer.reservationId, viewer.side))) ws.close(CLOSE_NO_LONGER_PARTY, 'No longer a party of this reservation');
    }
    if (this.ctx.getWebSockets().length > 0) await this.ctx.storage.setAlarm(Date.now() + SIDE_SWEEP_MS);
  }
}
