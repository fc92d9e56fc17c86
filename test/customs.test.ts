// Declared contents and the customs declaration (CONTRACT 21): `declaredValue` per item at
// POST /bookings, in the trip's currency with its decimals, kept in minor units and shown on the
// reservation's items (the carrier's view too).
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { reservationItems } from '../src/db/schema';
import { declaredTotalOf, declaredValuesMinor, everyItemDeclared } from '../src/features/reservations/declared-value';
import { errorBody, get, post } from './helpers/http';
import { aCarrier, aCategory, aTrip, aUser, bookingInput, type TestUser } from './helpers/factories';

const db = database(env.DB);
const BOOK = '/v1/api/bookings';

const twoItems = (categoryId: number, first: unknown, second?: unknown) => [
  { categoryId, name: 'Phone', reservedQuantity: 1, weight: 0.5, ...(first === undefined ? {} : { declaredValue: first }) },
  { categoryId, name: 'Shirts', reservedQuantity: 3, weight: 1, ...(second === undefined ? {} : { declaredValue: second }) },
];

async function aTripIn(currency: 'EUR' | 'XOF', carrier?: TestUser) {
  const c = carrier ?? (await aCarrier());
  return { carrier: c, trip: await aTrip(c, currency === 'XOF' ? { currency, pricePerKgCents: 5_000 } : { currency }) };
}

describe('declaredValue per item (POST /bookings)', () => {
  it('is kept in minor units of the trip currency and returned on the items, to the sender and to the carrier', async () => {
    const { carrier, trip } = await aTripIn('EUR');
    const sender = await aUser();
    const category = await aCategory();
    const res = await post(BOOK, bookingInput(trip.id, category.id, 2, { items: twoItems(category.id, 349.9) }), { token: sender.token });
    expect(res.status).toBe(201);
    expect(res.body.items.map((i: { declaredValue: number | null }) => i.declaredValue)).toEqual([349.9, null]);
    const rows = await db.select().from(reservationItems).where(eq(reservationItems.reservationId, res.body.id)).orderBy(reservationItems.id);
    expect(rows.map((r) => r.declaredValueMinor)).toEqual([34_990, null]);
    const seen = await get(`${BOOK}/${res.body.id}`, { token: carrier.token });
    expect(seen.status).toBe(200);
    expect(seen.body.items[0]).toMatchObject({ name: 'Phone', declaredValue: 349.9 });
    expect(seen.body.items[1].declaredValue).toBeNull();
  });

  it('in XOF a whole amount is kept as is; a v1 client that declares nothing gets null', async () => {
    const { trip } = await aTripIn('XOF');
    const sender = await aUser();
    const category = await aCategory();
    const res = await post(BOOK, bookingInput(trip.id, category.id, 2, { items: twoItems(category.id, 150_000, 0) }), { token: sender.token });
    expect(res.status).toBe(201);
    expect(res.body.currency).toBe('XOF');
    expect(res.body.items.map((i: { declaredValue: number }) => i.declaredValue)).toEqual([150_000, 0]);
    const rows = await db.select().from(reservationItems).where(eq(reservationItems.reservationId, res.body.id)).orderBy(reservationItems.id);
    expect(rows.map((r) => r.declaredValueMinor)).toEqual([150_000, 0]);

    const v1 = await post(BOOK, bookingInput(trip.id, category.id, 2), { token: sender.token });
    expect(v1.status).toBe(201);
    expect(v1.body.items[0].declaredValue).toBeNull();
  });

  it('a negative value is the 400 naming the field, in French for a French caller', async () => {
    const { trip } = await aTripIn('EUR');
    const sender = await aUser();
    const category = await aCategory();
    const input = bookingInput(trip.id, category.id, 2, { items: twoItems(category.id, 10, -5) });
    const res = await post(BOOK, input, { token: sender.token });
    expect(res.status).toBe(400);
    expect(errorBody(res)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: items.1.declaredValue',
      path: BOOK,
      fieldErrors: [{ field: 'items.1.declaredValue', message: 'A declared value cannot be negative', rejectedValue: -5 }],
      suggestions: ['Correct the fields listed in fieldErrors and retry'],
    });
    const fr = await post(BOOK, input, { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.status).toBe(400);
    expect(fr.body.fieldErrors).toEqual([{ field: 'items.1.declaredValue', message: 'Une valeur déclarée ne peut pas être négative', rejectedValue: -5 }]);
    expect(fr.body.message).toBe('Validation échouée pour le corps : items.1.declaredValue');
  });

  it('more decimals than the trip currency has is the 400 naming every such field; nothing is booked', async () => {
    const eur = await aTripIn('EUR');
    const sender = await aUser();
    const category = await aCategory();
    const cents = await post(BOOK, bookingInput(eur.trip.id, category.id, 2, { items: twoItems(category.id, 12.345) }), { token: sender.token });
    expect(cents.status).toBe(400);
    expect(cents.body.fieldErrors).toEqual([{ field: 'items.0.declaredValue', message: 'At most two decimals', rejectedValue: 12.345 }]);

    const xof = await aTripIn('XOF');
    const francs = await post(BOOK, bookingInput(xof.trip.id, category.id, 2, { items: twoItems(category.id, 1500.5, 99.99) }), { token: sender.token });
    expect(francs.status).toBe(400);
    expect(errorBody(francs)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: items.0.declaredValue, items.1.declaredValue',
      path: BOOK,
      fieldErrors: [
        { field: 'items.0.declaredValue', message: 'XOF has no decimals: send a whole amount', rejectedValue: 1500.5 },
        { field: 'items.1.declaredValue', message: 'XOF has no decimals: send a whole amount', rejectedValue: 99.99 },
      ],
      suggestions: ['Correct the fields listed in fieldErrors and retry'],
    });
    const mine = await get(`${BOOK}/as-sender?size=100`, { token: sender.token });
    expect(mine.status).toBe(200);
    expect(mine.body.content).toEqual([]);
  });
});

describe('declared value rules (pure)', () => {
  it('parses each item in the currency, and totals what was declared', () => {
    expect(declaredValuesMinor([{ declaredValue: 12.5 }, {}, { declaredValue: null }, { declaredValue: 0.1 + 0.2 }], 'EUR')).toEqual([1250, null, null, 30]);
    expect(declaredValuesMinor([{ declaredValue: 25_000 }], 'XOF')).toEqual([25_000]);
    expect(() => declaredValuesMinor([{ declaredValue: 2.5 }], 'XAF')).toThrow(/Validation failed for body: items.0.declaredValue/);
    expect(declaredTotalOf([{ declaredValueMinor: 1250 }, { declaredValueMinor: null }, { declaredValueMinor: 30 }])).toBe(1280);
    expect(declaredTotalOf([])).toBe(0);
    expect(everyItemDeclared([{ declaredValueMinor: 0 }, { declaredValueMinor: 5 }])).toBe(true);
    expect(everyItemDeclared([{ declaredValueMinor: 5 }, { declaredValueMinor: null }])).toBe(false);
    expect(everyItemDeclared([])).toBe(false);
  });
});
