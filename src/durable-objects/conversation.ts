// One Durable Object per reservation's conversation (idFromName(reservationId)): the messages in the
// object's SQLite storage (the source of truth, docs/decisions-conversations.md), read receipts, and
// the live feed over hibernating WebSockets. Callers arrive authorised by the conversation routes.
import { restoreBookmarks, restoreOnNextSession } from './point-in-time';
import { DurableObject } from 'cloudflare:workers';
import type { IndexedMessage } from '../db/schema/conversations';
import { isTokenRevoked } from '../lib/token-revocation';
import { stillOnSide, type Side } from '../access/reservation-access';
import { depsOf } from '../env';

export type { Side };

/** A message as the API shows it; the D1 index keeps a copy of the last one. */
export type ConversationMessage = IndexedMessage;

export interface NewMessage {
  reservationId: number;
  authorId: number;
  authorName: string;
  side: Side;
  body: string;
  fileIds: number[];
  /** The other side's users (the sender; or the carrier and an agency trip's staff), told by a notification when they have no open socket. */
  counterpartIds: number[];
}

/** What the D1 index of conversations holds, as of `version` (bumped on every change). */
export interface ConversationState {
  version: number;
  lastMessage: ConversationMessage | null;
  unread: Record<Side, number>;
}

export interface MessageQuery {
  reservationId: number;
  afterId?: number;
  beforeId?: number;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Who is on a socket, kept as its attachment across hibernation; enough to re-check the token. */
export interface SocketSession {
  userId: number;
  /** The reservation: its side is re-checked while the socket is open (CONTRACT 25). */
  reservationId?: number;
  side: Side;
  jti: string;
  iat: number;
  /** Access-token expiry (seconds): the socket closes then. */
  exp: number;
  /** The subprotocol the server selects in the handshake, if the client offered any. */
  protocol?: string;
  afterId?: number;
}

export const SESSION_HEADER = 'X-Conversation-Session';
/** A party with no open socket gets at most one NEW_MESSAGE notification per conversation per 10 minutes. */
export const NOTIFY_EVERY_MS = 10 * 60 * 1000;
/**
 * Open sockets have their token's revocation and their side re-checked this often (a logout, or a
 * staff member moved or removed from the agency, closes them within 60 s: CONTRACT 25).
 */
export const REVOCATION_SWEEP_MS = 30 * 1000;
/** Messages replayed on connect after `afterId`; older gaps are read over REST. */
export const MAX_REPLAY = 500;

/** Close codes of the live feed (application range 4000-4999). */
export const CLOSE = {
  /** No longer sent: a frame that is not accepted gets an error frame (CONTRACT section 19); kept for clients that know it. */
  MALFORMED_FRAME: 4400,
  TOKEN_EXPIRED: 4401,
  /** The token was revoked, or its holder no longer acts for the reservation. */
  TOKEN_REVOKED: 4403,
} as const;

interface MessageRow extends Record<string, SqlStorageValue> {
  id: number;
  author_id: number;
  author_name: string;
  author_side: string;
  body: string;
  file_ids: string;
  created_at: string;
}

const toMessage = (reservationId: number, r: MessageRow): ConversationMessage => ({
  id: r.id,
  reservationId,
  authorId: r.author_id,
  authorName: r.author_name,
  body: r.body,
  fileIds: JSON.parse(r.file_ids) as number[],
  createdAt: r.created_at,
});

const userTag = (userId: number) => `user:${userId}`;
const unreadKey = (side: Side) => `unread:${side}`;

export class Conversation extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      author_id INTEGER NOT NULL,
      author_name TEXT NOT NULL,
      author_side TEXT NOT NULL,
      body TEXT NOT NULL,
      file_ids TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`);
    // One read pointer per side (an agency's staff share the carrier's).
    this.sql.exec('CREATE TABLE IF NOT EXISTS reads (side TEXT PRIMARY KEY, user_id INTEGER NOT NULL, last_read_id INTEGER NOT NULL, read_at TEXT NOT NULL)');
    this.sql.exec('CREATE TABLE IF NOT EXISTS notices (user_id INTEGER PRIMARY KEY, at INTEGER NOT NULL)');
    this.sql.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)');
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

  /** Stores the message, pushes it to every open socket, and says which counterparts to notify. */
  post(input: NewMessage): { message: ConversationMessage; state: ConversationState; notify: number[] } {
    const now = Date.now();
    const createdAt = new Date(now).toISOString();
    // Only the id comes back: every other column is what was just written.
    const { id } = this.sql
      .exec<{ id: number }>(
        'INSERT INTO messages (author_id, author_name, author_side, body, file_ids, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
        input.authorId,
        input.authorName,
        input.side,
        input.body,
        JSON.stringify(input.fileIds),
        createdAt,
      )
      .one();
    const message: ConversationMessage = {
      id,
      reservationId: input.reservationId,
      authorId: input.authorId,
      authorName: input.authorName,
      body: input.body,
      fileIds: [...input.fileIds],
      createdAt,
    };
    // One more unread for the other side, and a new version of the conversation.
    this.bump(input.side === 'SENDER' ? 'CARRIER' : 'SENDER');
    const state = this.counters(message);
    this.broadcast({ type: 'message', message });
    return { message, state, notify: input.counterpartIds.filter((userId) => this.claimNotice(userId, now)) };
  }

  /** A page of messages, by id in the order asked, with the total matching the filters. */
  messages(q: MessageQuery): { messages: ConversationMessage[]; total: number } {
    const where = 'WHERE id > ? AND id < ?';
    const bounds = [q.afterId ?? 0, q.beforeId ?? Number.MAX_SAFE_INTEGER];
    const total = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM messages ${where}`, ...bounds).one().n;
    const rows = this.sql
      .exec<MessageRow>(`SELECT * FROM messages ${where} ORDER BY id ${q.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`, ...bounds, q.limit, q.offset)
      .toArray();
    return { messages: rows.map((r) => toMessage(q.reservationId, r)), total };
  }

  /**
   * Personal data (CONTRACT 24): empties the bodies and attachments of one author's messages (an
   * account deleted: their name too, `authorName` ''), or of all (the retention job); the rows stay
   * so the thread keeps its shape.
   */
  eraseBodies(authorId: number | null): { erased: number } {
    const erased = authorId === null
      ? this.sql.exec("UPDATE messages SET body = '', file_ids = '[]' WHERE body <> '' OR file_ids <> '[]'").rowsWritten
      : this.sql.exec("UPDATE messages SET body = '', file_ids = '[]', author_name = '' WHERE author_id = ? AND (body <> '' OR file_ids <> '[]' OR author_name <> '')", authorId).rowsWritten;
    return { erased };
  }

  /** Marks everything so far read for the caller's side and tells the open sockets. */
  markRead(reservationId: number, userId: number, side: Side): { readAt: string; state: ConversationState } {
    const readAt = new Date().toISOString();
    this.sql.exec(
      `INSERT INTO reads (side, user_id, last_read_id, read_at) VALUES (?, ?, (SELECT COALESCE(MAX(id), 0) FROM messages), ?)
       ON CONFLICT (side) DO UPDATE SET user_id = excluded.user_id, last_read_id = excluded.last_read_id, read_at = excluded.read_at`,
      side,
      userId,
      readAt,
    );
    this.sql.exec('UPDATE meta SET value = 0 WHERE key = ?', unreadKey(side));
    // As the statement: only a counter that exists is reset.
    const meta = this.meta();
    if (meta.has(unreadKey(side))) meta.set(unreadKey(side), 0);
    this.bump(null);
    this.broadcast({ type: 'read', userId, readAt });
    return { readAt, state: this.state(reservationId) };
  }

  state(reservationId: number): ConversationState {
    const [last] = this.sql.exec<MessageRow>('SELECT * FROM messages ORDER BY id DESC LIMIT 1').toArray();
    return this.counters(last ? toMessage(reservationId, last) : null);
  }

  /** Whether this user has a socket open here now. */
  isOnline(userId: number): boolean {
    return this.ctx.getWebSockets(userTag(userId)).length > 0;
  }

  /**
   * The meta counters (version, unread per side), read from storage once per object instance: the
   * object is their only writer and runs one event at a time, so the copy stays exact. Each post
   * then costs one write here instead of a write and a read.
   */
  private metaCache: Map<string, number> | null = null;
  private meta(): Map<string, number> {
    this.metaCache ??= new Map(this.sql.exec<{ key: string; value: number }>('SELECT key, value FROM meta').toArray().map((r) => [r.key, r.value]));
    return this.metaCache;
  }

  /** Bumps the version, and one side's unread count: counters, so a post costs the same however long the conversation. */
  private bump(unreadSide: Side | null) {
    const meta = this.meta();
    this.sql.exec(
      `INSERT INTO meta (key, value) VALUES ('version', 1)${unreadSide ? ', (?, 1)' : ''} ON CONFLICT (key) DO UPDATE SET value = value + 1`,
      ...(unreadSide ? [unreadKey(unreadSide)] : []),
    );
    meta.set('version', (meta.get('version') ?? 0) + 1);
    if (unreadSide) meta.set(unreadKey(unreadSide), (meta.get(unreadKey(unreadSide)) ?? 0) + 1);
  }

  private counters(lastMessage: ConversationMessage | null): ConversationState {
    const meta = this.meta();
    return {
      version: meta.get('version') ?? 0,
      lastMessage,
      unread: { SENDER: meta.get(unreadKey('SENDER')) ?? 0, CARRIER: meta.get(unreadKey('CARRIER')) ?? 0 },
    };
  }

  /**
   * When each user was last told (ms), as far as this instance knows: a user told within the
   * window is answered from memory, without a statement. Storage stays the record (and decides
   * after a restart, when the map starts empty).
   */
  private readonly noticed = new Map<number, number>();

  /** True when the user has no socket open and was not told in the last 10 minutes (and records it). */
  private claimNotice(userId: number, now: number): boolean {
    const last = this.noticed.get(userId);
    if (last !== undefined && last > now - NOTIFY_EVERY_MS) return false;
    if (this.isOnline(userId)) return false;
    const changed = this.sql.exec(
      'INSERT INTO notices (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET at = excluded.at WHERE notices.at <= ?',
      userId,
      now,
      now - NOTIFY_EVERY_MS,
    ).rowsWritten;
    if (changed > 0) this.noticed.set(userId, now);
    return changed > 0;
  }

  /** Sends to every open socket whose token is still valid; an expired one is closed instead. */
  private broadcast(frame: unknown) {
    const text = JSON.stringify(frame);
    const now = Date.now();
    for (const ws of this.ctx.getWebSockets()) {
      const session = ws.deserializeAttachment() as SocketSession | null;
      if (session && session.exp * 1000 <= now) {
        ws.close(CLOSE.TOKEN_EXPIRED, 'Access token expired');
        continue;
      }
      try {
        ws.send(text);
      } catch {
        // A socket closing concurrently: its close handler cleans up.
      }
    }
  }

  /** WebSocket upgrade, already authorised by the route (the session header): accepted with hibernation. */
  override async fetch(request: Request): Promise<Response> {
    const raw = request.headers.get(SESSION_HEADER);
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket' || !raw) {
      return new Response('Expected an authorised WebSocket upgrade', { status: 426 });
    }
    const session = JSON.parse(raw) as SocketSession & { reservationId: number };
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server, [userTag(session.userId)]);
    const { afterId, ...kept } = session;
    server.serializeAttachment(kept satisfies SocketSession);
    // Catch-up: what the client missed since the last id it saw, in order, before any new message
    // (the object runs one event at a time, so nothing posted meanwhile is lost or sent twice).
    if (afterId !== undefined) {
      const { messages } = this.messages({ reservationId: session.reservationId, afterId, order: 'asc', limit: MAX_REPLAY, offset: 0 });
      for (const message of messages) server.send(JSON.stringify({ type: 'message', message }));
    }
    await this.scheduleSweep(session.exp * 1000);
    const headers = session.protocol ? { 'Sec-WebSocket-Protocol': session.protocol } : undefined;
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    // The feed is one-way (messages and read receipts go over REST); "ping" is answered without
    // waking the object. Anything else is answered with an error frame saying why it was not taken
    // (CONTRACT section 19: never dropped in silence, never a bare close); the socket stays open.
    if (message === 'ping') return;
    const what = typeof message === 'string' ? 'a text frame other than "ping"' : 'a binary frame';
    const hint = typeof message === 'string' && message.trimStart().startsWith('{') ? '; send messages with POST /bookings/{id}/messages' : '';
    ws.send(JSON.stringify({ type: 'error', errorCode: 'INVALID_ARGUMENT', message: `Frame not accepted: ${what}; this feed accepts only "ping"${hint}` }));
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string) {
    // 1005/1006 are reserved (no status / abnormal): closing with them throws.
    if (code !== 1005 && code !== 1006) ws.close(code, reason);
  }

  override async webSocketError(ws: WebSocket) {
    ws.close(1011, 'WebSocket error');
  }

  /**
   * Closes the sockets whose token expired or was revoked (logout), or whose holder no longer acts
   * for the reservation (an agency's staff moved or removed), then plans the next sweep.
   */
  override async alarm() {
    const now = Date.now();
    let next = Infinity;
    const deps = depsOf(this.env);
    for (const ws of this.ctx.getWebSockets()) {
      const session = ws.deserializeAttachment() as SocketSession | null;
      if (!session) continue;
      if (session.exp * 1000 <= now) {
        ws.close(CLOSE.TOKEN_EXPIRED, 'Access token expired');
        continue;
      }
      if (await isTokenRevoked(this.env.KV, { jti: session.jti, sub: String(session.userId), iat: session.iat })) {
        ws.close(CLOSE.TOKEN_REVOKED, 'Access token revoked');
        continue;
      }
      if (session.reservationId !== undefined && !(await stillOnSide(deps, session.userId, session.reservationId, session.side))) {
        ws.close(CLOSE.TOKEN_REVOKED, 'No longer a party of this reservation');
        continue;
      }
      next = Math.min(next, session.exp * 1000);
    }
    if (next !== Infinity) await this.ctx.storage.setAlarm(Math.min(next, now + REVOCATION_SWEEP_MS));
  }

  private async scheduleSweep(expiresAt: number) {
    const at = Math.min(expiresAt, Date.now() + REVOCATION_SWEEP_MS);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }
}
