// The cancellation table of CONTRACT section 22 as one pure function: every cell, the exact
// boundaries (72 h and 24 h), the cases outside the table, the kept split and the premium.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANCELLATION_POLICIES, type CancellationPolicy } from '../src/db/schema';
import { AppError } from '../src/errors';
import {
  cancellationOutcome,
  departureInstant,
  outcomeForReservation,
  windowIndex,
  type CancellationInput,
} from '../src/features/bookings/cancellation-policy';
import { refundEscrow } from '../src/features/money/ledger/posting-rules';
import { aReservationMoney } from './helpers/factories';

const H = 3_600_000;
// 100.00 total, 15.00 commission, 85.00 the carrier's share.
const money = { totalCents: 10_000, commissionCents: 1_500, carrierCents: 8_500 };
const confirmedBySender = (policy: CancellationPolicy, msBeforeDeparture: number): CancellationInput => ({
  policy,
  by: 'SENDER',
  status: 'CONFIRMED',
  msBeforeDeparture,
  money,
});
const refundOf = (policy: CancellationPolicy, ms: number) => cancellationOutcome(confirmedBySender(policy, ms));

describe('the table of section 22 (sender, CONFIRMED)', () => {
  // [policy, hours before departure, refund, kept commission, kept carrier share, rule]
  const FULL = [10_000, 0, 0] as const;
  const MINUS_COMMISSION = [8_500, 1_500, 0] as const;
  const HALF_CARRIER = [4_250, 1_500, 4_250] as const;
  const NOTHING = [0, 1_500, 8_500] as const;
  const cells: [CancellationPolicy, number, readonly [number, number, number], string][] = [
    ['FLEXIBLE', 100, FULL, 'DEPARTURE_72H_OR_MORE'],
    ['FLEXIBLE', 48, FULL, 'DEPARTURE_24_TO_72H'],
    ['FLEXIBLE', 5, MINUS_COMMISSION, 'DEPARTURE_UNDER_24H'],
    ['MODERATE', 100, FULL, 'DEPARTURE_72H_OR_MORE'],
    ['MODERATE', 48, MINUS_COMMISSION, 'DEPARTURE_24_TO_72H'],
    ['MODERATE', 5, HALF_CARRIER, 'DEPARTURE_UNDER_24H'],
    ['STRICT', 100, MINUS_COMMISSION, 'DEPARTURE_72H_OR_MORE'],
    ['STRICT', 48, HALF_CARRIER, 'DEPARTURE_24_TO_72H'],
    ['STRICT', 5, NOTHING, 'DEPARTURE_UNDER_24H'],
  ];
  it.each(cells)('%s, %i h before departure', (policy, hours, [refund, commission, carrier], rule) => {
    const o = refundOf(policy, hours * H);
    expect(o).toEqual({
      paid: true,
      refundCents: refund,
      keptCents: commission + carrier,
      keptCommissionCents: commission,
      keptCarrierCents: carrier,
      keptPremiumCents: 0,
      rule,
    });
    expect(o.refundCents + o.keptCents).toBe(money.totalCents);
  });

  it('72 h exactly is the first column, one millisecond less the second', () => {
    expect(windowIndex(72 * H)).toBe(0);
    expect(windowIndex(72 * H - 1)).toBe(1);
    expect(refundOf('MODERATE', 72 * H).refundCents).toBe(10_000);
    expect(refundOf('MODERATE', 72 * H - 1).refundCents).toBe(8_500);
    expect(refundOf('STRICT', 72 * H).rule).toBe('DEPARTURE_72H_OR_MORE');
    expect(refundOf('STRICT', 72 * H - 1).rule).toBe('DEPARTURE_24_TO_72H');
  });

  it('24 h exactly is the middle column, one millisecond less the last', () => {
    expect(windowIndex(24 * H)).toBe(1);
    expect(windowIndex(24 * H - 1)).toBe(2);
    expect(refundOf('FLEXIBLE', 24 * H).refundCents).toBe(10_000);
    expect(refundOf('FLEXIBLE', 24 * H - 1).refundCents).toBe(8_500);
    expect(refundOf('STRICT', 24 * H).refundCents).toBe(4_250);
    expect(refundOf('STRICT', 24 * H - 1).refundCents).toBe(0);
  });

  it('after departure (before deposit) is still the last column', () => {
    expect(refundOf('MODERATE', -5 * H)).toMatchObject({ refundCents: 4_250, rule: 'DEPARTURE_UNDER_24H' });
  });

  it('half of an odd carrier share: the odd minor unit goes back to the sender', () => {
    const o = cancellationOutcome({ ...confirmedBySender('MODERATE', H), money: { totalCents: 1_001, commissionCents: 150, carrierCents: 851 } });
    expect(o).toMatchObject({ refundCents: 426, keptCommissionCents: 150, keptCarrierCents: 425, keptCents: 575 });
  });

  it('a zero-decimal currency (XOF, whole francs) splits in whole units too', () => {
    const o = cancellationOutcome({ ...confirmedBySender('STRICT', 30 * H), money: { totalCents: 15_000, commissionCents: 2_250, carrierCents: 12_750 } });
    expect(o).toMatchObject({ refundCents: 6_375, keptCommissionCents: 2_250, keptCarrierCents: 6_375 });
  });
});

