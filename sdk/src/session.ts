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

export interface SessionOptions {
  /** Sends POST /v1/api/auth/refresh (the transport without authentication, with its retries). */
  refresh: (refreshToken: string) => Promise<Response>;
  now: () => number;
  /** Seconds before `expiresIn` runs out that a token counts as expired (latency, clock drift). */
  marginSeconds: number;
  onTokens?: (tokens: StoredTokens | null) => void;
}

export class Session {
  private tokens: StoredTokens | null = null;
  private inFlight: Promise<string | null> | null = null;
  /** How many refreshes were sent (tests and diagnostics). */
  refreshCount = 0;

  constructor(private readonly options: SessionOptions) {}

  get current(): StoredTokens | null {
    return this.tokens;
  }

  /** Keeps a token pair the server just gave (sign-in, refresh), its expiry measured from now. */
  accept(pair: Pick<TokenPair, 'accessToken' | 'refreshToken' | 'expiresIn' | 'refreshExpiresIn'>): StoredTokens {
    const now = this.options.now();
    const tokens: StoredTokens = {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      accessExpiresAt: now + pair.expiresIn * 1000,
      refreshExpiresAt: now + pair.refreshExpiresIn * 1000,
    };
    this.set(tokens);
    return tokens;
  }

  set(tokens: StoredTokens | null): void {
    this.tokens = tokens;
    this.options.onTokens?.(tokens);
  }

  /** A usable access token: the current one, or a refreshed one when it expires within the margin; null when signed out. */
  async accessToken(): Promise<string | null> {
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
    if (response.ok) return this.accept(body as TokenPair).accessToken;
    // 401: the refresh token is spent, expired or revoked: the user must sign in again.
    if (response.status === 401) {
      this.set(null);
      return null;
    }
    throw new ApiError(response.status, body, response.headers);
  }
}
