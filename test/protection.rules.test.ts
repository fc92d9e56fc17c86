// The protection option's pure rules (CONTRACT section 21): the premium in every currency, the
// configuration of its limits, the booking's check of declared values, and the ledger side:
// premiums, refunds of premiums and protection payouts balance, the reserve never goes negative.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { CURRENCY_CODES, minorPerMajor, type CurrencyCode } from '../src/lib/currency';
import { DEFAULT_PROTECTION_LIMITS, DEFAULT_PROTECTION_RATE, parseProtectionLimits, protectionTerms } from '../src/lib/protection';
import { ACCOUNTS, accountKey, escrowPayment, premiumEarned, refundEscrow, type Posting } from '../src/features/money/ledger/posting-rules';
import { disputeSettlement } from '../src/features/disputes/dispute-rules';
import { protectionPayout } from '../src/features/disputes/protection-payout';
import { bookingProtection } from '../src/features/protection/protection.rules';
import { aReservationMoney } from './helpers/factories';

const config = { rate: DEFAULT_PROTECTION_RATE, limits: DEFAULT_PROTECTION_LIMITS };

describe('the premium, in every currency (3 %, default limits)', () => {
  // [currency, declared (minor units), premium, coverage]
  it.each<[CurrencyCode, number, number, number]>([
    ['EUR', 50_000, 1_500, 50_000], // 500.00 EUR: 15.00
    ['EUR', 123_450, 3_704, 123_450], // 1,234.50: 37.035 rounds half up to 37.04
    ['EUR', 500, 60, 500], // 5.00 is below the 20.00 minimum: premium on 20.00, cover 5.00
    ['EUR', 500_000, 6_000, 200_000], // 5,000.00 above the 2,000.00 maximum: both capped
    ['XOF', 100_000, 3_000, 100_000], // whole francs
    ['XOF', 100_017, 3_001, 100_017], // 3,000.51 francs rounds to 3,001
    ['XOF', 5_000, 390, 5_000], // below 13,000: premium on 13,000
    ['XOF', 2_000_000, 39_000, 1_300_000],
    ['XAF', 65_595, 1_968, 65_595], // 1,967.85 -> 1,968
    ['MAD', 150_000, 4_500, 150_000],
    ['MAD', 10_000, 600, 10_000], // below 200.00 MAD
    ['GBP', 99_999, 3_000, 99_999], // 2,999.97 pence -> 3,000
    ['GBP', 1_000_000, 5_100, 170_000],
    ['USD', 25_050, 752, 25_050], // 751.5 cents -> 752
    ['CAD', 1_000, 90, 1_000], // below 30.00 CAD
    ['CAD', 300_001, 9_000, 300_000],
    ['CHF', 40_000, 1_200, 40_000],
    ['GNF', 1_000_000, 30_000, 1_000_000],
  ])('%s %i -> premium %i, coverage %i', (currency, declared, premium, coverage) => {
    const t = protectionTerms(declared, currency, DEFAULT_PROTECTION_RATE, DEFAULT_PROTECTION_LIMITS[currency]);
    expect(t).toEqual({ declaredCents: declared, premiumCents: premium, coverageCents: coverage });
  });

  it('another rate and limits', () => {
    expect(protectionTerms(10_000, 'EUR', 0.05, { min: 0, max: 50 }).premiumCents).toBe(250); // on the 50.00 maximum
    expect(protectionTerms(10_000, 'EUR', 0, { min: 0, max: 50 }).premiumCents).toBe(0);
  });

  it('property: an integer premium of the counted value, within [min, max] x rate, the coverage never above the declared value or the maximum', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCY_CODES),
        fc.integer({ min: 1, max: 1e11 }),
        fc.integer({ min: 0, max: 999_999 }).map((ppm) => ppm / 1e6),
        (currency, declared, rate) => {
          const limit = DEFAULT_PROTECTION_LIMITS[currency];
          const unit = minorPerMajor(currency);
          const t = protectionTerms(declared, currency, rate, limit);
          expect(Number.isSafeInteger(t.premiumCents)).toBe(true);
          expect(t.coverageCents).toBe(Math.min(declared, limit.max * unit));
          const counted = Math.min(Math.max(declared, limit.min * unit), limit.max * unit);
          // Within half a minor unit of the exact premium.
          expect(Math.abs(t.premiumCents - counted * rate)).toBeLessThanOrEqual(0.5 + 1e-6);
        },
      ),
    );
  });

  it('refuses a declared value of zero and a rate of 1', () => {
    expect(() => protectionTerms(0, 'EUR', 0.03, DEFAULT_PROTECTION_LIMITS.EUR)).toThrow();
    expect(() => protectionTerms(100, 'EUR', 1, DEFAULT_PROTECTION_LIMITS.EUR)).toThrow();
  });
});

