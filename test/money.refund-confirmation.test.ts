// A refund is real when the provider confirms it (CONTRACT 26): until then the sender's REFUND line
// is PENDING, it has no credit note and nothing says "refunded"; the confirmation (the API's answer,
// the cron asking, a webhook, an operator's retry) completes the line, issues the credit note and
// tells the sender once.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { moneyDocuments, notifications, transactions } from '../src/db/schema';
import { depsOf } from '../src/env';
import { captureLoaded } from '../src/features/money';
import { db, reservationRow, runCron } from './helpers/db';
import { aReservation, aSuperAdmin, FIFTY_EUR } from './helpers/factories';
import { get, post } from './helpers/http';
import { fakeStripeForThisFile, ledgerInvariantViolations, reservationMoney, sendPaymentEvent } from './helpers/money';

const stripe = fakeStripeForThisFile();
afterEach(() => {
  stripe.refundStatus = 'succeeded';
});

/** A captured 50 EUR booking its carrier cancels: the whole price goes back as a refund. */
async function cancelledAfterCapture() {
  const booking = await aReservation({ status: 'CONFIRMED', payment: stripe, ...FIFTY_EUR });
  await captureLoaded(depsOf(env), await reservationRow(booking.reservation.id));
  const cancelled = await post(`/v1/api/bookings/${booking.reservation.id}/cancel`, {}, { token: booking.carrier.token });
  expect(cancelled.status).toBe(200);
  return { ...booking, cancelled: cancelled.body };
}

/** The sender's REFUND lines of the reservation as GET /transactions lists them. */
const refundLines = async (sender: { token: string }, reservationId: number) =>
  ((await get('/v1/api/transactions?type=REFUND&size=100', { token: sender.token })).body.content as { reservationId: number; status: string; amount: number }[])
    .filter((t) => t.reservationId === reservationId)
    .map((t) => [t.status, t.amount]);
const documentKinds = async (reservationId: number) =>
  (await db().select().from(moneyDocuments).where(eq(moneyDocuments.reservationId, reservationId)).orderBy(moneyDocuments.id)).map((d) => [d.kind, d.totalCents, d.number]);
const refundNotices = async (senderId: number) =>
  (await db().select().from(notifications).where(and(eq(notifications.userId, senderId), eq(notifications.type, 'PAYMENT_REFUNDED')))).map((n) => n.message);
const summary = async (sender: { token: string }) => {
  const s = (await get('/v1/api/transactions/summary?period=ALL', { token: sender.token })).body;
  return { totalRefunded: s.totalRefunded, totalRefundPending: s.totalRefundPending };
};

