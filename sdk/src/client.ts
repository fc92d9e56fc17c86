// createMarketplaceClient(): the typed API (openapi-fetch over the generated paths) on the SDK's
// transport, the session (sign-in, sign-out, refresh) and the live sockets.
import createClient, { type Client } from './vendor/openapi-fetch.js';
import { DEFAULT_RETRY, realSetTimer, realSleep, type RetryPolicy, type SetTimer } from './backoff.js';
import { ApiError } from './errors.js';
import type { components, paths } from './generated/api.js';
import { idempotencyMiddleware, randomKey } from './idempotency.js';
import { pager, type ItemOf, type PagedPath, type PageInit } from './pages.js';
import { Session, type AuthStateListener, type StoredTokens, type TokenStorage } from './session.js';
import { DEFAULT_HEARTBEAT, LiveSocket, globalWebSocket, type HeartbeatPolicy, type SocketState, type SocketStateDetail, type WebSocketFactory } from './sockets.js';
import { Transport } from './transport.js';
import { waitForPayment, watchReservation, type ReservationStatusFrame, type StatusHandlers, type WaitForPaymentOptions } from './status-feed.js';

export type User = components['schemas']['User'];
export type ChatMessage = components['schemas']['ConversationMessage'];
/** A tracking point (the document's component is nullable: a last position may be none). */
export type Position = NonNullable<components['schemas']['Position']>;
export type ApiClient = Client<paths>;

export interface MarketplaceClientOptions {
  /** The service's origin, e.g. `https://api.example.com` or `http://127.0.0.1:8787` (paths start with /v1/api). */
  baseUrl: string;
  /** Defaults to globalThis.fetch (inject one for tests or a custom agent). */
  fetch?: (request: Request) => Promise<Response>;
  /** Defaults to the global WebSocket (browsers, React Native, Node 22); without one, sockets end `failed`. */
  webSocket?: WebSocketFactory;
  /** Tokens kept from an earlier run (see onTokens); or give `storage`. */
  tokens?: StoredTokens | null;
  /** Called whenever the tokens change (sign-in, refresh, sign-out: null): persist them. */
  onTokens?: (tokens: StoredTokens | null) => void;
  /** Where the tokens live between launches (read at start, written on every change): localStorage, a secure-store adapter. */
  storage?: TokenStorage;
  /** The storage key (default `parcel-marketplace.tokens`). */
  storageKey?: string;
  /** How long one attempt of a call may take, answer included (default 30 000 ms); per call: `sdk.withTimeout(ms)`. */
  timeoutMs?: number;
  /** Socket heartbeat: a ping every `pingEveryMs` (15 s), reopened after `silenceMs` (45 s) without a frame. */
  heartbeat?: Partial<HeartbeatPolicy>;
  /** Seconds before expiry that a token is refreshed (default 30). */
  refreshMarginSeconds?: number;
  retry?: Partial<RetryPolicy>;
  /** 'fr' or 'en': the language of error messages (Accept-Language). */
  language?: string;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Timers (timeouts, heartbeats); injected with `now` and `sleep` in tests. */
  setTimer?: SetTimer;
  random?: () => number;
  idempotencyKey?: () => string;
}

export interface ChatHandlers {
  /** The last message id the app already shows (read over REST): the server replays only what follows. */
  afterId?: number;
  onMessage: (message: ChatMessage) => void;
  onRead?: (read: { userId: number; readAt: string }) => void;
  onState?: (state: SocketState, detail?: SocketStateDetail) => void;
}

export interface TrackingHandlers {
  onPosition: (position: Position) => void;
  onSnapshot?: (lastPosition: Position | null) => void;
  onState?: (state: SocketState, detail?: SocketStateDetail) => void;
}

