// Cancellation policies at the HTTP level (CONTRACT section 22): trips carry a policy, reservations
// keep it, GET /bookings/{id}/cancellation-quote says what POST /bookings/{id}/cancel then does
// (refund at the provider, ledger, the carrier's wallet), and the quote's access rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANCELLATION_POLICIES, type CancellationPolicy } from '../src/db/schema';
import { env } from 'cloudflare:workers';
import { depsOf } from '../src/env';
import { captureLoaded } from '../src/features/money';
import { reservationRow } from './helpers/db';
import { aCarrier, aReservation, aUser, anAdmin, bookThroughApi, aCategory, daysFromToday, FIFTY_EUR, publishTrip, tripInput } from './helpers/factories';
import { errorBody, get, post, put } from './helpers/http';
import { accountBalance, fakeStripeForThisFile, ledgerInvariantViolations, reservationMoney, walletKey } from './helpers/money';
import type { RecordedRequest } from './helpers/fake-stripe';

const stripe = fakeStripeForThisFile();

describe('a trip carries its cancellation policy', () => {
  it('MODERATE by default; FLEXIBLE or STRICT when sent; shown on the trip; changed by PUT', async () => {
    const carrier = await aCarrier();
    expect((await publishTrip(carrier)).cancellationPolicy).toBe('MODERATE');
    const strict = await publishTrip(carrier, { cancellationPolicy: 'STRICT' });
    expect(strict.cancellationPolicy).toBe('STRICT');
    expect((await get(`/v1/api/annonces/${strict.id}`)).body.cancellationPolicy).toBe('STRICT');
    const edited = await put(`/v1/api/annonces/${strict.id}`, { cancellationPolicy: 'FLEXIBLE' }, { token: carrier.token });
    expect(edited.status).toBe(200);
    expect(edited.body.cancellationPolicy).toBe('FLEXIBLE');
  });

  it('an unknown policy is 400 VALIDATION_ERROR naming the field, on POST and PUT; nothing is written', async () => {
    const carrier = await aCarrier();
    const refused = await post('/v1/api/annonces', tripInput({ cancellationPolicy: 'LENIENT' }), { token: carrier.token });
    expect(refused.status).toBe(400);
    expect(errorBody(refused).errorCode).toBe('VALIDATION_ERROR');
    expect((errorBody(refused).fieldErrors as { field: string }[]).map((f: { field: string }) => f.field)).toEqual(['cancellationPolicy']);
    const trip = await publishTrip(carrier);
    const badEdit = await put(`/v1/api/annonces/${trip.id}`, { cancellationPolicy: 'strict' }, { token: carrier.token });
    expect(badEdit.status).toBe(400);
    expect((errorBody(badEdit).fieldErrors as { field: string }[]).map((f: { field: string }) => f.field)).toEqual(['cancellationPolicy']);
    expect((await get(`/v1/api/annonces/${trip.id}`)).body.cancellationPolicy).toBe('MODERATE');
  });

  it('a booking keeps the policy it was made under; a later change applies to the next bookings only', async () => {
    const carrier = await aCarrier();
    const category = await aCategory();
    const trip = await publishTrip(carrier, { cancellationPolicy: 'FLEXIBLE' });
    const sender = await aUser();
    const first = await bookThroughApi(sender, trip.id, category.id, 1);
    expect((await put(`/v1/api/annonces/${trip.id}`, { cancellationPolicy: 'STRICT' }, { token: carrier.token })).status).toBe(200);
    const second = await bookThroughApi(sender, trip.id, category.id, 1);
    expect((await reservationRow(first.id)).cancellationPolicy).toBe('FLEXIBLE');
    expect((await reservationRow(second.id)).cancellationPolicy).toBe('STRICT');
    const quote = await get(`/v1/api/bookings/${first.id}/cancellation-quote`, { token: sender.token });
    expect(quote.body).toMatchObject({ policy: 'FLEXIBLE', rule: 'NOT_PAID', refundAmount: 0, keptAmount: 0, currency: 'EUR' });
  });
});

/** A paid 50.00 EUR booking (commission 7.50, carrier 42.50) under `policy`, departing in `days`. */
async function paidBooking(policy: CancellationPolicy, days: number, status: 'PAID' | 'CONFIRMED' = 'CONFIRMED') {
  return aReservation({ status, payment: stripe, ...FIFTY_EUR, set: { cancellationPolicy: policy, departureDate: daysFromToday(days) } });
}

/** What reached the card, from the provider calls the cancel made: a void, a partial capture, a refund. */
function backToCard(calls: RecordedRequest[], totalCents: number, captured: boolean): number {
  let back = captured ? 0 : totalCents;
  for (const c of calls) {
    if (c.path.endsWith('/cancel')) back = totalCents;
    else if (c.path.endsWith('/capture')) back = totalCents - Number((c.body as Record<string, string>).amount_to_capture ?? totalCents);
    else if (c.path === '/v1/refunds') back = Number((c.body as Record<string, string>).amount);
  }
  return back;
}

