// The carrier's cancellationRate kept per carrier (migration 0079): the two counts in
// carrier_cancellation_counts must equal, after every path that confirms, cancels, expires or
// rewrites a reservation, the count from the reservations themselves by CONTRACT 22's rule (the
// rule features/users/cancellation-rate.ts counted on every read before). A repeated or concurrent
// cancellation counts once; the public figure on the profile and on the trip is the recount's.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agencyEmployees, reservations } from '../src/db/schema';
import { depsOf } from '../src/env';
import { expireReservations } from '../src/features/bookings/expire-bookings';
import { cancellationRate } from '../src/features/users/cancellation-rate';
import { db, reservationStatus, setReservation } from './helpers/db';
import { aBranch, aCarrier, anAdmin, anAgency, aReservation, aTrip, aUser, daysFromToday, FIFTY_EUR, type TestUser } from './helpers/factories';
import { get, post } from './helpers/http';
import { fakeStripeForThisFile } from './helpers/money';

const stripe = fakeStripeForThisFile();
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

/** CONTRACT 22's rule over the reservations themselves: [cancelled by the carrier side once paid, confirmed or so cancelled]. */
async function recount(carrierId: number): Promise<[number, number]> {
  const row = await env.DB.prepare(
    `SELECT coalesce(sum(CASE WHEN carrier_cancelled THEN 1 ELSE 0 END), 0) AS cancelled, count(*) AS counted FROM (
       SELECT status = 'CANCELLED' AND paid_at IS NOT NULL AND cancelled_by IS NOT NULL AND cancelled_by <> sender_id AS carrier_cancelled, confirmed_at
       FROM reservations WHERE carrier_id = ?)
     WHERE confirmed_at IS NOT NULL OR carrier_cancelled`,
  )
    .bind(carrierId)
    .first<{ cancelled: number; counted: number }>();
  return [row!.cancelled, row!.counted];
}

async function kept(carrierId: number): Promise<[number, number]> {
  const row = await env.DB.prepare('SELECT cancelled, counted FROM carrier_cancellation_counts WHERE carrier_id = ?').bind(carrierId).first<{ cancelled: number; counted: number }>();
  return row ? [row.cancelled, row.counted] : [0, 0];
}

/** The kept counts equal the recount, are `expected`, and the public figure is their rate. */
async function holds(carrier: { id: number }, expected: [number, number], viewer: TestUser, tripId?: number) {
  expect(await recount(carrier.id)).toEqual(expected);
  expect(await kept(carrier.id)).toEqual(expected);
  const rate = cancellationRate(...expected);
  expect((await get(`/v1/api/users/${carrier.id}`, { token: viewer.token })).body.cancellationRate).toBe(rate);
  if (tripId) expect((await get(`/v1/api/annonces/${tripId}`)).body.carrier.cancellationRate).toBe(rate);
}

const cancel = (id: number, token: string) => post(`/v1/api/bookings/${id}/cancel`, {}, { token });

/** A paid booking the carrier side accepted over the API (POST /bookings/{id}/accept stamps confirmedAt). */
async function confirmedBooking(options: Parameters<typeof aReservation>[0], acceptor: TestUser) {
  const fixture = await aReservation({ ...options, payment: stripe, status: 'PAID', ...FIFTY_EUR });
  expect((await post(`/v1/api/bookings/${fixture.reservation.id}/accept`, {}, { token: acceptor.token })).status).toBe(200);
  return fixture;
}

