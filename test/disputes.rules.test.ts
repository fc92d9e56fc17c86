// The pure money rules of disputes: freeze amounts, refunds per resolution, the retained split,
// and the settlement postings (balanced, right accounts) for every case, as tables.
import { describe, expect, it } from 'vitest';
import {
  disputeFreeze,
  disputeSettlement,
  freezeAmounts,
  resolutionRefundCents,
  retainedSplit,
} from '../src/features/disputes/dispute-rules';
import type { Posting } from '../src/features/money/ledger/posting-rules';
import { aReservationMoney } from './helpers/factories';

const r = aReservationMoney();

const net = (p: Posting) => Object.fromEntries(p.lines.map((l) => [l.account.key, l.amountCents]));
const sum = (p: Posting) => p.lines.reduce((s, l) => s + l.amountCents, 0);

describe('freezeAmounts', () => {
  it.each([
    [4250, 10_000, 4250, 0],
    [4250, 4250, 4250, 0],
    [4250, 1250, 1250, 3000],
    [4250, 0, 0, 4250],
  ])('carrier amount %i, wallet %i: frozen %i, shortfall %i', (carrier, wallet, frozen, shortfall) => {
    expect(freezeAmounts(carrier, wallet)).toEqual({ frozenCents: frozen, shortfallCents: shortfall });
  });

  it('the freeze posting moves wallet to escrow and shows a hold to the payee; an agency trip freezes the agency wallet', () => {
    const p = disputeFreeze(r, 'tok', 1250);
    expect(p.key).toBe('dispute-freeze:tok');
    expect(net(p)).toEqual({ 'WALLET:USER:2': -1250, ESCROW: 1250 });
    expect(p.transactions).toEqual([{ owner: { type: 'USER', id: 2 }, type: 'DISPUTE_HOLD', amountCents: -1250 }]);
    expect(net(disputeFreeze({ ...r, agencyId: 9 }, 't', 100))).toEqual({ 'WALLET:AGENCY:9': -100, ESCROW: 100 });
    expect(() => disputeFreeze(r, 't', 4251)).toThrow();
  });
});

describe('resolutionRefundCents and retainedSplit', () => {
  it.each([
    ['REFUND_SENDER', undefined, 5000],
    ['RELEASE_TO_CARRIER', undefined, 0],
    ['PARTIAL_REFUND', 2000, 2000],
    ['PARTIAL_REFUND', 1, 1],
    ['PARTIAL_REFUND', 4999, 4999],
  ] as const)('%s %s -> %i', (resolution, amount, expected) => {
    expect(resolutionRefundCents(resolution, 5000, amount)).toBe(expected);
  });

  it.each([undefined, 0, 5000, 6000, 12.5])('PARTIAL_REFUND of %s is refused', (amount) => {
    expect(() => resolutionRefundCents('PARTIAL_REFUND', 5000, amount)).toThrow();
  });

  it.each([
    [0, 4250, 750], // nothing refunded: the booking's own split
    [2000, 2550, 450], // retained 30.00: commission round(450)
    [1, 4249, 750], // retained 49.99: round(749.85) = 750
    [4997, 3, 0], // retained 0.03: round(0.45) = 0
    [5000, 0, 0],
  ])('refund %i: carrier %i, commission %i', (refund, carrierCents, commissionCents) => {
    expect(retainedSplit(r, refund, 0.15)).toEqual({ carrierCents, commissionCents });
  });
});

