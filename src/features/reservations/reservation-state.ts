// The reservation state machine (CONTRACT section 7) as plain data and functions: one table of
// allowed transitions, one function that applies it. No I/O here.
import { RESERVATION_STATUSES, type ReservationStatus } from '../../db/schema';
import { invalidState, msg } from '../../errors';

export { RESERVATION_STATUSES, type ReservationStatus };

/** Each action, the statuses it may start from, and where it leads. */
export const TRANSITIONS = {
  PAY: { from: ['PENDING_PAYMENT'], to: 'PAID' },
  EXPIRE: { from: ['PENDING_PAYMENT'], to: 'EXPIRED' },
  ACCEPT: { from: ['PAID'], to: 'CONFIRMED' },
  REJECT: { from: ['PAID'], to: 'REJECTED' },
  CANCEL: { from: ['PENDING_PAYMENT', 'PAID', 'CONFIRMED'], to: 'CANCELLED' },
  DEPOSIT: { from: ['CONFIRMED'], to: 'DEPOSITED' },
  START_TRANSIT: { from: ['DEPOSITED'], to: 'IN_TRANSIT' },
  DELIVER: { from: ['DEPOSITED', 'IN_TRANSIT'], to: 'DELIVERED' },
  OPEN_DISPUTE: { from: ['DEPOSITED', 'IN_TRANSIT', 'DELIVERED'], to: 'DISPUTED' },
  RESOLVE_RELEASE: { from: ['DISPUTED'], to: 'DELIVERED' },
  RESOLVE_REFUND: { from: ['DISPUTED'], to: 'REFUNDED' },
} as const satisfies Record<string, { from: readonly ReservationStatus[]; to: ReservationStatus }>;

export type ReservationAction = keyof typeof TRANSITIONS;
export const RESERVATION_ACTIONS = Object.keys(TRANSITIONS) as ReservationAction[];

/** A dispute on a DELIVERED reservation may be opened only within this window. */
export const DISPUTE_WINDOW_AFTER_DELIVERY_MS = 72 * 60 * 60 * 1000;

/** Statuses of a reservation still in progress: its trip cannot be deleted (PAID or later, not finished). */
export const IN_PROGRESS_PAID_STATUSES: readonly ReservationStatus[] = ['PAID', 'CONFIRMED', 'DEPOSITED', 'IN_TRANSIT', 'DISPUTED'];

export function canApply(status: ReservationStatus, action: ReservationAction): boolean {
  return (TRANSITIONS[action].from as readonly ReservationStatus[]).includes(status);
}

/** The status `action` leads to from `status`, or 409 INVALID_STATE. */
export function applyTransition(status: ReservationStatus, action: ReservationAction): ReservationStatus {
  if (!canApply(status, action)) {
    throw invalidState('reservation.actionNotAllowed', { action: describeAction(action), status }, {
      suggestions: [msg('reservation.allowedFrom', { transitions: TRANSITIONS[action].from.join(', ') })],
    });
  }
  return TRANSITIONS[action].to;
}

export function describeAction(action: ReservationAction): string {
  return action.toLowerCase().replace(/_/g, ' ');
}