describe('PROTECTION_LIMITS', () => {
  it('overrides the currencies it names, keeps the others', () => {
    const limits = parseProtectionLimits('EUR:10:500, XOF:5000:300000')!;
    expect(limits.EUR).toEqual({ min: 10, max: 500 });
    expect(limits.XOF).toEqual({ min: 5000, max: 300_000 });
    expect(limits.GBP).toEqual(DEFAULT_PROTECTION_LIMITS.GBP);
    expect(parseProtectionLimits(undefined)).toEqual(DEFAULT_PROTECTION_LIMITS);
  });
  it.each(['EUR:20', 'EUR:500:20', 'EUR:0:0', 'ABC:1:2', 'EUR:1.5:20', 'eur:1:2'])('refuses %s', (value) => {
    expect(parseProtectionLimits(value)).toBeNull();
  });
});

describe('the booking check', () => {
  it('without protection: nothing, whatever was declared', () => {
    expect(bookingProtection(config, undefined, [null], 'EUR')).toEqual({ protectionPremiumCents: 0, protectionDeclaredCents: null, protectionCoverageCents: null });
    expect(bookingProtection(config, false, [1000], 'EUR').protectionPremiumCents).toBe(0);
  });
  it('with protection: the declared values add up', () => {
    expect(bookingProtection(config, true, [30_000, 20_000], 'EUR')).toEqual({ protectionPremiumCents: 1_500, protectionDeclaredCents: 50_000, protectionCoverageCents: 50_000 });
  });
  it('names each item without a declared value, or `protection` when they total zero', () => {
    const error = (declared: (number | null)[]) => {
      try {
        bookingProtection(config, true, declared, 'EUR');
      } catch (err) {
        return err as AppError;
      }
      throw new Error('no error');
    };
    const missing = error([1000, null, undefined as unknown as null]);
    expect(missing.errorCode).toBe('VALIDATION_ERROR');
    expect(missing.fieldErrors?.map((f) => f.field)).toEqual(['items[1].declaredValue', 'items[2].declaredValue']);
    expect(error([0, 0]).fieldErrors?.map((f) => f.field)).toEqual(['protection']);
  });
});