describe('outside the table', () => {
  it.each(CANCELLATION_POLICIES)('%s: the carrier cancelling always refunds in full, even under 24 h', (policy) => {
    const o = cancellationOutcome({ ...confirmedBySender(policy, H), by: 'CARRIER' });
    expect(o).toMatchObject({ refundCents: 10_000, keptCents: 0, rule: 'CARRIER_CANCELLATION' });
  });

  it.each(CANCELLATION_POLICIES)('%s: the sender before CONFIRMED (PAID) is refunded in full', (policy) => {
    const o = cancellationOutcome({ ...confirmedBySender(policy, H), status: 'PAID' });
    expect(o).toMatchObject({ refundCents: 10_000, keptCents: 0, rule: 'NOT_CONFIRMED' });
  });

  it('after a change of the trip the sender is refunded in full (section 19)', () => {
    const o = cancellationOutcome({ ...confirmedBySender('STRICT', H), tripChanged: true });
    expect(o).toMatchObject({ refundCents: 10_000, keptCents: 0, rule: 'TRIP_CHANGED' });
  });

  it('unpaid: nothing to refund or keep', () => {
    expect(cancellationOutcome({ ...confirmedBySender('STRICT', H), status: 'PENDING_PAYMENT' })).toMatchObject({
      paid: false,
      refundCents: 0,
      keptCents: 0,
      rule: 'NOT_PAID',
    });
  });

  it.each(['DEPOSITED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED', 'REJECTED', 'EXPIRED', 'DISPUTED', 'REFUNDED'] as const)(
    '%s cannot be cancelled: 409 INVALID_STATE',
    (status) => {
      const thrown = (() => {
        try {
          cancellationOutcome({ ...confirmedBySender('FLEXIBLE', 100 * H), status });
        } catch (e) {
          return e;
        }
      })();
      expect(thrown).toBeInstanceOf(AppError);
      expect(thrown).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    },
  );
});

describe('the protection premium', () => {
  const withPremium = { ...money, premiumCents: 300 };
  it('goes back whenever the transport price goes back in full', () => {
    expect(cancellationOutcome({ ...confirmedBySender('FLEXIBLE', 100 * H), money: withPremium })).toMatchObject({ refundCents: 10_300, keptCents: 0 });
    expect(cancellationOutcome({ ...confirmedBySender('STRICT', H), by: 'CARRIER', money: withPremium })).toMatchObject({ refundCents: 10_300 });
  });
  it('is kept otherwise', () => {
    expect(cancellationOutcome({ ...confirmedBySender('MODERATE', 48 * H), money: withPremium })).toMatchObject({
      refundCents: 8_500,
      keptCents: 1_800,
      keptPremiumCents: 300,
    });
  });
});

