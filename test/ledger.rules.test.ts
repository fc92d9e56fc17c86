// The ledger's posting rules as pure functions: every posting balances, money goes where
// CONTRACT section 10 says, refunds follow the cancellation rules of section 7.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  assertBalanced,
  chargebackSources,
  recoveryCents,
  releaseHeld,
  escrowPayment,
  heldAccount,
  payeeOf,
  receivableAccount,
  refundEscrow,
  releaseEscrow,
  walletAccount,
  withdrawalPosting,
  withdrawalReversal,
  type Posting,
} from '../src/features/money/ledger/posting-rules';
import { splitPrice, vatIncluded } from '../src/lib/money';
import { renderLine } from '../src/features/money/ledger/ledger-text';
import { disputeSettlement, settlementSources } from '../src/features/disputes/dispute-rules';
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

  it('delivery holds the carrier amount (dispute window) and gives the commission to revenue', () => {
    const p = releaseEscrow(aReservationMoney());
    expect(p.key).toBe('escrow-out:7');
    expect(lines(p)).toEqual({ ESCROW: -5000, 'HELD:USER:2': 4250, PLATFORM_REVENUE: 750 });
    expect(p.transactions).toEqual([{ owner: { type: 'USER', id: 2 }, type: 'EARNING', amountCents: 4250 }]);
  });

  it("delivery of an agency's trip holds the agency's share", () => {
    const r = aReservationMoney({ agencyId: 9 });
    expect(payeeOf(r)).toEqual({ type: 'AGENCY', id: 9 });
    expect(lines(releaseEscrow(r))).toEqual({ ESCROW: -5000, 'HELD:AGENCY:9': 4250, PLATFORM_REVENUE: 750 });
  });

  it('a held share released becomes available, first repaying what the owner owes', () => {
    const owner = { type: 'USER' as const, id: 2 };
    const p = releaseHeld(aReservationMoney(), owner, 4250, 0);
    expect([p.key, p.type]).toEqual(['held-release:7', 'HELD_RELEASED']);
    expect(lines(p)).toEqual({ 'HELD:USER:2': -4250, 'WALLET:USER:2': 4250 });
    expect(lines(releaseHeld(aReservationMoney(), owner, 4250, 3000))).toEqual({ 'HELD:USER:2': -4250, 'WALLET:USER:2': 1250, 'RECEIVABLE:USER:2': 3000 });
    expect(lines(releaseHeld(aReservationMoney(), owner, 4250, 4250))).toEqual({ 'HELD:USER:2': -4250, 'RECEIVABLE:USER:2': 4250 });
    expect([recoveryCents(4250, 3000), recoveryCents(4250, 9000), recoveryCents(4250, 0)]).toEqual([3000, 4250, 0]);
    expect(() => releaseHeld(aReservationMoney(), owner, 4250, 4251)).toThrow();
    expect(() => releaseHeld(aReservationMoney(), owner, 0, 0)).toThrow();
  });

  it('a chargeback takes from a legacy freeze, then the hold, then the available balance; the rest is owed', () => {
    const c = (lossCents: number, frozenCents: number, heldCents: number, availableCents: number) =>
      chargebackSources({ lossCents, frozenCents, heldCents, availableCents });
    expect(c(4250, 0, 4250, 0)).toEqual({ fromFrozen: 0, frozenToWallet: 0, fromHeld: 4250, fromWallet: 0, receivableCents: 0 });
    expect(c(1700, 0, 4250, 900)).toEqual({ fromFrozen: 0, frozenToWallet: 0, fromHeld: 1700, fromWallet: 0, receivableCents: 0 });
    expect(c(4250, 0, 0, 1250)).toEqual({ fromFrozen: 0, frozenToWallet: 0, fromHeld: 0, fromWallet: 1250, receivableCents: 3000 });
    expect(c(1000, 4250, 0, 0)).toEqual({ fromFrozen: 1000, frozenToWallet: 3250, fromHeld: 0, fromWallet: 0, receivableCents: 0 });
    expect(c(4250, 1250, 0, 500)).toEqual({ fromFrozen: 1250, frozenToWallet: 0, fromHeld: 0, fromWallet: 500, receivableCents: 2500 });
  });

  it('a full refund returns everything to the sender; a partial one keeps the rest as revenue', () => {
    expect(lines(refundEscrow(aReservationMoney(), 5000, 'REFUND'))).toEqual({ ESCROW: -5000, PROVIDER_CLEARING: 5000 });
    expect(lines(refundEscrow(aReservationMoney(), 4250, 'REFUND'))).toEqual({ ESCROW: -5000, PROVIDER_CLEARING: 4250, PLATFORM_REVENUE: 750 });
    expect(refundEscrow(aReservationMoney(), 0, 'REFUND').transactions).toEqual([]);
  });

  it.each([
    ['REFUND', 5000, 'Reservation PX-0007: 50.00 EUR refunded to the payment method', 'Réservation PX-0007 : 50,00\u00a0EUR remboursés sur le moyen de paiement'],
    [
      'REFUND',
      4250,
      'Reservation PX-0007: 42.50 EUR refunded to the payment method, 7.50 EUR kept',
      'Réservation PX-0007 : 42,50\u00a0EUR remboursés sur le moyen de paiement, 7,50\u00a0EUR retenus',
    ],
    ['HOLD_RELEASE', 5000, 'Reservation PX-0007: card hold of 50.00 EUR released, nothing charged', "Réservation PX-0007 : blocage de 50,00\u00a0EUR sur la carte levé, rien n'a été débité"],
    [
      'HOLD_RELEASE',
      4250,
      'Reservation PX-0007: 7.50 EUR of the card hold captured (kept), the other 42.50 EUR released',
      'Réservation PX-0007 : 7,50\u00a0EUR du blocage sur la carte débités (retenus), les 42,50\u00a0EUR restants libérés',
    ],
  ] as const)("the sender's line says what the provider does: %s of %i, in English and French", (type, back, english, french) => {
    const p = refundEscrow(aReservationMoney({ reservationNumber: 'PX-0007' }), back, type);
    expect(p.transactions).toEqual([{ owner: { type: 'USER', id: 1 }, type, amountCents: back }]);
    expect(renderLine(p.description, 'en')).toBe(english);
    expect(renderLine(p.description, 'fr')).toBe(french);
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
          expect((out['HELD:USER:2'] ?? 0) + (out.PLATFORM_REVENUE ?? 0)).toBe(split.totalAmountCents);
        },
      ),
    );
  });
});

