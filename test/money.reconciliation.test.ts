// Money reconciliation (CONTRACT section 27): the daily job compares each provider's records of a
// UTC day with our books and stores one report per day and provider, every difference with its
// amounts and currency; re-running replaces the report. Stripe through the fake Stripe's listings.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cronHeartbeats, mobileMoneyOperations, reconciliationDifferences, reconciliationReports, withdrawals } from '../src/db/schema';
import { depsOf } from '../src/env';
import { dayOf, previousDay, runReconciliation } from '../src/features/money';
import { compareOperation } from '../src/features/money/reconciliation/reconciliation.rules';
import { db, runCron, setReservation } from './helpers/db';
import { aReservation, aUser, FIFTY_EUR } from './helpers/factories';
import { fakeStripeForThisFile } from './helpers/money';

const stripe = fakeStripeForThisFile();
const paid = { payment: stripe, ...FIFTY_EUR };
const today = () => dayOf(new Date());

/** Runs today's reconciliation; the Stripe report's differences. */
async function stripeReport(day = today()) {
  const reports = await runReconciliation(depsOf(env), day);
  const report = reports.find((r) => r.provider === 'STRIPE')!;
  const items = await db().select().from(reconciliationDifferences).where(eq(reconciliationDifferences.reportId, report.id));
  return { report, items, reports };
}

const none = { providerRef: expect.any(String), reservationId: null, withdrawalId: null };

describe('Stripe charges against our card payments', () => {
  it('lists a charge at Stripe we have no booking for, with its amount and currency', async () => {
    const stray = stripe.authorizedPaymentIntent(1234, 'eur', {});
    const { report, items } = await stripeReport();
    expect(report.status).toBe('DIFFERENCES');
    expect(items.filter((d) => d.providerRef === stray.latest_charge)).toEqual([
      expect.objectContaining({ ...none, kind: 'MISSING_IN_BOOKS', object: 'CHARGE', currency: 'EUR', providerAmountMinor: 1234, ourAmountMinor: null, providerStatus: 'authorized', ourStatus: null }),
    ]);
  });

  it('lists a payment we booked that Stripe never charged', async () => {
    const { reservation } = await aReservation({ status: 'PAID', ...FIFTY_EUR, set: { authorizationId: 'pi_never_charged', paymentStatus: 'AUTHORIZED', paidAt: new Date().toISOString() } });
    const { items } = await stripeReport();
    expect(items.filter((d) => d.reservationId === reservation.id)).toEqual([
      expect.objectContaining({ kind: 'MISSING_AT_PROVIDER', object: 'CHARGE', providerRef: 'pi_never_charged', currency: 'EUR', providerAmountMinor: null, ourAmountMinor: 5000, ourStatus: 'AUTHORIZED' }),
    ]);
  });

  it('lists an amount that differs (what was authorised) and a status that differs (a hold released at Stripe, authorised in our books)', async () => {
    const a = await aReservation({ status: 'PAID', ...paid });
    const b = await aReservation({ status: 'PAID', ...paid });
    stripe.charges.get(a.pi.latest_charge)!.amount = 4500;
    Object.assign(stripe.charges.get(b.pi.latest_charge)!, { refunded: true, amount_refunded: 5000 });
    const { items } = await stripeReport();
    expect(items.filter((d) => d.reservationId === a.reservation.id)).toEqual([
      expect.objectContaining({ kind: 'AMOUNT_MISMATCH', object: 'CHARGE', providerRef: a.pi.latest_charge, currency: 'EUR', providerAmountMinor: 4500, ourAmountMinor: 5000 }),
    ]);
    expect(items.filter((d) => d.reservationId === b.reservation.id)).toEqual([
      expect.objectContaining({ kind: 'STATUS_MISMATCH', object: 'CHARGE', providerStatus: 'released', ourStatus: 'AUTHORIZED', providerAmountMinor: 5000, ourAmountMinor: 5000 }),
    ]);
  });

  it('a captured payment that agrees lists nothing, and a captured amount that differs is listed', async () => {
    const ok = await aReservation({ status: 'DEPOSITED', ...paid });
    const off = await aReservation({ status: 'DEPOSITED', ...paid });
    stripe.charges.get(off.pi.latest_charge)!.amount_captured = 3000;
    const { items } = await stripeReport();
    expect(ok.reservation.paymentStatus).toBe('CAPTURED');
    expect(items.filter((d) => d.reservationId === ok.reservation.id)).toEqual([]);
    expect(items.filter((d) => d.reservationId === off.reservation.id)).toEqual([
      expect.objectContaining({ kind: 'AMOUNT_MISMATCH', providerAmountMinor: 3000, ourAmountMinor: 5000, ourStatus: 'CAPTURED' }),
    ]);
  });
});

