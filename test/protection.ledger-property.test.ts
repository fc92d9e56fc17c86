// Ledger property tests of the protection option (CONTRACT section 21), in every configured
// currency: protected bookings paid (the premium from protectionTerms into the reserve), then ended
// in any order by a full refund (the premium back), a partial refund (the premium kept), a dispute
// refund with or without the premium, a delivery, or a PROTECTION_PAYOUT (the price back, the cover
// paid from the reserve first, the platform funding the rest). Booking after booking, after every
// posting the reserve of each currency is never negative; at the end every currency's entries sum
// to zero, the escrow is empty, and the reserve is exactly the premiums kept less what payouts
// took from it. Bookings overlapping in time expose a gap (the `it.fails` at the end).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, type CurrencyCode } from '../src/lib/currency';
import { DEFAULT_PROTECTION_LIMITS, protectionTerms } from '../src/lib/protection';
import { ACCOUNTS, escrowPayment, refundEscrow, releaseEscrow, type Posting, type ReservationMoney } from '../src/features/money/ledger/posting-rules';
import { disputeSettlement } from '../src/features/disputes/dispute-rules';
import { protectionPayout } from '../src/features/disputes/protection-payout';

type End = 'FULL_REFUND' | 'PARTIAL_REFUND' | 'DISPUTE_REFUND_PREMIUM' | 'DISPUTE_REFUND' | 'DELIVERED' | 'PAYOUT';

interface Booking {
  total: number;
  declared: number | null;
  rate: number;
  end: End;
  part: number;
  payoutShare: number;
  paidAt: number;
  endsAfter: number;
}

const booking: fc.Arbitrary<Booking> = fc.record({
  total: fc.integer({ min: 100, max: 50_000_000 }),
  declared: fc.option(fc.integer({ min: 1, max: 5e9 }), { nil: null }), // null: not protected
  rate: fc.integer({ min: 0, max: 200_000 }).map((ppm) => ppm / 1e6),
  end: fc.constantFrom<End>('FULL_REFUND', 'PARTIAL_REFUND', 'DISPUTE_REFUND_PREMIUM', 'DISPUTE_REFUND', 'DELIVERED', 'PAYOUT'),
  part: fc.double({ min: 0, max: 0.99, noNaN: true }),
  payoutShare: fc.double({ min: 0.000_001, max: 1, noNaN: true }),
  // When the booking is paid and, later, ended: the events of all bookings interleave.
  paidAt: fc.integer({ min: 0, max: 1000 }),
  endsAfter: fc.integer({ min: 1, max: 1000 }),
});

/**
 * Runs the bookings' events over an in-memory ledger; returns what to check. `interleaved`: the
 * events of all bookings in time order (paidAt, endsAfter); otherwise each booking is ended before
 * the next is paid. `reserveFloor`: assert the reserve never below zero after each posting.
 */
function run(bookings: Booking[], currencies: CurrencyCode[], { interleaved = true, reserveFloor = true } = {}) {
  const balances = new Map<string, number>(); // `${currency}|${account}`
  const bal = (currency: string, account: string) => balances.get(`${currency}|${account}`) ?? 0;
  const expectedReserve = new Map<string, number>();
  const addExpected = (currency: string, cents: number) => expectedReserve.set(currency, (expectedReserve.get(currency) ?? 0) + cents);
  const apply = (p: Posting) => {
    expect(p.lines.reduce((s, l) => s + l.amountCents, 0)).toBe(0);
    for (const l of p.lines) balances.set(`${p.currency}|${l.account.key}`, bal(p.currency, l.account.key) + l.amountCents);
    if (reserveFloor) for (const c of currencies) expect(bal(c, ACCOUNTS.reserve.key)).toBeGreaterThanOrEqual(0);
  };
  const rows = bookings.map((b, i) => {
    const currency = currencies[i % currencies.length]!;
    const terms = b.declared === null ? null : protectionTerms(b.declared, currency, b.rate, DEFAULT_PROTECTION_LIMITS[currency]);
    const commission = Math.round(b.total * 0.15);
    const r: ReservationMoney = {
      id: i + 1,
      reservationNumber: `R-${i + 1}`,
      senderId: 1000 + i,
      carrierId: 2000 + i,
      agencyId: null,
      totalAmountCents: b.total,
      platformCommissionCents: commission,
      carrierAmountCents: b.total - commission,
      currency,
      protectionPremiumCents: terms?.premiumCents ?? 0,
    };
    return { b, r, terms };
  });
  const events = rows.flatMap((row) => [
    { at: row.b.paidAt * 2, row, kind: 'PAY' as const },
    { at: (row.b.paidAt + row.b.endsAfter) * 2 + 1, row, kind: 'END' as const },
  ]);
  if (interleaved) events.sort((x, y) => x.at - y.at || x.row.r.id - y.row.r.id);
  for (const { row, kind } of events) {
    const { b, r, terms } = row;
    const premium = r.protectionPremiumCents ?? 0;
    if (kind === 'PAY') {
      apply(escrowPayment(r));
      addExpected(r.currency, premium);
      continue;
    }
    const settle = (premiumBackCents: number) =>
      disputeSettlement(r, { disputeId: r.id, refundCents: r.totalAmountCents, rate: 0.15, frozenCents: null, moneyBack: 'REFUND', premiumBackCents });
    if (b.end === 'FULL_REFUND') {
      apply(refundEscrow(r, r.totalAmountCents, 'REFUND'));
      addExpected(r.currency, -premium);
    } else if (b.end === 'PARTIAL_REFUND') {
      apply(refundEscrow(r, Math.floor(r.totalAmountCents * b.part), 'REFUND'));
    } else if (b.end === 'DISPUTE_REFUND_PREMIUM') {
      apply(settle(premium));
      addExpected(r.currency, -premium);
    } else if (b.end === 'DISPUTE_REFUND') {
      apply(settle(0));
    } else if (b.end === 'DELIVERED') {
      apply(releaseEscrow(r));
    } else {
      apply(settle(0));
      if (terms !== null) {
        const amount = Math.max(1, Math.floor(terms.coverageCents * b.payoutShare));
        const reserveBefore = bal(r.currency, ACCOUNTS.reserve.key);
        const p = protectionPayout(r, r.id, amount, reserveBefore);
        apply(p);
        const fromReserve = reserveBefore - bal(r.currency, ACCOUNTS.reserve.key);
        expect(fromReserve).toBe(Math.min(amount, reserveBefore));
        // The sender's wallet gets the whole amount, the platform funds what the reserve lacked.
        expect(p.lines.find((l) => l.account.key === `WALLET:USER:${r.senderId}`)?.amountCents).toBe(amount);
        addExpected(r.currency, -fromReserve);
      }
    }
  }
  return { bal, balances, expectedReserve };
}

