// The live sockets (chat and tracking): the access token as the subprotocol `bearer.<token>`
// (browsers and React Native cannot set headers on a WebSocket), reconnection with backoff, and
// resumption: the chat socket reconnects with `afterId=<last message id seen>` and the server replays
// what was missed; the tracking socket's first frame is a snapshot of the last position.
import { backoffDelay, type RetryPolicy } from './backoff.js';
import type { Session } from './session.js';

/** What the SDK needs of a WebSocket: the standard one (browsers, React Native, Node 22) fits. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: any) => void): void;
}
export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike;

export type SocketState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Close codes the server uses (src/durable-objects/conversation.ts). */
export const CLOSE_TOKEN_EXPIRED = 4401;
export const CLOSE_TOKEN_REVOKED = 4403;

export interface LiveSocketOptions {
  /** The URL of the next connection (it may carry a resumption cursor). */
  url: () => string;
  session: Session;
  factory: WebSocketFactory;
  onFrame: (frame: unknown) => void;
  onState?: (state: SocketState, detail?: { code?: number; attempt?: number }) => void;
  retry: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** A socket that stays open: reconnects after every close it did not ask for, until close(). */
export class LiveSocket {
  private socket: WebSocketLike | null = null;
  private stopped = false;
  private failures = 0;
  private token: string | null = null;
  /** Connections opened so far (1 + reconnections). */
  connections = 0;

  constructor(private readonly options: LiveSocketOptions) {
    void this.connect();
  }

  get state(): SocketState {
    if (this.stopped) return 'closed';
    return this.socket?.readyState === 1 ? 'open' : this.connections ? 'reconnecting' : 'connecting';
  }

  /** Closes for good (no reconnection). */
  close(): void {
    this.stopped = true;
    this.socket?.close(1000, 'closed by the client');
    this.options.onState?.('closed');
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.token = await this.options.session.accessToken().catch(() => null);
    if (this.stopped) return;
    if (!this.token) return this.stop();
    const socket = this.options.factory(this.options.url(), [`bearer.${this.token}`]);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.failures = 0;
      this.connections += 1;
      this.options.onState?.('open');
    });
    socket.addEventListener('message', (event) => this.frame(event.data));
    socket.addEventListener('close', (event) => void this.closed(socket, event.code));
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
    if (code === CLOSE_TOKEN_REVOKED) return this.stop(code);
    if (code === CLOSE_TOKEN_EXPIRED && this.token) {
      // The server closes at the token's expiry: a new token, then straight back.
      const fresh = await this.options.session.refresh(this.token).catch(() => null);
      if (!fresh) return this.stop(code);
      return this.connect();
    }
    this.failures += 1;
    this.options.onState?.('reconnecting', { code, attempt: this.failures });
    await this.options.sleep(backoffDelay(this.options.retry, this.failures, this.options.random));
    return this.connect();
  }

  private stop(code?: number): void {
    this.stopped = true;
    this.options.onState?.('closed', { code });
  }
}