describe('Stripe refunds and transfers', () => {
  it('a refund at Stripe not in our books, and one in our books Stripe does not have', async () => {
    const a = await aReservation({ status: 'DEPOSITED', ...paid });
    stripe.refunds.set('re_dashboard', { id: 're_dashboard', object: 'refund', amount: 700, currency: 'eur', payment_intent: a.pi.id, status: 'succeeded', created: Math.floor(Date.now() / 1000) });
    const b = await aReservation({ status: 'DEPOSITED', ...paid });
    await setReservation(b.reservation.id, { refundId: 're_ghost', refundedAt: new Date().toISOString(), paymentStatus: 'REFUNDED' });
    const { items } = await stripeReport();
    const refunds = items.filter((d) => d.object === 'REFUND');
    expect(refunds.filter((d) => d.reservationId === a.reservation.id)).toEqual([
      expect.objectContaining({ kind: 'MISSING_IN_BOOKS', providerRef: 're_dashboard', currency: 'EUR', providerAmountMinor: 700, ourAmountMinor: null, providerStatus: 'succeeded', ourStatus: 'CAPTURED' }),
    ]);
    expect(refunds.filter((d) => d.reservationId === b.reservation.id)).toEqual([
      expect.objectContaining({ kind: 'MISSING_AT_PROVIDER', providerRef: 're_ghost', currency: 'EUR', providerAmountMinor: null, ourAmountMinor: 0, ourStatus: 'REFUNDED' }),
    ]);
  });

  it('transfers: paid for a withdrawal we call FAILED (its money back in the wallet), another amount, none of ours, and ours Stripe does not have', async () => {
    const owner = await aUser();
    const row = (status: 'FAILED' | 'COMPLETED', amountCents: number, transferId: string | null = null) => ({
      ownerType: 'USER' as const, ownerId: owner.id, amountCents, currency: 'EUR', status, destinationAccountId: 'acct_test_dest', token: crypto.randomUUID(), transferId, completedAt: new Date().toISOString(),
    });
    const [failed, completed, ghost] = await db().insert(withdrawals).values([row('FAILED', 2500), row('COMPLETED', 4000, 'tr_completed'), row('COMPLETED', 1500, 'tr_ghost')]).returning();
    const now = Math.floor(Date.now() / 1000);
    const transfer = (id: string, amount: number, withdrawalId: number | null) => ({ id, object: 'transfer', amount, currency: 'eur', destination: 'acct_test_dest', metadata: withdrawalId ? { withdrawalId: String(withdrawalId) } : {}, amount_reversed: 0, reversed: false, created: now });
    stripe.transfers.set('tr_paid_twice', transfer('tr_paid_twice', 2500, failed.id));
    stripe.transfers.set('tr_completed', transfer('tr_completed', 3900, completed.id));
    stripe.transfers.set('tr_stray', transfer('tr_stray', 800, null));
    const { items } = await stripeReport();
    const ours = items.filter((d) => d.object === 'TRANSFER' && (['tr_paid_twice', 'tr_completed', 'tr_stray', 'tr_ghost'] as (string | null)[]).includes(d.providerRef));
    // By the provider's id: tr_completed, tr_ghost, tr_paid_twice, tr_stray.
    ours.sort((x, y) => x.providerRef!.localeCompare(y.providerRef!));
    expect(ours).toEqual([
      expect.objectContaining({ kind: 'AMOUNT_MISMATCH', providerRef: 'tr_completed', withdrawalId: completed.id, providerAmountMinor: 3900, ourAmountMinor: 4000, ourStatus: 'COMPLETED' }),
      expect.objectContaining({ kind: 'MISSING_AT_PROVIDER', providerRef: 'tr_ghost', withdrawalId: ghost.id, providerAmountMinor: null, ourAmountMinor: 1500, ourStatus: 'COMPLETED' }),
      expect.objectContaining({ kind: 'STATUS_MISMATCH', providerRef: 'tr_paid_twice', withdrawalId: failed.id, currency: 'EUR', providerAmountMinor: 2500, ourAmountMinor: 2500, providerStatus: 'paid', ourStatus: 'FAILED' }),
      expect.objectContaining({ kind: 'MISSING_IN_BOOKS', providerRef: 'tr_stray', withdrawalId: null, providerAmountMinor: 800, ourAmountMinor: null }),
    ]);
  });
});