describe('properties', () => {
  const inputs = fc.record({
    policy: fc.constantFrom(...CANCELLATION_POLICIES),
    by: fc.constantFrom('SENDER' as const, 'CARRIER' as const),
    status: fc.constantFrom('PAID' as const, 'CONFIRMED' as const),
    msBeforeDeparture: fc.integer({ min: -100 * H, max: 400 * H }),
    tripChanged: fc.boolean(),
    total: fc.integer({ min: 1, max: 50_000_000 }),
    rate: fc.double({ min: 0, max: 0.5, noNaN: true }),
    premium: fc.integer({ min: 0, max: 100_000 }),
  });
  it('refund and kept always add up to what was paid; the refund never grows as departure nears', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const commissionCents = Math.round(i.total * i.rate);
        const m = { totalCents: i.total, commissionCents, carrierCents: i.total - commissionCents, premiumCents: i.premium };
        const input: CancellationInput = { policy: i.policy, by: i.by, status: i.status, msBeforeDeparture: i.msBeforeDeparture, tripChanged: i.tripChanged, money: m };
        const o = cancellationOutcome(input);
        expect(o.refundCents + o.keptCents).toBe(i.total + i.premium);
        expect(o.keptCents).toBe(o.keptCommissionCents + o.keptCarrierCents + o.keptPremiumCents);
        expect(Math.min(o.refundCents, o.keptCommissionCents, o.keptCarrierCents, o.keptPremiumCents)).toBeGreaterThanOrEqual(0);
        // "the commission is kept whenever the refund is not full"
        if (o.refundCents < i.total + i.premium) expect(o.keptCommissionCents).toBe(commissionCents);
        const later = cancellationOutcome({ ...input, msBeforeDeparture: i.msBeforeDeparture - 24 * H });
        expect(later.refundCents).toBeLessThanOrEqual(o.refundCents);
        // The ledger can post it: the posting balances.
        const posting = refundEscrow(aReservationMoney({ totalAmountCents: i.total, platformCommissionCents: commissionCents, carrierAmountCents: i.total - commissionCents }), o.refundCents - (o.refundCents > i.total ? i.premium : 0), 'REFUND', o.keptCarrierCents);
        expect(posting.lines.reduce((s, l) => s + l.amountCents, 0)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a stored reservation', () => {
  const row = {
    status: 'CONFIRMED' as const,
    cancellationPolicy: 'MODERATE' as const,
    departureDate: '2030-06-10',
    tripChangedAt: null,
    totalAmountCents: 10_000,
    platformCommissionCents: 1_500,
    carrierAmountCents: 8_500,
  };
  it('counts to the start of the departure day in UTC', () => {
    expect(departureInstant('2030-06-10')).toBe(Date.UTC(2030, 5, 10));
    expect(outcomeForReservation(row, 'SENDER', new Date('2030-06-07T00:00:00Z')).rule).toBe('DEPARTURE_72H_OR_MORE');
    expect(outcomeForReservation(row, 'SENDER', new Date('2030-06-07T00:00:00.001Z')).rule).toBe('DEPARTURE_24_TO_72H');
    expect(outcomeForReservation(row, 'SENDER', new Date('2030-06-09T00:00:00.001Z')).rule).toBe('DEPARTURE_UNDER_24H');
  });
  it('a trip changed under it refunds in full until departure', () => {
    expect(outcomeForReservation({ ...row, tripChangedAt: '2030-06-01T00:00:00Z' }, 'SENDER', new Date('2030-06-09T12:00:00Z')).rule).toBe('TRIP_CHANGED');
  });
});

describe('the ledger posting of a policy cancellation', () => {
  it("the sender's refund to the card, the commission to revenue, the carrier's kept share to the payee's wallet", () => {
    const p = refundEscrow(aReservationMoney(), 2125, 'HOLD_RELEASE', 2125);
    expect(Object.fromEntries(p.lines.map((l) => [l.account.key, l.amountCents]))).toEqual({
      ESCROW: -5000,
      PROVIDER_CLEARING: 2125,
      PLATFORM_REVENUE: 750,
      'WALLET:USER:2': 2125,
    });
    expect(p.transactions).toEqual([
      { owner: { type: 'USER', id: 1 }, type: 'HOLD_RELEASE', amountCents: 2125 },
      { owner: { type: 'USER', id: 2 }, type: 'EARNING', amountCents: 2125 },
    ]);
  });
  it("an agency's trip: the kept share goes to the agency's wallet", () => {
    const p = refundEscrow(aReservationMoney({ agencyId: 9 }), 0, 'REFUND', 4250);
    expect(p.lines.find((l) => l.account.kind === 'WALLET')).toMatchObject({ account: { key: 'WALLET:AGENCY:9' }, amountCents: 4250 });
  });
  it('refuses a kept share larger than what is not refunded', () => {
    expect(() => refundEscrow(aReservationMoney(), 4250, 'REFUND', 751)).toThrow();
    expect(() => refundEscrow(aReservationMoney(), 0, 'REFUND', -1)).toThrow();
  });
});

describe('cancellationRate rounding', () => {
  it('a fraction with 2 decimals, half up; 0 when nothing counts', async () => {
    const { cancellationRate } = await import('../src/features/users/cancellation-rate');
    expect(cancellationRate(0, 0)).toBe(0);
    expect(cancellationRate(1, 3)).toBe(0.33);
    expect(cancellationRate(2, 3)).toBe(0.67);
    expect(cancellationRate(1, 8)).toBe(0.13);
    expect(cancellationRate(5, 5)).toBe(1);
  });
});
