import { type RetryPolicy, type SetTimer } from './backoff.js';
import type { Session } from './session.js';
/** What the SDK needs of a WebSocket: the standard one (browsers, React Native, Node 22) fits. */
export interface WebSocketLike {
    readonly readyState: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: any) => void): void;
}
export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike;
/** `failed`: the socket cannot be opened at all (no WebSocket in this runtime); `closed`: ended (close(), revoked, signed out). */
export type SocketState = 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';
export interface SocketStateDetail {
    code?: number;
    attempt?: number;
    /** Why the socket failed (`failed`). */
    error?: Error;
}
/** Close codes the server uses (src/durable-objects/conversation.ts). */
export declare const CLOSE_TOKEN_EXPIRED = 4401;
export declare const CLOSE_TOKEN_REVOKED = 4403;
/** The code the SDK closes a silent socket with before reopening it. */
export declare const CLOSE_SILENT = 4408;
/** A ping every 15 s; 45 s without any frame (a pong included) means the link is dead. */
export declare const DEFAULT_HEARTBEAT: {
    pingEveryMs: number;
    silenceMs: number;
};
export type HeartbeatPolicy = typeof DEFAULT_HEARTBEAT;
/** The global WebSocket, or a clear error where the runtime has none (Node before 22). */
export declare const globalWebSocket: WebSocketFactory;
export interface LiveSocketOptions {
    /** The URL of the next connection (it may carry a resumption cursor). */
    url: () => string;
    session: Session;
    factory: WebSocketFactory;
    onFrame: (frame: unknown) => void;
    onState?: (state: SocketState, detail?: SocketStateDetail) => void;
    retry: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
    heartbeat?: HeartbeatPolicy;
    now: () => number;
    sleep: (ms: number) => Promise<void>;
    setTimer: SetTimer;
    random: () => number;
}
/** A socket that stays open: reconnects after every close it did not ask for, and after 45 s of silence, until close(). */
export declare class LiveSocket {
    private readonly options;
    private socket;
    private stopped;
    private failure;
    private failures;
    private token;
    private lastHeard;
    private cancelWatch;
    private cancelPing;
    /** Connections opened so far (1 + reconnections). */
    connections: number;
    constructor(options: LiveSocketOptions);
    get state(): SocketState;
    /** Closes for good (no reconnection). */
    close(): void;
    private connect;
    /** Any frame (a pong included) proves the link alive. */
    private heard;
    /** The watchdog of one socket: fires 45 s after the last frame heard (or the attempt to connect). */
    private watch;
    /** Sends "ping" every 15 s while the socket is open (the server answers "pong" without waking). */
    private ping;
    private stopTimers;
    /** Silent too long: a dead link may never deliver a close, so the SDK drops the socket itself and reopens. */
    private silent;
    private frame;
    private closed;
    private reconnect;
    private stop;
}