/** Quote, cancel, and everything the cancel did with the money, in cents. */
async function quoteThenCancel(fixture: Awaited<ReturnType<typeof paidBooking>>, by: 'SENDER' | 'CARRIER', captured: boolean) {
  const { reservation: r, sender, carrier } = fixture;
  const party = by === 'SENDER' ? sender : carrier;
  if (captured) await captureLoaded(depsOf(env), await reservationRow(r.id));
  const walletBefore = await accountBalance(walletKey(carrier.id));
  const quote = await get(`/v1/api/bookings/${r.id}/cancellation-quote`, { token: party.token });
  expect(quote.status).toBe(200);
  const before = stripe.requests.length;
  const cancelled = await post(`/v1/api/bookings/${r.id}/cancel`, {}, { token: party.token });
  expect(cancelled.status).toBe(200);
  const money = await reservationMoney(r.id);
  return {
    quote: quote.body,
    cancelled: cancelled.body,
    refundCents: money.PROVIDER_CLEARING + r.totalAmountCents,
    revenueCents: money.PLATFORM_REVENUE,
    carrierWalletCents: (await accountBalance(walletKey(carrier.id))) - walletBefore,
    cardCents: backToCard(stripe.requests.slice(before), r.totalAmountCents, captured),
    escrowCents: money.ESCROW,
  };
}

describe('the quote is what the cancel does (sender, CONFIRMED, every cell of the table)', () => {
  // Days before departure: 4 -> 72 h or more, 2 -> 24 to 72 h, 1 -> under 24 h (the clock counts
  // to the start of the departure day, UTC). [refund, commission kept, carrier's share kept]
  const cells: [CancellationPolicy, number, number, number, number, string][] = [
    ['FLEXIBLE', 4, 5000, 0, 0, 'DEPARTURE_72H_OR_MORE'],
    ['FLEXIBLE', 2, 5000, 0, 0, 'DEPARTURE_24_TO_72H'],
    ['FLEXIBLE', 1, 4250, 750, 0, 'DEPARTURE_UNDER_24H'],
    ['MODERATE', 4, 5000, 0, 0, 'DEPARTURE_72H_OR_MORE'],
    ['MODERATE', 2, 4250, 750, 0, 'DEPARTURE_24_TO_72H'],
    ['MODERATE', 1, 2125, 750, 2125, 'DEPARTURE_UNDER_24H'],
    ['STRICT', 4, 4250, 750, 0, 'DEPARTURE_72H_OR_MORE'],
    ['STRICT', 2, 2125, 750, 2125, 'DEPARTURE_24_TO_72H'],
    ['STRICT', 1, 0, 750, 4250, 'DEPARTURE_UNDER_24H'],
  ];
  it.each(cells)('%s, departing in %i day(s)', async (policy, days, refund, commission, carrierKept, rule) => {
    const fixture = await paidBooking(policy, days);
    const done = await quoteThenCancel(fixture, 'SENDER', false);
    expect(done.quote).toEqual({ refundAmount: refund / 100, keptAmount: (commission + carrierKept) / 100, currency: 'EUR', policy, rule });
    expect(done).toMatchObject({ refundCents: refund, revenueCents: commission, carrierWalletCents: carrierKept, cardCents: refund, escrowCents: 0 });
    expect(done.cancelled).toMatchObject({ status: 'CANCELLED', carrierAmount: carrierKept / 100, platformCommission: commission / 100 });
    expect(await ledgerInvariantViolations()).toEqual([]);
  });

  it("the carrier's kept share is in its wallet at once, withdrawable, and shown as an earning", async () => {
    const fixture = await paidBooking('STRICT', 1);
    await quoteThenCancel(fixture, 'SENDER', false);
    const wallet = await get('/v1/api/user/me/wallet', { token: fixture.carrier.token });
    expect(wallet.body).toMatchObject({ balance: 42.5, totalEarned: 42.5 });
  });

  it('the carrier cancelling under 24 h on STRICT refunds in full, whatever the table says', async () => {
    const done = await quoteThenCancel(await paidBooking('STRICT', 1), 'CARRIER', false);
    expect(done.quote).toMatchObject({ refundAmount: 50, keptAmount: 0, rule: 'CARRIER_CANCELLATION', policy: 'STRICT' });
    expect(done).toMatchObject({ refundCents: 5000, revenueCents: 0, carrierWalletCents: 0, cardCents: 5000 });
  });

  it('the sender cancelling before acceptance (PAID) is refunded in full', async () => {
    const done = await quoteThenCancel(await paidBooking('STRICT', 1, 'PAID'), 'SENDER', false);
    expect(done.quote).toMatchObject({ refundAmount: 50, keptAmount: 0, rule: 'NOT_CONFIRMED' });
    expect(done).toMatchObject({ refundCents: 5000, cardCents: 5000 });
  });
});

