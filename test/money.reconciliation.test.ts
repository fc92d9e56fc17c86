// Money reconciliation (CONTRACT section 27): the daily job compares each provider's records of a
// UTC day with our books and stores one report per day and provider, every difference with its
// amounts and currency; re-running replaces the report. Stripe through the fake Stripe's listings.
import { env } from 'cloudflare:workers';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, cronHeartbeats, ledgerEntries, mobileMoneyOperations, reconciliationDifferences, reconciliationReports, transactions, withdrawals } from '../src/db/schema';
import { depsOf } from '../src/env';
import { captureLoaded, dayOf, previousDay, runReconciliation } from '../src/features/money';
import { compareOperation } from '../src/features/money/reconciliation/reconciliation.rules';
import { compareStatement, matchStatement } from '../src/features/money/reconciliation/statement.rules';
import { statementEntry } from '../src/providers/mobile-money/wave-rail';
import type { MobileMoneyStatementLine } from '../src/providers/mobile-money';
import { db, reservationRow, runCron, setReservation } from './helpers/db';
import { aPayoutAccount, aReservation, aSuperAdmin, aUser, anAdmin, FIFTY_EUR } from './helpers/factories';
import { errorBody, get, post } from './helpers/http';
import { accountBalance, fakeStripeForThisFile, ledgerInvariantViolations, walletKey } from './helpers/money';

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
  it('a refund Stripe made and our books hold, with the same amount, lists nothing (the money back read from our own ledger)', async () => {
    const a = await aReservation({ status: 'DEPOSITED', ...paid });
    stripe.refunds.set('re_agreed', { id: 're_agreed', object: 'refund', amount: 800, currency: 'eur', payment_intent: a.pi.id, status: 'succeeded', created: Math.floor(Date.now() / 1000) });
    await setReservation(a.reservation.id, { refundId: 're_agreed', refundedAt: new Date().toISOString(), paymentStatus: 'PARTIALLY_REFUNDED' });
    // Other rows first, so that a transaction's or an entry's own id is never the reservation's by chance.
    const fillers = await db().insert(ledgerEntries).values([1, 2, 3].map(() => ({ key: `filler:${crypto.randomUUID()}`, token: crypto.randomUUID(), type: 'ESCROW_REFUNDED' as const, description: 'filler' }))).returning();
    const [entry] = await db().insert(ledgerEntries).values({ key: `refund:${a.reservation.id}`, token: crypto.randomUUID(), type: 'ESCROW_REFUNDED', reservationId: a.reservation.id, description: 'refund' }).returning();
    const [line] = await db().insert(transactions).values({ ownerType: 'USER', ownerId: a.reservation.senderId, type: 'REFUND', amountCents: 800, currency: 'EUR', ledgerEntryId: entry.id, reservationId: a.reservation.id, description: 'refund' }).returning();
    const { items } = await stripeReport();
    // These rows have no ledger lines: removed, so the ledger checks of other tests see a whole ledger.
    await db().delete(transactions).where(eq(transactions.id, line.id));
    await db().delete(ledgerEntries).where(inArray(ledgerEntries.id, [entry.id, ...fillers.map((f) => f.id)]));
    expect(items.filter((d) => d.reservationId === a.reservation.id && d.object === 'REFUND')).toEqual([]);
  });

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