export function createMarketplaceClient(options: MarketplaceClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const setTimer = options.setTimer ?? realSetTimer;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const heartbeat: HeartbeatPolicy = { ...DEFAULT_HEARTBEAT, ...options.heartbeat };
  const rawFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const session: Session = new Session({
    now,
    marginSeconds: options.refreshMarginSeconds ?? 30,
    onTokens: options.onTokens,
    storage: options.storage,
    storageKey: options.storageKey,
    refresh: (refreshToken) =>
      transport.fetch(
        new Request(`${baseUrl}/v1/api/auth/refresh`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        }),
      ),
  }, options.tokens);
  const transport = new Transport({ fetch: rawFetch, session, retry, now, sleep, setTimer, random, timeoutMs: options.timeoutMs, language: options.language });

  const newKey = options.idempotencyKey ?? randomKey;
  const clientFor = (fetch: (request: Request) => Promise<Response>): ApiClient => {
    const client = createClient<paths>({ baseUrl, fetch });
    client.use(idempotencyMiddleware(newKey));
    return client;
  };
  const api = clientFor(transport.fetch);
  const timed = new Map<number, ApiClient>();

  const webSocket: WebSocketFactory = options.webSocket ?? globalWebSocket;
  const wsBase = baseUrl.replace(/^http/, 'ws');
  const live = (url: () => string, onFrame: (frame: any) => void, onState?: (state: SocketState, detail?: SocketStateDetail) => void) =>
    new LiveSocket({ url, onFrame, onState, session, factory: webSocket, retry, heartbeat, now, sleep, setTimer, random });
  const statusUrl = (reservationId: number) => `${wsBase}/v1/api/bookings/${reservationId}/status/live`;

  return {
    api,
    session,
    /** Settles once tokens kept in `storage` are loaded (calls wait for it by themselves). */
    ready: session.ready,

    /** The same typed API with another timeout per attempt: `sdk.withTimeout(5000).GET(...)`. */
    withTimeout(timeoutMs: number): ApiClient {
      let client = timed.get(timeoutMs);
      if (!client) timed.set(timeoutMs, (client = clientFor(transport.withTimeout(timeoutMs))));
      return client;
    },

    /** Every page of a list, one after the other: `for await (const page of sdk.pages('/v1/api/bookings/as-sender', {}))`. */
    pages<P extends PagedPath>(path: P, init: PageInit<P>) {
      return pager(api, path, init);
    },

    /** Every item of a list across its pages: `for await (const trip of sdk.items('/v1/api/annonces', {}))`. */
    async *items<P extends PagedPath>(path: P, init: PageInit<P>): AsyncGenerator<ItemOf<P>> {
      for await (const page of pager(api, path, init)) yield* (page as { content: ItemOf<P>[] }).content;
    },

    /** Sign-in state changes (first INITIAL_SESSION, then SIGNED_IN, TOKEN_REFRESHED, SIGNED_OUT); returns the unsubscribe. */
    onAuthStateChange(listener: AuthStateListener): () => void {
      return session.onAuthStateChange(listener);
    },
    /** The last D1 bookmark seen (sent with every request). */
    get bookmark() {
      return transport.bookmark;
    },
    get signedIn() {
      return session.current !== null;
    },

    async signIn(email: string, password: string): Promise<User> {
      const { data, error, response } = await api.POST('/v1/api/auth/login', { body: { email, password } });
      if (!data) throw new ApiError(response.status, error, response.headers);
      session.accept(data);
      return data.user;
    },

    async register(body: components['schemas']['RegisterRequest']): Promise<User> {
      const { data, error, response } = await api.POST('/v1/api/auth/register', { body });
      if (!data) throw new ApiError(response.status, error, response.headers);
      session.accept(data);
      return data.user;
    },

    /** Blacklists both tokens on the server, then forgets them (forgotten even if the server is unreachable). */
    async signOut(): Promise<void> {
      // Refresh first if due, so the refresh token sent is the live one, not one the refresh spent.
      await session.accessToken().catch(() => null);
      const tokens = session.current;
      if (!tokens) return;
      try {
        await api.POST('/v1/api/auth/logout', { body: { refreshToken: tokens.refreshToken } });
      } finally {
        session.set(null);
      }
    },

    /** The reservation's live conversation; after a reconnection the server replays what was missed. */
    chat(reservationId: number, handlers: ChatHandlers): LiveSocket {
      let lastId = handlers.afterId ?? 0;
      const url = () => `${wsBase}/v1/api/bookings/${reservationId}/messages/live${lastId ? `?afterId=${lastId}` : ''}`;
      return live(
        url,
        (frame) => {
          if (frame?.type === 'message' && frame.message) {
            if (frame.message.id <= lastId) return; // replayed twice: once is enough
            lastId = frame.message.id;
            handlers.onMessage(frame.message);
          } else if (frame?.type === 'read') handlers.onRead?.(frame);
        },
        handlers.onState,
      );
    },

    /**
     * The reservation's status and payment status: the current state first, then every change (each
     * reconnection re-reads the current state; the same state is not reported twice). Stops by
     * itself once a frame says the reservation is closed.
     */
    watchReservation(reservationId: number, handlers: StatusHandlers): LiveSocket {
      return watchReservation(live, statusUrl(reservationId), handlers);
    },

    /** Resolves once the reservation's payment is authorised or captured; rejects (PaymentWaitError) on failure, expiry, timeout. */
    waitForPayment(reservationId: number, options?: WaitForPaymentOptions): Promise<ReservationStatusFrame> {
      return waitForPayment(live, statusUrl(reservationId), setTimer, options);
    },

    /** The reservation's live positions; each (re)connection starts with a snapshot of the last one. */
    tracking(reservationId: number, handlers: TrackingHandlers): LiveSocket {
      return live(
        () => `${wsBase}/v1/api/tracking/${reservationId}/live`,
        (frame) => {
          if (frame?.type === 'position') handlers.onPosition(frame.position);
          else if (frame?.type === 'snapshot') handlers.onSnapshot?.(frame.lastPosition ?? null);
        },
        handlers.onState,
      );
    },
  };
}

export type MarketplaceClient = ReturnType<typeof createMarketplaceClient>;
