export const DEFAULT_RETRY = { maxAttempts: 4, baseDelayMs: 300, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };
/** "Equal jitter": half the exponential delay fixed, half random. `attempt` counts from 1. */
export function backoffDelay(policy, attempt, random) {
    const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(exp / 2 + (random() * exp) / 2);
}
/** The server's Retry-After plus up to 250 ms of jitter (the clients it throttled do not return at the same instant). */
export function retryAfterDelay(retryAfterMs, random) {
    return retryAfterMs + Math.round(random() * 250);
}
export const realSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const realSetTimer = (fn, ms) => {
    const handle = setTimeout(fn, ms);
    return () => clearTimeout(handle);
};