describe('mobile money: a statement line and the operation it is about', () => {
  const line = (fields: Partial<MobileMoneyStatementLine>): MobileMoneyStatementLine => ({
    transactionId: 'T_1', type: 'api_payout', isReversal: false, amountMinor: 0, feeMinor: 0, currency: 'XOF', at: 0, checkoutSessionId: null, clientReference: null, ...fields,
  });
  it('what the person paid or got is the balance change with the fee put back, in and out', () => {
    expect(statementEntry(line({ type: 'api_checkout', amountMinor: 990, feeMinor: 10, checkoutSessionId: 'cos-1' }))).toMatchObject({ kind: 'PAYIN', amountMinor: 1000, ref: 'cos-1' });
    expect(statementEntry(line({ type: 'api_payout', amountMinor: -1010, feeMinor: 10, clientReference: 'withdrawal-7' }))).toMatchObject({ kind: 'PAYOUT', amountMinor: 1000, ref: null, reference: 'withdrawal-7' });
    expect(statementEntry(line({ type: 'api_checkout_refund', amountMinor: -1000, checkoutSessionId: 'cos-1' }))).toMatchObject({ kind: 'REFUND', amountMinor: 1000, ref: 'refund-cos-1' });
    expect(statementEntry(line({ type: 'api_payout_reversal', amountMinor: 1010, isReversal: true, clientReference: 'withdrawal-7' }))).toMatchObject({ kind: 'PAYOUT_REVERSAL', reference: 'withdrawal-7' });
    expect(statementEntry(line({ type: 'merchant_payment', amountMinor: 1980, feeMinor: 20, clientReference: 'x' }))).toMatchObject({ kind: 'OTHER', reference: null });
  });

  it('two payouts sent under one reference (a refund retried) are told apart by amount; a third line is money paid twice', () => {
    const op = (id: string, amountMinor: number, status: 'COMPLETED' | 'FAILED') =>
      ({ id, kind: 'REFUND' as const, status, amountMinor, currency: 'XOF', ref: `payout-pt-${id}`, reference: 'refund-PX-1', reservationId: 9, withdrawalId: null });
    const entry = (id: string, amountMinor: number) => ({ id, kind: 'PAYOUT' as const, amountMinor, currency: 'XOF', at: 1, ref: null, reference: 'refund-PX-1' });
    const ops = [op('a', 4250, 'FAILED'), op('b', 3000, 'COMPLETED')];
    const matches = matchStatement([entry('T_1', 3000), entry('T_2', 3000)], ops);
    expect(matches.map((m) => [m.op?.id, m.again])).toEqual([['b', false], ['b', true]]);
    expect(compareStatement(matches, () => true, [], new Set())).toEqual([expect.objectContaining({ kind: 'MISSING_IN_BOOKS', providerRef: 'T_2', reservationId: 9, ourStatus: 'COMPLETED' })]);
  });
});

