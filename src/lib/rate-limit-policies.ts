// The rate-limit policies: one per Workers rate-limiting binding, with the limits wrangler.toml
// gives it. Kept apart from the middleware (rate-limit.ts) so the configuration (config.ts) can
// name the bindings without importing the middleware and what it imports.
export type RateLimitBinding = {
  [K in keyof Env]-?: Env[K] extends RateLimit ? K : never;
}[keyof Env];

export interface RateLimitPolicy {
  /** Name in the RateLimit headers. */
  name: string;
  binding: RateLimitBinding;
  /** Must equal the binding's `simple` settings in wrangler.toml (a test compares them). */
  limit: number;
  windowSeconds: 10 | 60;
}

export const POLICIES = {
  recipient: { name: 'recipient', binding: 'RECIPIENT_RATE_LIMITER', limit: 30, windowSeconds: 60 },
  search: { name: 'search', binding: 'SEARCH_RATE_LIMITER', limit: 120, windowSeconds: 60 },
  upload: { name: 'upload', binding: 'UPLOAD_RATE_LIMITER', limit: 30, windowSeconds: 60 },
  checkout: { name: 'checkout', binding: 'CHECKOUT_RATE_LIMITER', limit: 20, windowSeconds: 60 },
  public: { name: 'public', binding: 'PUBLIC_RATE_LIMITER', limit: 300, windowSeconds: 60 },
  // Per user and conversation, counted by the conversation routes (CONTRACT section 17).
  messages: { name: 'messages', binding: 'MESSAGE_RATE_LIMITER', limit: 30, windowSeconds: 60 },
  authIp: { name: 'auth-ip', binding: 'AUTH_IP_RATE_LIMITER', limit: 20, windowSeconds: 60 },
  authEmail: { name: 'auth-email', binding: 'AUTH_EMAIL_RATE_LIMITER', limit: 5, windowSeconds: 60 },
} as const satisfies Record<string, RateLimitPolicy>;