describe('property: for any policy, time, party, status and capture state, the cancel does what the quote said', () => {
  it('refund at the provider, ledger and the carrier wallet match the quote', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CANCELLATION_POLICIES),
        fc.constantFrom(1, 2, 3, 4, 8),
        fc.constantFrom('SENDER' as const, 'CARRIER' as const),
        fc.constantFrom('PAID' as const, 'CONFIRMED' as const),
        fc.boolean(),
        async (policy, days, by, status, captured) => {
          const fixture = await paidBooking(policy, days, status);
          const done = await quoteThenCancel(fixture, by, captured);
          const refund = Math.round(done.quote.refundAmount * 100);
          const kept = Math.round(done.quote.keptAmount * 100);
          expect(refund + kept).toBe(fixture.reservation.totalAmountCents);
          expect(done.refundCents).toBe(refund);
          expect(done.cardCents).toBe(refund);
          expect(done.revenueCents + done.carrierWalletCents).toBe(kept);
          expect(done.escrowCents).toBe(0);
          // "the commission is kept whenever the refund is not full"
          expect(done.revenueCents).toBe(kept > 0 ? fixture.reservation.platformCommissionCents : 0);
        },
      ),
      { numRuns: 16 },
    );
    expect(await ledgerInvariantViolations()).toEqual([]);
  });
});

describe('GET /bookings/{id}/cancellation-quote: who may read it, and when', () => {
  it("parties and admins read it; a stranger gets 403, an unknown booking 404, a deposited one 409", async () => {
    const { reservation: r, sender, carrier } = await paidBooking('MODERATE', 2);
    const path = `/v1/api/bookings/${r.id}/cancellation-quote`;
    expect((await get(path, { token: sender.token })).body.rule).toBe('DEPARTURE_24_TO_72H');
    expect((await get(path, { token: carrier.token })).body.rule).toBe('CARRIER_CANCELLATION');
    expect((await get(path, { token: (await anAdmin()).token })).body.rule).toBe('DEPARTURE_24_TO_72H');
    const stranger = await get(path, { token: (await aUser()).token });
    expect(stranger.status).toBe(403);
    expect(errorBody(stranger).errorCode).toBe('ACCESS_DENIED');
    expect(errorBody(await get('/v1/api/bookings/999999/cancellation-quote', { token: sender.token })).errorCode).toBe('RESOURCE_NOT_FOUND');
    expect(errorBody(await get('/v1/api/bookings/abc/cancellation-quote', { token: sender.token })).errorCode).toBe('TYPE_MISMATCH');
    expect((await get(path)).status).toBe(401);

    const deposited = await aReservation({ status: 'DEPOSITED' });
    const refused = await get(`/v1/api/bookings/${deposited.reservation.id}/cancellation-quote`, { token: deposited.sender.token });
    expect(refused.status).toBe(409);
    expect(errorBody(refused).errorCode).toBe('INVALID_STATE');
  });
});

describe("the carrier's public cancellationRate", () => {
  const at = new Date().toISOString();
  it('carrier-side cancellations after payment over confirmed-or-so-cancelled reservations, on the profile and on every trip', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await publishTrip(carrier);
    const on = { carrier, sender, trip: { id: trip.id } };
    await aReservation({ ...on, status: 'DELIVERED', set: { paidAt: at, confirmedAt: at } });
    await aReservation({ ...on, status: 'CONFIRMED', set: { paidAt: at, confirmedAt: at } });
    // Cancelled by the carrier once paid (before acceptance): counts, and counts against it.
    await aReservation({ ...on, status: 'CANCELLED', set: { paidAt: at, cancelledBy: carrier.id, cancelledAt: at } });
    // The sender's own cancellation after acceptance: counts, not against the carrier.
    await aReservation({ ...on, status: 'CANCELLED', set: { paidAt: at, confirmedAt: at, cancelledBy: sender.id, cancelledAt: at } });
    // Never paid, or never confirmed: outside the rate.
    await aReservation({ ...on, status: 'CANCELLED', set: { cancelledBy: carrier.id, cancelledAt: at } });
    await aReservation({ ...on, status: 'PAID', set: { paidAt: at } });
    await aReservation({ ...on, status: 'PENDING_PAYMENT' });

    const profile = await get(`/v1/api/users/${carrier.id}`, { token: sender.token });
    expect(profile.status).toBe(200);
    expect(profile.body.cancellationRate).toBe(0.25);
    expect((await get(`/v1/api/annonces/${trip.id}`)).body.carrier.cancellationRate).toBe(0.25);
    const listed = await get(`/v1/api/annonces?departureCity=${encodeURIComponent(trip.departureCity)}&size=100`);
    expect(listed.body.content.find((a: { id: number }) => a.id === trip.id).carrier.cancellationRate).toBe(0.25);
    // The sender, who carries nothing, has a rate of 0.
    expect((await get(`/v1/api/users/${sender.id}`, { token: carrier.token })).body.cancellationRate).toBe(0);
  });

  it("a carrier's cancellation through the API counts at once", async () => {
    const fixture = await paidBooking('MODERATE', 4);
    const profile = () => get(`/v1/api/users/${fixture.carrier.id}`, { token: fixture.sender.token });
    expect((await profile()).body.cancellationRate).toBe(0);
    expect((await post(`/v1/api/bookings/${fixture.reservation.id}/cancel`, {}, { token: fixture.carrier.token })).status).toBe(200);
    expect((await profile()).body.cancellationRate).toBe(1);
  });
});
