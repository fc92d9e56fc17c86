// createMarketplaceClient(): the typed API (openapi-fetch over the generated paths) on the SDK's
// transport, the session (sign-in, sign-out, refresh) and the live sockets.
import createClient, {} from './vendor/openapi-fetch.js';
import { DEFAULT_RETRY, realSetTimer, realSleep } from './backoff.js';
import { ApiError } from './errors.js';
import { idempotencyMiddleware, randomKey } from './idempotency.js';
import { pager } from './pages.js';
import { Session } from './session.js';
import { DEFAULT_HEARTBEAT, LiveSocket, globalWebSocket } from './sockets.js';
import { Transport } from './transport.js';
import { waitForPayment, watchReservation } from './status-feed.js';
export function createMarketplaceClient(options) {
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    const now = options.now ?? Date.now;
    const sleep = options.sleep ?? realSleep;
    const random = options.random ?? Math.random;
    const setTimer = options.setTimer ?? realSetTimer;
    const retry = { ...DEFAULT_RETRY, ...options.retry };
    const heartbeat = { ...DEFAULT_HEARTBEAT, ...options.heartbeat };
    const rawFetch = options.fetch ?? ((request) => globalThis.fetch(request));
    const session = new Session({
        now,
        marginSeconds: options.refreshMarginSeconds ?? 30,
        onTokens: options.onTokens,
        storage: options.storage,
        storageKey: options.storageKey,
        refresh: (refreshToken) => transport.fetch(new Request(`${baseUrl}/v1/api/auth/refresh`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ refreshToken }),
        })),
    }, options.tokens);
    const transport = new Transport({ fetch: rawFetch, session, retry, now, sleep, setTimer, random, timeoutMs: options.timeoutMs, language: options.language });
    const newKey = options.idempotencyKey ?? randomKey;
    const clientFor = (fetch) => {
        const client = createClient({ baseUrl, fetch });
        client.use(idempotencyMiddleware(newKey));
        return client;
    };
    const api = clientFor(transport.fetch);
    const timed = new Map();
    const webSocket = options.webSocket ?? globalWebSocket;
    const wsBase = baseUrl.replace(/^http/, 'ws');
    const live = (url, onFrame, onState) => new LiveSocket({ url, onFrame, onState, session, factory: webSocket, retry, heartbeat, now, sleep, setTimer, random });
    const statusUrl = (reservationId) => `${wsBase}/v1/api/bookings/${reservationId}/status/live`;
    return {
        api,
        session,
        /** Settles once tokens kept in `storage` are loaded (calls wait for it by themselves). */
        ready: session.ready,
        /** The same typed API with another timeout per attempt: `sdk.withTimeout(5000).GET(...)`. */
        withTimeout(timeoutMs) {
            let client = timed.get(timeoutMs);
            if (!client)
                timed.set(timeoutMs, (client = clientFor(transport.withTimeout(timeoutMs))));
            return client;
        },
        /** Every page of a list, one after the other: `for await (const page of sdk.pages('/v1/api/bookings/as-sender', {}))`. */
        pages(path, init) {
            return pager(api, path, init);
        },
        /** Every item of a list across its pages: `for await (const trip of sdk.items('/v1/api/annonces', {}))`. */
        async *items(path, init) {
            for await (const page of pager(api, path, init))
                yield* page.content;
        },
        /** Sign-in state changes (first INITIAL_SESSION, then SIGNED_IN, TOKEN_REFRESHED, SIGNED_OUT); returns the unsubscribe. */
        onAuthStateChange(listener) {
            return session.onAuthStateChange(listener);
        },
        /** The last D1 bookmark seen (sent with every request). */
        get bookmark() {
            return transport.bookmark;
        },
        get signedIn() {
            return session.current !== null;
        },
        async signIn(email, password) {
            const { data, error, response } = await api.POST('/v1/api/auth/login', { body: { email, password } });
            if (!data)
                throw new ApiError(response.status, error, response.headers);
            session.accept(data);
            return data.user;
        },
        async register(body) {
            const { data, error, response } = await api.POST('/v1/api/auth/register', { body });
            if (!data)
                throw new ApiError(response.status, error, response.headers);
            session.accept(data);
            return data.user;
        },
        /** Blacklists both tokens on the server, then forgets them (forgotten even if the server is unreachable). */
        async signOut() {
            // Refresh first if due, so the refresh token sent is the live one, not one the refresh spent.
            await session.accessToken().catch(() => null);
            const tokens = session.current;
            if (!tokens)
                return;
            try {
                await api.POST('/v1/api/auth/logout', { body: { refreshToken: tokens.refreshToken } });
            }
            finally {
                session.set(null);
            }
        },
        /** The reservation's live conversation; after a reconnection the server replays what was missed. */
        chat(reservationId, handlers) {
            let lastId = handlers.afterId ?? 0;
            const url = () => `${wsBase}/v1/api/bookings/${reservationId}/messages/live${lastId ? `?afterId=${lastId}` : ''}`;
            return live(url, (frame) => {
                if (frame?.type === 'message' && frame.message) {
                    if (frame.message.id <= lastId)
                        return; // replayed twice: once is enough
                    lastId = frame.message.id;
                    handlers.onMessage(frame.message);
                }
                else if (frame?.type === 'read')
                    handlers.onRead?.(frame);
            }, handlers.onState);
        },
        /**
         * The reservation's status and payment status: the current state first, then every change (each
         * reconnection re-reads the current state; the same state is not reported twice). Stops by
         * itself once a frame says the reservation is closed.
         */
        watchReservation(reservationId, handlers) {
            return watchReservation(live, statusUrl(reservationId), handlers);
        },
        /** Resolves once the reservation's payment is authorised or captured; rejects (PaymentWaitError) on failure, expiry, timeout. */
        waitForPayment(reservationId, options) {
            return waitForPayment(live, statusUrl(reservationId), setTimer, options);
        },
        /** The reservation's live positions; each (re)connection starts with a snapshot of the last one. */
        tracking(reservationId, handlers) {
            return live(() => `${wsBase}/v1/api/tracking/${reservationId}/live`, (frame) => {
                if (frame?.type === 'position')
                    handlers.onPosition(frame.position);
                else if (frame?.type === 'snapshot')
                    handlers.onSnapshot?.(frame.lastPosition ?? null);
            }, handlers.onState);
        },
    };
}