describe("the carrier's kept cancellation counts", () => {
  it('follow acceptance, either party cancelling, the expiry jobs and a suspension, as the recount does', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await aTrip(carrier, { totalWeightG: 200_000, departureDate: daysFromToday(10), arrivalDate: daysFromToday(11) });
    const on = { carrier, sender, trip, payment: stripe, ...FIFTY_EUR } as const;
    await holds(carrier, [0, 0], sender, trip.id);

    // Accepted by the carrier over the API: counted.
    const paid = await confirmedBooking({ carrier, sender, trip }, carrier);
    await holds(carrier, [0, 1], sender, trip.id);

    // The sender cancels a confirmed booking: still counted once, not against the carrier.
    expect((await cancel(paid.reservation.id, sender.token)).status).toBe(200);
    await holds(carrier, [0, 1], sender, trip.id);

    // The carrier cancels a confirmed booking: counted once, and against it.
    const confirmed = await confirmedBooking({ carrier, sender, trip }, carrier);
    await holds(carrier, [0, 2], sender);
    expect((await cancel(confirmed.reservation.id, carrier.token)).status).toBe(200);
    await holds(carrier, [1, 2], sender, trip.id);

    // The carrier cancels a paid booking before accepting it: counted, and against it.
    const unanswered = await aReservation({ ...on, status: 'PAID' });
    expect((await cancel(unanswered.reservation.id, carrier.token)).status).toBe(200);
    await holds(carrier, [2, 3], sender, trip.id);

    // Unpaid and cancelled by the sender, unpaid and expired, paid and left unanswered (rejected by the cron): none counts.
    const unpaid = await aReservation({ carrier, sender, trip });
    expect((await cancel(unpaid.reservation.id, sender.token)).status).toBe(200);
    const lapsed = await aReservation({ carrier, sender, trip, set: { paymentDeadline: hoursAgo(1) } });
    const ignored = await aReservation({ ...on, status: 'PAID' });
    await setReservation(ignored.reservation.id, { paidAt: hoursAgo(25) });
    await expireReservations(depsOf(env));
    expect([await reservationStatus(lapsed.reservation.id), await reservationStatus(ignored.reservation.id)]).toEqual(['EXPIRED', 'REJECTED']);
    await holds(carrier, [2, 3], sender, trip.id);

    // An administrator suspends the carrier: its confirmed booking is cancelled on the carrier's side.
    const onOther = await confirmedBooking({ carrier, sender, trip }, carrier);
    await holds(carrier, [2, 4], sender, trip.id);
    expect((await post(`/v1/api/admin/users/${carrier.id}/suspend`, {}, { token: (await anAdmin()).token })).status).toBe(200);
    expect(await reservationStatus(onOther.reservation.id)).toBe('CANCELLED');
    expect(await recount(carrier.id)).toEqual([3, 4]);
    expect(await kept(carrier.id)).toEqual([3, 4]);
  });

  it("an agency's staff cancelling counts against the trip's carrier, as the recount does", async () => {
    const owner = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_OWNER'] });
    const employee = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_AGENCY_EMPLOYEE'] });
    const agency = await anAgency(owner);
    const branch = await aBranch(agency);
    await db().insert(agencyEmployees).values({ userId: employee.id, agencyId: agency.id, branchId: branch.id });
    const trip = await aTrip(employee, { agencyId: agency.id, branchId: branch.id });
    const sender = await aUser();
    const booked = await confirmedBooking({ sender, trip, agencyId: agency.id }, employee);
    await holds(employee, [0, 1], sender, trip.id);
    expect((await cancel(booked.reservation.id, owner.token)).status).toBe(200);
    await holds(employee, [1, 1], sender, trip.id);
    expect(await kept(owner.id)).toEqual([0, 0]);
  });

  it('a cancellation sent twice at once, or again later, or rewritten in place counts once', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const { reservation } = await confirmedBooking({ carrier, sender }, carrier);
    const [first, second] = await Promise.all([cancel(reservation.id, carrier.token), cancel(reservation.id, carrier.token)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    await holds(carrier, [1, 1], sender);
    expect((await cancel(reservation.id, carrier.token)).status).toBe(409);
    expect((await cancel(reservation.id, sender.token)).status).toBe(409);
    // Any writer setting the same values again (a repeated job, a hand fix) changes nothing the rule reads.
    await env.DB.prepare(`UPDATE reservations SET status = 'CANCELLED', cancelled_by = cancelled_by, paid_at = paid_at WHERE id = ?`).bind(reservation.id).run();
    await holds(carrier, [1, 1], sender);
    // A later step that is not a cancellation (the deposit of another booking) leaves them too.
    const deposited = await aReservation({ carrier, sender, payment: stripe, status: 'DEPOSITED', ...FIFTY_EUR, set: { confirmedAt: new Date().toISOString() } });
    await holds(carrier, [1, 2], sender);
    // Rewritten by hand: the canceller corrected to the sender moves it out of the carrier's count; a
    // reservation moved to another carrier, or deleted, takes its weight with it.
    await setReservation(reservation.id, { cancelledBy: sender.id });
    await holds(carrier, [0, 2], sender);
    const other = await aCarrier();
    await db().update(reservations).set({ carrierId: other.id }).where(eq(reservations.id, deposited.reservation.id));
    await holds(carrier, [0, 1], sender);
    await holds(other, [0, 1], sender);
    await setReservation(reservation.id, { cancelledBy: carrier.id });
    await holds(carrier, [1, 1], sender);
  });

  it("migration 0079's backfill gives every carrier the recount of its reservations, what the triggers kept", async () => {
    // Reservations written straight into the table (fixtures, as the bench's data set does) count too.
    const carrier = await aCarrier();
    const sender = await aUser();
    const at = new Date().toISOString();
    await aReservation({ carrier, sender, status: 'DELIVERED', set: { paidAt: at, confirmedAt: at } });
    await aReservation({ carrier, sender, status: 'CANCELLED', set: { paidAt: at, cancelledBy: carrier.id, cancelledAt: at } });
    await aReservation({ carrier, sender, status: 'CANCELLED', set: { cancelledBy: carrier.id, cancelledAt: at } });
    await holds(carrier, [1, 2], sender);
    const all = () => env.DB.prepare('SELECT carrier_id, cancelled, counted FROM carrier_cancellation_counts WHERE counted <> 0 ORDER BY carrier_id').all();
    const recounted = await env.DB.prepare(
      `SELECT carrier_id, sum(CASE WHEN carrier_cancelled THEN 1 ELSE 0 END) AS cancelled, count(*) AS counted FROM (
         SELECT carrier_id, status = 'CANCELLED' AND paid_at IS NOT NULL AND cancelled_by IS NOT NULL AND cancelled_by <> sender_id AS carrier_cancelled, confirmed_at
         FROM reservations)
       WHERE confirmed_at IS NOT NULL OR carrier_cancelled GROUP BY carrier_id ORDER BY carrier_id`,
    ).all();
    const byTriggers = (await all()).results;
    expect(byTriggers).toEqual(recounted.results);
    expect(byTriggers.length).toBeGreaterThan(1);
    await env.DB.prepare('DELETE FROM carrier_cancellation_counts').run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0079_'))!;
    await env.DB.prepare(migration.queries.find((q) => q.includes('INSERT INTO') && !q.includes('TRIGGER'))!).run();
    expect((await all()).results).toEqual(recounted.results);
  });
});
