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
export declare const DEFAULT_RETRY: RetryPolicy;
/** "Equal jitter": half the exponential delay fixed, half random. `attempt` counts from 1. */
export declare function backoffDelay(policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, attempt: number, random: () => number): number;
/** The server's Retry-After plus up to 250 ms of jitter (the clients it throttled do not return at the same instant). */
export declare function retryAfterDelay(retryAfterMs: number, random: () => number): number;
export declare const realSleep: (ms: number) => Promise<void>;
/** Runs `fn` after `ms`; the function returned cancels it. Injected in tests (a clock moved by hand). */
export type SetTimer = (fn: () => void, ms: number) => () => void;
export declare const realSetTimer: SetTimer;
