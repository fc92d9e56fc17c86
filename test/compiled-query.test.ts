// Compiled selects (src/db/compiled-query.ts): built once, bound per use, decoded like drizzle.
import { env } from 'cloudflare:workers';
import { eq, type Placeholder } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { compiledQuery } from '../src/db/compiled-query';
import { reservations } from '../src/db/schema';
import { getReservationView } from '../src/features/bookings/bookings.service';
import { get, post } from './helpers/http';
import { aUser, aCarrier, aCategory, aTrip, aReservation, bookingInput } from './helpers/factories';
import { db } from './helpers/db';

describe('compiledQuery', () => {
  it('binds each use to its own values and decodes rows as the uncompiled query does', async () => {
    const db = getDb(env);
    const byId = compiledQuery((d, p: Record<'id', Placeholder>) => d.select().from(reservations).where(eq(reservations.id, p.id)));
    const first = await aReservation({ status: 'CONFIRMED' });
    const second = await aReservation({ status: 'IN_TRANSIT' });
    const [a, b, none] = await db.batch([byId(db, { id: first.reservation.id }), byId(db, { id: second.reservation.id }), byId(db, { id: -1 })]);
    const plain = await db.select().from(reservations).where(eq(reservations.id, second.reservation.id));
    expect(a).toEqual([first.reservation]);
    expect(b).toEqual(plain);
    expect(b[0].recipient).toEqual({ firstName: 'Rita', lastName: 'Recipient', email: 'rita@example.com', phone: '+221700000000' });
    expect(none).toEqual([]);
  });

  it('the reservation view (compiled) holds the joined parties and the trip', async () => {
    const { sender, carrier, reservation, trip: announcement } = await aReservation({ status: 'CONFIRMED' });
    const view = await getReservationView(getDb(env), reservation.id);
    expect(view.r).toEqual(reservation);
    expect(view.sender).toMatchObject({ id: sender.id, email: sender.email });
    expect(view.carrier).toMatchObject({ id: carrier.id, email: carrier.email });
    expect(view.a).toMatchObject({ departureCity: announcement.departureCity, arrivalDate: announcement.arrivalDate });
    expect(view.items).toEqual([]);
  });

  it('a booking written by the compiled batch reads back as sent: JSON, booleans, numbers, the notification', async () => {
    const carrier = await aCarrier();
    const sender = await aUser();
    const trip = await aTrip(carrier);
    const category = await aCategory();
    const items = [
      { categoryId: category.id, name: 'Vase', reservedQuantity: 2, weight: 0.75, lengthCm: 30, isFragile: true, containsLiquids: false },
      { categoryId: category.id, name: 'Oil', reservedQuantity: 1, description: 'Sealed', isFragile: false, containsLiquids: true },
    ];
    const recipient = { firstName: 'Awa', lastName: 'Diop', email: 'awa@example.com', phone: '+221 77 000 00 00', city: 'Dakar', instructions: 'Call first' };
    const created = await post('/v1/api/bookings', bookingInput(trip.id, category.id, 1.25, { items, recipient }), { token: sender.token });
    expect(created.status).toBe(201);
    const read = await get(`/v1/api/bookings/${created.body.id}`, { token: sender.token });
    expect(read.body).toEqual(created.body);
    expect(read.body.items).toMatchObject([
      { name: 'Vase', reservedQuantity: 2, weight: 0.75, lengthCm: 30, isFragile: true, containsLiquids: false },
      { name: 'Oil', reservedQuantity: 1, description: 'Sealed', isFragile: false, containsLiquids: true },
    ]);
    expect(read.body.recipient).toEqual({ ...recipient, address: null, postalCode: null });
    const notes = await get('/v1/api/notifications', { token: carrier.token });
    expect(notes.body.content[0]).toMatchObject({
      type: 'RESERVATION_CREATED',
      message: `1.25 kg booked on your trip ${trip.departureCity} - ${trip.arrivalCity} (${created.body.reservationNumber}), awaiting payment`,
    });
  });
});