describe('GET /superadmin/reconciliation and the retries', () => {
  const URL = '/v1/api/superadmin/reconciliation';

  it('super-admins only: 401 without a token, 403 for an administrator and a client, 401 for a monitoring token', async () => {
    const [root, admin, client] = await Promise.all([aSuperAdmin(), anAdmin(), aUser()]);
    expect((await get(URL)).status).toBe(401);
    for (const who of [admin, client]) {
      const res = await get(URL, { token: who.token });
      expect(res.status).toBe(403);
      expect(errorBody(res)).toMatchObject({ errorCode: 'ACCESS_DENIED' });
      expect((await post(`${URL}/refunds/1/retry`, undefined, { token: who.token })).status).toBe(403);
      expect((await post(`${URL}/payouts/1/retry`, undefined, { token: who.token })).status).toBe(403);
      expect((await post(`${URL}/runs`, {}, { token: who.token })).status).toBe(403);
    }
    const monitoring = await post('/v1/api/superadmin/monitoring-tokens', { name: 'uptime' }, { token: root.token });
    expect((await get(URL, { token: monitoring.body.token })).status).toBe(401);
  });

  it('bad input answers the error body: a day that is no date, a size of 0, an unknown sort, a path id of letters, a future day to run', async () => {
    const root = await aSuperAdmin();
    const bad = async (path: string, code: string, body?: object) => {
      const res = body ? await post(path, body, { token: root.token }) : await get(path, { token: root.token });
      expect(res.status, path).toBe(400);
      expect(errorBody(res)).toMatchObject({ errorCode: code, status: 400, path: expect.any(String), message: expect.any(String) });
    };
    await bad(`${URL}?day=2026-13-45`, 'VALIDATION_ERROR');
    await bad(`${URL}?size=0`, 'VALIDATION_ERROR');
    await bad(`${URL}?sort=amount,asc`, 'INVALID_ARGUMENT');
    const letters = await post(`${URL}/refunds/abc/retry`, undefined, { token: root.token });
    expect(letters.status).toBe(400);
    expect(errorBody(letters).errorCode).toBe('TYPE_MISMATCH');
    await bad(`${URL}/runs`, 'INVALID_ARGUMENT', { day: '2999-01-01' });
    await bad(`${URL}/runs`, 'VALIDATION_ERROR', { day: 'yesterday' });
    expect((await post(`${URL}/payouts/999999/retry`, undefined, { token: root.token })).status).toBe(404);
  });

  it('shows the latest reports with their differences in amounts, and the pending captures, refunds and payouts with age, amount, provider', async () => {
    const root = await aSuperAdmin();
    const { reservation } = await aReservation({ status: 'PAID', ...paid });
    const stray = stripe.authorizedPaymentIntent(4321, 'eur', {});
    const run = await post(`${URL}/runs`, { day: today() }, { token: root.token });
    expect(run.status).toBe(200);
    const res = await get(`${URL}?size=100`, { token: root.token });
    expect(res.status).toBe(200);
    expect(res.body.day).toBe(today());
    const report = res.body.reports.find((r: { provider: string }) => r.provider === 'STRIPE');
    expect(report).toMatchObject({ day: today(), status: 'DIFFERENCES' });
    expect(report.differences).toContainEqual({ kind: 'MISSING_IN_BOOKS', object: 'CHARGE', providerRef: stray.latest_charge, reservationId: null, withdrawalId: null, currency: 'EUR', providerAmount: 43.21, ourAmount: null, providerStatus: 'authorized', ourStatus: null });
    expect(res.body.pending.captures.content).toContainEqual(
      expect.objectContaining({ reservationId: reservation.id, reservationNumber: reservation.reservationNumber, amount: 50, currency: 'EUR', paymentStatus: 'AUTHORIZED', ageMinutes: expect.any(Number), since: expect.any(String) }),
    );
    expect(res.body.pending.captures.page).toMatchObject({ size: 100, totalElements: expect.any(Number) });
    // How each provider was read, in the reader's language.
    expect(report.note).toMatch(/^listed: \d+ charges, \d+ refunds, \d+ transfers$/);
    const fr = await get(`${URL}?size=1`, { token: root.token, headers: { 'Accept-Language': 'fr-SN' } });
    expect(fr.headers.get('Content-Language')).toBe('fr');
    expect(fr.body.reports.find((r: { provider: string }) => r.provider === 'STRIPE').note).toMatch(/^listés : \d+ paiements, \d+ remboursements, \d+ virements$/);
    expect(fr.body.reports.find((r: { provider: string }) => r.provider === 'WAVE').note).toMatch(/^vérifiées une à une par identifiant : \d+ opérations ; relevé : \d+ lignes, dont \d+ hors de ce service$/);
    const audited = await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'RECONCILIATION_RUN'), eq(auditLogs.actorId, root.id)));
    expect(audited.map((a) => a.targetId)).toEqual([today()]);
  });

  it('a refused card refund is listed with its failure and retried once under two concurrent retries, audited', async () => {
    const root = await aSuperAdmin();
    const { carrier, reservation, pi } = await aReservation({ status: 'CONFIRMED', ...paid });
    await captureLoaded(depsOf(env), await reservationRow(reservation.id));
    // Stripe refuses the refund (the payment is no longer refundable there, for now).
    const intent = stripe.paymentIntents.get(pi.id)!;
    intent.status = 'processing';
    expect((await post(`/v1/api/bookings/${reservation.id}/cancel`, {}, { token: carrier.token })).status).toBe(200);
    const refused = await reservationRow(reservation.id);
    expect(refused).toMatchObject({ paymentStatus: 'REFUND_PENDING', refundAttempt: 0 });
    expect(refused.settlementError).toMatch(/not been captured/);
    // The cron does not replay the refusal with the same key.
    const before = stripe.requestsTo('POST', '/v1/refunds').length;
    await runCron();
    expect(stripe.requestsTo('POST', '/v1/refunds').length).toBe(before);
    const pending = await get(`${URL}?size=100`, { token: root.token });
    expect(pending.body.pending.refunds.content).toContainEqual(
      expect.objectContaining({ reservationId: reservation.id, amount: 50, currency: 'EUR', paymentStatus: 'REFUND_PENDING', attempt: 0, failure: refused.settlementError, retryable: true }),
    );

    intent.status = 'succeeded';
    const [a, b] = await Promise.all([post(`${URL}/refunds/${reservation.id}/retry`, undefined, { token: root.token }), post(`${URL}/refunds/${reservation.id}/retry`, undefined, { token: root.token })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const ok = a.status === 200 ? a : b;
    expect(ok.body).toMatchObject({ reservationId: reservation.id, paymentStatus: 'REFUNDED', refundId: expect.stringMatching(/^re_/), attempt: 1, failure: null });
    expect(errorBody(a.status === 409 ? a : b)).toMatchObject({ errorCode: 'INVALID_STATE' });
    const sent = stripe.requestsTo('POST', '/v1/refunds').slice(before);
    expect(sent.map((r) => r.idempotencyKey)).toEqual([`refund-${reservation.id}-1`]);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === pi.id)).toHaveLength(1);
    expect(await reservationRow(reservation.id)).toMatchObject({ paymentStatus: 'REFUNDED', refundedAt: expect.any(String), settlementError: null });
    const audited = await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'REFUND_RETRIED'), eq(auditLogs.targetId, String(reservation.id))));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorId: root.id, targetType: 'RESERVATION' });
    // Done: a third retry is refused.
    expect((await post(`${URL}/refunds/${reservation.id}/retry`, undefined, { token: root.token })).status).toBe(409);
  });

  it('a failed payout is retried once under two concurrent retries (one transfer, the wallet debited once), audited', async () => {
    const root = await aSuperAdmin();
    const { carrier } = await aReservation({ status: 'DELIVERED', available: true, ...paid });
    const account = stripe.addAccount(true);
    await aPayoutAccount(carrier, account.id);
    stripe.refuseTransfersTo.add(account.id);
    expect((await post('/v1/api/withdrawals', { amount: 10 }, { token: carrier.token })).status).toBe(502);
    const [failed] = await db().select().from(withdrawals).where(eq(withdrawals.ownerId, carrier.id));
    expect(failed).toMatchObject({ status: 'FAILED', amountCents: 1000 });
    const wallet = await accountBalance(walletKey(carrier.id));
    const listed = await get(`${URL}?size=100`, { token: root.token });
    expect(listed.body.pending.payouts.content).toContainEqual(expect.objectContaining({ withdrawalId: failed.id, provider: 'STRIPE', amount: 10, currency: 'EUR', status: 'FAILED', retryable: true }));

    stripe.refuseTransfersTo.delete(account.id);
    const transfersBefore = stripe.transfers.size;
    const [a, b] = await Promise.all([post(`${URL}/payouts/${failed.id}/retry`, undefined, { token: root.token }), post(`${URL}/payouts/${failed.id}/retry`, undefined, { token: root.token })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const ok = a.status === 201 ? a : b;
    expect(ok.body).toMatchObject({ retriedWithdrawalId: failed.id, withdrawal: { amount: 10, currency: 'EUR', status: 'COMPLETED', transferId: expect.stringMatching(/^tr_/) } });
    expect(stripe.transfers.size - transfersBefore).toBe(1);
    expect(await accountBalance(walletKey(carrier.id))).toBe(wallet - 1000);
    const audited = await db().select().from(auditLogs).where(and(eq(auditLogs.action, 'PAYOUT_RETRIED'), eq(auditLogs.targetId, String(failed.id))));
    expect(audited).toHaveLength(1);
    expect((await post(`${URL}/payouts/${failed.id}/retry`, undefined, { token: root.token })).status).toBe(409);
    expect((await post(`${URL}/payouts/${ok.body.withdrawal.id}/retry`, undefined, { token: root.token })).status).toBe(409);
    expect(await ledgerInvariantViolations()).toEqual([]);
    const after = await get(`${URL}?size=100`, { token: root.token });
    expect(after.body.pending.payouts.content.map((p: { withdrawalId: number }) => p.withdrawalId)).not.toContain(failed.id);
  });
});