describe('a refund is written when the provider confirms it', () => {
  it('answered at once: the line is COMPLETED, the credit note issued and the sender told where the money went', async () => {
    const { sender, reservation, cancelled } = await cancelledAfterCapture();
    expect(cancelled).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED', refundId: expect.stringMatching(/^re_/) });
    expect(await reservationRow(reservation.id)).toMatchObject({ invoiceStatus: 'CREDITED' });
    expect(await refundLines(sender, reservation.id)).toEqual([['COMPLETED', 50]]);
    expect((await documentKinds(reservation.id)).map(([kind, total]) => [kind, total])).toEqual([
      ['INVOICE', 5000],
      ['CREDIT_NOTE', 5000],
    ]);
    expect(await refundNotices(sender.id)).toEqual([
      `50.00 EUR for reservation ${reservation.reservationNumber} was refunded to the card you paid with. Your bank may take 5 to 10 days to show it.`,
    ]);
    expect(await summary(sender)).toEqual({ totalRefunded: 50, totalRefundPending: 0 });
  });

  it('answered pending: PENDING in the history and the summary, no credit note, nothing told; the webhook confirms it once', async () => {
    stripe.refundStatus = 'pending';
    const { sender, reservation, cancelled } = await cancelledAfterCapture();
    expect(cancelled).toMatchObject({ paymentStatus: 'REFUND_PENDING', refundId: expect.stringMatching(/^re_/) });
    expect(await reservationRow(reservation.id)).toMatchObject({ invoiceStatus: 'ISSUED' });
    const refundId = cancelled.refundId as string;
    // The ledger moved the money out of escrow at the cancellation; the provider has not yet.
    expect(await reservationMoney(reservation.id)).toMatchObject({ ESCROW: 0 });
    expect(await refundLines(sender, reservation.id)).toEqual([['PENDING', 50]]);
    expect((await documentKinds(reservation.id)).map(([kind]) => kind)).toEqual(['INVOICE']);
    expect(await refundNotices(sender.id)).toEqual([]);
    expect(await summary(sender)).toEqual({ totalRefunded: 0, totalRefundPending: 50 });

    // The cron asks Stripe about that refund; it never creates a second one.
    const posted = stripe.requestsTo('POST', '/v1/refunds').length;
    await runCron();
    expect(stripe.requestsTo('GET', `/v1/refunds/${refundId}`).length).toBeGreaterThan(0);
    expect(stripe.requestsTo('POST', '/v1/refunds').length).toBe(posted);
    expect(await refundLines(sender, reservation.id)).toEqual([['PENDING', 50]]);

    // Stripe sends it: the event makes us ask, and the answer confirms it.
    const refund = stripe.refunds.get(refundId)!;
    refund.status = 'succeeded';
    expect((await sendPaymentEvent(stripe.event('refund.updated', refund))).status).toBe(200);
    expect(await reservationRow(reservation.id)).toMatchObject({ paymentStatus: 'REFUNDED', invoiceStatus: 'CREDITED', refundedAt: expect.any(String) });
    expect(await refundLines(sender, reservation.id)).toEqual([['COMPLETED', 50]]);
    const docs = await documentKinds(reservation.id);
    expect(docs.map(([kind, total]) => [kind, total])).toEqual([
      ['INVOICE', 5000],
      ['CREDIT_NOTE', 5000],
    ]);
    expect(docs[1][2]).toMatch(/^A-\d{4}-\d{6}$/);
    expect(await refundNotices(sender.id)).toHaveLength(1);
    expect(await summary(sender)).toEqual({ totalRefunded: 50, totalRefundPending: 0 });

    // A second word from Stripe (charge.refunded, a replayed event) adds nothing.
    await sendPaymentEvent(stripe.event('charge.refunded', { ...stripe.charges.get(refund.charge)!, payment_intent: refund.payment_intent }));
    await sendPaymentEvent(stripe.event('refund.updated', refund));
    expect((await documentKinds(reservation.id)).length).toBe(2);
    expect(await refundNotices(sender.id)).toHaveLength(1);
    // The credit note is the refund line's receipt.
    const [line] = await db().select().from(transactions).where(and(eq(transactions.reservationId, reservation.id), eq(transactions.type, 'REFUND')));
    const receipt = await get(`/v1/api/transactions/${line.id}/receipt`, { token: sender.token });
    expect(receipt.status).toBe(200);
    expect(String(receipt.body)).toContain(docs[1][2] as string);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a pending refund the cron finds succeeded is confirmed by the cron', async () => {
    stripe.refundStatus = 'pending';
    const { sender, reservation, cancelled } = await cancelledAfterCapture();
    stripe.refunds.get(cancelled.refundId)!.status = 'succeeded';
    await runCron();
    expect(await reservationRow(reservation.id)).toMatchObject({ paymentStatus: 'REFUNDED', invoiceStatus: 'CREDITED' });
    expect(await refundLines(sender, reservation.id)).toEqual([['COMPLETED', 50]]);
    expect(await refundNotices(sender.id)).toHaveLength(1);
  });

  it('a refund that fails at the provider waits for an operator, still PENDING; the retry sends a new one and confirms it', async () => {
    const root = await aSuperAdmin();
    stripe.refundStatus = 'failed';
    const { sender, reservation, cancelled } = await cancelledAfterCapture();
    expect(cancelled).toMatchObject({ paymentStatus: 'REFUND_PENDING' });
    expect(await reservationRow(reservation.id)).toMatchObject({ invoiceStatus: 'ISSUED' });
    expect((await reservationRow(reservation.id)).settlementError).toMatch(/failed at the provider/);
    expect(await refundLines(sender, reservation.id)).toEqual([['PENDING', 50]]);
    expect(await refundNotices(sender.id)).toEqual([]);

    stripe.refundStatus = 'succeeded';
    const retried = await post(`/v1/api/superadmin/reconciliation/refunds/${reservation.id}/retry`, undefined, { token: root.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ paymentStatus: 'REFUNDED', attempt: 1, failure: null });
    expect(retried.body.refundId).not.toBe(cancelled.refundId);
    expect(stripe.requestsTo('POST', '/v1/refunds').at(-1)).toMatchObject({ idempotencyKey: `refund-${reservation.id}-1` });
    expect(await refundLines(sender, reservation.id)).toEqual([['COMPLETED', 50]]);
    expect((await documentKinds(reservation.id)).map(([kind]) => kind)).toEqual(['INVOICE', 'CREDIT_NOTE']);
    expect(await refundNotices(sender.id)).toHaveLength(1);
  });
});