describe('the ledger: premiums, their refunds and protection payouts', () => {
  const protectedBooking = (total: number, premium: number) =>
    aReservationMoney({ totalAmountCents: total, platformCommissionCents: Math.round(total * 0.15), carrierAmountCents: total - Math.round(total * 0.15), protectionPremiumCents: premium });
  const lines = (p: Posting) => Object.fromEntries(p.lines.map((l) => [l.account.key, l.amountCents]));

  it('the payment puts the premium in the unearned premiums (not yet the reserve); the sender pays both', () => {
    const p = escrowPayment(protectedBooking(5000, 300));
    expect(lines(p)).toEqual({ PROVIDER_CLEARING: -5300, ESCROW: 5000, PROTECTION_PREMIUMS: 300 });
    expect(p.transactions).toEqual([{ owner: { type: 'USER', id: 1 }, type: 'PAYMENT', amountCents: -5300 }]);
  });
  it('a full refund of the price gives the premium back from the unearned premiums; a partial one keeps it (premiumEarned then hands it to the reserve)', () => {
    const r = protectedBooking(5000, 300);
    expect(lines(refundEscrow(r, 5000, 'REFUND'))).toEqual({ ESCROW: -5000, PROTECTION_PREMIUMS: -300, PROVIDER_CLEARING: 5300 });
    expect(lines(premiumEarned(r))).toEqual({ PROTECTION_PREMIUMS: -300, PROTECTION_RESERVE: 300 });
    expect(premiumEarned(r)).toMatchObject({ key: `premium-earned:${r.id}`, type: 'PROTECTION_PREMIUM_EARNED', transactions: [] });
    expect(refundEscrow(r, 5000, 'REFUND').transactions[0]!.amountCents).toBe(5300);
    expect(lines(refundEscrow(r, 4250, 'REFUND'))).toEqual({ ESCROW: -5000, PROVIDER_CLEARING: 4250, PLATFORM_REVENUE: 750 });
  });
  it('a payout beyond the reserve is funded by the platform, not from revenue', () => {
    const r = protectedBooking(5000, 300);
    expect(lines(protectionPayout(r, 9, 10_000, 300))).toEqual({ PROTECTION_RESERVE: -300, PROTECTION_FUNDING: -9_700, 'WALLET:USER:1': 10_000 });
    expect(lines(protectionPayout(r, 9, 200, 300))).toEqual({ PROTECTION_RESERVE: -200, 'WALLET:USER:1': 200 });
    expect(protectionPayout(r, 9, 200, 300).transactions).toEqual([{ owner: { type: 'USER', id: 1 }, type: 'PROTECTION_PAYOUT', amountCents: 200 }]);
  });
  it("a payout on a booking whose premium is still unearned hands that premium to the reserve in the same posting, then pays from it", () => {
    const r = protectedBooking(5000, 300);
    // Empty reserve: the booking's own 3.00 pays part of the cover, the platform the rest.
    expect(lines(protectionPayout(r, 9, 10_000, 0, 300))).toEqual({ PROTECTION_PREMIUMS: -300, PROTECTION_FUNDING: -9_700, 'WALLET:USER:1': 10_000 });
    // A payout below the premium: the rest of the premium stays in the reserve.
    expect(lines(protectionPayout(r, 9, 200, 0, 300))).toEqual({ PROTECTION_PREMIUMS: -300, PROTECTION_RESERVE: 100, 'WALLET:USER:1': 200 });
    // Reserve 5.00 and the premium 3.00 pay 8.00 of a 10.00 payout, the platform the other 2.00.
    expect(lines(protectionPayout(r, 9, 1_000, 500, 300))).toEqual({ PROTECTION_PREMIUMS: -300, PROTECTION_RESERVE: -500, PROTECTION_FUNDING: -200, 'WALLET:USER:1': 1_000 });
  });
  it('a dispute refund of a premium the reserve already earned is funded by the platform, the reserve untouched', () => {
    const r = protectedBooking(5000, 300);
    const base = { disputeId: 1, refundCents: 5000, rate: 0.15, frozenCents: null, moneyBack: 'REFUND' as const, premiumBackCents: 300 };
    expect(lines(disputeSettlement(r, base))).toMatchObject({ PROTECTION_PREMIUMS: -300, PROVIDER_CLEARING: 5300 });
    const funded = lines(disputeSettlement(r, { ...base, premiumEarned: true }));
    expect(funded).toMatchObject({ PROTECTION_FUNDING: -300, PROVIDER_CLEARING: 5300 });
    expect(funded).not.toHaveProperty('PROTECTION_RESERVE');
    expect(funded).not.toHaveProperty('PROTECTION_PREMIUMS');
  });

  it('property: any sequence of protected bookings, refunds and payouts balances, the reserve never below zero', () => {
    const step = fc.record({
      total: fc.integer({ min: 100, max: 1_000_000 }),
      premium: fc.integer({ min: 0, max: 50_000 }),
      end: fc.constantFrom('FULL_REFUND', 'PARTIAL_REFUND', 'DISPUTE_REFUND', 'PAYOUT'),
      part: fc.double({ min: 0, max: 1, noNaN: true }),
      payout: fc.integer({ min: 1, max: 5_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const balances = new Map<string, number>();
        const apply = (p: Posting) => {
          for (const l of p.lines) balances.set(accountKey(l.account, p.currency), (balances.get(accountKey(l.account, p.currency)) ?? 0) + l.amountCents);
        };
        const reserve = () => balances.get(accountKey(ACCOUNTS.reserve, 'EUR')) ?? 0;
        const premiums = () => balances.get(accountKey(ACCOUNTS.premiums, 'EUR')) ?? 0;
        steps.forEach((s, i) => {
          const r = { ...protectedBooking(s.total, s.premium), id: i + 1 };
          apply(escrowPayment(r));
          if (s.end === 'FULL_REFUND') apply(refundEscrow(r, r.totalAmountCents, 'REFUND'));
          else if (s.end === 'PARTIAL_REFUND') {
            apply(refundEscrow(r, Math.floor(r.totalAmountCents * s.part * 0.99), 'REFUND'));
            apply(premiumEarned(r));
          }
          else if (s.end === 'DISPUTE_REFUND')
            apply(disputeSettlement(r, { disputeId: i, refundCents: r.totalAmountCents, rate: 0.15, frozenCents: null, moneyBack: 'REFUND', premiumBackCents: s.premium }));
          else {
            // PROTECTION_PAYOUT: the price back, the premium earned, the cover paid from the reserve first.
            apply(disputeSettlement(r, { disputeId: i, refundCents: r.totalAmountCents, rate: 0.15, frozenCents: null, moneyBack: 'REFUND' }));
            apply(protectionPayout(r, i, s.payout, reserve(), s.premium));
          }
          expect(reserve()).toBeGreaterThanOrEqual(0);
          expect(premiums()).toBe(0);
        });
        expect([...balances.values()].reduce((a, b) => a + b, 0)).toBe(0);
        // The reserve holds exactly the premiums kept, less what payouts took from it.
        expect(reserve()).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
