// The pure rules of reservations: every (status, action) pair of the state machine, the refund
// owed on cancellation, and the random identifiers.
import { describe, expect, it } from 'vitest';
import { cancellationOutcome } from '../src/features/bookings/cancellation-policy';
import {
  newRecipientToken,
  newReservationNumber,
  newSixDigitCode,
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

describe('one refund rule for every way a booking ends (cancellationOutcome)', () => {
  const money = { totalCents: 2_500, commissionCents: 375, carrierCents: 2_125 };
  const ending = (status: ReservationStatus, by: 'SENDER' | 'CARRIER', policy: 'FLEXIBLE' | 'STRICT' = 'STRICT', hours = 1) =>
    cancellationOutcome({ policy, by, status, msBeforeDeparture: hours * 3_600_000, money });
  it.each([
    ['PENDING_PAYMENT', 'SENDER', false, 0],
    ['PENDING_PAYMENT', 'CARRIER', false, 0],
    // The carrier's side (a rejection, no answer in 24 hours, a suspension, a removed trip): all back.
    ['PAID', 'CARRIER', true, 2_500],
    ['CONFIRMED', 'CARRIER', true, 2_500],
    // The sender before the carrier confirmed: all back, whatever the policy.
    ['PAID', 'SENDER', true, 2_500],
    // The sender after: the policy's table (STRICT under 24 hours keeps everything).
    ['CONFIRMED', 'SENDER', true, 0],
  ] as const)('%s ended by %s', (status, by, paid, refund) => {
    const o = ending(status, by);
    expect({ paid: o.paid, refundCents: o.refundCents }).toEqual({ paid, refundCents: refund });
    expect(o.refundCents + o.keptCents).toBe(paid ? 2_500 : 0);
  });

  it('the carrier side refunds the protection premium with the price', () => {
    const o = cancellationOutcome({ policy: 'STRICT', by: 'CARRIER', status: 'CONFIRMED', msBeforeDeparture: 0, money: { ...money, premiumCents: 200 } });
    expect(o).toMatchObject({ refundCents: 2_700, keptCents: 0, keptPremiumCents: 0, rule: 'CARRIER_CANCELLATION' });
  });

  it.each(['DEPOSITED', 'IN_TRANSIT', 'DELIVERED', 'DISPUTED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'REFUNDED'] as const)(
    'nothing to refund from %s: 409 INVALID_STATE',
    (status) => {
      expect(() => ending(status, 'CARRIER')).toThrow(
        expect.objectContaining({ errorCode: 'INVALID_STATE', status: 409, message: `A reservation in status ${status} can no longer be cancelled` }),
      );
    },
  );

  it('refunded and kept always add up to the total, under every policy and window', () => {
    for (let total = 1; total < 3_000; total += 7) {
      const commission = Math.round(total * 0.15);
      for (const policy of ['FLEXIBLE', 'MODERATE', 'STRICT'] as const) {
        for (const hours of [100, 48, 2]) {
          const o = cancellationOutcome({ policy, by: 'SENDER', status: 'CONFIRMED', msBeforeDeparture: hours * 3_600_000, money: { totalCents: total, commissionCents: commission, carrierCents: total - commission } });
          expect(o.refundCents + o.keptCents).toBe(total);
          expect(o.keptCommissionCents + o.keptCarrierCents + o.keptPremiumCents).toBe(o.keptCents);
        }
      }
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
