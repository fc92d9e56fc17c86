import type { SetTimer } from './backoff.js';
import type { components } from './generated/api.js';
import type { LiveSocket, SocketState, SocketStateDetail } from './sockets.js';
export type ReservationStatusFrame = components['schemas']['ReservationStatusFrame'];
export interface StatusHandlers {
    /** The current state first, then each change of `status` or `paymentStatus`. */
    onStatus: (frame: ReservationStatusFrame) => void;
    onState?: (state: SocketState, detail?: SocketStateDetail) => void;
}
/** Opens a live socket on a URL with a frame handler (the client's `live`). */
export type OpenLive = (url: () => string, onFrame: (frame: any) => void, onState?: (state: SocketState, detail?: SocketStateDetail) => void) => LiveSocket;
/**
 * Watches a reservation until `close()`, or until a frame says it is closed (nothing will change any
 * more: the socket is closed then, not reopened).
 */
export declare function watchReservation(open: OpenLive, url: string, handlers: StatusHandlers): LiveSocket;
/** Payment statuses that mean the payment went through: held on the card, or charged. */
export declare const PAID_PAYMENT_STATUSES: readonly string[];
export type PaymentWaitReason = 'FAILED' | 'EXPIRED' | 'CLOSED' | 'TIMEOUT' | 'SOCKET_CLOSED';
/** Why waitForPayment() gave up; `frame` is the last state seen (null before the first). */
export declare class PaymentWaitError extends Error {
    readonly reason: PaymentWaitReason;
    readonly frame: ReservationStatusFrame | null;
    readonly name = "PaymentWaitError";
    constructor(reason: PaymentWaitReason, frame: ReservationStatusFrame | null, message: string);
}
export interface WaitForPaymentOptions {
    /** How long to wait (default 30 minutes, the life of a checkout). */
    timeoutMs?: number;
    signal?: AbortSignal;
    onStatus?: (frame: ReservationStatusFrame) => void;
}
export declare const DEFAULT_PAYMENT_WAIT_MS: number;
/** What a frame means for someone waiting for the payment: paid, failed for good, or keep waiting (null). */
export declare function paymentOutcome(frame: ReservationStatusFrame): 'PAID' | Exclude<PaymentWaitReason, 'TIMEOUT' | 'SOCKET_CLOSED'> | null;
/**
 * Resolves with the frame once the payment is authorised or captured; rejects with PaymentWaitError
 * when it failed, the checkout or the booking expired, the reservation ended unpaid, the time ran
 * out, or the socket ended (signed out, access revoked). Call it once the checkout is open: a
 * payment that failed before is the current state until a new checkout starts.
 */
export declare function waitForPayment(open: OpenLive, url: string, setTimer: SetTimer, options?: WaitForPaymentOptions): Promise<ReservationStatusFrame>;
