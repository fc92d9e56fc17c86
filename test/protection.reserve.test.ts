// The protection reserve never goes below zero (issue 30, CONTRACT section 21,
// docs/decisions-protection.md): premiums wait in PROTECTION_PREMIUMS until they can no longer go
// back, so a payout never spends a premium that a later full refund takes back. At the HTTP level:
// the scenario of the former it.fails (a payout on B, then A refunded in full), the window's end
// handing the premium to the reserve, a refund after that (funded by the platform), and the
// database refusing a negative reserve by itself (migration 0034's trigger).
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, transactions } from '../src/db/schema';
import { isCheckViolation } from '../src/db/errors';
import { depsOf } from '../src/env';
import { releaseHeldShares } from '../src/features/money';
import { db, reservationRow } from './helpers/db';
import { anAdmin, aReservation, FIFTY_EUR } from './helpers/factories';
import { post } from './helpers/http';
import { accountBalance, fakeStripeForThisFile, ledgerInvariantViolations, reservationMoney, walletKey } from './helpers/money';

const stripe = fakeStripeForThisFile();
const [RESERVE, PREMIUMS, FUNDING] = ['PROTECTION_RESERVE', 'PROTECTION_PREMIUMS', 'PROTECTION_FUNDING'];

/** 50.00 EUR, declared 100.00 EUR, premium 3.00 EUR. */
const PROTECTED = { protectionPremiumCents: 300, protectionDeclaredCents: 10_000, protectionCoverageCents: 10_000 };
const paidProtected = { payment: stripe, ...FIFTY_EUR, set: PROTECTED };

const balances = async () => ({ reserve: await accountBalance(RESERVE), premiums: await accountBalance(PREMIUMS), funding: await accountBalance(FUNDING) });

async function dispute(senderToken: string, reservationId: number, reason: string) {
  const opened = await post('/v1/api/disputes', { reservationId, reason, description: 'The parcel never arrived.' }, { token: senderToken });
  expect(opened.status).toBe(201);
  return opened.body.id as number;
}

const resolve = (token: string, id: number, body: Record<string, unknown>) => post(`/v1/api/admin/disputes/${id}/resolve`, { note: 'Decided', ...body }, { token });

