// Money, escrow (CONTRACT section 10): the card authorised at payment is captured at deposit
// and released at delivery, or voided / refunded on rejection, cancellation and expiry; the
// cron's money steps; and the ledger's invariants under random sequences of all of these.
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoiceSequences, ledgerAccounts, moneyDocuments, notifications, reservations, transactions } from '../src/db/schema';
import { documentNumber, invoiceAtCapture } from '../src/features/money/wallet/money-documents';
import { depsOf, type AuthUser } from '../src/env';
import { cancelReservation } from '../src/features/bookings/cancel-booking';
import { rejectReservation } from '../src/features/bookings/reject-booking';
import { captureLoaded, refundEffects, releaseHeldShares } from '../src/features/money';
import { allEffects, commitTransitions, loadReservation } from '../src/features/reservations/lifecycle';
import { db, reservationRow, runCron } from './helpers/db';
import { advance, deliverWithRelease, minutesFromNow, aUser, aCarrier, anAdmin, anAgency, aReservation, aPayoutAccount, FIFTY_EUR } from './helpers/factories';
import { errorBody, get, post } from './helpers/http';
import { fakeStripeForThisFile, sendPaymentEvent, accountBalance, walletKey, heldKey, reservationMoney, ledgerInvariantViolations } from './helpers/money';

const stripe = fakeStripeForThisFile();

/** 50.00 EUR paid by card through the webhook (authorised, not captured), then moved on by `status`. */
const paid = { payment: stripe, ...FIFTY_EUR };
/**
 * The same, booked under STRICT 10 days before departure: a sender cancelling after acceptance
 * gets all but the commission (CONTRACT section 22, STRICT at 72 h or more).
 */
const paidStrict = { ...paid, set: { cancellationPolicy: 'STRICT' as const } };

/** The capture the deposit (or the cron) makes; true when the payment is captured afterwards. */
const capture = async (id: number) => (await captureLoaded(depsOf(env), await reservationRow(id))).paymentStatus === 'CAPTURED';

/** A party as the API sees them after sign-in. */
const as = (user: { id: number }): AuthUser => ({ id: user.id, roles: ['ROLE_CLIENT'], jti: 'test', exp: 0 });

/** The carrier rejects, the sender or the carrier cancels: the API's own actions. */
const rejectBy = (carrier: { token: string }, id: number) => post(`/v1/api/bookings/${id}/reject`, undefined, { token: carrier.token });
const cancelBy = (party: { token: string }, id: number) => post(`/v1/api/bookings/${id}/cancel`, {}, { token: party.token });

