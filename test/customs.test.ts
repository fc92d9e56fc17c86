// Declared contents and the customs declaration (CONTRACT 21): `declaredValue` per item at
// POST /bookings, in the trip's currency with its decimals, kept in minor units and shown on the
// reservation's items (the carrier's view too); GET /bookings/{id}/customs-declaration for the
// sender and the carrier side once paid, as JSON or as the CN23-style PDF in French or English.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { agencyEmployees, categories, reservationItems, users } from '../src/db/schema';
import { declaredTotalOf, declaredValuesMinor, everyItemDeclared } from '../src/features/reservations/declared-value';
import { errorBody, get, post, put } from './helpers/http';
import { aBranch, aCarrier, aCategory, advance, anAdmin, anAgency, aTrip, aUser, bookingInput, type TestUser } from './helpers/factories';

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
    const res = await post(BOOK, bookingInput(trip.id, category.id, 2, { acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'], items: twoItems(category.id, 349.9) }), { token: sender.token });
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
    const res = await post(BOOK, bookingInput(trip.id, category.id, 2, { acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'], items: twoItems(category.id, 150_000, 0) }), { token: sender.token });
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
    const input = bookingInput(trip.id, category.id, 2, { acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'], items: twoItems(category.id, 10, -5) });
    const res = await post(BOOK, input, { token: sender.token });
    expect(res.status).toBe(400);
    expect(errorBody(res)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: items[1].declaredValue',
      path: BOOK,
      fieldErrors: [{ field: 'items[1].declaredValue', message: 'A declared value cannot be negative', rejectedValue: -5 }],
      suggestions: ['Correct the fields listed and try again'],
    });
    const fr = await post(BOOK, input, { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.status).toBe(400);
    expect(fr.body.fieldErrors).toEqual([{ field: 'items[1].declaredValue', message: 'Une valeur déclarée ne peut pas être négative', rejectedValue: -5 }]);
    expect(fr.body.message).toBe('Validation échouée pour le corps : items[1].declaredValue');
  });

  it('more decimals than the trip currency has is the 400 naming every such field; nothing is booked', async () => {
    const eur = await aTripIn('EUR');
    const sender = await aUser();
    const category = await aCategory();
    const cents = await post(BOOK, bookingInput(eur.trip.id, category.id, 2, { acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'], items: twoItems(category.id, 12.345) }), { token: sender.token });
    expect(cents.status).toBe(400);
    expect(cents.body.fieldErrors).toEqual([{ field: 'items[0].declaredValue', message: 'At most two decimals', rejectedValue: 12.345 }]);

    const xof = await aTripIn('XOF');
    const francs = await post(BOOK, bookingInput(xof.trip.id, category.id, 2, { acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'], items: twoItems(category.id, 1500.5, 99.99) }), { token: sender.token });
    expect(francs.status).toBe(400);
    expect(errorBody(francs)).toEqual({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: items[0].declaredValue, items[1].declaredValue',
      path: BOOK,
      fieldErrors: [
        { field: 'items[0].declaredValue', message: 'XOF has no decimals: send a whole amount', rejectedValue: 1500.5 },
        { field: 'items[1].declaredValue', message: 'XOF has no decimals: send a whole amount', rejectedValue: 99.99 },
      ],
      suggestions: ['Correct the fields listed and try again'],
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
    expect(() => declaredValuesMinor([{ declaredValue: 2.5 }], 'XAF')).toThrow('Validation failed for body: items[0].declaredValue');
    expect(declaredTotalOf([{ declaredValueMinor: 1250 }, { declaredValueMinor: null }, { declaredValueMinor: 30 }])).toBe(1280);
    expect(declaredTotalOf([])).toBe(0);
    expect(everyItemDeclared([{ declaredValueMinor: 0 }, { declaredValueMinor: 5 }])).toBe(true);
    expect(everyItemDeclared([{ declaredValueMinor: 5 }, { declaredValueMinor: null }])).toBe(false);
    expect(everyItemDeclared([])).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// GET /bookings/{id}/customs-declaration

const declarationOf = (id: number) => `${BOOK}/${id}/customs-declaration`;

/** A booking on a Paris - Dakar trip with two declared items and a book, moved to `status` through the lifecycle. */
async function aDeclaredBooking(options: { status?: 'PENDING_PAYMENT' | 'PAID' | 'CONFIRMED' | 'CANCELLED'; trip?: { id: number }; carrier?: TestUser } = {}) {
  const carrier = options.carrier ?? (await aCarrier({ firstName: 'Carla', lastName: 'Carrier' }));
  const trip = options.trip ?? (await aTrip(carrier, { pricePerKgCents: 1_250 }));
  const sender = await aUser({ firstName: 'Léa', lastName: 'Martin' });
  await db.update(users).set({ phoneNumber: '+33612345678' }).where(eq(users.id, sender.id));
  // BOOKS is one of the categories every database starts with (migration 0004).
  const [books] = await db.select().from(categories).where(eq(categories.code, 'BOOKS'));
  const other = await aCategory();
  const items = [
    { categoryId: other.id, name: 'Téléphone', description: 'Samsung, neuf', reservedQuantity: 1, weight: 0.5, declaredValue: 349.9 },
    { categoryId: books.id, name: 'Livres', reservedQuantity: 3, weight: 1.2, declaredValue: 45 },
    { categoryId: other.id, name: 'Shirts', reservedQuantity: 6 },
  ];
  const recipient = { firstName: 'Awa', lastName: 'Diop', phone: '+221 77 123 45 67', address: '12 rue Carnot', city: 'Dakar', postalCode: '10200' };
  const booked = await post(BOOK, bookingInput(trip.id, other.id, 2.5, { items, recipient, declarations: { noProhibitedItems: true }, acknowledgedRestrictions: ['LITHIUM_IN_DEVICE'] }), { token: sender.token });
  expect(booked.status).toBe(201);
  const id = booked.body.id as number;
  const status = options.status ?? 'CONFIRMED';
  if (status !== 'PENDING_PAYMENT' && status !== 'CANCELLED') await advance({ id, action: 'PAY', set: { paidAt: new Date().toISOString() } });
  if (status === 'CONFIRMED') await advance({ id, action: 'ACCEPT' });
  if (status === 'CANCELLED') await advance({ id, action: 'CANCEL' });
  return { carrier, sender, trip, id, reservation: booked.body };
}

describe('GET /bookings/{id}/customs-declaration', () => {
  it("prints the sender's street address from their profile (PUT /user/me), in the JSON and on the CN23", async () => {
    const { sender, carrier, id } = await aDeclaredBooking();
    const saved = await put('/v1/api/user/me', { address: '12 rue de la Paix', postalCode: '75002', city: 'Paris' }, { token: sender.token });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ address: '12 rue de la Paix', postalCode: '75002', city: 'Paris' });
    const json = await get(declarationOf(id), { token: carrier.token });
    expect(json.body.sender).toEqual({ name: 'Léa Martin', email: sender.email, phone: null, address: '12 rue de la Paix', city: 'Paris', postalCode: '75002', country: 'FR' });
    const pdf = (await get(`${declarationOf(id)}?format=pdf`, { token: carrier.token })).body as string;
    expect(pdf).toContain('(12 rue de la Paix) Tj');
    expect(pdf).toContain('(75002 Paris) Tj');
    // Too long, or blank: 400 naming the field; null clears it.
    const tooLong = await put('/v1/api/user/me', { address: 'x'.repeat(201) }, { token: sender.token });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['address']);
    expect((await put('/v1/api/user/me', { address: null }, { token: sender.token })).body.address).toBeNull();
  });


  it('answers the sender with the declaration of CONTRACT 21, exactly', async () => {
    const { sender, id, reservation } = await aDeclaredBooking();
    const res = await get(declarationOf(id), { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      reservationNumber: reservation.reservationNumber,
      sender: { name: 'Léa Martin', email: sender.email, phone: '+33612345678', address: null, city: 'Paris', postalCode: null, country: 'FR' },
      recipient: { name: 'Awa Diop', email: null, phone: '+221771234567', address: '12 rue Carnot', city: 'Dakar', postalCode: '10200', country: 'SN' },
      originCountry: 'FR',
      destinationCountry: 'SN',
      items: [
        { description: 'Téléphone: Samsung, neuf', quantity: 1, weight: 0.5, declaredValue: 349.9 },
        { description: 'Livres', quantity: 3, weight: 1.2, declaredValue: 45, hsCode: '4901' },
        { description: 'Shirts', quantity: 6, weight: null, declaredValue: null },
      ],
      totalValue: 394.9,
      currency: 'EUR',
      declaredAt: reservation.reservationDate,
    });
  });

  it("the carrier gets it too, without the sender's phone; strangers and admins get 403, an unknown id 404", async () => {
    const { carrier, id } = await aDeclaredBooking({ status: 'PAID' });
    const res = await get(declarationOf(id), { token: carrier.token });
    expect(res.status).toBe(200);
    expect(res.body.sender.phone).toBeNull();
    expect(res.body.items).toHaveLength(3);
    for (const who of [await aUser(), await anAdmin()]) {
      const refused = await get(declarationOf(id), { token: who.token });
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe('ACCESS_DENIED');
    }
    const missing = await get(declarationOf(999_999), { token: carrier.token });
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('RESOURCE_NOT_FOUND');
    expect((await get(declarationOf(id))).status).toBe(401);
  });

  it("on an agency's trip, the owner and the trip's branch staff read it; another branch's staff do not", async () => {
    const owner = await aCarrier();
    const agency = await anAgency(owner);
    const [branch, otherBranch] = [await aBranch(agency), await aBranch(agency)];
    const [staff, otherStaff] = [await aCarrier(), await aCarrier()];
    await db.insert(agencyEmployees).values([
      { userId: staff.id, agencyId: agency.id, branchId: branch.id },
      { userId: otherStaff.id, agencyId: agency.id, branchId: otherBranch.id },
    ]);
    const trip = await aTrip(staff, { agencyId: agency.id, branchId: branch.id, pricePerKgCents: 1_250 });
    const { id } = await aDeclaredBooking({ trip, carrier: staff });
    expect((await get(declarationOf(id), { token: owner.token })).status).toBe(200);
    expect((await get(declarationOf(id), { token: staff.token })).status).toBe(200);
    expect((await get(`${declarationOf(id)}?format=pdf`, { token: staff.token })).status).toBe(200);
    expect((await get(declarationOf(id), { token: otherStaff.token })).status).toBe(403);
  });

  it('before payment, or once cancelled, is 409 INVALID_STATE, in French for a French caller', async () => {
    const unpaid = await aDeclaredBooking({ status: 'PENDING_PAYMENT' });
    const res = await get(declarationOf(unpaid.id), { token: unpaid.sender.token });
    expect(res.status).toBe(409);
    expect(errorBody(res)).toEqual({
      status: 409,
      errorCode: 'INVALID_STATE',
      reason: 'RESERVATION_STATUS',
      message:
        'A reservation in status PENDING_PAYMENT has no customs declaration: it exists once the reservation is paid, for a parcel carried or to be carried',
      path: declarationOf(unpaid.id),
      suggestions: ['Available in status PAID, CONFIRMED, DEPOSITED, IN_TRANSIT, DISPUTED, DELIVERED'],
    });
    const pdf = await get(`${declarationOf(unpaid.id)}?format=pdf`, { token: unpaid.carrier.token, headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(pdf.status).toBe(409);
    expect(pdf.headers.get('Content-Type')).toContain('application/json');
    expect(pdf.body.message).toBe(
      "Une réservation au statut PENDING_PAYMENT n'a pas de déclaration en douane : elle existe une fois la réservation payée, pour un colis transporté ou à transporter",
    );
    const cancelled = await aDeclaredBooking({ status: 'CANCELLED' });
    expect((await get(declarationOf(cancelled.id), { token: cancelled.sender.token })).status).toBe(409);
  });

  it('format=pdf is the CN23-style form: a PDF with the reservation number, in English by default and in French when asked', async () => {
    const { carrier, id, reservation } = await aDeclaredBooking();
    const en = await get(`${declarationOf(id)}?format=pdf`, { token: carrier.token });
    expect(en.status).toBe(200);
    expect(en.headers.get('Content-Type')).toBe('application/pdf');
    expect(en.headers.get('Content-Language')).toBe('en');
    expect(en.headers.get('Content-Disposition')).toBe(`inline; filename="customs-declaration-${reservation.reservationNumber}.pdf"`);
    const enText = en.body as string;
    expect(enText.startsWith('%PDF-1.4\n')).toBe(true);
    expect(enText).toContain(`(Reservation no. ${reservation.reservationNumber}) Tj`);
    for (const label of ['CUSTOMS DECLARATION', 'CN 23', 'Detailed description of contents \\(1\\)', 'TOTAL VALUE \\(6\\)', '394.90\\240EUR', '4901']) {
      expect(enText).toContain(label);
    }

    const fr = await get(`${declarationOf(id)}?format=pdf`, { token: carrier.token, headers: { 'Accept-Language': 'fr-FR,fr;q=0.9,en;q=0.8' } });
    expect(fr.status).toBe(200);
    expect(fr.headers.get('Content-Language')).toBe('fr');
    // The body arrives as text: WinAnsi bytes above 0x7E are written as octal escapes, so accents are compared escaped.
    const frText = fr.body as string;
    expect(frText).toContain(reservation.reservationNumber);
    for (const label of ['D\\311CLARATION EN DOUANE', 'EXP\\311DITEUR', 'DESTINATAIRE', 'Description d\\351taill\\351e du contenu \\(1\\)', 'Quantit\\351 \\(2\\)', 'VALEUR TOTALE \\(6\\)', 'non d\\351clar\\351e', 'Autre']) {
      expect(frText).toContain(label);
    }
    expect(frText).toContain('394,90\\240EUR');

    // The restriction the sender accepted, by its name in the reader's language, never its code.
    expect(enText).toContain('Devices with lithium');
    expect(frText).toContain('Appareils \\340 batterie');
    expect(enText + frText).not.toContain('LITHIUM_IN_DEVICE');

    const bad = await get(`${declarationOf(id)}?format=docx`, { token: carrier.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors[0].field).toBe('format');
  });
});