describe('the report', () => {
  it('is one per day and provider: a run again replaces it (same row, runs counted, the same differences once)', async () => {
    stripe.authorizedPaymentIntent(999, 'eur', {});
    const first = await stripeReport();
    const second = await stripeReport();
    expect(second.report.id).toBe(first.report.id);
    expect(second.report.runs).toBe(first.report.runs + 1);
    expect(second.items.map(({ id: _, ...d }) => d)).toEqual(first.items.map(({ id: _, ...d }) => d));
    expect(second.report.differences).toBe(second.items.length);
    const rows = await db().select().from(reconciliationReports).where(eq(reconciliationReports.day, today()));
    expect(rows.map((r) => r.provider).sort()).toEqual([...new Set(rows.map((r) => r.provider))].sort());
    // Two runs at once leave one report and one set of differences.
    await Promise.all([runReconciliation(depsOf(env), today()), runReconciliation(depsOf(env), today())]);
    const [again] = await db().select().from(reconciliationReports).where(and(eq(reconciliationReports.day, today()), eq(reconciliationReports.provider, 'STRIPE')));
    const items = await db().select().from(reconciliationDifferences).where(eq(reconciliationDifferences.reportId, again.id));
    expect(items).toHaveLength(first.items.length);
  });

  it('a provider that cannot be read gets a FAILED report with the reason; the others are still compared', async () => {
    stripe.outage.add('/v1/refunds');
    try {
      const { report, reports } = await stripeReport('2026-01-15');
      expect(report).toMatchObject({ day: '2026-01-15', provider: 'STRIPE', status: 'FAILED', differences: 0 });
      expect(report.error).toMatch(/refund listing failed/);
      expect(reports.filter((r) => r.provider !== 'STRIPE').every((r) => r.status === 'MATCHED')).toBe(true);
    } finally {
      stripe.outage.delete('/v1/refunds');
    }
  });

  it('the cron runs it in its daily slot for the previous UTC day, with its heartbeat', async () => {
    const at = Date.parse('2026-03-10T03:00:00.000Z');
    await runCron(at);
    const rows = await db().select().from(reconciliationReports).where(eq(reconciliationReports.day, previousDay(new Date(at))));
    expect(rows.map((r) => r.provider)).toContain('STRIPE');
    expect(rows.find((r) => r.provider === 'STRIPE')).toMatchObject({ day: '2026-03-09', status: 'MATCHED' });
    const [beat] = await db().select().from(cronHeartbeats).where(eq(cronHeartbeats.job, 'reconciliation'));
    expect(beat).toMatchObject({ lastOkAt: new Date(at).toISOString(), lastError: null });
    await runCron(Date.parse('2026-03-10T03:05:00.000Z'));
    expect(await db().select().from(reconciliationReports).where(eq(reconciliationReports.day, '2026-03-10'))).toEqual([]);
  });
});

describe('mobile money: each operation of the day checked by id', () => {
  it('an operation we call completed that the rail does not know is listed with its amount', async () => {
    const deps = depsOf(env);
    const rail = deps.providers.mobileMoney.all[0];
    const id = crypto.randomUUID();
    await db().insert(mobileMoneyOperations).values({ id, subject: `payout:test-${id}`, kind: 'PAYOUT', rail: rail.code, amountMinor: 5000, currency: 'XOF', status: 'COMPLETED' });
    const reports = await runReconciliation(deps, today());
    const report = reports.find((r) => r.provider === rail.code)!;
    const items = await db().select().from(reconciliationDifferences).where(eq(reconciliationDifferences.reportId, report.id));
    expect(report.note).toMatch(/checked one by one by id/);
    expect(items).toEqual([expect.objectContaining({ kind: 'MISSING_AT_PROVIDER', object: 'PAYOUT', providerRef: id, currency: 'XOF', ourAmountMinor: 5000, ourStatus: 'COMPLETED', providerAmountMinor: null })]);
  });

  it('amounts and statuses the rail says differently', () => {
    const op = { id: 'op-1', kind: 'PAYIN' as const, status: 'COMPLETED' as const, amountMinor: 5000, currency: 'XOF', ref: 'cos-1', reservationId: 7, withdrawalId: null };
    const said = (status: 'PENDING' | 'COMPLETED' | 'FAILED' | 'UNKNOWN', amountMinor: number | null = 5000) => ({ status, ref: 'cos-1', providerTransactionId: null, failure: null, amountMinor, currency: 'XOF' });
    expect(compareOperation(op, said('COMPLETED'))).toBeNull();
    expect(compareOperation(op, said('COMPLETED', 4900))).toMatchObject({ kind: 'AMOUNT_MISMATCH', object: 'PAYIN', providerAmountMinor: 4900, ourAmountMinor: 5000, currency: 'XOF', reservationId: 7 });
    expect(compareOperation(op, said('FAILED'))).toMatchObject({ kind: 'STATUS_MISMATCH', providerStatus: 'FAILED', ourStatus: 'COMPLETED' });
    expect(compareOperation({ ...op, status: 'PENDING' }, said('COMPLETED'))).toMatchObject({ kind: 'STATUS_MISMATCH', providerStatus: 'COMPLETED', ourStatus: 'PENDING' });
    expect(compareOperation({ ...op, status: 'FAILED' }, null)).toBeNull();
    expect(compareOperation(op, said('UNKNOWN'))).toBeNull();
  });
});
