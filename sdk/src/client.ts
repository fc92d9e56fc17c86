// createMarketplaceClient(): the typed API (openapi-fetch over the generated paths) on the SDK's
// transport, the session (sign-in, sign-out, refresh) and the live sockets.
import createClient, { type Client } from 'openapi-fetch';
import { DEFAULT_RETRY, realSleep, type RetryPolicy } from './backoff.js';
import { ApiError } from './errors.js';
import type { components, paths } from './generated/api.js';
import { idempotencyMiddleware, randomKey } from './idempotency.js';
import { Session, type StoredTokens } from './session.js';
import { LiveSocket, type SocketState, type WebSocketFactory } from './sockets.js';
import { Transport } from './transport.js';

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
  /** Defaults to the global WebSocket (browsers, React Native, Node 22). */
  webSocket?: WebSocketFactory;
  /** Tokens kept from an earlier run (see onTokens). */
  tokens?: StoredTokens | null;
  /** Called whenever the tokens change (sign-in, refresh, sign-out: null): persist them. */
  onTokens?: (tokens: StoredTokens | null) => void;
  /** Seconds before expiry that a token is refreshed (default 30). */
  refreshMarginSeconds?: number;
  retry?: Partial<RetryPolicy>;
  /** 'fr' or 'en': the language of error messages (Accept-Language). */
  language?: string;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  idempotencyKey?: () => string;
}

export interface ChatHandlers {
  /** The last message id the app already shows (read over REST): the server replays only what follows. */
  afterId?: number;
  onMessage: (message: ChatMessage) => void;
  onRead?: (read: { userId: number; readAt: string }) => void;
  onState?: (state: SocketState) => void;
}

export interface TrackingHandlers {
  onPosition: (position: Position) => void;
  onSnapshot?: (lastPosition: Position | null) => void;
  onState?: (state: SocketState) => void;
}

export function createMarketplaceClient(options: MarketplaceClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const rawFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const session: Session = new Session({
    now,
    marginSeconds: options.refreshMarginSeconds ?? 30,
    onTokens: options.onTokens,
    refresh: (refreshToken) =>
      transport.fetch(
        new Request(`${baseUrl}/v1/api/auth/refresh`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        }),
      ),
  });
  const transport = new Transport({ fetch: rawFetch, session, retry, now, sleep, random, language: options.language });
  if (options.tokens) session.set(options.tokens);

  const api: ApiClient = createClient<paths>({ baseUrl, fetch: transport.fetch });
  api.use(idempotencyMiddleware(options.idempotencyKey ?? randomKey));

  const webSocket: WebSocketFactory = options.webSocket ?? ((url, protocols) => new WebSocket(url, protocols));
  const wsBase = baseUrl.replace(/^http/, 'ws');
  const live = (url: () => string, onFrame: (frame: any) => void, onState?: (state: SocketState) => void) =>
    new LiveSocket({ url, onFrame, onState, session, factory: webSocket, retry, sleep, random });

  return {
    api,
    session,
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