function checkEnd(result: ReturnType<typeof run>, currencies: CurrencyCode[], reserveFloor = true) {
  for (const c of currencies) {
    const entries = [...result.balances].filter(([k]) => k.startsWith(`${c}|`));
    expect(entries.reduce((s, [, v]) => s + v, 0)).toBe(0);
    expect(result.bal(c, ACCOUNTS.escrow.key)).toBe(0);
    expect(result.bal(c, ACCOUNTS.reserve.key)).toBe(result.expectedReserve.get(c) ?? 0);
    if (reserveFloor) expect(result.bal(c, ACCOUNTS.reserve.key)).toBeGreaterThanOrEqual(0);
    expect(result.bal(c, ACCOUNTS.protectionFunding.key)).toBeLessThanOrEqual(0);
    expect(result.bal(c, ACCOUNTS.revenue.key)).toBeGreaterThanOrEqual(0);
  }
}

describe('the protection ledger, property-tested in every configured currency', () => {
  it.each(CURRENCY_CODES)('%s: premiums, refunds of premiums and payouts keep the reserve >= 0 and the ledger at zero', (currency) => {
    fc.assert(
      fc.property(fc.array(booking, { minLength: 1, maxLength: 25 }), (bookings) =>
        checkEnd(run(bookings, [currency], { interleaved: false }), [currency]),
      ),
      { numRuns: 60 },
    );
  });

  it('all currencies at once, the bookings overlapping: no posting crosses currencies, each currency at zero, the reserve exactly the premiums kept less what payouts took', () => {
    fc.assert(
      fc.property(fc.array(booking, { minLength: 1, maxLength: 40 }), fc.shuffledSubarray([...CURRENCY_CODES], { minLength: 2 }), (bookings, currencies) =>
        checkEnd(run(bookings, currencies, { reserveFloor: false }), currencies, false),
      ),
      { numRuns: 80 },
    );
  });

  it('a payout larger than the reserve empties it and the platform funds the rest (XOF, whole francs)', () => {
    const result = run([{ total: 20_000, declared: 500_000, rate: 0.03, end: 'PAYOUT', part: 0, payoutShare: 1, paidAt: 0, endsAfter: 1 }], ['XOF']);
    // Premium 3 % of 500,000 = 15,000 into the reserve; the payout of 500,000 takes it all.
    expect(result.bal('XOF', ACCOUNTS.reserve.key)).toBe(0);
    expect(result.bal('XOF', ACCOUNTS.protectionFunding.key)).toBe(-485_000);
    expect(result.bal('XOF', 'WALLET:USER:1000')).toBe(500_000);
    checkEnd(result, ['XOF']);
  });

  // KNOWN GAP (found by the interleaved property): a payout takes from the reserve the premium of
  // another booking still open; when that booking is then refunded in full, its premium goes back
  // from the reserve, which goes below zero (refundEscrow and disputeSettlement take it
  // unconditionally). Fixing it means a premium refund drawing from PROTECTION_FUNDING what the
  // reserve lacks (or payouts leaving open premiums in place). Flip to `it` once fixed.
  it.fails('overlapping bookings: a premium refunded after a payout emptied the reserve keeps the reserve >= 0', () => {
    const base = { total: 10_000, rate: 0.03, part: 0, payoutShare: 1, paidAt: 0 };
    run(
      [
        { ...base, declared: 100_000, end: 'FULL_REFUND', endsAfter: 2 }, // premium 30.00, refunded last
        { ...base, declared: 100_000, end: 'PAYOUT', endsAfter: 1 }, // paid out 1,000.00 first
      ],
      ['EUR'],
    );
  });
});