describe('the protection reserve never goes below zero', () => {
  it('two protected bookings: B lost and paid out by PROTECTION_PAYOUT, then A cancelled with a full refund: 200, A gets its premium back, the reserve exact and >= 0', async () => {
    const admin = await anAdmin();
    const a = await aReservation({ status: 'PAID', ...paidProtected });
    const b = await aReservation({ status: 'DEPOSITED', ...paidProtected });
    const before = await balances();
    // Both premiums wait as unearned: neither is the reserve's yet.
    expect(before.premiums).toBeGreaterThanOrEqual(600);

    const disputeId = await dispute(b.sender.token, b.reservation.id, 'LOST');
    const paid = await resolve(admin.token, disputeId, { resolution: 'PROTECTION_PAYOUT', amount: 80 });
    expect(paid.status).toBe(200);
    // B's own premium (3.00) is earned and pays part of the 80.00; A's stays out of reach.
    const afterPayout = await balances();
    const fromReserve = Math.min(8_000, before.reserve + 300);
    expect(afterPayout).toEqual({ reserve: before.reserve + 300 - fromReserve, premiums: before.premiums - 300, funding: before.funding - (8_000 - fromReserve) });
    expect(await accountBalance(walletKey(b.sender.id))).toBe(8_000);

    const pi = (await reservationRow(a.reservation.id)).authorizationId!;
    const cancelled = await post(`/v1/api/bookings/${a.reservation.id}/cancel`, {}, { token: a.sender.token });
    expect(cancelled.status).toBe(200);
    // The whole hold (53.00, price and premium) released to A's sender; nothing comes from the reserve or the platform.
    expect(stripe.requestsTo('POST', `/v1/payment_intents/${pi}/cancel`)).toHaveLength(1);
    const back = await db().select().from(transactions).where(and(eq(transactions.reservationId, a.reservation.id), eq(transactions.ownerId, a.sender.id), eq(transactions.type, 'HOLD_RELEASE')));
    expect(back.map((t) => t.amountCents)).toEqual([5_300]);
    expect(await balances()).toEqual({ reserve: afterPayout.reserve, premiums: afterPayout.premiums - 300, funding: afterPayout.funding });
    expect(await accountBalance(RESERVE)).toBeGreaterThanOrEqual(0);
    expect(await reservationMoney(a.reservation.id)).toMatchObject({ PROTECTION_PREMIUMS: 0, PROTECTION_RESERVE: 0, PROTECTION_FUNDING: 0, PROVIDER_CLEARING: 0 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('delivered: the premium stays unearned through the dispute window, and the window closing hands it to the reserve once', async () => {
    const { reservation } = await aReservation({ status: 'DELIVERED', ...paidProtected });
    expect((await reservationMoney(reservation.id)).PROTECTION_PREMIUMS).toBe(300);
    const before = await balances();
    const afterWindow = new Date(Date.now() + 73 * 3600 * 1000);
    expect(await releaseHeldShares(depsOf(env), afterWindow, { reservationId: reservation.id })).toBe(1);
    expect(await balances()).toEqual({ reserve: before.reserve + 300, premiums: before.premiums - 300, funding: before.funding });
    // Running the release again earns nothing more.
    await releaseHeldShares(depsOf(env), afterWindow, { reservationId: reservation.id });
    const earned = await db().select().from(ledgerEntries).where(and(eq(ledgerEntries.reservationId, reservation.id), eq(ledgerEntries.type, 'PROTECTION_PREMIUM_EARNED')));
    expect(earned.map((e) => e.key)).toEqual([`premium-earned:${reservation.id}`]);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a dispute opened inside the window and refunded in full gives the premium back from the unearned premiums; the window closing then earns nothing', async () => {
    const admin = await anAdmin();
    const { sender, reservation } = await aReservation({ status: 'DELIVERED', ...paidProtected });
    const before = await balances();
    const disputeId = await dispute(sender.token, reservation.id, 'DAMAGED');
    expect((await resolve(admin.token, disputeId, { resolution: 'REFUND_SENDER' })).status).toBe(200);
    expect(await balances()).toEqual({ reserve: before.reserve, premiums: before.premiums - 300, funding: before.funding });
    await releaseHeldShares(depsOf(env), new Date(Date.now() + 73 * 3600 * 1000), { reservationId: reservation.id });
    expect((await reservationMoney(reservation.id)).entries.map((e) => e.type)).not.toContain('PROTECTION_PREMIUM_EARNED');
    expect(await balances()).toEqual({ reserve: before.reserve, premiums: before.premiums - 300, funding: before.funding });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a full refund after the reserve earned the premium (a dispute racing the window): 200, the premium back to the card funded by the platform, the reserve untouched', async () => {
    const admin = await anAdmin();
    // Delivered just now, its held share released as if the window had closed: the premium is the reserve's.
    const { sender, reservation, pi } = await aReservation({ status: 'DELIVERED', ...paidProtected, available: true });
    expect((await reservationMoney(reservation.id)).entries.map((e) => e.type)).toContain('PROTECTION_PREMIUM_EARNED');
    const before = await balances();
    const disputeId = await dispute(sender.token, reservation.id, 'DAMAGED');
    const res = await resolve(admin.token, disputeId, { resolution: 'REFUND_SENDER' });
    expect(res.status).toBe(200);
    const [refund] = stripe.requestsTo('POST', '/v1/refunds').filter((r) => r.body.payment_intent === pi.id);
    expect(refund.body.amount).toBe('5300');
    expect(await balances()).toEqual({ reserve: before.reserve, premiums: before.premiums, funding: before.funding - 300 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a partial dispute refund keeps the premium: the reserve earns it with the resolution', async () => {
    const admin = await anAdmin();
    const { sender, reservation } = await aReservation({ status: 'DEPOSITED', ...paidProtected });
    const before = await balances();
    const disputeId = await dispute(sender.token, reservation.id, 'DAMAGED');
    expect((await resolve(admin.token, disputeId, { resolution: 'PARTIAL_REFUND', amount: 20 })).status).toBe(200);
    expect(await balances()).toEqual({ reserve: before.reserve + 300, premiums: before.premiums - 300, funding: before.funding });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('concurrently: two payouts and a full refund at once leave the reserve >= 0, every payout paid in full, the ledger balanced', async () => {
    const admin = await anAdmin();
    const a = await aReservation({ status: 'PAID', ...paidProtected });
    const [b, c] = [await aReservation({ status: 'DEPOSITED', ...paidProtected }), await aReservation({ status: 'DEPOSITED', ...paidProtected })];
    const [db1, dc1] = [await dispute(b.sender.token, b.reservation.id, 'LOST'), await dispute(c.sender.token, c.reservation.id, 'DAMAGED')];
    const before = await balances();
    const results = await Promise.all([
      resolve(admin.token, db1, { resolution: 'PROTECTION_PAYOUT', amount: 60 }),
      post(`/v1/api/bookings/${a.reservation.id}/cancel`, {}, { token: a.sender.token }),
      resolve(admin.token, dc1, { resolution: 'PROTECTION_PAYOUT', amount: 40 }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect([await accountBalance(walletKey(b.sender.id)), await accountBalance(walletKey(c.sender.id))]).toEqual([6_000, 4_000]);
    const after = await balances();
    // A's premium went back; B's and C's were earned and spent first; the platform paid the rest, exactly.
    expect(after.premiums).toBe(before.premiums - 900);
    // 100.00 paid out: the reserve (with B's and C's 6.00) empties, the platform funds exactly the rest.
    expect(after.reserve).toBe(Math.max(0, before.reserve + 600 - 10_000));
    expect(after.funding - before.funding).toBe(-(10_000 - (before.reserve + 600 - after.reserve)));
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('the database itself refuses a reserve or unearned premiums below zero (migration 0034), as a CHECK failure the services retry on', async () => {
    const reserve = await accountBalance(RESERVE);
    const refused = async (statement: ReturnType<typeof sql>) => {
      const err: unknown = await db().run(statement).then(() => null, (e: unknown) => e);
      expect(isCheckViolation(err)).toBe(true);
      const messages: string[] = [];
      for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) messages.push(e.message ?? '');
      expect(messages.join(' ')).toContain('ledger_protection_non_negative');
    };
    await refused(sql`UPDATE ledger_accounts SET balance_cents = balance_cents - ${reserve + 1} WHERE key = 'PROTECTION_RESERVE:EUR'`);
    await refused(sql`UPDATE ledger_accounts SET balance_cents = -1 WHERE key = 'PROTECTION_PREMIUMS:EUR'`);
    expect(await accountBalance(RESERVE)).toBe(reserve);
  });
});
