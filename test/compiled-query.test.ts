// Compiled selects (src/db/compiled-query.ts): built once, bound per use, decoded like drizzle.
import { env } from 'cloudflare:workers';
import { eq, type Placeholder } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { compiledSelect } from '../src/db/compiled-query';
import { reservations } from '../src/db/schema';
import { getReservationView } from '../src/features/bookings/bookings.service';
import { createReservation } from './helpers/handover';

describe('compiledSelect', () => {
  it('binds each use to its own values and decodes rows as the uncompiled query does', async () => {
    const db = getDb(env);
    const byId = compiledSelect((d, p: Record<'id', Placeholder>) => d.select().from(reservations).where(eq(reservations.id, p.id)));
    const first = await createReservation();
    const second = await createReservation({ status: 'IN_TRANSIT' });
    const [a, b, none] = await db.batch([byId(db, { id: first.reservation.id }), byId(db, { id: second.reservation.id }), byId(db, { id: -1 })]);
    const plain = await db.select().from(reservations).where(eq(reservations.id, second.reservation.id));
    expect(a).toEqual([first.reservation]);
    expect(b).toEqual(plain);
    expect(b[0].recipient).toEqual({ firstName: 'Rita', lastName: 'Recipient', email: 'rita@example.com', phone: '+221700000000' });
    expect(none).toEqual([]);
  });

  it('the reservation view (compiled) holds the joined parties and the trip', async () => {
    const { sender, carrier, reservation, announcement } = await createReservation();
    const view = await getReservationView(getDb(env), reservation.id);
    expect(view.r).toEqual(reservation);
    expect(view.sender).toMatchObject({ id: sender.id, email: sender.email });
    expect(view.carrier).toMatchObject({ id: carrier.id, email: carrier.email });
    expect(view.a).toMatchObject({ departureCity: announcement.departureCity, arrivalDate: announcement.arrivalDate });
    expect(view.items).toEqual([]);
  });
});
