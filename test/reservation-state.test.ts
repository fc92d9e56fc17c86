// The pure rules of reservations: every (status, action) pair of the state machine, the refund
// owed on cancellation, and the random identifiers.
import { describe, expect, it } from 'vitest';
import {
  newRecipientToken,
  newReservationNumber,
  newSixDigitCode,
  refundForCancellation,
  RESERVATION_NUMBER_PATTERN,
} from '../src/features/bookings/booking-rules';
import {
  applyTransition,
  canApply,
  RESERVATION_ACTIONS,
  RESERVATION_STATUSES,
  type ReservationAction,
  type ReservationStatus,
} from '../src/features/reservations/reservation-state';
import { AppError } from '../src/errors';

// CONTRACT section 7, written out independently of TRANSITIONS: the allowed pairs and their target.
const ALLOWED: Partial<Record<ReservationStatus, Partial<Record<ReservationAction, ReservationStatus>>>> = {
  PENDING_PAYMENT: { PAY: 'PAID', EXPIRE: 'EXPIRED', CANCEL: 'CANCELLED' },
  PAID: { ACCEPT: 'CONFIRMED', REJECT: 'REJECTED', CANCEL: 'CANCELLED' },
  CONFIRMED: { DEPOSIT: 'DEPOSITED', CANCEL: 'CANCELLED' },
  DEPOSITED: { START_TRANSIT: 'IN_TRANSIT', DELIVER: 'DELIVERED', OPEN_DISPUTE: 'DISPUTED' },
  IN_TRANSIT: { DELIVER: 'DELIVERED', OPEN_DISPUTE: 'DISPUTED' },
  DELIVERED: { OPEN_DISPUTE: 'DISPUTED' },
  DISPUTED: { RESOLVE_RELEASE: 'DELIVERED', RESOLVE_REFUND: 'REFUNDED' },
};

const pairs = RESERVATION_STATUSES.flatMap((status) =>
  RESERVATION_ACTIONS.map((action) => ({ status, action, to: ALLOWED[status]?.[action] ?? null })),
);

describe('reservation state machine', () => {
  it('covers all 11 statuses and 11 actions (121 pairs)', () => {
    expect(RESERVATION_STATUSES).toHaveLength(11);
    expect(RESERVATION_ACTIONS).toHaveLength(11);
    expect(pairs).toHaveLength(121);
    expect(pairs.filter((p) => p.to).length).toBe(16);
  });

  it.each(pairs.filter((p) => p.to))('$status --$action--> $to', ({ status, action, to }) => {
    expect(canApply(status, action)).toBe(true);
    expect(applyTransition(status, action)).toBe(to);
  });

  it.each(pairs.filter((p) => !p.to))('$status refuses $action with 409 INVALID_STATE', ({ status, action }) => {
    expect(canApply(status, action)).toBe(false);
    let thrown: unknown;
    try {
      applyTransition(status, action);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).errorCode).toBe('INVALID_STATE');
    expect((thrown as AppError).status).toBe(409);
    expect((thrown as AppError).message).toContain(status);
  });

  it('terminal statuses accept no action at all', () => {
    for (const status of ['REJECTED', 'CANCELLED', 'EXPIRED', 'REFUNDED'] as const) {
      expect(RESERVATION_ACTIONS.filter((a) => canApply(status, a))).toEqual([]);
    }
  });
});

describe('refundForCancellation', () => {
  const amounts = { totalAmountCents: 2_500, platformCommissionCents: 375 };
  const table: [ReservationStatus, 'SENDER' | 'CARRIER' | 'SYSTEM', { paid: boolean; refundCents: number; retainedCents: number }][] = [
    ['PENDING_PAYMENT', 'SENDER', { paid: false, refundCents: 0, retainedCents: 0 }],
    ['PENDING_PAYMENT', 'CARRIER', { paid: false, refundCents: 0, retainedCents: 0 }],
    ['PAID', 'SENDER', { paid: true, refundCents: 2_500, retainedCents: 0 }],
    ['PAID', 'CARRIER', { paid: true, refundCents: 2_500, retainedCents: 0 }],
    ['PAID', 'SYSTEM', { paid: true, refundCents: 2_500, retainedCents: 0 }],
    ['CONFIRMED', 'SENDER', { paid: true, refundCents: 2_125, retainedCents: 375 }],
    ['CONFIRMED', 'CARRIER', { paid: true, refundCents: 2_500, retainedCents: 0 }],
  ];
  it.each(table)('%s cancelled by %s', (status, actor, expected) => {
    expect(refundForCancellation(status, actor, amounts)).toEqual(expected);
  });

  it.each(['DEPOSITED', 'IN_TRANSIT', 'DELIVERED', 'DISPUTED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'REFUNDED'] as const)(
    'nothing to refund from %s: 409 INVALID_STATE',
    (status) => {
      expect(() => refundForCancellation(status, 'SENDER', amounts)).toThrow(
        expect.objectContaining({ errorCode: 'INVALID_STATE', status: 409, message: `A reservation in status ${status} can no longer be cancelled` }),
      );
    },
  );

  it('refund and retained commission always add up to the total', () => {
    for (let total = 0; total < 3_000; total += 7) {
      const commission = Math.round(total * 0.15);
      const d = refundForCancellation('CONFIRMED', 'SENDER', { totalAmountCents: total, platformCommissionCents: commission });
      expect(d.refundCents + d.retainedCents).toBe(total);
    }
  });
});

describe('reservation identifiers', () => {
  it('reservation numbers are PX- and 8 unambiguous characters, and do not repeat', () => {
    const numbers = Array.from({ length: 2_000 }, newReservationNumber);
    for (const n of numbers) expect(n).toMatch(RESERVATION_NUMBER_PATTERN);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers.join('')).not.toMatch(/[01OIL]/);
  });

  it('codes are 6 digits and use the whole range', () => {
    const codes = Array.from({ length: 2_000 }, newSixDigitCode);
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    expect(new Set(codes.map((c) => c[0])).size).toBe(10);
  });

  it('recipient tokens are 43 base64url characters (256 bits)', () => {
    const t = newRecipientToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newRecipientToken()).not.toBe(t);
  });
});
