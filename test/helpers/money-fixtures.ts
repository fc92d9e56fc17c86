// Factories for money tests: trips and PENDING_PAYMENT reservations inserted straight into D1
// (the booking routes are another feature), payout accounts, and ledger readers.
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { getDb } from '../../src/db/client';
import { announcements, payoutAccounts, reservations, type ReservationRow } from '../../src/db/schema';
import { splitPrice } from '../../src/lib/money';
import type { TestUser } from './users';

let counter = 0;
const db = () => getDb(env);
const isoDate = (daysAhead: number) => new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);

export async function createTrip(carrier: { id: number }, options: { pricePerKgCents?: number; agencyId?: number | null } = {}) {
  const [trip] = await db()
    .insert(announcements)
    .values({
      carrierId: carrier.id,
      agencyId: options.agencyId ?? null,
      departureCity: 'Paris',
      departureCountry: 'FR',
      arrivalCity: 'Dakar',
      arrivalCountry: 'SN',
      departureCityKey: 'paris',
      arrivalCityKey: 'dakar',
      departureDate: isoDate(20),
      arrivalDate: isoDate(21),
      totalWeightG: 1_000_000,
      pricePerKgCents: options.pricePerKgCents ?? 1250,
      currency: 'EUR',
      transportMode: 'PLANE',
    })
    .returning();
  return trip;
}

export interface BookingOptions {
  weightG?: number;
  pricePerKgCents?: number;
  agencyId?: number | null;
  status?: ReservationRow['status'];
}

/** A PENDING_PAYMENT reservation of `sender` on a new trip of `carrier` (price split at 15 %). */
export async function createBooking(sender: TestUser | { id: number }, carrier: TestUser | { id: number }, options: BookingOptions = {}) {
  counter += 1;
  const pricePerKgCents = options.pricePerKgCents ?? 1250;
  const weightG = options.weightG ?? 4000;
  const trip = await createTrip(carrier, { pricePerKgCents, agencyId: options.agencyId });
  const split = splitPrice(weightG, pricePerKgCents, 0.15);
  await db()
    .update(announcements)
    .set({ reservedWeightG: weightG })
    .where(eq(announcements.id, trip.id));
  const [row] = await db()
    .insert(reservations)
    .values({
      reservationNumber: `T-${counter}-${crypto.randomUUID().slice(0, 8)}`,
      announcementId: trip.id,
      senderId: sender.id,
      carrierId: carrier.id,
      agencyId: options.agencyId ?? null,
      status: options.status ?? 'PENDING_PAYMENT',
      reservedWeightG: weightG,
      depositCode: '123456',
      deliveryCode: '654321',
      recipient: { firstName: 'Awa', lastName: 'Diop' },
      recipientToken: crypto.randomUUID() + crypto.randomUUID(),
      pricePerKgCents,
      ...split,
      currency: 'EUR',
      paymentDeadline: new Date(Date.now() + 30 * 60_000).toISOString(),
    })
    .returning();
  return row;
}

export async function reservation(id: number) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row;
}

export async function linkPayoutAccount(owner: { id: number }, providerAccountId: string, enabled = true, ownerType: 'USER' | 'AGENCY' = 'USER') {
  await db()
    .insert(payoutAccounts)
    .values({
      ownerType,
      ownerId: owner.id,
      providerAccountId,
      chargesEnabled: enabled,
      payoutsEnabled: enabled,
      detailsSubmitted: enabled,
    })
    .onConflictDoUpdate({
      target: [payoutAccounts.ownerType, payoutAccounts.ownerId],
      set: { providerAccountId, chargesEnabled: enabled, payoutsEnabled: enabled, detailsSubmitted: enabled },
    });
}

export async function accountBalance(key: string): Promise<number> {
  const row = await db().get<{ b: number }>(sql`SELECT balance_cents AS b FROM ledger_accounts WHERE key = ${key}`);
  return row?.b ?? 0;
}

export const walletKey = (userId: number) => `WALLET:USER:${userId}`;

/** Net amount per account kind of the entries of one reservation. */
export async function reservationMoney(reservationId: number) {
  const rows = await db().all<{ kind: string; key: string; net: number }>(sql`
    SELECT a.kind AS kind, a.key AS key, SUM(l.amount_cents) AS net
    FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id JOIN ledger_accounts a ON a.id = l.account_id
    WHERE e.reservation_id = ${reservationId} GROUP BY a.id`);
  const byKind = { ESCROW: 0, WALLET: 0, PLATFORM_REVENUE: 0, PROVIDER_CLEARING: 0, PAYOUTS: 0 };
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
  const drift = await db().all<{ key: string; b: number; s: number }>(sql`
    SELECT a.key AS key, a.balance_cents AS b, COALESCE((SELECT SUM(amount_cents) FROM ledger_lines l WHERE l.account_id = a.id), 0) AS s
    FROM ledger_accounts a WHERE a.balance_cents <> COALESCE((SELECT SUM(amount_cents) FROM ledger_lines l WHERE l.account_id = a.id), 0)`);
  for (const d of drift) problems.push(`account ${d.key} caches ${d.b} but its lines sum to ${d.s}`);
  return problems;
}
