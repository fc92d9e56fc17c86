// The signed-in session: the token pair, when the access token expires by the client's own clock,
// and the single-flight refresh (one POST /auth/refresh however many requests need a new token:
// the server rotates refresh tokens, so two refreshes of one token would race).
import { ApiError } from './errors.js';
export const DEFAULT_STORAGE_KEY = 'parcel-marketplace.tokens';
export class Session {
    options;
    tokens = null;
    inFlight = null;
    listeners = new Set();
    /** Writes to the storage, in order (an async store must not end with an older pair). */
    writes = Promise.resolve();
    /** Settles once the tokens kept in the storage (if any) are loaded; every request waits for it. */
    ready;
    /** How many refreshes were sent (tests and diagnostics). */
    refreshCount = 0;
    constructor(options, initial) {
        this.options = options;
        if (initial)
            this.tokens = initial;
        this.ready = initial || !options.storage ? Promise.resolve() : this.restore(options.storage);
    }
    get key() {
        return this.options.storageKey ?? DEFAULT_STORAGE_KEY;
    }
    async restore(storage) {
        try {
            const raw = await storage.getItem(this.key);
            const kept = raw ? JSON.parse(raw) : null;
            // Signed in meanwhile (signIn before the storage answered): the newer pair wins.
            if (kept?.refreshToken && !this.tokens)
                this.tokens = kept;
        }
        catch {
            // Unreadable storage: start signed out.
        }
    }
    /** Calls `listener` on every change of the sign-in state, and first with INITIAL_SESSION; returns the unsubscribe. */
    onAuthStateChange(listener) {
        this.listeners.add(listener);
        void this.ready.then(() => {
            if (this.listeners.has(listener))
                listener('INITIAL_SESSION', this.tokens);
        });
        return () => void this.listeners.delete(listener);
    }
    get current() {
        return this.tokens;
    }
    /** Keeps a token pair the server just gave (sign-in, refresh), its expiry measured from now. */
    accept(pair, event = 'SIGNED_IN') {
        const now = this.options.now();
        const tokens = {
            accessToken: pair.accessToken,
            refreshToken: pair.refreshToken,
            accessExpiresAt: now + pair.expiresIn * 1000,
            refreshExpiresAt: now + pair.refreshExpiresIn * 1000,
        };
        this.set(tokens, event);
        return tokens;
    }
    /** Replaces the tokens (null: signed out), persists them and tells the listeners. */
    set(tokens, event = tokens ? 'SIGNED_IN' : 'SIGNED_OUT') {
        const wasSignedIn = this.tokens !== null;
        this.tokens = tokens;
        this.options.onTokens?.(tokens);
        const storage = this.options.storage;
        if (storage) {
            this.writes = this.writes
                .then(() => (tokens ? storage.setItem(this.key, JSON.stringify(tokens)) : storage.removeItem(this.key)))
                .catch(() => { }); // a full or locked store: the session goes on in memory
        }
        if (!tokens && !wasSignedIn)
            return; // signing out twice is one event
        for (const listener of [...this.listeners]) {
            try {
                listener(event, tokens);
            }
            catch {
                // A listener's error is the app's; the session goes on.
            }
        }
    }
    /** Resolves once the storage has every change so far (tests, and an app about to exit). */
    flush() {
        return this.writes;
    }
    /** A usable access token: the current one, or a refreshed one when it expires within the margin; null when signed out. */
    async accessToken() {
        await this.ready;
        const tokens = this.tokens;
        if (!tokens)
            return this.inFlight ?? null;
        if (this.options.now() < tokens.accessExpiresAt - this.options.marginSeconds * 1000)
            return tokens.accessToken;
        return this.refresh(tokens.accessToken);
    }
    /**
     * A token newer than `stale`: when another request already refreshed, that token; when a refresh is
     * under way, its result; else one refresh. Null when the session is over (refresh refused).
     */
    refresh(stale) {
        if (this.inFlight)
            return this.inFlight;
        const tokens = this.tokens;
        if (!tokens)
            return Promise.resolve(null);
        if (tokens.accessToken !== stale)
            return Promise.resolve(tokens.accessToken);
        this.inFlight = this.refreshNow(tokens.refreshToken).finally(() => {
            this.inFlight = null;
        });
        return this.inFlight;
    }
    async refreshNow(refreshToken) {
        this.refreshCount += 1;
        const response = await this.options.refresh(refreshToken);
        const body = await response.json().catch(() => null);
        if (response.ok)
            return this.accept(body, 'TOKEN_REFRESHED').accessToken;
        // 401: the refresh token is spent, expired or revoked: the user must sign in again.
        if (response.status === 401) {
            this.set(null);
            return null;
        }
        throw new ApiError(response.status, body, response.headers);
    }
}
