/**
 * Watches a reservation until `close()`, or until a frame says it is closed (nothing will change any
 * more: the socket is closed then, not reopened).
 */
export function watchReservation(open, url, handlers) {
    let last = '';
    const socket = open(() => url, (frame) => {
        if (frame?.type !== 'status')
            return;
        const key = `${frame.status}|${frame.paymentStatus}`;
        if (key !== last) {
            last = key;
            handlers.onStatus(frame);
        }
        if (frame.closed)
            socket.close();
    }, handlers.onState);
    return socket;
}
/** Payment statuses that mean the payment went through: held on the card, or charged. */
export const PAID_PAYMENT_STATUSES = ['AUTHORIZED', 'CAPTURED'];
/** Why waitForPayment() gave up; `frame` is the last state seen (null before the first). */
export class PaymentWaitError extends Error {
    reason;
    frame;
    name = 'PaymentWaitError';
    constructor(reason, frame, message) {
        super(message);
        this.reason = reason;
        this.frame = frame;
    }
}
export const DEFAULT_PAYMENT_WAIT_MS = 30 * 60_000;
/** What a frame means for someone waiting for the payment: paid, failed for good, or keep waiting (null). */
export function paymentOutcome(frame) {
    if (frame.paymentStatus && PAID_PAYMENT_STATUSES.includes(frame.paymentStatus))
        return 'PAID';
    if (frame.paymentStatus === 'FAILED')
        return 'FAILED';
    if (frame.paymentStatus === 'EXPIRED' || frame.status === 'EXPIRED')
        return 'EXPIRED';
    if (frame.status !== 'PENDING_PAYMENT' || frame.closed)
        return 'CLOSED';
    return null;
}
/**
 * Resolves with the frame once the payment is authorised or captured; rejects with PaymentWaitError
 * when it failed, the checkout or the booking expired, the reservation ended unpaid, the time ran
 * out, or the socket ended (signed out, access revoked). Call it once the checkout is open: a
 * payment that failed before is the current state until a new checkout starts.
 */
export function waitForPayment(open, url, setTimer, options = {}) {
    return new Promise((resolve, reject) => {
        let last = null;
        let done = false;
        let socket = null;
        let cancelTimer = () => { };
        const finish = (error) => {
            if (done)
                return;
            done = true;
            cancelTimer();
            options.signal?.removeEventListener('abort', aborted);
            socket?.close();
            if (error)
                reject(error);
            else
                resolve(last);
        };
        const aborted = () => finish(new PaymentWaitError('SOCKET_CLOSED', last, 'Stopped waiting for the payment (aborted)'));
        if (options.signal?.aborted)
            return aborted();
        options.signal?.addEventListener('abort', aborted);
        const timeoutMs = options.timeoutMs ?? DEFAULT_PAYMENT_WAIT_MS;
        cancelTimer = setTimer(() => finish(new PaymentWaitError('TIMEOUT', last, `No payment within ${timeoutMs} ms`)), timeoutMs);
        socket = watchReservation(open, url, {
            onStatus: (frame) => {
                last = frame;
                options.onStatus?.(frame);
                const outcome = paymentOutcome(frame);
                if (outcome === 'PAID')
                    finish(null);
                else if (outcome)
                    finish(new PaymentWaitError(outcome, frame, `The payment did not go through: ${outcome} (reservation ${frame.status}, payment ${frame.paymentStatus ?? 'none'})`));
            },
            onState: (state, detail) => {
                if (state === 'closed' || state === 'failed')
                    finish(new PaymentWaitError('SOCKET_CLOSED', last, detail?.error?.message ?? `The status feed ended (${detail?.code ?? state})`));
            },
        });
        if (done)
            socket.close();
    });
}
