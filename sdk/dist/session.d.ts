import type { components } from './generated/api.js';
export type TokenPair = components['schemas']['TokenPair'];
/** The tokens as the SDK keeps them (persist this to stay signed in across app restarts). */
export interface StoredTokens {
    accessToken: string;
    refreshToken: string;
    /** When the access token expires, epoch ms by this device's clock (from `expiresIn`, not the token's `exp`). */
    accessExpiresAt: number;
    refreshExpiresAt: number;
}
/** What changed in the sign-in state (`onAuthStateChange`). INITIAL_SESSION: the state found at start (restored from storage or none). */
export type AuthChangeEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'TOKEN_REFRESHED' | 'SIGNED_OUT';
export type AuthStateListener = (event: AuthChangeEvent, tokens: StoredTokens | null) => void;
/**
 * Where the tokens are kept between launches: localStorage fits as it is; on a phone, an adapter over
 * the platform's secure store (Keychain, Keystore: expo-secure-store, react-native-keychain). Async or not.
 */
export interface TokenStorage {
    getItem(key: string): string | null | Promise<string | null>;
    setItem(key: string, value: string): void | Promise<void>;
    removeItem(key: string): void | Promise<void>;
}
export declare const DEFAULT_STORAGE_KEY = "parcel-marketplace.tokens";
export interface SessionOptions {
    /** Sends POST /v1/api/auth/refresh (the transport without authentication, with its retries). */
    refresh: (refreshToken: string) => Promise<Response>;
    now: () => number;
    /** Seconds before `expiresIn` runs out that a token counts as expired (latency, clock drift). */
    marginSeconds: number;
    onTokens?: (tokens: StoredTokens | null) => void;
    /** Tokens are read from it at start and written to it on every change. */
    storage?: TokenStorage;
    storageKey?: string;
}
export declare class Session {
    private readonly options;
    private tokens;
    private inFlight;
    private readonly listeners;
    /** Writes to the storage, in order (an async store must not end with an older pair). */
    private writes;
    /** Settles once the tokens kept in the storage (if any) are loaded; every request waits for it. */
    readonly ready: Promise<void>;
    /** How many refreshes were sent (tests and diagnostics). */
    refreshCount: number;
    constructor(options: SessionOptions, initial?: StoredTokens | null);
    private get key();
    private restore;
    /** Calls `listener` on every change of the sign-in state, and first with INITIAL_SESSION; returns the unsubscribe. */
    onAuthStateChange(listener: AuthStateListener): () => void;
    get current(): StoredTokens | null;
    /** Keeps a token pair the server just gave (sign-in, refresh), its expiry measured from now. */
    accept(pair: Pick<TokenPair, 'accessToken' | 'refreshToken' | 'expiresIn' | 'refreshExpiresIn'>, event?: AuthChangeEvent): StoredTokens;
    /** Replaces the tokens (null: signed out), persists them and tells the listeners. */
    set(tokens: StoredTokens | null, event?: AuthChangeEvent): void;
    /** Resolves once the storage has every change so far (tests, and an app about to exit). */
    flush(): Promise<void>;
    /** A usable access token: the current one, or a refreshed one when it expires within the margin; null when signed out. */
    accessToken(): Promise<string | null>;
    /**
     * A token newer than `stale`: when another request already refreshed, that token; when a refresh is
     * under way, its result; else one refresh. Null when the session is over (refresh refused).
     */
    refresh(stale: string): Promise<string | null>;
    private refreshNow;
}
