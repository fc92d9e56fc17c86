import { type RetryPolicy, type SetTimer } from './backoff.js';
import type { Session } from './session.js';
export declare const BOOKMARK_HEADER = "x-d1-bookmark";
export declare const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** How long one attempt may take, answer body included, unless the call says otherwise. */
export declare const DEFAULT_TIMEOUT_MS = 30000;
export interface TransportOptions {
    fetch: (request: Request) => Promise<Response>;
    session: Session;
    retry: RetryPolicy;
    now: () => number;
    sleep: (ms: number) => Promise<void>;
    setTimer: SetTimer;
    random: () => number;
    /** Per attempt, in ms (default 30 s). */
    timeoutMs?: number;
    /** Sent as Accept-Language when the caller sets none ('fr' or 'en'). */
    language?: string;
}
export declare class Transport {
    private readonly options;
    /** The last D1 bookmark the server sent. */
    bookmark: string | null;
    constructor(options: TransportOptions);
    /** openapi-fetch's fetch: one logical request, as many attempts as the rules allow. */
    readonly fetch: (request: Request) => Promise<Response>;
    /** The same fetch with another timeout per attempt (`sdk.withTimeout(ms)`). */
    withTimeout(timeoutMs: number): (request: Request) => Promise<Response>;
    private send;
    /**
     * One attempt, its answer read whole, within `timeoutMs`: a link that goes silent before or during
     * the answer ends the attempt (aborted, so the connection is let go) instead of hanging the app.
     */
    private timed;
    private attempt;
}
