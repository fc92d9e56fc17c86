// Delays between attempts: exponential backoff with jitter, so a thousand phones that lost the network
// together do not come back together.
export interface RetryPolicy {
  /** Attempts in all, the first included (default 4). */
  maxAttempts: number;
  /** First delay before jitter (default 300 ms), doubled each attempt. */
  baseDelayMs: number;
  /** Cap of one delay (default 10 s). */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the answer (429/503) is returned (default 60 s). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 300, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };

/** "Equal jitter": half the exponential delay fixed, half random. `attempt` counts from 1. */
export function backoffDelay(policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, attempt: number, random: () => number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/** The server's Retry-After plus up to 250 ms of jitter (the clients it throttled do not return at the same instant). */
export function retryAfterDelay(retryAfterMs: number, random: () => number): number {
  return retryAfterMs + Math.round(random() * 250);
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `fn` after `ms`; the function returned cancels it. Injected in tests (a clock moved by hand). */
export type SetTimer = (fn: () => void, ms: number) => () => void;

export const realSetTimer: SetTimer = (fn, ms) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};
