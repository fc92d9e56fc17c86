// Every cell of the cancellation table of CONTRACT section 22 in every configured currency: a
// random price in the currency's own unit (weight x price per kg, the commission at a random rate,
// as a booking splits it), cancelled in each window of each policy. The outcome is in the
// currency's minor units: refund and kept add up to what was paid, the commission is kept whenever
// the refund is not full, the kept carrier share is the cell's fraction (half rounds towards the
// sender), and every amount shown at the edge has at most the currency's decimals.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANCELLATION_POLICIES, type CancellationPolicy } from '../src/db/schema';
import { cancellationOutcome } from '../src/features/bookings/cancellation-policy';
import { fromMinor, money } from '../src/lib/amount';
import { DEFAULT_CURRENCIES, minorUnitOf } from '../src/lib/currency';
import { commissionMinor, priceMinor } from '../src/lib/splits';

const H = 3_600_000;
/** Hours before departure inside each window of the table: 72 h or more, 24-72 h, under 24 h. */
const WINDOWS = [{ from: 72, to: 24 * 30 }, { from: 24, to: 72 - 1e-6 }, { from: -48, to: 24 - 1e-6 }] as const;
/** What the sender loses in each cell: nothing, the commission, half the carrier share too, or all. */
type Loss = 'NONE' | 'COMMISSION' | 'HALF_CARRIER' | 'ALL';
const TABLE: Record<CancellationPolicy, [Loss, Loss, Loss]> = {
  FLEXIBLE: ['NONE', 'NONE', 'COMMISSION'],
  MODERATE: ['NONE', 'COMMISSION', 'HALF_CARRIER'],
  STRICT: ['COMMISSION', 'HALF_CARRIER', 'ALL'],
};

const decimalsOf = (text: string) => (text.includes('.') ? text.split('.')[1].length : 0);

describe('the cancellation table in every configured currency', () => {
  for (const currency of DEFAULT_CURRENCIES) {
    for (const policy of CANCELLATION_POLICIES) {
      WINDOWS.forEach((window, w) => {
        it(`${currency} ${policy}, window ${w}: ${TABLE[policy][w]}`, () => {
          fc.assert(
            fc.property(
              fc.integer({ min: 1, max: 100_000 }), // grams
              fc.integer({ min: 1, max: 5_000_000 }), // price per kg, minor units
              fc.double({ min: 0, max: 0.4, noNaN: true }),
              fc.double({ min: window.from, max: window.to, noNaN: true }),
              (weightG, pricePerKgMinor, rate, hours) => {
                const totalCents = priceMinor(weightG, pricePerKgMinor);
                fc.pre(totalCents > 0);
                const commissionCents = commissionMinor(totalCents, rate);
                const carrierCents = totalCents - commissionCents;
                const o = cancellationOutcome({
                  policy,
                  by: 'SENDER',
                  status: 'CONFIRMED',
                  msBeforeDeparture: hours * H,
                  money: { totalCents, commissionCents, carrierCents },
                });
                const loss = TABLE[policy][w];
                const keptCarrier = loss === 'ALL' ? carrierCents : loss === 'HALF_CARRIER' ? Math.floor(carrierCents / 2) : 0;
                const keptCommission = loss === 'NONE' ? 0 : commissionCents;
                expect(o.keptCarrierCents).toBe(keptCarrier);
                expect(o.keptCommissionCents).toBe(keptCommission);
                expect(o.refundCents).toBe(totalCents - keptCommission - keptCarrier);
                expect(o.refundCents + o.keptCents).toBe(totalCents);
                for (const minor of [o.refundCents, o.keptCents, o.keptCarrierCents, o.keptCommissionCents]) {
                  expect(Number.isInteger(minor)).toBe(true);
                  expect(decimalsOf(String(fromMinor(money(minor, currency))))).toBeLessThanOrEqual(minorUnitOf(currency));
                }
              },
            ),
            { numRuns: 60 },
          );
        });
      });
    }
  }
});