describe('disputeSettlement', () => {
  it.each([
    // before delivery: the whole price leaves escrow under the escrow-out key
    ['refund, in escrow', 5000, null, 0, 0, { ESCROW: -5000, PROVIDER_CLEARING: 5000 }],
    ['release, in escrow', 0, null, 0, 0, { ESCROW: -5000, 'WALLET:USER:2': 4250, PLATFORM_REVENUE: 750 }],
    ['partial, in escrow', 2000, null, 0, 0, { ESCROW: -5000, PROVIDER_CLEARING: 2000, 'WALLET:USER:2': 2550, PLATFORM_REVENUE: 450 }],
    // after delivery, the share still held (CONTRACT section 19): taken from the hold
    ['refund, held', 5000, 0, 4250, 0, { 'HELD:USER:2': -4250, PROVIDER_CLEARING: 5000, PLATFORM_REVENUE: -750 }],
    ['release, held', 0, 0, 4250, 0, {}],
    ['partial, held', 2000, 0, 4250, 0, { 'HELD:USER:2': -1700, PROVIDER_CLEARING: 2000, PLATFORM_REVENUE: -300 }],
    // after delivery, already released and 30.00 withdrawn: 12.50 available, the carrier owes the rest
    ['refund, released', 5000, 0, 0, 1250, { 'WALLET:USER:2': -1250, 'RECEIVABLE:USER:2': -3000, PROVIDER_CLEARING: 5000, PLATFORM_REVENUE: -750 }],
    ['partial, released', 2000, 0, 0, 1250, { 'WALLET:USER:2': -1250, 'RECEIVABLE:USER:2': -450, PROVIDER_CLEARING: 2000, PLATFORM_REVENUE: -300 }],
    // a dispute opened before holds existed, everything frozen
    ['refund, frozen', 5000, 4250, 0, 0, { ESCROW: -4250, PROVIDER_CLEARING: 5000, PLATFORM_REVENUE: -750 }],
    ['release, frozen', 0, 4250, 0, 0, { ESCROW: -4250, 'WALLET:USER:2': 4250 }],
    ['partial, frozen', 2000, 4250, 0, 0, { ESCROW: -4250, PROVIDER_CLEARING: 2000, 'WALLET:USER:2': 2550, PLATFORM_REVENUE: -300 }],
    // ... with 30.00 withdrawn before the freeze: the payee owes it (a receivable), revenue gives back only its commission
    ['refund, shortfall', 5000, 1250, 0, 0, { ESCROW: -1250, 'RECEIVABLE:USER:2': -3000, PROVIDER_CLEARING: 5000, PLATFORM_REVENUE: -750 }],
    ['release, shortfall', 0, 1250, 0, 0, { ESCROW: -1250, 'WALLET:USER:2': 1250 }],
    ['partial, shortfall', 2000, 1250, 0, 0, { ESCROW: -1250, 'RECEIVABLE:USER:2': -450, PROVIDER_CLEARING: 2000, PLATFORM_REVENUE: -300 }],
  ] as const)('%s', (_name, refundCents, frozenCents, heldCents, availableCents, expected) => {
    const p = disputeSettlement(r, { disputeId: 3, refundCents, rate: 0.15, frozenCents, heldCents, availableCents, moneyBack: 'REFUND' });
    expect(sum(p)).toBe(0);
    expect(net(p)).toEqual(expected);
    expect(p.key).toBe(frozenCents === null ? 'escrow-out:7' : 'dispute-settle:3');
    expect(p.type).toBe('DISPUTE_SETTLED');
    const refund = p.transactions.find((t) => t.type === 'REFUND');
    expect(refund?.amountCents ?? 0).toBe(refundCents);
    // Revenue gives back at most the commission it took at delivery, never the carrier's part.
    if (frozenCents !== null) expect(net(p).PLATFORM_REVENUE ?? 0).toBeGreaterThanOrEqual(-750);
  });

  it('the payee ends with exactly its share when nothing was withdrawn', () => {
    for (const refund of [0, 1, 999, 2000, 4999, 5000]) {
      const p = disputeSettlement(r, { disputeId: 1, refundCents: refund, rate: 0.15, frozenCents: 4250, moneyBack: 'REFUND' });
      const walletAfter = 4250 - 4250 + (net(p)['WALLET:USER:2'] ?? 0);
      expect(walletAfter).toBe(retainedSplit(r, refund, 0.15).carrierCents);
      // Still held: the hold keeps exactly the share, released afterwards.
      const held = disputeSettlement(r, { disputeId: 1, refundCents: refund, rate: 0.15, frozenCents: 0, heldCents: 4250, moneyBack: 'REFUND' });
      expect(4250 + (net(held)['HELD:USER:2'] ?? 0)).toBe(retainedSplit(r, refund, 0.15).carrierCents);
    }
  });

  it('refuses impossible amounts', () => {
    expect(() => disputeSettlement(r, { disputeId: 1, refundCents: 5001, rate: 0.15, frozenCents: null, moneyBack: 'REFUND' })).toThrow();
    expect(() => disputeSettlement(r, { disputeId: 1, refundCents: 0, rate: 0.15, frozenCents: 4251, moneyBack: 'REFUND' })).toThrow();
  });
});
