// Money, escrow (CONTRACT section 10): the card authorised at payment is captured at deposit
// and released at delivery, or voided / refunded on rejection, cancellation and expiry; the
// cron's money steps; and the ledger's invariants under random sequences of all of these.
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notifications, reservations } from '../src/db/schema';
import { transitionReservation } from '../src/features/bookings/reservation-transition';
import {
  captureOnDeposit,
  cancellationRefundCents,
  releaseForReservation,
  releaseOnDelivery,
  voidOrRefund,
} from '../src/features/payments/escrow.service';
import { db, reservationRow, runCron } from './helpers/db';
import { minutesFromNow, aUser, aCarrier, aReservation, aPayoutAccount, FIFTY_EUR } from './helpers/factories';
import { get, post } from './helpers/http';
import { fakeStripeForThisFile, sendPaymentEvent, accountBalance, walletKey, reservationMoney, ledgerInvariantViolations } from './helpers/money';

const stripe = fakeStripeForThisFile();

/** 50.00 EUR paid by card through the webhook (authorised, not captured), then moved on by `status`. */
const paid = { payment: stripe, ...FIFTY_EUR };

describe('capture at deposit', () => {
  it('captures the authorisation once, with an idempotency key, and keeps the money in escrow', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'CONFIRMED', ...paid });
    await transitionReservation(db(), booking.id, 'DEPOSIT');
    const before = stripe.requests.length;

    expect(await captureOnDeposit(env, booking.id)).toBe(true);
    expect(await captureOnDeposit(env, booking.id)).toBe(true); // idempotent, no second call

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
      [`Your parcel for reservation ${booking.reservationNumber} was handed over to the carrier.`, { reservationId: booking.id }],
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
    expect(await captureOnDeposit(env, booking.id)).toBe(true);
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
  it('delivery releases the carrier amount to the wallet and the commission to the platform', async () => {
    const { carrier, reservation: booking } = await aReservation({ status: 'DEPOSITED', ...paid });
    const walletBefore = await accountBalance(walletKey(carrier.id));
    const revenueBefore = await accountBalance('PLATFORM_REVENUE');

    const delivered = await releaseOnDelivery(env, booking.id, { action: 'DELIVER' });

    expect(delivered.status).toBe('DELIVERED');
    expect(await accountBalance(walletKey(carrier.id))).toBe(walletBefore + 4250);
    expect(await accountBalance('PLATFORM_REVENUE')).toBe(revenueBefore + 750);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, WALLET: 4250, PLATFORM_REVENUE: 750, PROVIDER_CLEARING: -5000 });
  });

  it('the carrier is told the released amount (FUNDS_RELEASED)', async () => {
    const { carrier } = await aReservation({ status: 'DELIVERED', ...paid });
    const [note] = await db().select().from(notifications).where(sql`${notifications.userId} = ${carrier.id} AND ${notifications.type} = 'FUNDS_RELEASED'`);
    expect(note.message).toContain('42.50 EUR');
  });

  it('a second delivery is 409 and moves nothing; a bare release of a delivered reservation is a no-op', async () => {
    const { carrier, reservation: booking } = await aReservation({ status: 'DELIVERED', ...paid });
    const wallet = await accountBalance(walletKey(carrier.id));
    await expect(releaseOnDelivery(env, booking.id, { action: 'DELIVER' })).rejects.toMatchObject({ errorCode: 'INVALID_STATE' });
    await releaseOnDelivery(env, booking.id, null);
    expect(await accountBalance(walletKey(carrier.id))).toBe(wallet);
    expect(wallet).toBe(4250);
  });

  it('a bare release after the status was committed to DELIVERED releases once, however often called', async () => {
    const { reservation: booking } = await aReservation({ status: 'DEPOSITED', ...paid });
    await transitionReservation(db(), booking.id, 'DELIVER');
    await releaseOnDelivery(env, booking.id, null);
    await releaseOnDelivery(env, booking.id, null);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, WALLET: 4250, PLATFORM_REVENUE: 750 });
  });

  it("an agency's trip is paid into the agency wallet, not the carrier's", async () => {
    const { carrier } = await aReservation({ status: 'DELIVERED', agencyId: 77, ...paid });
    expect(await accountBalance('WALLET:AGENCY:77')).toBe(4250);
    expect(await accountBalance(walletKey(carrier.id))).toBe(0);
  });
});

