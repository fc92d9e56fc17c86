// Money probes (no fixtures here: those are in factories.ts): the payment provider's signed
// webhook, and readers of the ledger (balances, a reservation's money, the ledger invariants).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { FakeStripe, stripeSignature } from './fake-stripe';
import { call } from './http';
import { db } from './db';

/** A fake Stripe API answering the worker's calls for the whole test file (unhandled requests fail). */
export function fakeStripeForThisFile(): FakeStripe {
  const stripe = new FakeStripe();
  beforeAll(() => stripe.server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => stripe.server.close());
  return stripe;
}

export const WEBHOOK = '/v1/api/webhooks/payment-provider';

/** Posts a raw body to the provider webhook, with a Stripe-Signature header when given. */
export async function sendWebhookRaw(payload: string, signature?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (signature !== undefined) headers['Stripe-Signature'] = signature;
  return call('POST', WEBHOOK, { raw: payload, headers });
}

/** Posts a provider event to the webhook, signed with the endpoint secret. */
export async function sendPaymentEvent(event: object) {
  const payload = JSON.stringify(event);
  return sendWebhookRaw(payload, await stripeSignature(payload));
}

/** The balance of account `key` (`WALLET:USER:12`, `ESCROW`) in `currency`: every account is per currency. */
export async function accountBalance(key: string, currency = 'EUR'): Promise<number> {
  const row = await db().get<{ b: number }>(sql`SELECT balance_cents AS b FROM ledger_accounts WHERE key = ${`${key}:${currency}`}`);
  return row?.b ?? 0;
}

export const walletKey = (userId: number) => `WALLET:USER:${userId}`;
export const heldKey = (userId: number) => `HELD:USER:${userId}`;
export const receivableKey = (userId: number) => `RECEIVABLE:USER:${userId}`;

/** Net amount per account kind of the entries of one reservation. */
export async function reservationMoney(reservationId: number) {
  const rows = await db().all<{ kind: string; key: string; net: number }>(sql`
    SELECT a.kind AS kind, a.key AS key, SUM(l.amount_cents) AS net
    FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id JOIN ledger_accounts a ON a.id = l.account_id
    WHERE e.reservation_id = ${reservationId} GROUP BY a.id`);
  const byKind = { ESCROW: 0, WALLET: 0, HELD: 0, RECEIVABLE: 0, PLATFORM_REVENUE: 0, PROVIDER_CLEARING: 0, PAYOUTS: 0, PROTECTION_RESERVE: 0, PROTECTION_FUNDING: 0, PROTECTION_PREMIUMS: 0 };
  for (const r of rows) byKind[r.kind as keyof typeof byKind] += r.net;
  const entries = await db().all<{ key: string; type: string }>(
    sql`SELECT key, type FROM ledger_entries WHERE reservation_id = ${reservationId} ORDER BY id`,
  );
  return { ...byKind, wallets: rows.filter((r) => r.kind === 'WALLET'), entries };
}

/** The ledger-wide invariants: balanced entries, no negative wallet, cached balances = lines. */
export async function ledgerInvariantViolations(): Promise<string[]> {
  const problems: string[] = [];
  const total = await db().get<{ s: number | null }>(sql`SELECT SUM(amount_cents) AS s FROM ledger_lines`);
  if ((total?.s ?? 0) !== 0) problems.push(`all lines sum to ${total?.s}`);
  const unbalanced = await db().all<{ id: number; s: number }>(
    sql`SELECT entry_id AS id, SUM(amount_cents) AS s FROM ledger_lines GROUP BY entry_id HAVING SUM(amount_cents) <> 0`,
  );
  for (const u of unbalanced) problems.push(`entry ${u.id} sums to ${u.s}`);
  const empty = await db().all<{ id: number }>(
    sql`SELECT e.id AS id FROM ledger_entries e WHERE NOT EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entry_id = e.id)`,
  );
  for (const e of empty) problems.push(`entry ${e.id} has no lines`);
  const negative = await db().all<{ key: string; b: number }>(
    sql`SELECT key, balance_cents AS b FROM ledger_accounts WHERE kind = 'WALLET' AND balance_cents < 0`,
  );
  for (const n of negative) problems.push(`wallet ${n.key} is ${n.b}`);
  // CONTRACT 21: the protection reserve pays out only what it holds; the unearned premiums are
  // each booking's own, never below zero either.
  const reserves = await db().all<{ key: string; b: number }>(
    sql`SELECT key, balance_cents AS b FROM ledger_accounts WHERE kind IN ('PROTECTION_RESERVE', 'PROTECTION_PREMIUMS') AND balance_cents < 0`,
  );
  for (const n of reserves) problems.push(`reserve ${n.key} is ${n.b}`);
  // A reservation's lines on the unearned premiums: its premium while it may go back, then 0.
  const premiums = await db().all<{ id: number; s: number }>(sql`
    SELECT e.reservation_id AS id, SUM(l.amount_cents) AS s FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
      JOIN ledger_accounts a ON a.id = l.account_id JOIN reservations r ON r.id = e.reservation_id
     WHERE a.kind = 'PROTECTION_PREMIUMS' GROUP BY e.reservation_id HAVING SUM(l.amount_cents) NOT IN (0, MAX(r.protection_premium_cents))`);
  for (const n of premiums) problems.push(`reservation ${n.id} has ${n.s} in the unearned premiums`);
  const drift = await db().all<{ key: string; b: number; s: number }>(sql`
    SELECT a.key AS key, a.balance_cents AS b, COALESCE((SELECT SUM(amount_cents) FROM ledger_lines l WHERE l.account_id = a.id), 0) AS s
    FROM ledger_accounts a WHERE a.balance_cents <> COALESCE((SELECT SUM(amount_cents) FROM ledger_lines l WHERE l.account_id = a.id), 0)`);
  for (const d of drift) problems.push(`account ${d.key} caches ${d.b} but its lines sum to ${d.s}`);
  // CONTRACT section 19: held money is never negative and is exactly the open holds; a receivable
  // is a debt (0 or below); revenue never pays out more on a reservation than it earned on it.
  const section19 = await db().all<{ problem: string }>(sql`
    SELECT 'held ' || a.key || ' is ' || a.balance_cents || ', open holds ' || COALESCE(h.open, 0) AS problem
      FROM ledger_accounts a LEFT JOIN (SELECT owner_type, owner_id, SUM(amount_cents) AS open FROM payout_holds
        WHERE released_at IS NULL GROUP BY owner_type, owner_id) h ON h.owner_type = a.owner_type AND h.owner_id = a.owner_id
     WHERE a.kind = 'HELD' AND (a.balance_cents < 0 OR a.balance_cents <> COALESCE(h.open, 0))
    UNION ALL
    SELECT 'receivable ' || key || ' is ' || balance_cents || ' (owed to the owner?)' FROM ledger_accounts WHERE kind = 'RECEIVABLE' AND balance_cents > 0
    UNION ALL
    SELECT 'platform revenue paid ' || -SUM(l.amount_cents) || ' on reservation ' || e.reservation_id FROM ledger_lines l
      JOIN ledger_entries e ON e.id = l.entry_id JOIN ledger_accounts a ON a.id = l.account_id
     WHERE a.kind = 'PLATFORM_REVENUE' AND e.reservation_id IS NOT NULL GROUP BY e.reservation_id HAVING SUM(l.amount_cents) < 0`);
  problems.push(...section19.map((p) => p.problem));
  return problems;
}
