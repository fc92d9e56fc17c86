// The live sockets (chat, tracking, a reservation's status): the access token as the subprotocol
// `bearer.<token>` (browsers and React Native cannot set headers on a WebSocket), reconnection with
// backoff, heartbeats, and resumption: the chat socket reconnects with `afterId=<last message id
// seen>` and the server replays what was missed; the tracking socket's first frame is a snapshot of
// the last position.
import { backoffDelay, type RetryPolicy, type SetTimer } from './backoff.js';
import type { Session } from './session.js';

/** What the SDK needs of a WebSocket: the standard one (browsers, React Native, Node 22) fits. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: any) => void): void;
}
export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike;

/** `failed`: the socket cannot be opened at all (no WebSocket in this runtime); `closed`: ended (close(), revoked, signed out). */
export type SocketState = 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

export interface SocketStateDetail {
  code?: number;
  attempt?: number;
  /** Why the socket failed (`failed`). */
  error?: Error;
}

/** Close codes the server uses (src/durable-objects/conversation.ts). */
export const CLOSE_TOKEN_EXPIRED = 4401;
export const CLOSE_TOKEN_REVOKED = 4403;
/** The code the SDK closes a silent socket with before reopening it. */
export const CLOSE_SILENT = 4408;

/** A ping every 15 s; 45 s without any frame (a pong included) means the link is dead. */
export const DEFAULT_HEARTBEAT = { pingEveryMs: 15_000, silenceMs: 45_000 };
export type HeartbeatPolicy = typeof DEFAULT_HEARTBEAT;

/** The global WebSocket, or a clear error where the runtime has none (Node before 22). */
export const globalWebSocket: WebSocketFactory = (url, protocols) => {
  const WS = (globalThis as { WebSocket?: new (url: string, protocols: string[]) => WebSocketLike }).WebSocket;
  if (typeof WS !== 'function') {
    throw new Error('This runtime has no global WebSocket (Node 22 or later, a browser or React Native has one): pass `webSocket` to createMarketplaceClient');
  }
  return new WS(url, protocols);
};

export interface LiveSocketOptions {
  /** The URL of the next connection (it may carry a resumption cursor). */
  url: () => string;
  session: Session;
  factory: WebSocketFactory;
  onFrame: (frame: unknown) => void;
  onState?: (state: SocketState, detail?: SocketStateDetail) => void;
  retry: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  heartbeat?: HeartbeatPolicy;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  setTimer: SetTimer;
  random: () => number;
}

/** A socket that stays open: reconnects after every close it did not ask for, and after 45 s of silence, until close(). */
export class LiveSocket {
  private socket: WebSocketLike | null = null;
  private stopped = false;
  private failure: Error | null = null;
  private failures = 0;
  private token: string | null = null;
  private lastHeard = 0;
  private cancelWatch = () => {};
  private cancelPing = () => {};
  /** Connections opened so far (1 + reconnections). */
  connections = 0;

  constructor(private readonly options: LiveSocketOptions) {
    void this.connect();
  }

  get state(): SocketState {
    if (this.failure) return 'failed';
    if (this.stopped) return 'closed';
    return this.socket?.readyState === 1 ? 'open' : this.connections ? 'reconnecting' : 'connecting';
  }

  /** Closes for good (no reconnection). */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopTimers();
    this.socket?.close(1000, 'closed by the client');
    this.options.onState?.('closed');
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.token = await this.options.session.accessToken().catch(() => null);
    if (this.stopped) return;
    if (!this.token) return this.stop();
    let socket: WebSocketLike;
    try {
      socket = this.options.factory(this.options.url(), [`bearer.${this.token}`]);
    } catch (error) {
      // No WebSocket at all: retrying cannot help; say so instead of staying `connecting`.
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.stopped = true;
      this.options.onState?.('failed', { error: this.failure });
      return;
    }
    this.socket = socket;
    this.heard();
    this.watch(socket);
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.failures = 0;
      this.connections += 1;
      this.heard();
      this.ping(socket);
      this.options.onState?.('open');
    });
    socket.addEventListener('message', (event) => {
      if (socket !== this.socket) return;
      this.heard();
      this.frame(event.data);
    });
    socket.addEventListener('close', (event) => void this.closed(socket, event.code));
  }

  /** Any frame (a pong included) proves the link alive. */
  private heard(): void {
    this.lastHeard = this.options.now();
  }

  /** The watchdog of one socket: fires 45 s after the last frame heard (or the attempt to connect). */
  private watch(socket: WebSocketLike): void {
    const { silenceMs } = this.options.heartbeat ?? DEFAULT_HEARTBEAT;
    this.cancelWatch = this.options.setTimer(() => {
      if (socket !== this.socket || this.stopped) return;
      if (this.options.now() - this.lastHeard >= silenceMs) return void this.silent(socket);
      this.watch(socket);
    }, Math.max(1, this.lastHeard + silenceMs - this.options.now()));
  }

  /** Sends "ping" every 15 s while the socket is open (the server answers "pong" without waking). */
  private ping(socket: WebSocketLike): void {
    const { pingEveryMs } = this.options.heartbeat ?? DEFAULT_HEARTBEAT;
    this.cancelPing = this.options.setTimer(() => {
      if (socket !== this.socket || this.stopped || socket.readyState !== 1) return;
      try {
        socket.send('ping');
      } catch {
        // Closing: the close event reconnects.
      }
      this.ping(socket);
    }, pingEveryMs);
  }

  private stopTimers(): void {
    this.cancelWatch();
    this.cancelPing();
  }

  /** Silent too long: a dead link may never deliver a close, so the SDK drops the socket itself and reopens. */
  private async silent(socket: WebSocketLike): Promise<void> {
    this.socket = null;
    this.stopTimers();
    try {
      socket.close(CLOSE_SILENT, `no frame for ${Math.round((this.options.heartbeat ?? DEFAULT_HEARTBEAT).silenceMs / 1000)} s`);
    } catch {
      // Already closed.
    }
    await this.reconnect(CLOSE_SILENT);
  }

  private frame(data: unknown): void {
    if (typeof data !== 'string' || data === 'pong') return;
    try {
      this.options.onFrame(JSON.parse(data));
    } catch {
      // Not JSON: nothing the SDK knows.
    }
  }

  private async closed(socket: WebSocketLike, code: number): Promise<void> {
    if (socket !== this.socket || this.stopped) return;
    this.socket = null;
    this.stopTimers();
    if (code === CLOSE_TOKEN_REVOKED) return this.stop(code);
    if (code === CLOSE_TOKEN_EXPIRED && this.token) {
      // The server closes at the token's expiry: a new token, then straight back.
      const fresh = await this.options.session.refresh(this.token).catch(() => null);
      if (!fresh) return this.stop(code);
      return this.connect();
    }
    return this.reconnect(code);
  }

  private async reconnect(code: number): Promise<void> {
    this.failures += 1;
    this.options.onState?.('reconnecting', { code, attempt: this.failures });
    await this.options.sleep(backoffDelay(this.options.retry, this.failures, this.options.random));
    return this.connect();
  }

  private stop(code?: number): void {
    this.stopped = true;
    this.stopTimers();
    this.options.onState?.('closed', { code });
  }
}
