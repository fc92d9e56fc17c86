// Migration 0034 on a ledger of the old shape (every premium posted straight into the reserve, and
// a payout that spent some of them): the premiums that may still go back move to the unearned
// premiums, one balanced entry per reservation; the reserve, short of them, is refilled by the
// platform; the premiums already decided stay where they are. The application then works on it.
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, transactions } from '../src/db/schema';
import { depsOf } from '../src/env';
import { releaseHeldShares } from '../src/features/money';
import { db } from './helpers/db';
import { aReservation, FIFTY_EUR } from './helpers/factories';
import { post } from './helpers/http';
import { accountBalance, fakeStripeForThisFile, ledgerInvariantViolations } from './helpers/money';

const stripe = fakeStripeForThisFile();
const PROTECTED = { protectionPremiumCents: 300, protectionDeclaredCents: 10_000, protectionCoverageCents: 10_000 };
const paidProtected = { payment: stripe, ...FIFTY_EUR, set: PROTECTED };

/** Rewrites the ledger as the code before issue 30's fix wrote it: premiums in the reserve, none earned. */
async function toOldShape() {
  await db().run(sql`DROP TRIGGER ledger_protection_non_negative`);
  await db().run(sql`DELETE FROM ledger_lines WHERE entry_id IN (SELECT id FROM ledger_entries WHERE type = 'PROTECTION_PREMIUM_EARNED')`);
  await db().run(sql`DELETE FROM ledger_entries WHERE type = 'PROTECTION_PREMIUM_EARNED'`);
  await db().run(sql`UPDATE ledger_lines SET account_id = (SELECT id FROM ledger_accounts WHERE key = 'PROTECTION_RESERVE:EUR')
                      WHERE account_id = (SELECT id FROM ledger_accounts WHERE key = 'PROTECTION_PREMIUMS:EUR')`);
  await db().run(sql`UPDATE ledger_accounts SET balance_cents = COALESCE((SELECT SUM(amount_cents) FROM ledger_lines WHERE account_id = ledger_accounts.id), 0)`);
}

/** An old payout that took 8.00 from the reserve (a balanced entry, as the old code posted it). */
async function oldPayout(senderId: number) {
  await db().run(sql`INSERT INTO ledger_accounts (key, kind, owner_type, owner_id, currency) VALUES (${`WALLET:USER:${senderId}:EUR`}, 'WALLET', 'USER', ${senderId}, 'EUR') ON CONFLICT (key) DO NOTHING`);
  await db().run(sql`INSERT INTO ledger_entries (key, token, type, description) VALUES ('old-payout', 'old-payout', 'PROTECTION_PAYOUT', 'An old payout')`);
  await db().run(sql`INSERT INTO ledger_lines (entry_id, account_id, amount_cents)
                      SELECT e.id, a.id, CASE a.kind WHEN 'WALLET' THEN 800 ELSE -800 END FROM ledger_entries e, ledger_accounts a
                       WHERE e.key = 'old-payout' AND a.key IN ('PROTECTION_RESERVE:EUR', ${`WALLET:USER:${senderId}:EUR`})`);
  await db().run(sql`UPDATE ledger_accounts SET balance_cents = COALESCE((SELECT SUM(amount_cents) FROM ledger_lines WHERE account_id = ledger_accounts.id), 0)`);
}

const entryKeys = async (prefix: string) =>
  (await db().all<{ key: string }>(sql`SELECT key FROM ledger_entries WHERE key LIKE ${`${prefix}%`} ORDER BY key`)).map((e) => e.key);

describe('migration 0034: open premiums leave the reserve for the unearned premiums', () => {
  it('moves exactly the premiums that may still go back, refills what old payouts spent, and the application works on the result', async () => {
    const open = await aReservation({ status: 'PAID', ...paidProtected }); // in escrow
    const held = await aReservation({ status: 'DELIVERED', ...paidProtected }); // delivered, share still held
    const closed = await aReservation({ status: 'DELIVERED', ...paidProtected, available: true }); // window closed: earned
    const refunded = await aReservation({ status: 'PAID', ...paidProtected });
    expect((await post(`/v1/api/bookings/${refunded.reservation.id}/cancel`, {}, { token: refunded.sender.token })).status).toBe(200);
    await toOldShape();
    // Old shape: the reserve holds the three premiums not refunded (9.00); an old payout took 8.00.
    expect(await accountBalance('PROTECTION_RESERVE')).toBe(900);
    await oldPayout(closed.sender.id);
    expect(await accountBalance('PROTECTION_RESERVE')).toBe(100);

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0034_'))!;
    for (const q of migration.queries) await env.DB.prepare(q).run();

    // The two open premiums (6.00) are unearned again; the reserve, 5.00 short, refilled by the platform.
    const ids = [open, held].map((f) => f.reservation.id).sort((a, b) => a - b);
    expect(await entryKeys('premium-unearned:')).toEqual(ids.map((id) => `premium-unearned:${id}`).sort());
    expect(await entryKeys('reserve-refill-0034:')).toEqual(['reserve-refill-0034:EUR']);
    expect(await accountBalance('PROTECTION_PREMIUMS')).toBe(600);
    expect(await accountBalance('PROTECTION_RESERVE')).toBe(0);
    expect(await accountBalance('PROTECTION_FUNDING')).toBe(-500);
    expect(await ledgerInvariantViolations()).toEqual([]);
    // No history line for anyone: the premiums were paid, nothing was charged or refunded.
    const entries = await db().select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.type, 'PROTECTION_PREMIUM_MOVED'));
    for (const e of entries) expect(await db().select().from(transactions).where(eq(transactions.ledgerEntryId, e.id))).toEqual([]);

    // The open booking cancelled in full: its premium back from the unearned premiums, the reserve untouched.
    expect((await post(`/v1/api/bookings/${open.reservation.id}/cancel`, {}, { token: open.sender.token })).status).toBe(200);
    const back = await db().select().from(transactions).where(and(eq(transactions.reservationId, open.reservation.id), eq(transactions.type, 'HOLD_RELEASE')));
    expect(back.map((t) => t.amountCents)).toEqual([5_300]);
    expect([await accountBalance('PROTECTION_PREMIUMS'), await accountBalance('PROTECTION_RESERVE')]).toEqual([300, 0]);
    // The delivered one's window closes: the reserve earns its premium.
    expect(await releaseHeldShares(depsOf(env), new Date(Date.now() + 73 * 3600 * 1000), { reservationId: held.reservation.id })).toBe(1);
    expect([await accountBalance('PROTECTION_PREMIUMS'), await accountBalance('PROTECTION_RESERVE')]).toEqual([0, 300]);
    expect(await ledgerInvariantViolations()).toEqual([]);
    // The trigger is back: the reserve cannot be driven below zero.
    await expect(db().run(sql`UPDATE ledger_accounts SET balance_cents = -1 WHERE key = 'PROTECTION_RESERVE:EUR'`)).rejects.toThrow();
  });
});