describe('void and refund on rejection, cancellation and expiry', () => {
  it('rejection before capture voids the authorisation and returns the escrow', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    const before = stripe.requests.length;

    const rejected = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' });

    expect(rejected).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    const calls = stripe.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ path: `/v1/payment_intents/${pi.id}/cancel`, idempotencyKey: `void-${booking.id}` });
    expect(stripe.paymentIntents.get(pi.id)!.status).toBe('canceled');
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
  });

  it('a second rejection is 409, moves nothing and calls the provider no more', async () => {
    const { reservation: booking } = await aReservation({ status: 'PAID', ...paid });
    await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' });
    const before = stripe.requests.length;
    await expect(voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' })).rejects.toMatchObject({ errorCode: 'INVALID_STATE' });
    expect(stripe.requests.length).toBe(before);
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0, PLATFORM_REVENUE: 0 });
  });

  it('a sender cancelling after CONFIRMED gets all but the commission: partial capture of the commission only', async () => {
    const { sender, reservation: booking, pi } = await aReservation({ status: 'CONFIRMED', ...paid });
    const refund = cancellationRefundCents(booking, 'CONFIRMED', 'SENDER');
    expect(refund).toBe(4250);
    const before = stripe.requests.length;

    const cancelled = await voidOrRefund(env, booking.id, refund, { action: 'CANCEL', set: { cancelledBy: sender.id } });

    expect(cancelled).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIALLY_REFUNDED' });
    const [capture] = stripe.requests.slice(before);
    expect(capture).toMatchObject({ path: `/v1/payment_intents/${pi.id}/capture`, body: { amount_to_capture: '750' } });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: -750, PLATFORM_REVENUE: 750 });
  });

  it('a cancellation after capture refunds through the provider with the refund amount', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'CONFIRMED', ...paid });
    await captureOnDeposit(env, booking.id); // captured early (aging hold)
    const before = stripe.requests.length;

    const cancelled = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'CANCEL' });

    const [refund] = stripe.requests.slice(before);
    expect(refund).toMatchObject({ path: '/v1/refunds', idempotencyKey: `refund-${booking.id}`, body: { payment_intent: pi.id, amount: '5000' } });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED' });
    expect(cancelled.refundId).toMatch(/^re_/);
  });

  it('a rejection racing a capture ends as a refund', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    // The provider captured (e.g. the cron) but our row still says AUTHORIZED when the carrier rejects.
    Object.assign(stripe.paymentIntents.get(pi.id)!, { status: 'succeeded', amount_received: pi.amount, amount_capturable: 0, latest_charge: 'ch_raced' });
    const rejected = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' });
    expect(rejected).toMatchObject({ status: 'REJECTED', paymentStatus: 'REFUNDED' });
    expect(stripe.requestsTo('POST', '/v1/refunds').at(-1)).toMatchObject({ body: { payment_intent: pi.id, amount: '5000' } });
    expect(await reservationMoney(booking.id)).toMatchObject({ ESCROW: 0, PROVIDER_CLEARING: 0 });
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

  it('a live reservation keeps its escrow when no transition comes with the call', async () => {
    const { reservation: booking } = await aReservation({ status: 'PAID', ...paid });
    await expect(voidOrRefund(env, booking.id, booking.totalAmountCents)).rejects.toThrow('cannot be returned');
    expect((await reservationMoney(booking.id)).ESCROW).toBe(booking.totalAmountCents);
  });

  it('the release hook of a rejection committed first voids the authorisation and empties the escrow', async () => {
    const { reservation: booking } = await aReservation({ status: 'PAID', ...paid });
    const after = await transitionReservation(db(), booking.id, 'REJECT');
    expect(await releaseForReservation(env, after, { paid: true, refundCents: after.totalAmountCents })).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    expect((await reservationMoney(after.id)).ESCROW).toBe(0);
  });

  it('the release hook of an unpaid reservation does nothing', async () => {
    const { reservation: unpaid } = await aReservation(FIFTY_EUR);
    expect(await releaseForReservation(env, unpaid, { paid: false, refundCents: 0 })).toBeNull();
  });

  it('a refund whose provider call fails stays pending and the cron finishes it', async () => {
    const { reservation: booking, pi } = await aReservation({ status: 'PAID', ...paid });
    stripe.outage.add(`/v1/payment_intents/${pi.id}/cancel`);
    const rejected = await voidOrRefund(env, booking.id, booking.totalAmountCents, { action: 'REJECT' });
    expect(rejected).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOID_PENDING' });
    expect((await reservationMoney(booking.id)).ESCROW).toBe(0);
    stripe.outage.delete(`/v1/payment_intents/${pi.id}/cancel`);
    await runCron();
    expect(await reservationRow(booking.id)).toMatchObject({ paymentStatus: 'VOIDED' });
  });

  it('escrow left behind by a cancellation or rejection whose refund never ran is returned by the cron, by the rules, once', async () => {
    const sender = await aUser();
    const carrier = await aCarrier();
    const longAgo = minutesFromNow(-20);
    // The requests stopped right after their status change: what the handlers commit first.
    const cancelled = await aReservation({ sender, carrier, status: 'PAID', ...paid });
    await transitionReservation(db(), cancelled.reservation.id, 'ACCEPT', { confirmedAt: longAgo });
    await transitionReservation(db(), cancelled.reservation.id, 'CANCEL', { cancelledAt: longAgo, cancelledBy: sender.id });
    const rejected = await aReservation({ sender, carrier, status: 'PAID', ...paid });
    await transitionReservation(db(), rejected.reservation.id, 'REJECT');
    const justNow = await aReservation({ sender, carrier, status: 'PAID', ...paid }); // its own request may still be returning the money
    await transitionReservation(db(), justNow.reservation.id, 'REJECT');
    await db().update(reservations).set({ updatedAt: longAgo }).where(sql`${reservations.id} IN (${cancelled.reservation.id}, ${rejected.reservation.id})`);

    await runCron();

    // The sender cancelled after acceptance: everything but the commission comes back.
    expect(await reservationRow(cancelled.reservation.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PARTIALLY_REFUNDED' });
    expect(await reservationMoney(cancelled.reservation.id)).toMatchObject({ ESCROW: 0, PLATFORM_REVENUE: cancelled.reservation.platformCommissionCents });
    expect(await reservationRow(rejected.reservation.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'VOIDED' });
    expect((await reservationMoney(rejected.reservation.id)).ESCROW).toBe(0);
    expect(await reservationRow(justNow.reservation.id)).toMatchObject({ status: 'REJECTED', paymentStatus: 'AUTHORIZED' });
    expect((await reservationMoney(justNow.reservation.id)).ESCROW).toBe(justNow.reservation.totalAmountCents);

    const requests = stripe.requests.length;
    await runCron(); // nothing left to return: no second refund, no provider call for these
    expect(stripe.requests.slice(requests).filter((r) => r.path.includes(cancelled.pi.id) || r.path.includes(rejected.pi.id))).toEqual([]);
    expect((await reservationMoney(cancelled.reservation.id)).entries).toHaveLength(2);
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('ledger invariants under random sequences (property)', () => {
  type Op =
    | { kind: 'book'; sender: number; carrier: number; weightG: number; agency: boolean }
    | { kind: 'pay' | 'accept' | 'deposit' | 'deliver' | 'reject'; r: number }
    | { kind: 'cancel'; r: number; by: 'SENDER' | 'CARRIER' }
    | { kind: 'withdraw'; carrier: number; share: number };

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
      out?.type === 'ESCROW_RELEASED' && m.ESCROW === 0 && m.WALLET === r.carrierAmountCents && m.PLATFORM_REVENUE === r.platformCommissionCents,
      out?.type === 'ESCROW_REFUNDED' && m.ESCROW === 0 && m.WALLET === 0 && -m.PROVIDER_CLEARING === m.PLATFORM_REVENUE,
    ].filter(Boolean);
    expect(places, `reservation ${id} in ${r.status}: ${JSON.stringify(m)}`).toHaveLength(1);
    // And the place matches the status.
    if (['PAID', 'CONFIRMED', 'DEPOSITED'].includes(r.status)) expect(m.ESCROW).toBe(r.totalAmountCents);
    if (r.status === 'DELIVERED') expect(out?.type).toBe('ESCROW_RELEASED');
    if (['REJECTED', 'CANCELLED'].includes(r.status) && paid) expect(out?.type).toBe('ESCROW_REFUNDED');
    if (r.status === 'PENDING_PAYMENT') expect(paid).toBe(false);
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
          { kind: 'withdraw', carrier: 0, share: 0.5 },
        ];
        const senders = [await aUser(), await aUser()];
        const carriers = [await aCarrier(), await aCarrier()];
        for (const c of carriers) await aPayoutAccount(c, stripe.addAccount().id);
        const booked: number[] = [];
        const pick = (i: number) => (booked.length ? (i < 0 ? booked[booked.length - 1] : booked[i % booked.length]) : null);
        for (const op of ops) {
          const id = 'r' in op ? pick(op.r) : null;
          const r = id ? await reservationRow(id) : null;
          switch (op.kind) {
            case 'book': {
              const agencyId = op.agency ? 900 + op.carrier : null;
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
              if (r) await attempt('accept', transitionReservation(db(), r.id, 'ACCEPT'));
              break;
            case 'deposit':
              if (r) await attempt('deposit', transitionReservation(db(), r.id, 'DEPOSIT').then(() => captureOnDeposit(env, r.id)));
              break;
            case 'deliver':
              // The carrier takes the parcel all the way: accept and deposit first when needed.
              if (r) {
                if (r.status === 'PAID') await transitionReservation(db(), r.id, 'ACCEPT');
                if (r.status === 'PAID' || r.status === 'CONFIRMED') {
                  await transitionReservation(db(), r.id, 'DEPOSIT');
                  await captureOnDeposit(env, r.id);
                }
                await attempt('deliver', releaseOnDelivery(env, r.id, { action: 'DELIVER' }));
              }
              break;
            case 'reject':
              if (r) await attempt('reject', voidOrRefund(env, r.id, r.totalAmountCents, { action: 'REJECT' }));
              break;
            case 'cancel':
              if (r) await attempt('cancel', voidOrRefund(env, r.id, cancellationRefundCents(r, r.status, op.by), { action: 'CANCEL' }));
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
      }),
      { numRuns: 15 },
    );
    // The runs did exercise the money paths (not only refused operations).
    for (const kind of ['book', 'pay', 'deliver', 'withdraw']) expect(applied[kind] ?? 0, `${kind} never applied`).toBeGreaterThan(0);
    expect((applied.reject ?? 0) + (applied.cancel ?? 0)).toBeGreaterThan(0);
  });
});
