// The signed-in session: the token pair, when the access token expires by the client's own clock,
// and the single-flight refresh (one POST /auth/refresh however many requests need a new token:
// the server rotates refresh tokens, so two refreshes of one token would race).
import { ApiError } from './errors.js';
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

export const DEFAULT_STORAGE_KEY = 'parcel-marketplace.tokens';

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

export class Session {
  private tokens: StoredTokens | null = null;
  private inFlight: Promise<string | null> | null = null;
  private readonly listeners = new Set<AuthStateListener>();
  /** Writes to the storage, in order (an async store must not end with an older pair). */
  private writes: Promise<void> = Promise.resolve();
  /** Settles once the tokens kept in the storage (if any) are loaded; every request waits for it. */
  readonly ready: Promise<void>;
  /** How many refreshes were sent (tests and diagnostics). */
  refreshCount = 0;

  constructor(private readonly options: SessionOptions, initial?: StoredTokens | null) {
    if (initial) this.tokens = initial;
    this.ready = initial || !options.storage ? Promise.resolve() : this.restore(options.storage);
  }

  private get key(): string {
    return this.options.storageKey ?? DEFAULT_STORAGE_KEY;
  }

  private async restore(storage: TokenStorage): Promise<void> {
    try {
      const raw = await storage.getItem(this.key);
      const kept = raw ? (JSON.parse(raw) as StoredTokens) : null;
      // Signed in meanwhile (signIn before the storage answered): the newer pair wins.
      if (kept?.refreshToken && !this.tokens) this.tokens = kept;
    } catch {
      // Unreadable storage: start signed out.
    }
  }

  /** Calls `listener` on every change of the sign-in state, and first with INITIAL_SESSION; returns the unsubscribe. */
  onAuthStateChange(listener: AuthStateListener): () => void {
    this.listeners.add(listener);
    void this.ready.then(() => {
      if (this.listeners.has(listener)) listener('INITIAL_SESSION', this.tokens);
    });
    return () => void this.listeners.delete(listener);
  }

  get current(): StoredTokens | null {
    return this.tokens;
  }

  /** Keeps a token pair the server just gave (sign-in, refresh), its expiry measured from now. */
  accept(pair: Pick<TokenPair, 'accessToken' | 'refreshToken' | 'expiresIn' | 'refreshExpiresIn'>, event: AuthChangeEvent = 'SIGNED_IN'): StoredTokens {
    const now = this.options.now();
    const tokens: StoredTokens = {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      accessExpiresAt: now + pair.expiresIn * 1000,
      refreshExpiresAt: now + pair.refreshExpiresIn * 1000,
    };
    this.set(tokens, event);
    return tokens;
  }

  /** Replaces the tokens (null: signed out), persists them and tells the listeners. */
  set(tokens: StoredTokens | null, event: AuthChangeEvent = tokens ? 'SIGNED_IN' : 'SIGNED_OUT'): void {
    const wasSignedIn = this.tokens !== null;
    this.tokens = tokens;
    this.options.onTokens?.(tokens);
    const storage = this.options.storage;
    if (storage) {
      this.writes = this.writes
        .then(() => (tokens ? storage.setItem(this.key, JSON.stringify(tokens)) : storage.removeItem(this.key)))
        .catch(() => {}); // a full or locked store: the session goes on in memory
    }
    if (!tokens && !wasSignedIn) return; // signing out twice is one event
    for (const listener of [...this.listeners]) {
      try {
        listener(event, tokens);
      } catch {
        // A listener's error is the app's; the session goes on.
      }
    }
  }

  /** Resolves once the storage has every change so far (tests, and an app about to exit). */
  flush(): Promise<void> {
    return this.writes;
  }

  /** A usable access token: the current one, or a refreshed one when it expires within the margin; null when signed out. */
  async accessToken(): Promise<string | null> {
    await this.ready;
    const tokens = this.tokens;
    if (!tokens) return this.inFlight ?? null;
    if (this.options.now() < tokens.accessExpiresAt - this.options.marginSeconds * 1000) return tokens.accessToken;
    return this.refresh(tokens.accessToken);
  }

  /**
   * A token newer than `stale`: when another request already refreshed, that token; when a refresh is
   * under way, its result; else one refresh. Null when the session is over (refresh refused).
   */
  refresh(stale: string): Promise<string | null> {
    if (this.inFlight) return this.inFlight;
    const tokens = this.tokens;
    if (!tokens) return Promise.resolve(null);
    if (tokens.accessToken !== stale) return Promise.resolve(tokens.accessToken);
    this.inFlight = this.refreshNow(tokens.refreshToken).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async refreshNow(refreshToken: string): Promise<string | null> {
    this.refreshCount += 1;
    const response = await this.options.refresh(refreshToken);
    const body: unknown = await response.json().catch(() => null);
    if (response.ok) return this.accept(body as TokenPair, 'TOKEN_REFRESHED').accessToken;
    // 401: the refresh token is spent, expired or revoked: the user must sign in again.
    if (response.status === 401) {
      this.set(null);
      return null;
    }
    throw new ApiError(response.status, body, response.headers);
  }
}