/**
 * A model of one carrier's money over any sequence of deliveries, withdrawals, releases at the
 * end of the dispute window and dispute resolutions, built only from the posting rules and used
 * the way the services use them (a withdrawal only of the available balance; a settlement from
 * the hold, then the available balance, then a receivable). CONTRACT section 19.
 */
describe('held shares and chargebacks (property)', () => {
  const carrier = { type: 'USER' as const, id: 2 };
  type Op = { kind: 'deliver' | 'withdraw' | 'release' | 'dispute'; pick: number; share: number; resolution: 0 | 1 | 2 };
  const op = fc.record({
    kind: fc.constantFrom('deliver', 'deliver', 'withdraw', 'release', 'dispute'),
    pick: fc.nat(20),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
    resolution: fc.constantFrom(0, 1, 2),
  }) as fc.Arbitrary<Op>;

  it('the ledger sums to zero, a held share is never withdrawn, no refund is taken from platform revenue, no wallet goes negative', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 50_000 }), (ops, unit) => {
        const balances = new Map<string, number>();
        const revenueOf = new Map<number, number>();
        const holds = new Map<number, number>();
        const reservations: ReturnType<typeof aReservationMoney>[] = [];
        const disputed = new Set<number>();
        const bal = (key: string) => balances.get(key) ?? 0;
        const apply = (p: Posting) => {
          assertBalanced(p.lines);
          if (p.type === 'WITHDRAWAL') expect(p.lines.some((l) => l.account.kind === 'HELD')).toBe(false);
          for (const l of p.lines) {
            balances.set(l.account.key, bal(l.account.key) + l.amountCents);
            if (l.account.kind === 'PLATFORM_REVENUE' && p.reservationId !== undefined) revenueOf.set(p.reservationId, (revenueOf.get(p.reservationId) ?? 0) + l.amountCents);
          }
        };
        const release = (id: number) => {
          const amount = holds.get(id) ?? 0;
          if (amount === 0) return;
          const r = reservations.find((x) => x.id === id)!;
          apply(releaseHeld(r, carrier, amount, recoveryCents(amount, -bal(receivableAccount(carrier).key))));
          holds.set(id, 0);
        };
        for (const o of ops) {
          if (o.kind === 'deliver') {
            const r = aReservationMoney({ id: reservations.length + 1, ...splitPrice(1000 + o.pick * 100, unit, 0.15) });
            reservations.push(r);
            apply(escrowPayment(r));
            apply(releaseEscrow(r));
            holds.set(r.id, r.carrierAmountCents);
          } else if (o.kind === 'withdraw') {
            // The service's guard: only what the wallet (the available balance) holds.
            const amount = Math.floor(bal(walletAccount(carrier).key) * o.share);
            if (amount > 0) apply(withdrawalPosting(carrier, amount, 'EUR', `w${balances.size}-${amount}`));
          } else if (reservations.length > 0) {
            const r = reservations[o.pick % reservations.length];
            if (o.kind === 'release') {
              if (!disputed.has(r.id)) release(r.id);
            } else if (!disputed.has(r.id)) {
              disputed.add(r.id);
              const refundCents = [r.totalAmountCents, 0, Math.max(1, Math.min(r.totalAmountCents - 1, Math.round(r.totalAmountCents * o.share)))][o.resolution];
              const input = {
                disputeId: r.id,
                refundCents: r.totalAmountCents > 1 || o.resolution !== 2 ? refundCents : 0,
                rate: 0.15,
                frozenCents: 0,
                heldCents: holds.get(r.id) ?? 0,
                availableCents: bal(walletAccount(carrier).key),
                moneyBack: 'REFUND' as const,
              };
              apply(disputeSettlement(r, input));
              holds.set(r.id, (holds.get(r.id) ?? 0) - settlementSources(r, input).fromHeld);
              release(r.id);
            }
          }
          expect(bal(walletAccount(carrier).key)).toBeGreaterThanOrEqual(0);
          expect(bal(heldAccount(carrier).key)).toBe([...holds.values()].reduce((s, h) => s + h, 0));
          expect(bal(receivableAccount(carrier).key)).toBeLessThanOrEqual(0);
          for (const revenue of revenueOf.values()) expect(revenue).toBeGreaterThanOrEqual(0);
        }
        expect([...balances.values()].reduce((s, b) => s + b, 0)).toBe(0);
      }),
    );
  });
});
