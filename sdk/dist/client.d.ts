import { type Client } from './vendor/openapi-fetch.js';
import { type RetryPolicy, type SetTimer } from './backoff.js';
import type { components, paths } from './generated/api.js';
import { type ItemOf, type PagedPath, type PageInit } from './pages.js';
import { Session, type AuthStateListener, type StoredTokens, type TokenStorage } from './session.js';
import { LiveSocket, type HeartbeatPolicy, type SocketState, type SocketStateDetail, type WebSocketFactory } from './sockets.js';
import { type ReservationStatusFrame, type StatusHandlers, type WaitForPaymentOptions } from './status-feed.js';
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
    onRead?: (read: {
        userId: number;
        readAt: string;
    }) => void;
    onState?: (state: SocketState, detail?: SocketStateDetail) => void;
}
export interface TrackingHandlers {
    onPosition: (position: Position) => void;
    onSnapshot?: (lastPosition: Position | null) => void;
    onState?: (state: SocketState, detail?: SocketStateDetail) => void;
}
export declare function createMarketplaceClient(options: MarketplaceClientOptions): {
    api: ApiClient;
    session: Session;
    /** Settles once tokens kept in `storage` are loaded (calls wait for it by themselves). */
    ready: Promise<void>;
    /** The same typed API with another timeout per attempt: `sdk.withTimeout(5000).GET(...)`. */
    withTimeout(timeoutMs: number): ApiClient;
    /** Every page of a list, one after the other: `for await (const page of sdk.pages('/v1/api/bookings/as-sender', {}))`. */
    pages<P extends PagedPath>(path: P, init: PageInit<P>): AsyncGenerator<(paths[P] extends {
        get: infer Op;
    } ? Op : never) extends infer T ? T extends (paths[P] extends {
        get: infer Op;
    } ? Op : never) ? T extends {
        responses: {
            200: {
                content: {
                    "application/json": infer Body;
                };
            };
        };
    } ? Body : never : never : never, any, any>;
    /** Every item of a list across its pages: `for await (const trip of sdk.items('/v1/api/annonces', {}))`. */
    items<P extends PagedPath>(path: P, init: PageInit<P>): AsyncGenerator<ItemOf<P>>;
    /** Sign-in state changes (first INITIAL_SESSION, then SIGNED_IN, TOKEN_REFRESHED, SIGNED_OUT); returns the unsubscribe. */
    onAuthStateChange(listener: AuthStateListener): () => void;
    /** The last D1 bookmark seen (sent with every request). */
    readonly bookmark: string | null;
    readonly signedIn: boolean;
    signIn(email: string, password: string): Promise<User>;
    register(body: components["schemas"]["RegisterRequest"]): Promise<User>;
    /** Blacklists both tokens on the server, then forgets them (forgotten even if the server is unreachable). */
    signOut(): Promise<void>;
    /** The reservation's live conversation; after a reconnection the server replays what was missed. */
    chat(reservationId: number, handlers: ChatHandlers): LiveSocket;
    /**
     * The reservation's status and payment status: the current state first, then every change (each
     * reconnection re-reads the current state; the same state is not reported twice). Stops by
     * itself once a frame says the reservation is closed.
     */
    watchReservation(reservationId: number, handlers: StatusHandlers): LiveSocket;
    /** Resolves once the reservation's payment is authorised or captured; rejects (PaymentWaitError) on failure, expiry, timeout. */
    waitForPayment(reservationId: number, options?: WaitForPaymentOptions): Promise<ReservationStatusFrame>;
    /** The reservation's live positions; each (re)connection starts with a snapshot of the last one. */
    tracking(reservationId: number, handlers: TrackingHandlers): LiveSocket;
};
export type MarketplaceClient = ReturnType<typeof createMarketplaceClient>;
