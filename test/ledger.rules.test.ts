// The ledger's posting rules as pure functions: every posting balances, money goes where
// CONTRACT section 10 says, refunds follow the cancellation rules of section 7.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  assertBalanced,
  cancellationRefundCents,
  escrowPayment,
  payeeOf,
  refundEscrow,
  releaseEscrow,
  walletAccount,
  withdrawalPosting,
  withdrawalReversal,
  type Posting,
} from '../src/features/money/ledger/posting-rules';
import { splitPrice, vatIncluded } from '../src/lib/money';
import { aReservationMoney } from './helpers/factories';

const lines = (p: Posting) => Object.fromEntries(p.lines.map((l) => [l.account.key, l.amountCents]));

describe('VAT included in the platform fee', () => {
  it.each([
    [750, 0.2, 625, 125],
    [1, 0.2, 1, 0],
    [441, 0.2, 367, 74],
    [1000, 0.055, 948, 52],
    [500, 0, 500, 0],
  ])('%i cents at %f: %i net + %i VAT', (gross, rate, net, vat) => {
    expect(vatIncluded(gross, rate)).toEqual({ netCents: net, vatCents: vat });
  });
});

describe('posting rules', () => {
  it('a payment moves the whole price from provider clearing into escrow; the sender sees a payment', () => {
    const p = escrowPayment(aReservationMoney());
    expect(p.key).toBe('escrow-in:7');
    expect(lines(p)).toEqual({ PROVIDER_CLEARING: -5000, ESCROW: 5000 });
    expect(p.transactions).toEqual([{ owner: { type: 'USER', id: 1 }, type: 'PAYMENT', amountCents: -5000 }]);
  });

  it('delivery releases the carrier amount to the carrier wallet and the commission to revenue', () => {
    const p = releaseEscrow(aReservationMoney());
    expect(p.key).toBe('escrow-out:7');
    expect(lines(p)).toEqual({ ESCROW: -5000, 'WALLET:USER:2': 4250, PLATFORM_REVENUE: 750 });
    expect(p.transactions).toEqual([{ owner: { type: 'USER', id: 2 }, type: 'EARNING', amountCents: 4250 }]);
  });

  it("delivery of an agency's trip pays the agency wallet", () => {
    const r = aReservationMoney({ agencyId: 9 });
    expect(payeeOf(r)).toEqual({ type: 'AGENCY', id: 9 });
    expect(lines(releaseEscrow(r))).toEqual({ ESCROW: -5000, 'WALLET:AGENCY:9': 4250, PLATFORM_REVENUE: 750 });
  });

  it('a full refund returns everything to the sender; a partial one keeps the rest as revenue', () => {
    expect(lines(refundEscrow(aReservationMoney(), 5000, 'REFUND'))).toEqual({ ESCROW: -5000, PROVIDER_CLEARING: 5000 });
    expect(lines(refundEscrow(aReservationMoney(), 4250, 'REFUND'))).toEqual({ ESCROW: -5000, PROVIDER_CLEARING: 4250, PLATFORM_REVENUE: 750 });
    expect(refundEscrow(aReservationMoney(), 0, 'REFUND').transactions).toEqual([]);
  });

  it.each([
    ['REFUND', 5000, 'Reservation PX-0007: 50.00 EUR refunded to the card'],
    ['REFUND', 4250, 'Reservation PX-0007: 42.50 EUR refunded to the card, 7.50 EUR kept'],
    ['HOLD_RELEASE', 5000, 'Reservation PX-0007: card hold of 50.00 EUR released, nothing charged'],
    ['HOLD_RELEASE', 4250, 'Reservation PX-0007: 7.50 EUR of the card hold captured (kept), the other 42.50 EUR released'],
  ] as const)("the sender's line says what the provider does: %s of %i", (type, back, description) => {
    const p = refundEscrow(aReservationMoney({ reservationNumber: 'PX-0007' }), back, type);
    expect(p.transactions).toEqual([{ owner: { type: 'USER', id: 1 }, type, amountCents: back }]);
    expect(p.description).toBe(description);
    expect(lines(p)).toEqual(back === 5000 ? { ESCROW: -5000, PROVIDER_CLEARING: 5000 } : { ESCROW: -5000, PROVIDER_CLEARING: 4250, PLATFORM_REVENUE: 750 });
  });

  it('release and refund share one key, so a reservation leaves escrow once', () => {
    expect(releaseEscrow(aReservationMoney()).key).toBe(refundEscrow(aReservationMoney(), 5000, 'REFUND').key);
  });

  it('refunds outside [0, total] are refused', () => {
    expect(() => refundEscrow(aReservationMoney(), -1, 'REFUND')).toThrow();
    expect(() => refundEscrow(aReservationMoney(), 5001, 'REFUND')).toThrow();
    expect(() => refundEscrow(aReservationMoney(), 1.5, 'REFUND')).toThrow();
  });

  it('a release with an inconsistent split is refused', () => {
    expect(() => releaseEscrow(aReservationMoney({ carrierAmountCents: 4000 }))).toThrow('add up');
  });

  it('withdrawals move wallet money to payouts; a reversal brings it back', () => {
    const owner = { type: 'USER' as const, id: 3 };
    expect(lines(withdrawalPosting(owner, 1200, 'EUR', 'tok'))).toEqual({ 'WALLET:USER:3': -1200, PAYOUTS: 1200 });
    expect(lines(withdrawalReversal(owner, 1200, 'EUR', 5))).toEqual({ PAYOUTS: -1200, 'WALLET:USER:3': 1200 });
    expect(() => withdrawalPosting(owner, 0, 'EUR', 'tok')).toThrow();
  });

  it('account keys name the owner', () => {
    expect(walletAccount({ type: 'AGENCY', id: 4 })).toEqual({ key: 'WALLET:AGENCY:4', kind: 'WALLET', owner: { type: 'AGENCY', id: 4 } });
    expect(ACCOUNTS.escrow.key).toBe('ESCROW');
  });

  it('an unbalanced set of lines is refused', () => {
    expect(() => assertBalanced([{ account: ACCOUNTS.escrow, amountCents: 1 }])).toThrow('unbalanced');
  });
});

describe('cancellation refunds (CONTRACT section 7)', () => {
  const r = aReservationMoney();
  it.each([
    ['CARRIER', 'PAID', 5000],
    ['CARRIER', 'CONFIRMED', 5000],
    ['SENDER', 'PENDING_PAYMENT', 5000],
    ['SENDER', 'PAID', 5000],
    ['SENDER', 'CONFIRMED', 4250],
  ] as const)('cancelled by %s from %s refunds %i cents', (by, status, expected) => {
    expect(cancellationRefundCents(r, status, by)).toBe(expected);
  });
});

describe('every posting balances (property)', () => {
  it('for any price split, payment, release and any refund sum to zero and conserve the total', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weightG, pricePerKgCents, rate, refundShare) => {
          const split = splitPrice(weightG, pricePerKgCents, rate);
          const r = aReservationMoney(split);
          const refund = Math.round(split.totalAmountCents * refundShare);
          for (const p of [escrowPayment(r), releaseEscrow(r), refundEscrow(r, refund, 'HOLD_RELEASE')]) {
            expect(p.lines.reduce((s, l) => s + l.amountCents, 0)).toBe(0);
          }
          const out = lines(releaseEscrow(r));
          expect((out['WALLET:USER:2'] ?? 0) + (out.PLATFORM_REVENUE ?? 0)).toBe(split.totalAmountCents);
        },
      ),
    );
  });
});