describe('capture at deposit', () => {
  it('captures the authorisation once, with an idempotency key, and keeps the money in escrow', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'CONFIRMED', ...paid });
    await advance({ id: booking.id, action: 'DEPOSIT' });
    const before = stripe.requests.length;

    expect(await capture(booking.id)).toBe(true);
    expect(await capture(booking.id)).toBe(true); // idempotent, no second call

    const captures = stripe.requests.slice(before);
    expect(captures).toHaveLength(1);
    expect(captures[0]).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${pi.id}/capture`, idempotencyKey: `capture-${booking.id}` });
    const captured = await reservationRow(booking.id);
    expect(captured).toMatchObject({ paymentStatus: 'CAPTURED', captureId: stripe.paymentIntents.get(pi.id)!.latest_charge });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(5000);
  });

  /** A paid, accepted reservation and the carrier's scan of its deposit QR code. */
  async function scanDeposit() {
    const fixture = await aReservation({ status: 'CONFIRMED', ...paid });
    const qr = await get(`/v1/api/bookings/${fixture.reservation.id}/qrcode/deposit`, { token: fixture.sender.token });
    expect(qr.status).toBe(200);
    return { ...fixture, scan: () => post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: fixture.carrier.token }) };
  }

  it('the deposit scan captures the payment and answers with it captured', async () => {
    const { reservation: booking, pi, sender, scan } = await scanDeposit();
    const res = await scan();
    expect(res.status).toBe(200);
    const chargeId = stripe.paymentIntents.get(pi.id)!.latest_charge;
    expect(res.body).toMatchObject({ id: booking.id, status: 'DEPOSITED', paymentStatus: 'CAPTURED', captureId: chargeId });
    expect(res.headers.get('x-d1-round-trips')).toBe('2'); // the handover batch, then the capture
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'DEPOSITED', paymentStatus: 'CAPTURED', captureId: chargeId });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(booking.totalAmountCents);
    const notes = await db().select().from(notifications).where(sql`${notifications.userId} = ${sender.id} AND ${notifications.type} = 'RESERVATION_DEPOSITED'`);
    expect(notes.map((n) => [n.message, n.data])).toEqual([
      [`Your parcel for reservation ${booking.reservationNumber} was handed over to the carrier.`, { reservationId: booking.id, reservationNumber: booking.reservationNumber }],
    ]);
  });

  it('a capture outage still deposits the parcel; the payment stays authorised for the cron', async () => {
    const { reservation: booking, pi, scan } = await scanDeposit();
    const capturePath = `/v1/payment_intents/${pi.id}/capture`;
    stripe.outage.add(capturePath);
    try {
      const down = await scan();
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ status: 'DEPOSITED', paymentStatus: 'AUTHORIZED', captureId: null });
    } finally {
      stripe.outage.delete(capturePath);
    }
    expect(await capture(booking.id)).toBe(true);
  });

  it('the cron captures authorisations older than six days and keeps them in escrow', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    const fresh = await aReservation({ status: 'PAID', ...paid });
    // Accepted long ago, departure still ahead (a PAID booking left unanswered is auto-rejected after 24 h).
    const sixDaysAgo = minutesFromNow(-(6 * 24 * 60 + 1));
    await db().update(reservations).set({ status: 'CONFIRMED', paidAt: sixDaysAgo, confirmedAt: sixDaysAgo }).where(sql`${reservations.id} = ${booking.id}`);

    await runCron();

    expect(await reservationRow(booking.id)).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'CAPTURED' });
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('succeeded');
    expect((await reservationMoney(booking.id)).ESCROW).toBe(booking.totalAmountCents);
    expect(await reservationRow(fresh.reservation.id)).toMatchObject({ paymentStatus: 'AUTHORIZED' });
  });
});

describe('release at delivery', () => {
  it('delivery holds the carrier amount for the dispute window and gives the commission to the platform', async () => {
    const { carrier, reservation: booking } = await aReservation({ status: 'DEPOSITED', ...paid });
    const walletBefore = await accountBalance(walletKey(carrier.id));
    const revenueBefore = await accountBalance('PLATFORM_REVENUE');

    const delivered = await deliverWithRelease(booking.id);

    expect(delivered.status).toBe('DELIVERED');
    expect(await accountBalance(heldKey(carrier.id))).toBe(4250);
    expect(await accountBalance(walletKey(carrier.id))).toBe(walletBefore);
    expect(await accountBalance('PLATFORM_REVENUE')).toBe(revenueBefore + 750);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, HELD: 4250, WALLET: 0, PLATFORM_REVENUE: 750, PROVIDER_CLEARING: -5000 });
  });

  it('the carrier is told the share is held (FUNDS_HELD) with the day it becomes available, not that it is paid', async () => {
    const { carrier } = await aReservation({ status: 'DELIVERED', ...paid });
    const [note] = await db().select().from(notifications).where(sql`${notifications.userId} = ${carrier.id} AND ${notifications.type} = 'FUNDS_HELD'`);
    expect(note.message).toContain('42.50 EUR');
    expect(note.message).toMatch(/is held until \d{1,2} \w+ \d{4} \(the dispute window\)/);
    expect(note.data).toMatchObject({ amount: 42.5, currency: 'EUR' });
  });

  it('a second delivery is 409 and moves nothing', async () => {
    const { carrier, reservation: booking } = await aReservation({ status: 'DELIVERED', ...paid });
    const held = await accountBalance(heldKey(carrier.id));
    await expect(deliverWithRelease(booking.id)).rejects.toMatchObject({ errorCode: 'INVALID_STATE' });
    expect(await accountBalance(heldKey(carrier.id))).toBe(held);
    expect(held).toBe(4250);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, HELD: 4250, WALLET: 0, PLATFORM_REVENUE: 750 });
  });

  it("an agency's trip is paid into the agency's held account, not the carrier's", async () => {
    const { carrier } = await aReservation({ status: 'DELIVERED', agencyId: 77, ...paid });
    expect(await accountBalance('HELD:AGENCY:77')).toBe(4250);
    expect(await accountBalance(heldKey(carrier.id))).toBe(0);
    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
  });
});

describe('void and refund on rejection, cancellation and expiry', () => {
  it('rejection before capture voids the authorisation and returns the escrow', async () => {
    const { carrier, reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    const before = stripe.requests.length;

    const rejected = await rejectBy(carrier, booking.id);

    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    const calls = stripe.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ path: `/v1/payment_intents/${pi.id}/cancel`, idempotencyKey: `void-${booking.id}` });
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('canceled');
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
  });

  it('a second rejection is 409, moves nothing and calls the provider no more', async () => {
    const { carrier, reservation: booking } = await aReservation({ status: 'PAID', ...paid });
    expect((await rejectBy(carrier, booking.id)).status).toBe(200);
    const before = stripe.requests.length;
    const again = await rejectBy(carrier, booking.id);
    expect([again.status, again.body.errorCode]).toEqual([409, 'INVALID_STATE']);
    expect(stripe.requests.length).toBe(before);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
  });

  /** The sender's history lines of a reservation, oldest first: [type, amount, description]. */
  const historyOf = async (sender: { token: string }, reservationId: number) => {
    const page = await get('/v1/api/transactions?sort=createdAt,asc&size=100', { token: sender.token });
    expect(page.status).toBe(200);
    return (page.body.content as { type: string; amount: number; description: string; reservationId: number }[])
      .filter((t) => t.reservationId === reservationId)
      .map((t) => [t.type, t.amount, t.description]);
  };

  it('a sender cancelling after CONFIRMED gets all but the commission: a partial capture of the commission, not a refund', async () => {
    const { sender, reservation: booking, pi } = await aReservation({ status: 'CONFIRMED', ...paidStrict });
    const before = stripe.requests.length;

    const cancelled = await cancelBy(sender, booking.id);

    const [partial, ...others] = stripe.requests.slice(before);
    expect(partial).toMatchObject({ path: `/v1/payment_intents/${pi.id}/capture`, idempotencyKey: `capture-${booking.id}`, body: { amount_to_capture: '750' } });
    expect(others).toEqual([]); // no refund call: nothing was ever refunded
    const chargeId = stripe.paymentIntents.get(pi.id)!.latest_charge;
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIALLY_CAPTURED', captureId: chargeId, refundId: null });
    expect(await reservationRow(booking.id)).toMatchObject({ paymentStatus: 'PARTIALLY_CAPTURED', captureId: chargeId, refundId: null });
    // The history says what happened: the kept share captured, the rest of the hold released.
    expect(await historyOf(sender, booking.id)).toEqual([
      ['PAYMENT', -50, `Payment for reservation ${booking.reservationNumber} held in escrow`],
      ['HOLD_RELEASE', 42.5, `Reservation ${booking.reservationNumber}: 7.50 EUR of the card hold captured (kept), the other 42.50 EUR released`],
    ]);
    const summary = await get('/v1/api/transactions/summary?period=ALL', { token: sender.token });
    expect(summary.body).toMatchObject({ totalPaid: 50, totalRefunded: 0, totalReleased: 42.5, net: -7.5 });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: -750, PLATFORM_REVENUE: 750 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it('a partial capture whose answer was lost is recorded from the provider event as a capture', async () => {
    const { sender, reservation: booking, pi } = await aReservation({ status: 'CONFIRMED', ...paidStrict });
    const capturePath = `/v1/payment_intents/${pi.id}/capture`;
    stripe.outage.add(capturePath);
    try {
      expect((await cancelBy(sender, booking.id)).body).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIAL_CAPTURE_PENDING' });
    } finally {
      stripe.outage.delete(capturePath);
    }
    // The provider did capture the kept share; its event arrives before any retry.
    const event = stripe.event('payment_intent.succeeded', { ...pi, status: 'succeeded', amount_received: 750, amount_capturable: 0, latest_charge: 'ch_kept_share' });
    expect((await sendPaymentEvent(event)).status).toBe(200);
    expect(await reservationRow(booking.id)).toMatchObject({ paymentStatus: 'PARTIALLY_CAPTURED', captureId: 'ch_kept_share', refundId: null });
  });

  it('a rejection before capture is a released hold in the history, not a refund', async () => {
    const { sender, carrier, reservation: booking } = await aReservation({ status: 'PAID', ...paid });
    expect((await rejectBy(carrier, booking.id)).body).toMatchObject({ paymentStatus: 'VOIDED', captureId: null, refundId: null });
    expect((await historyOf(sender, booking.id)).at(-1)).toEqual([
      'HOLD_RELEASE',
      50,
      `Reservation ${booking.reservationNumber}: card hold of 50.00 EUR released, nothing charged`,
    ]);
  });

  it('a cancellation after capture refunds through the provider with the refund amount, and says so', async () => {
    const { sender, carrier, reservation: booking, pi } = await aReservation({ status: 'CONFIRMED', ...paid });
    await capture(booking.id); // captured early (aging hold)
    const before = stripe.requests.length;

    const cancelled = await cancelBy(carrier, booking.id); // the carrier cancelling refunds in full

    const [refund] = stripe.requests.slice(before);
    expect(refund).toMatchObject({ path: '/v1/refunds', idempotencyKey: `refund-${booking.id}`, body: { payment_intent: pi.id, amount: '5000' } });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED' });
    expect(cancelled.body.refundId).toMatch(/^re_/);
    expect((await historyOf(sender, booking.id)).at(-1)).toEqual(['REFUND', 50, `Reservation ${booking.reservationNumber}: 50.00 EUR refunded to the payment method`]);
  });

  it('a sender cancelling after acceptance once captured gets a partial refund (refundId), labelled a refund', async () => {
    const { sender, reservation: booking } = await aReservation({ status: 'CONFIRMED', ...paidStrict });
    await capture(booking.id);
    const cancelled = await cancelBy(sender, booking.id);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIALLY_REFUNDED' });
    expect(cancelled.body.refundId).toMatch(/^re_/);
    expect((await historyOf(sender, booking.id)).at(-1)).toEqual([
      'REFUND',
      42.5,
      `Reservation ${booking.reservationNumber}: 42.50 EUR refunded to the payment method, 7.50 EUR kept`,
    ]);
  });

  it('a rejection racing a capture ends as a refund, and the history line and notice follow', async () => {
    const { sender, carrier, reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    // The provider captured (e.g. the cron) but our row still says AUTHORIZED when the carrier rejects.
    Object.assign(stripe.paymentIntents.get(pi.id)!, { status: 'succeeded', amount_received: pi.amount, amount_capturable: 0, latest_charge: 'ch_raced' });
    const rejected = await rejectBy(carrier, booking.id);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUNDED' });
    expect(stripe.requestsTo('POST', '/v1/refunds').at(-1)).toMatchObject({ body: { payment_intent: pi.id, amount: '5000' } });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0 });
    expect((await historyOf(sender, booking.id)).at(-1)).toEqual(['REFUND', 50, `Reservation ${booking.reservationNumber}: 50.00 EUR refunded to the payment method`]);
    expect((await moneyNotices(sender.id)).map(([type]) => type)).toEqual(['PAYMENT_RELEASED', 'PAYMENT_REFUNDED']);
  });

  /** What the sender was told about the money of a reservation (type, title, message). */
  const moneyNotices = async (senderId: number) =>
    (await db().select().from(notifications).where(sql`${notifications.userId} = ${senderId} AND ${notifications.type} LIKE 'PAYMENT_%' AND ${notifications.type} <> 'PAYMENT_AUTHORIZED'`)).map(
      (n) => [n.type, n.title, n.message],
    );

  it('a rejection before capture tells the sender the card hold is released, not refunded', async () => {
    const { sender, carrier, reservation: booking } = await aReservation({ status: 'PAID', ...paid });
    expect((await rejectBy(carrier, booking.id)).body.paymentStatus).toBe('VOIDED');
    expect(await moneyNotices(sender.id)).toEqual([
      ['PAYMENT_RELEASED', 'Card hold released', `The hold of 50.00 EUR on your card for reservation ${booking.reservationNumber} is released: nothing is charged.`],
    ]);
  });

  it('a sender cancelling after acceptance is told the kept share is charged and the rest released', async () => {
    const { sender, reservation: booking } = await aReservation({ status: 'CONFIRMED', ...paidStrict });
    expect((await cancelBy(sender, booking.id)).status).toBe(200);
    expect(await moneyNotices(sender.id)).toEqual([
      [
        'PAYMENT_PARTIALLY_CAPTURED',
        'Part of the card hold charged',
        `7.50 EUR of the hold for reservation ${booking.reservationNumber} is charged; the other 42.50 EUR is released and never leaves your card.`,
      ],
    ]);
  });

  it('a cancellation after capture tells the sender a refund is on its way', async () => {
    const { sender, carrier, reservation: booking } = await aReservation({ status: 'CONFIRMED', ...paid });
    await capture(booking.id);
    expect((await cancelBy(carrier, booking.id)).status).toBe(200);
    expect(await moneyNotices(sender.id)).toEqual([
      ['PAYMENT_REFUNDED', 'Your refund', `50.00 EUR for reservation ${booking.reservationNumber} was refunded to the card you paid with. Your bank may take 5 to 10 days to show it.`],
    ]);
  });

  it('a card hold that lapses before deposit cancels the reservation and empties its escrow', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    const before = stripe.requests.length;
    const res = await sendPaymentEvent(stripe.event('payment_intent.canceled', { ...pi, status: 'canceled', cancellation_reason: 'automatic' }));
    expect(res.status).toBe(200);
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'AUTHORIZATION_EXPIRED' });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
    expect(stripe.requests.length).toBe(before); // nothing to void or refund
  });

  it('the status change and the refund commit together or not at all: a failing batch leaves the reservation paid and its escrow whole', async () => {
    const { reservation: booking } = await aReservation({ status: 'PAID', ...paid });
    const r = await loadReservation(db(), booking.id);
    // The refund's effects, then a statement that fails inside the same batch (a duplicate account key).
    const failing = allEffects(refundEffects(db(), r, r.totalAmountCents), () => [
      db().insert(ledgerAccounts).values({ key: 'ESCROW:EUR', kind: 'ESCROW', currency: 'EUR' }),
    ]);
    await expect(commitTransitions(db(), [{ id: r.id, from: 'PAID', action: 'REJECT', effects: failing }])).rejects.toThrow(/UNIQUE/);
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'PAID', paymentStatus: 'AUTHORIZED' });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 5000, PLATFORM_REVENUE: 0 });
    expect((await reservationMoney(booking.id)).entries).toHaveLength(1);
  });

  it('a refund whose provider call fails stays pending and the cron finishes it', async () => {
    const { carrier, reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    stripe.outage.add(`/v1/payment_intents/${pi.id}/cancel`);
    const rejected = await rejectBy(carrier, booking.id);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOID_PENDING' });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(0);
    stripe.outage.delete(`/v1/payment_intents/${pi.id}/cancel`);
    await runCron();
    expect(await reservationRow(booking.id)).toMatchObject({ paymentStatus: 'VOIDED' });
  });

  it('a paid booking the carrier never answers is rejected by the cron with its refund in the same step', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    await db().update(reservations).set({ paidAt: minutesFromNow(-(24 * 60 + 1)) }).where(sql`${reservations.id} = ${booking.id}`);
    await runCron();
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('canceled');
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('money documents say what happened (CONTRACT section 19)', () => {
  /** The reservation as its sender reads it, its money documents, and the invoice counter's value. */
  const booking = async (sender: { token: string }, id: number) => (await get(`/v1/api/bookings/${id}`, { token: sender.token })).body;
  const documentsOf = (id: number) => db().select().from(moneyDocuments).where(eq(moneyDocuments.reservationId, id)).orderBy(moneyDocuments.id);
  const transactionIdOf = async (senderId: number, id: number, type: string) =>
    (await db().select().from(transactions).where(and(eq(transactions.reservationId, id), eq(transactions.ownerId, senderId), eq(transactions.type, type as 'PAYMENT'))))[0]?.id;
  /** The text lines of a receipt PDF. */
  const shown = (pdf: unknown) => [...String(pdf).matchAll(/Td \((.*)\) Tj ET/g)].map((m) => m[1].replace(/\\([()\\])/g, '$1'));
  const year = () => new Date().toISOString().slice(0, 4);

  it('a paid booking rejected before capture has no invoice: invoiceStatus null, no invoiceUrl, its payment receipt 404', async () => {
    const { sender, carrier, reservation: r } = await aReservation({ status: 'PAID', ...paid });
    // Authorised only: nothing charged yet, no invoice.
    expect(await booking(sender, r.id)).toMatchObject({ invoiceId: null, invoiceUrl: null });
    expect((await rejectBy(carrier, r.id)).body).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED', invoiceId: null, invoiceUrl: null });
    expect(await reservationRow(r.id)).toMatchObject({ invoiceStatus: null, invoiceId: null, invoiceTransactionId: null });
    expect(await documentsOf(r.id)).toEqual([]);
    const payment = await transactionIdOf(sender.id, r.id, 'PAYMENT');
    const receipt = await get(`/v1/api/transactions/${payment}/receipt`, { token: sender.token });
    expect(receipt.status).toBe(404);
    expect(errorBody(receipt)).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND', message: `Invoice of transaction ${payment} not found` });
    // The released hold keeps its plain receipt (what happened: nothing charged).
    const released = await transactionIdOf(sender.id, r.id, 'HOLD_RELEASE');
    const plain = await get(`/v1/api/transactions/${released}/receipt`, { token: sender.token });
    expect(plain.status).toBe(200);
    expect(shown(plain.body)[0]).toBe('Transaction receipt');
  });

  it('a card hold that lapses has no invoice either', async () => {
    const { reservation: r, pi } = await aReservation({ status: 'PAID', ...paid });
    await sendPaymentEvent(stripe.event('payment_intent.canceled', { ...pi, status: 'canceled', cancellation_reason: 'automatic' }));
    expect(await reservationRow(r.id)).toMatchObject({ paymentStatus: 'AUTHORIZATION_EXPIRED', invoiceStatus: null, invoiceId: null });
    expect(await documentsOf(r.id)).toEqual([]);
  });

  it('the capture issues the invoice for the whole price: F-<year>-<6 digits>, ISSUED, its lines and totals', async () => {
    const { sender, reservation: r } = await aReservation({ status: 'DEPOSITED', ...paid });
    const row = await reservationRow(r.id);
    expect(row).toMatchObject({ paymentStatus: 'CAPTURED', invoiceStatus: 'ISSUED' });
    expect(row.invoiceId).toMatch(new RegExp(`^F-${year()}-\\d{6}$`));
    const [invoice] = await documentsOf(r.id);
    expect(invoice).toMatchObject({ kind: 'INVOICE', number: row.invoiceId, totalCents: 5000, carrierCents: 4250, commissionCents: 750, vatCents: 125, vatRate: 0.2, currency: 'EUR' });
    expect(invoice.transactionId).toBe(row.invoiceTransactionId);
    const own = await booking(sender, r.id);
    expect(own.invoiceId).toBe(row.invoiceId);
    const pdf = await get(`/v1/api/transactions/${row.invoiceTransactionId}/receipt`, { token: sender.token });
    expect(pdf.status).toBe(200);
    const lines = shown(pdf.body);
    expect(lines.slice(0, 3)).toEqual(['Invoice', `Invoice number: ${row.invoiceId}`, `Invoice date: ${invoice.issuedAt.slice(0, 10)}`]);
    expect(lines).toContain(`${env.PLATFORM_LEGAL_NAME}`);
    expect(lines).toContain(`VAT number: ${env.PLATFORM_VAT_NUMBER}`);
    expect(lines).toContain(`Company registration: ${env.PLATFORM_COMPANY_REGISTRATION}`);
    expect(lines.slice(-6)).toEqual([
      'Transport by the carrier: 42.50 EUR (no VAT charged by the platform)',
      'Platform service fee excl. VAT: 6.25 EUR',
      'VAT 20% on the platform service fee: 1.25 EUR',
      'Platform service fee incl. VAT: 7.50 EUR',
      `Payment reference: ${row.authorizationId}`,
      'Total paid: 50.00 EUR',
    ]);
  });

  it('a partial capture (sender cancelling after acceptance) invoices the captured 7.50 EUR only; the figures follow', async () => {
    const { sender, reservation: r } = await aReservation({ status: 'CONFIRMED', ...paidStrict });
    const cancelled = await cancelBy(sender, r.id);
    expect(cancelled.body).toMatchObject({ paymentStatus: 'PARTIALLY_CAPTURED', carrierAmount: 0, platformCommission: 7.5, totalAmount: 50 });
    const [invoice, ...others] = await documentsOf(r.id);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({ kind: 'INVOICE', totalCents: 750, carrierCents: 0, commissionCents: 750, vatCents: 125 });
    expect(await reservationRow(r.id)).toMatchObject({ invoiceStatus: 'ISSUED', invoiceId: invoice.number });
    const lines = shown((await get(`/v1/api/transactions/${invoice.transactionId}/receipt`, { token: sender.token })).body);
    expect(lines.at(-1)).toBe('Total paid: 7.50 EUR');
    expect(lines).toContain('Transport by the carrier: 0.00 EUR (no VAT charged by the platform)');
  });

  it('a full refund after capture issues a credit note of the invoice: CREDITED, A-<year>-<6 digits>, served as the refund receipt', async () => {
    const { sender, carrier, reservation: r } = await aReservation({ status: 'CONFIRMED', ...paid });
    await capture(r.id);
    const cancelled = await cancelBy(carrier, r.id);
    expect(cancelled.body).toMatchObject({ paymentStatus: 'REFUNDED', carrierAmount: 0, platformCommission: 0 });
    const [invoice, credit] = await documentsOf(r.id);
    expect(credit).toMatchObject({ kind: 'CREDIT_NOTE', invoiceDocumentId: invoice.id, totalCents: 5000, carrierCents: 4250, commissionCents: 750, vatCents: 125 });
    expect(credit.number).toMatch(new RegExp(`^A-${year()}-\\d{6}$`));
    expect(await reservationRow(r.id)).toMatchObject({ invoiceStatus: 'CREDITED', invoiceId: invoice.number });
    const refund = await transactionIdOf(sender.id, r.id, 'REFUND');
    expect(credit.transactionId).toBe(refund);
    const lines = shown((await get(`/v1/api/transactions/${refund}/receipt`, { token: sender.token })).body);
    expect(lines.slice(0, 4)).toEqual(['Credit note', `Credit note number: ${credit.number}`, `Credit note date: ${credit.issuedAt.slice(0, 10)}`, `Credits invoice: ${invoice.number}`]);
    expect(lines.slice(-6)).toEqual([
      'Transport by the carrier credited: 42.50 EUR (no VAT charged by the platform)',
      'Platform service fee excl. VAT credited: 6.25 EUR',
      'VAT 20% on the platform service fee credited: 1.25 EUR',
      'Platform service fee incl. VAT credited: 7.50 EUR',
      `Refund reference: ${(await reservationRow(r.id)).refundId}`,
      'Total refunded: 50.00 EUR',
    ]);
  });

  it('a partial refund after capture: PARTIALLY_CREDITED, the credit note is the refunded 42.50 EUR, carrierAmount and platformCommission reduced', async () => {
    const { sender, reservation: r } = await aReservation({ status: 'CONFIRMED', ...paidStrict });
    await capture(r.id);
    const cancelled = await cancelBy(sender, r.id);
    expect(cancelled.body).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED', totalAmount: 50, carrierAmount: 0, platformCommission: 7.5 });
    const [invoice, credit] = await documentsOf(r.id);
    expect(invoice).toMatchObject({ totalCents: 5000 });
    // The carrier's transport is credited in full; the commission is kept (no VAT credited).
    expect(credit).toMatchObject({ kind: 'CREDIT_NOTE', totalCents: 4250, carrierCents: 4250, commissionCents: 0, vatCents: 0 });
    expect(await reservationRow(r.id)).toMatchObject({ invoiceStatus: 'PARTIALLY_CREDITED', carrierAmountCents: 0, platformCommissionCents: 750 });
  });

  it('a rejection racing a capture: the capture we never recorded gets its invoice, the refund its credit note (CREDITED)', async () => {
    const { carrier, reservation: r, pi } = await aReservation({ status: 'PAID', ...paid });
    Object.assign(stripe.paymentIntents.get(pi.id)!, { status: 'succeeded', amount_received: pi.amount, amount_capturable: 0, latest_charge: 'ch_raced_docs' });
    expect((await rejectBy(carrier, r.id)).body).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUNDED', carrierAmount: 0, platformCommission: 0 });
    const [invoice, credit, ...others] = await documentsOf(r.id);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({ kind: 'INVOICE', totalCents: 5000, carrierCents: 4250, commissionCents: 750, vatCents: 125 });
    expect(credit).toMatchObject({ kind: 'CREDIT_NOTE', invoiceDocumentId: invoice.id, totalCents: 5000, carrierCents: 4250, commissionCents: 750, vatCents: 125 });
    expect(await reservationRow(r.id)).toMatchObject({ invoiceStatus: 'CREDITED', invoiceId: invoice.number });
  });

  it('numbers are consecutive per series, and parallel captures take consecutive numbers without duplicates or gaps', async () => {
    const series = `F-${year()}`;
    const last = async () => (await db().select().from(invoiceSequences).where(eq(invoiceSequences.series, series)))[0]?.lastNumber ?? 0;
    const fixtures = [];
    for (let i = 0; i < 6; i += 1) {
      const f = await aReservation({ status: 'CONFIRMED', ...paid });
      await advance({ id: f.reservation.id, action: 'DEPOSIT' });
      fixtures.push(f);
    }
    const before = await last();
    // Each capture twice at once (the deposit and the cron, say): one invoice each.
    await Promise.all(fixtures.flatMap((f) => [capture(f.reservation.id), capture(f.reservation.id)]));
    const numbers = [];
    for (const f of fixtures) {
      const docs = await documentsOf(f.reservation.id);
      expect(docs.map((d) => d.kind)).toEqual(['INVOICE']);
      numbers.push(Number(docs[0].number.slice(-6)));
    }
    expect(numbers.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6].map((k) => before + k));
    expect(await last()).toBe(before + 6);
  });

  it('a batch that fails takes no number', async () => {
    const series = `F-${year()}`;
    const last = async () => (await db().select().from(invoiceSequences).where(eq(invoiceSequences.series, series)))[0]?.lastNumber ?? 0;
    const { reservation: r } = await aReservation({ status: 'CONFIRMED', ...paid });
    await advance({ id: r.id, action: 'DEPOSIT' });
    await db().update(reservations).set({ paymentStatus: 'CAPTURED' }).where(eq(reservations.id, r.id));
    const before = await last();
    // The invoice's statements, then one that fails in the same batch.
    await expect(db().batch([...invoiceAtCapture(db(), r.id, "CAPTURED", 0.2), db().insert(ledgerAccounts).values({ key: "ESCROW:EUR", kind: "ESCROW", currency: "EUR" })] as never)).rejects.toThrow(/UNIQUE/);
    expect(await last()).toBe(before);
    expect(await documentsOf(r.id)).toEqual([]);
    await db().batch([...invoiceAtCapture(db(), r.id, 'CAPTURED', 0.2)] as never);
    expect((await documentsOf(r.id))[0].number).toBe(documentNumber(series, before + 1));
  });
});

describe('ledger invariants under random sequences (property)', () => {
  type Op =
    | { kind: 'book'; sender: number; carrier: number; weightG: number; agency: boolean }
    | { kind: 'pay' | 'accept' | 'deposit' | 'deliver' | 'reject'; r: number }
    | { kind: 'cancel'; r: number; by: 'SENDER' | 'CARRIER' }
    | { kind: 'withdraw'; carrier: number; share: number }
    | { kind: 'windowCloses' };

  // Weighted so that sequences often get a reservation all the way to delivery and a withdrawal.
  const reservationOp = (kind: 'pay' | 'accept' | 'deposit' | 'deliver' | 'reject') =>
    fc.record({ kind: fc.constant(kind), r: fc.nat(3) });
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('book' as const), sender: fc.nat(1), carrier: fc.nat(1), weightG: fc.integer({ min: 100, max: 30_000 }), agency: fc.boolean() }) },
    { weight: 4, arbitrary: reservationOp('pay') },
    { weight: 1, arbitrary: reservationOp('accept') },
    { weight: 1, arbitrary: reservationOp('deposit') },
    { weight: 4, arbitrary: reservationOp('deliver') },
    { weight: 1, arbitrary: reservationOp('reject') },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), r: fc.nat(3), by: fc.constantFrom('SENDER' as const, 'CARRIER' as const) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), carrier: fc.nat(1), share: fc.double({ min: 0.05, max: 1.3, noNaN: true }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('windowCloses' as const) }) },
  );

  /** Where a reservation's money is; exactly one place, given its history. */
  async function assertMoneyInOnePlace(id: number) {
    const r = await reservationRow(id);
    const m = await reservationMoney(id);
    const paid = m.entries.some((e) => e.key === `escrow-in:${id}`);
    const out = m.entries.find((e) => e.key === `escrow-out:${id}`);
    const places = [
      !paid && m.entries.length === 0, // never paid: nothing anywhere
      paid && !out && m.ESCROW === r.totalAmountCents && m.WALLET === 0 && m.PLATFORM_REVENUE === 0,
      // Delivered: the share held during the dispute window, or (once released) in the wallet; never both.
      out?.type === 'ESCROW_RELEASED' && m.ESCROW === 0 && (m.HELD === 0) !== (m.WALLET === 0) && m.HELD + m.WALLET === r.carrierAmountCents && m.PLATFORM_REVENUE === r.platformCommissionCents,
      out?.type === 'ESCROW_REFUNDED' && m.ESCROW === 0 && m.WALLET === 0 && m.HELD === 0 && -m.PROVIDER_CLEARING === m.PLATFORM_REVENUE,
    ].filter(Boolean);
    expect(places, `reservation ${id} in ${r.status}: ${JSON.stringify(m)}`).toHaveLength(1);
    // And the place matches the status.
    if (['PAID', 'CONFIRMED', 'DEPOSITED'].includes(r.status)) expect(m.ESCROW).toBe(r.totalAmountCents);
    if (r.status === 'DELIVERED') expect(out?.type).toBe('ESCROW_RELEASED');
    if (['REJECTED', 'CANCELLED'].includes(r.status) && paid) expect(out?.type).toBe('ESCROW_REFUNDED');
    if (r.status === 'PENDING_PAYMENT') expect(paid).toBe(false);
  }

  // Hundreds of requests and ledger reads: the default 30 s is too short on a loaded machine.
  /**
   * The money documents say what happened (CONTRACT section 19): an invoice exactly when money was
   * captured, for the amount captured; credit notes adding up to what was refunded after capture;
   * invoiceStatus from both; the reservation's figures add up to what was kept.
   */
  async function assertDocumentsSayWhatHappened(id: number) {
    const r = await reservationRow(id);
    const lines = await db().select().from(transactions).where(and(eq(transactions.reservationId, id), eq(transactions.ownerId, r.senderId)));
    const sum = (type: string) => lines.filter((t) => t.type === type).reduce((s, t) => s + t.amountCents, 0);
    const [refunded, released] = [sum('REFUND'), sum('HOLD_RELEASE')];
    const capturedInFull = ['CAPTURED', 'REFUND_PENDING', 'REFUNDED', 'PARTIALLY_REFUNDED'].includes(r.paymentStatus ?? '');
    const captured = capturedInFull ? r.totalAmountCents : r.paymentStatus === 'PARTIALLY_CAPTURED' ? r.totalAmountCents - released : 0;
    const docs = await db().select().from(moneyDocuments).where(eq(moneyDocuments.reservationId, id));
    const invoices = docs.filter((d) => d.kind === 'INVOICE');
    const credited = docs.filter((d) => d.kind === 'CREDIT_NOTE').reduce((s, d) => s + d.totalCents, 0);
    const where = `reservation ${id} ${r.status}/${r.paymentStatus}`;
    expect(invoices.map((d) => d.totalCents), where).toEqual(captured > 0 ? [captured] : []);
    expect(credited, where).toBe(captured > 0 ? refunded : 0);
    const status = captured === 0 ? null : refunded === 0 ? 'ISSUED' : refunded >= captured ? 'CREDITED' : 'PARTIALLY_CREDITED';
    expect(r.invoiceStatus, where).toBe(status);
    expect(r.invoiceId, where).toBe(invoices[0]?.number ?? null);
    expect(r.carrierAmountCents + r.platformCommissionCents, where).toBe(r.totalAmountCents - refunded - released);
  }

  it('after every step: lines sum to zero, no wallet negative, cached balances equal lines, money in one place', async () => {
    const applied: Record<string, number> = {};
    const count = (kind: string) => (applied[kind] = (applied[kind] ?? 0) + 1);
    const attempt = (kind: string, p: Promise<unknown>) =>
      p.then(
        () => count(kind),
        (e) => expect(e.errorCode, String(e)).toBe('INVALID_STATE'),
      );
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 8, maxLength: 20, size: 'max' }), async (randomOps) => {
        // Every sequence ends with one full journey so each run also pays, delivers and withdraws.
        const ops: Op[] = [
          ...randomOps,
          { kind: 'book', sender: 0, carrier: 0, weightG: 2000, agency: false },
          { kind: 'pay', r: -1 },
          { kind: 'deliver', r: -1 },
          { kind: 'windowCloses' },
          { kind: 'withdraw', carrier: 0, share: 0.5 },
        ];
        const senders = [await aUser(), await aUser()];
        const carriers = [await aCarrier(), await aCarrier()];
        for (const c of carriers) await aPayoutAccount(c, stripe.addAccount().id);
        // An agency's trip is run by the agency's staff: here each carrier owns the agency it books for.
        const carrierAgencies = [await anAgency(carriers[0]), await anAgency(carriers[1])];
        const booked: number[] = [];
        const pick = (i: number) => (booked.length ? (i < 0 ? booked[booked.length - 1] : booked[i % booked.length]) : null);
        for (const op of ops) {
          const id = 'r' in op ? pick(op.r) : null;
          const r = id ? await reservationRow(id) : null;
          switch (op.kind) {
            case 'book': {
              const agencyId = op.agency ? carrierAgencies[op.carrier].id : null;
              const { reservation } = await aReservation({ sender: senders[op.sender], carrier: carriers[op.carrier], ...FIFTY_EUR, weightG: op.weightG, agencyId });
              booked.push(reservation.id);
              count('book');
              break;
            }
            case 'pay':
              if (r) {
                const pi = stripe.authorizedPaymentIntent(r.totalAmountCents, 'eur', { reservationId: String(r.id) });
                expect((await sendPaymentEvent(stripe.event('payment_intent.amount_capturable_updated', pi))).status).toBe(200);
                if (r.status === 'PENDING_PAYMENT') count('pay');
              }
              break;
            case 'accept':
              if (r) await attempt('accept', advance({ id: r.id, action: 'ACCEPT' }));
              break;
            case 'deposit':
              if (r) await attempt('deposit', advance({ id: r.id, action: 'DEPOSIT' }).then(() => capture(r.id)));
              break;
            case 'deliver':
              // The carrier takes the parcel all the way: accept and deposit first when needed.
              if (r) {
                if (r.status === 'PAID') await advance({ id: r.id, action: 'ACCEPT' });
                if (r.status === 'PAID' || r.status === 'CONFIRMED') {
                  await advance({ id: r.id, action: 'DEPOSIT' });
                  await capture(r.id);
                }
                await attempt('deliver', deliverWithRelease(r.id));
              }
              break;
            case 'reject':
              if (r) await attempt('reject', rejectReservation(depsOf(env), as({ id: r.carrierId }), r.id));
              break;
            case 'cancel':
              if (r) await attempt('cancel', cancelReservation(depsOf(env), as({ id: op.by === 'SENDER' ? r.senderId : r.carrierId }), r.id, null));
              break;
            case 'windowCloses':
              // The cron 72 h later: every held share without an open dispute becomes available.
              await releaseHeldShares(depsOf(env), new Date(Date.now() + 73 * 3600_000));
              break;
            case 'withdraw': {
              const carrier = carriers[op.carrier];
              const before = await accountBalance(walletKey(carrier.id));
              // A share of the balance: sometimes affordable, sometimes more than there is.
              const cents = Math.max(1, Math.round(before * op.share));
              const res = await post('/v1/api/withdrawals', { amount: cents / 100 }, { token: carrier.token });
              expect(res.status).toBe(cents <= before ? 201 : 422);
              expect(await accountBalance(walletKey(carrier.id))).toBe(cents <= before ? before - cents : before);
              if (res.status === 201) count('withdraw');
              break;
            }
          }
          expect(await ledgerInvariantViolations()).toEqual([]);
          for (const b of booked) await assertMoneyInOnePlace(b);
        }
        // Once the sequence is done (each step's money settles with the provider before the next).
        for (const b of booked) await assertDocumentsSayWhatHappened(b);
      }),
      { numRuns: 15 },
    );
    // The runs did exercise the money paths (not only refused operations).
    for (const kind of ['book', 'pay', 'deliver', 'withdraw']) expect(applied[kind] ?? 0, `${kind} never applied`).toBeGreaterThan(0);
    expect((applied.reject ?? 0) + (applied.cancel ?? 0)).toBeGreaterThan(0);
  }, 240_000);
});

describe('suspension of a carrier (CONTRACT section 19)', () => {
  /** The sender's notices about the cancellation and the money: [type, message]. */
  const cancellationNotices = async (senderId: number) =>
    (
      await db()
        .select()
        .from(notifications)
        .where(sql`${notifications.userId} = ${senderId} AND ${notifications.type} IN ('RESERVATION_CANCELLED', 'PAYMENT_RELEASED', 'PAYMENT_REFUNDED')`)
        .orderBy(notifications.id)
    ).map((n) => [n.type, n.message]);

  it('cancels every reservation not yet deposited on their trips with a full refund, voided or refunded, the senders told; a deposited one is left alone', async () => {
    const admin = await anAdmin();
    const carrier = await aCarrier();
    const authorised = await aReservation({ carrier, status: 'PAID', ...paid });
    const accepted = await aReservation({ carrier, status: 'CONFIRMED', ...paid });
    expect(await capture(accepted.reservation.id)).toBe(true); // captured early: the money goes back as a refund
    const deposited = await aReservation({ carrier, status: 'DEPOSITED', ...paid });
    const before = stripe.requests.length;

    const res = await post(`/v1/api/admin/users/${carrier.id}/suspend`, { reason: 'Fraud' }, { token: admin.token });

    expect(res.status).toBe(200);
    expect(await reservationRow(authorised.reservation.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'VOIDED', cancellationReason: 'CARRIER_SUSPENDED' });
    expect(await reservationRow(accepted.reservation.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED', refundId: expect.stringMatching(/^re_/) });
    expect(await reservationRow(deposited.reservation.id)).toMatchObject({ status: 'DEPOSITED', paymentStatus: 'CAPTURED' });
    const calls = stripe.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: `/v1/payment_intents/${authorised.pi.id}/cancel`, idempotencyKey: `void-${authorised.reservation.id}` }),
        expect.objectContaining({ path: '/v1/refunds', body: expect.objectContaining({ payment_intent: accepted.pi.id, amount: '5000' }) }),
      ]),
    );
    for (const { reservation } of [authorised, accepted]) {
      expect(await reservationMoney(reservation.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0, WALLET: 0 });
    }
    expect((await reservationMoney(deposited.reservation.id)).ESCROW).toBe(5000);
    expect(await ledgerInvariantViolations()).toEqual([]);
    expect(await cancellationNotices(authorised.sender.id)).toEqual([
      ['RESERVATION_CANCELLED', `Booking ${authorised.reservation.reservationNumber} was cancelled: the carrier can no longer carry it. 50.00 EUR goes back to you in full.`],
      ['PAYMENT_RELEASED', `The hold of 50.00 EUR on your card for reservation ${authorised.reservation.reservationNumber} is released: nothing is charged.`],
    ]);
    expect(await cancellationNotices(accepted.sender.id)).toEqual([
      ['RESERVATION_CANCELLED', `Booking ${accepted.reservation.reservationNumber} was cancelled: the carrier can no longer carry it. 50.00 EUR goes back to you in full.`],
      ['PAYMENT_REFUNDED', `50.00 EUR for reservation ${accepted.reservation.reservationNumber} was refunded to the card you paid with. Your bank may take 5 to 10 days to show it.`],
    ]);
    expect(await cancellationNotices(deposited.sender.id)).toEqual([]);
  });

  it('a refund whose provider call fails during the suspension is finished by the cron', async () => {
    const admin = await anAdmin();
    const carrier = await aCarrier();
    const { reservation: booking, pi } = await aReservation({ carrier, status: 'PAID', ...paid });
    stripe.outage.add(`/v1/payment_intents/${pi.id}/cancel`);
    expect((await post(`/v1/api/admin/users/${carrier.id}/suspend`, {}, { token: admin.token })).status).toBe(200);
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'VOID_PENDING' });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(0);
    stripe.outage.delete(`/v1/payment_intents/${pi.id}/cancel`);
    await runCron();
    expect(await reservationRow(booking.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'VOIDED' });
  });
});
