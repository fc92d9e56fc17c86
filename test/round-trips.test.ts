// D1 round trips of the hot endpoints (issue 9's targets: reads in one round trip, booking creation
// in one write batch after its read, deposit in at most two). Read from the x-d1-round-trips header
// the session middleware sets outside production; the header is checked against a counting binding.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { ROUND_TRIPS_HEADER } from '../src/db/session';
import { login, registerUser } from './helpers/auth';
import { BASE, get, post, type ApiResponse } from './helpers/http';
import { secondsFromNow, aUser, aCarrier, aCategory, aTrip, aReservation, bookingInput } from './helpers/factories';
import { countingEnv } from './helpers/db';

const roundTrips = (res: ApiResponse) => Number(res.headers.get(ROUND_TRIPS_HEADER));

describe('D1 round trips per request (x-d1-round-trips)', () => {
  it('the header counts what the binding sees', async () => {
    const sender = await aUser();
    const counting = countingEnv();
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/v1/api/bookings/as-sender`, { headers: { Authorization: `Bearer ${sender.token}` } }),
      counting.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(counting.trips()).toBeGreaterThan(0);
    expect(Number(res.headers.get(ROUND_TRIPS_HEADER))).toBe(counting.trips());
  });

  it('reads: one round trip each', async () => {
    const carrier = await aCarrier();
    const trip = await aTrip(carrier);
    const { sender, reservation } = await aReservation({ status: 'CONFIRMED', carrier });
    const reads: [string, ApiResponse][] = [
      ['search', await get(`/v1/api/annonces?departureCity=${encodeURIComponent(trip.departureCity)}&sort=departureDate,asc`)],
      ['as-carrier', await get('/v1/api/bookings/as-carrier', { token: carrier.token })],
      ['as-sender', await get('/v1/api/bookings/as-sender', { token: sender.token })],
      ['detail', await get(`/v1/api/bookings/${reservation.id}`, { token: sender.token })],
      ['notifications', await get('/v1/api/notifications', { token: carrier.token })],
      ['customer reviews', await get('/v1/api/reviews/customers')],
      ['profile reviews', await get(`/v1/api/users/${carrier.id}/reviews`)],
      ['announcement', await get(`/v1/api/annonces/${trip.id}`)],
    ];
    expect(reads.map(([name, res]) => [name, res.status, roundTrips(res)])).toEqual(reads.map(([name]) => [name, 200, 1]));
  });

  it('login: the account read, then one batch (stamp, audit, session, wallet numbers)', async () => {
    const user = await registerUser();
    const res = await login(user.email);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, walletBalance: 0, totalEarned: 0 });
    expect(roundTrips(res)).toBe(2);
  });

  it('booking creation: one read batch, then one write batch', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await aTrip(carrier);
    const category = await aCategory();
    const res = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1), { token: sender.token });
    expect(res.status).toBe(201);
    expect(roundTrips(res)).toBe(2);
  });

  it('deposit by QR: one batch (capture adds the second when the booking is paid); by code: one read more', async () => {
    const scanned = await aReservation({ status: 'CONFIRMED' });
    const qr = await get(`/v1/api/bookings/${scanned.reservation.id}/qrcode/deposit`, { token: scanned.sender.token });
    const scan = await post('/v1/api/qrcode/process/depot', { payload: qr.body.payload }, { token: scanned.carrier.token });
    expect([scan.status, scan.body.status, roundTrips(scan)]).toEqual([200, 'DEPOSITED', 1]);

    const typed = await aReservation({ status: 'CONFIRMED' });
    const code = await post(`/v1/api/bookings/${typed.reservation.id}/deposit`, { depositCode: typed.reservation.depositCode }, { token: typed.carrier.token });
    expect([code.status, code.body.status, roundTrips(code)]).toEqual([200, 'DEPOSITED', 2]);
  });

  it('tracking ingest while in transit: one read', async () => {
    const { carrier, reservation } = await aReservation({ status: 'IN_TRANSIT' });
    const res = await post(
      `/v1/api/tracking/${reservation.id}/positions`,
      { lat: 14.7, lng: -17.4, recordedAt: secondsFromNow(-1) },
      { token: carrier.token },
    );
    expect([res.status, roundTrips(res)]).toEqual([201, 1]);
  });
});
