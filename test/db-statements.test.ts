// The statement layer (src/db/statements.ts). Compiled statements lean on drizzle internals
// (src/db/internals.ts, the one file that uses them): the first tests fail when a drizzle-orm
// upgrade changes them, before any endpoint misbehaves.
import { env } from 'cloudflare:workers';
import { asc, eq, like, sql, type Placeholder } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { categories, notifications, users } from '../src/db/schema';
import packageJson from '../package.json';
import { prepareBuilder } from '../src/db/internals';
import { aliasedColumns, compiled, compiledShapes, guardedInsert, guardedInsertAll, rowExists, runAlone, runBatch } from '../src/db/statements';
import { getReservationView } from '../src/features/reservations/reservation-views';
import { aCarrier, aCategory, aReservation, aTrip, aUser, bookingInput } from './helpers/factories';
import { get, post } from './helpers/http';

const db = database(env.DB);

async function aUserRow(email = `stmt-${crypto.randomUUID()}@example.com`) {
  const [row] = await db.insert(users).values({ email, firstName: 'Ada', lastName: 'Lovelace' }).returning();
  return row;
}

describe('what compiled statements rely on inside drizzle-orm', () => {
  it('drizzle-orm is pinned to one exact version: an upgrade is a decision, taken with these tests', () => {
    expect(packageJson.dependencies['drizzle-orm']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('a builder prepares into a query with its SQL, fields, result mapping and method', () => {
    const select = prepareBuilder(db.select().from(users).leftJoin(notifications, eq(notifications.userId, users.id)));
    expect(typeof select.getQuery).toBe('function');
    expect(select.getQuery()).toMatchObject({ sql: expect.stringContaining('select'), params: [] });
    expect(Array.isArray(select.fields)).toBe(true);
    expect(select.joinsNotNullableMap).toEqual({ users: true, notifications: false });
    expect(select.executeMethod).toBe('all');
    const update = prepareBuilder(db.update(users).set({ firstName: 'B' }).where(eq(users.id, 1)).returning());
    expect(update.executeMethod).toBe('all');
    // Run alone (runAlone) and read back from a batch (compiled selects replace the latter).
    const prepared = select as unknown as { execute?: unknown; mapAllResult?: unknown };
    expect([typeof prepared.execute, typeof prepared.mapAllResult]).toEqual(['function', 'function']);
  });

  it('the D1 session prepares a one-time query from SQL text, fields and method', () => {
    const session = (db as unknown as { session: { prepareOneTimeQuery?: unknown } }).session;
    expect(typeof session.prepareOneTimeQuery).toBe('function');
    // The fifth argument is the result mapper a compiled select passes (rowsMapper).
    expect((session.prepareOneTimeQuery as (...a: unknown[]) => unknown).length).toBeGreaterThanOrEqual(5);
  });
});

describe('compiled statements', () => {
  const userById = compiled((d, p: Record<'id', Placeholder>) => d.select().from(users).where(eq(users.id, p.id)));
  // Joins keep their columns apart with aliases: D1's batch returns rows keyed by column name.
  const joinedSelect = (d: typeof db) =>
    d.select({ u: aliasedColumns(users, 'u'), n: aliasedColumns(notifications, 'n') }).from(users).leftJoin(notifications, eq(notifications.userId, users.id));
  const withNotes = compiled((d, p: Record<'id', Placeholder>) => joinedSelect(d).where(eq(users.id, p.id)).orderBy(asc(notifications.id)));

  it('bind each use to its own values and decode rows exactly as the builder does (JSON, booleans, nullable joins)', async () => {
    const a = await aUserRow();
    const b = await aUserRow();
    await db.insert(notifications).values({ userId: b.id, type: 'T', title: 't', message: 'm', data: { n: 1, nested: [true] } });
    const [first, second, none, joinedEmpty, joined] = await runBatch(db, [
      userById(db, { id: a.id }),
      userById(db, { id: b.id }),
      userById(db, { id: -1 }),
      withNotes(db, { id: a.id }),
      withNotes(db, { id: b.id }),
    ]);
    expect(first).toEqual(await db.select().from(users).where(eq(users.id, a.id)));
    expect(second).toEqual([b]);
    expect((second as (typeof b)[])[0].enabled).toBe(true);
    expect((second as (typeof b)[])[0].roles).toEqual(['ROLE_CLIENT']);
    expect(none).toEqual([]);
    const [builtEmpty, built] = await runBatch(db, [joinedSelect(db).where(eq(users.id, a.id)), joinedSelect(db).where(eq(users.id, b.id))]);
    expect(joinedEmpty).toEqual(builtEmpty);
    expect(joined).toEqual(built);
    // Run alone (D1's raw(): arrays, not the batch's objects), the same rows.
    expect(await runAlone(withNotes(db, { id: b.id }))).toEqual(joined);
    expect(await runAlone(userById(db, { id: -1 }))).toEqual([]);
    // Key for key in the same order too (a response serialises them as they come).
    expect(JSON.stringify([first, joinedEmpty, joined])).toBe(JSON.stringify([await db.select().from(users).where(eq(users.id, a.id)), builtEmpty, built]));
    expect((joinedEmpty as { n: { id: unknown } }[])[0].n.id).toBeNull();
    expect((joined as { u: { id: number }; n: { data: unknown } }[])[0]).toMatchObject({ u: { id: b.id }, n: { data: { n: 1, nested: [true] } } });
  });

  it('decode a left join of plain columns as the builder does: a joined table without a row is null', async () => {
    const a = await aUserRow();
    const b = await aUserRow();
    await db.insert(notifications).values({ userId: b.id, type: 'T', title: 'hello', message: 'm', data: { k: [1, 'two'] } });
    const plain = (d: typeof db) =>
      d.select({ u: { id: users.id, email: users.email }, n: { title: notifications.title, data: notifications.data } }).from(users).leftJoin(notifications, eq(notifications.userId, users.id));
    const plainById = compiled((d, p: Record<'id', Placeholder>) => plain(d).where(eq(users.id, p.id)));
    const [withoutRow, withRow, builtWithout, builtWith] = await runBatch(db, [
      plainById(db, { id: a.id }),
      plainById(db, { id: b.id }),
      plain(db).where(eq(users.id, a.id)),
      plain(db).where(eq(users.id, b.id)),
    ]);
    expect(withoutRow).toEqual([{ u: { id: a.id, email: a.email }, n: null }]);
    expect(withoutRow).toEqual(builtWithout);
    expect(withRow).toEqual([{ u: { id: b.id, email: b.email }, n: { title: 'hello', data: { k: [1, 'two'] } } }]);
    expect(withRow).toEqual(builtWith);
  });

  it('compiledShapes builds one statement per shape, whatever the order of its keys', () => {
    let built = 0;
    const byShape = compiledShapes((shape: { prohibited: boolean; dir: string }) => {
      built += 1;
      return shape;
    });
    const one = byShape({ prohibited: true, dir: 'asc' });
    expect(byShape({ dir: 'asc', prohibited: true })).toBe(one);
    expect(byShape({ prohibited: false, dir: 'asc' })).not.toBe(one);
    expect(byShape({ prohibited: true, dir: 'desc' })).not.toBe(one);
    expect(built).toBe(3);
  });
});

describe('guardedInsert and rowExists', () => {
  it('inserts only while the guard holds, and an omitted column takes its default', async () => {
    const code = `G${crypto.randomUUID().slice(0, 8)}`;
    const guard = rowExists(db, categories, eq(categories.code, code));
    // Nothing yet with that code: the guarded copy is not written.
    await runBatch(db, [guardedInsert(db, categories, { code: `${code}-copy`, name: 'Copy' }, undefined, guard)]);
    expect(await db.select().from(categories).where(eq(categories.code, `${code}-copy`))).toEqual([]);
    // In one batch: the original, then the copy guarded on it.
    await runBatch(db, [
      db.insert(categories).values({ code, name: 'Original' }),
      guardedInsert(db, categories, { code: `${code}-copy`, name: 'Copy' }, undefined, guard),
    ]);
    const [copy] = await db.select().from(categories).where(eq(categories.code, `${code}-copy`));
    expect(copy).toMatchObject({ name: 'Copy', prohibited: false });
    expect(Date.parse(copy.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('guardedInsertAll', () => {
  it('writes each member from its own source, at most its limit, the limit as a literal (not a bound parameter)', async () => {
    const code = `L${crypto.randomUUID().slice(0, 8)}`;
    await db.insert(categories).values([1, 2, 3].map((k) => ({ code: `${code}-src-${k}`, name: `Source ${k}` })));
    // A member joined to a list of three writes one row per match, here capped at two.
    const list = sql`(SELECT 'a' AS "tag" UNION ALL SELECT 'b' UNION ALL SELECT 'c') AS "list"`;
    const statement = guardedInsertAll(db, categories, [
      { values: { code: sql`${`${code}-one-`} || "list"."tag"`, name: 'One' }, condition: undefined, source: list, limit: 2 },
      { values: { code: `${code}-lone`, name: 'Lone' }, condition: like(categories.code, `${code}-src-%`) },
    ], categories);
    const query = statement.toSQL();
    expect(query.sql).toContain(' LIMIT 2)');
    expect(query.sql).toContain(' LIMIT 1)');
    expect(query.sql).not.toMatch(/limit \?/i);
    await runBatch(db, [statement]);
    const written = await db.select({ code: categories.code }).from(categories).where(like(categories.code, `${code}-%`)).orderBy(asc(categories.id));
    // The second member's source (categories) matches three rows: LIMIT 1 writes one.
    expect(written.map((r) => r.code)).toEqual([`${code}-src-1`, `${code}-src-2`, `${code}-src-3`, `${code}-one-a`, `${code}-one-b`, `${code}-lone`]);
    expect(() => guardedInsertAll(db, categories, [{ values: { code, name: 'x' }, condition: undefined, limit: 0 }])).toThrow(/at least one row/);
  });
});

describe('the compiled statements of the hot paths', () => {
  it('the reservation view (compiled) holds the joined parties and the trip', async () => {
    const { sender, carrier, reservation, trip: announcement } = await aReservation({ status: 'CONFIRMED' });
    const view = await getReservationView(db, reservation.id);
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
    // The phone as written, stored in E.164 (CONTRACT 26).
    expect(read.body.recipient).toEqual({ ...recipient, phone: '+221770000000', address: null, postalCode: null });
    const notes = await get('/v1/api/notifications', { token: carrier.token });
    expect(notes.body.content[0]).toMatchObject({
      type: 'RESERVATION_CREATED',
      message: expect.stringMatching(new RegExp(`^1.25 kg booked on your trip ${trip.departureCity} - ${trip.arrivalCity} \\(${created.body.reservationNumber}\\) for [0-9.]+ [A-Z]{3}, awaiting payment\\.$`)),
    });
  });
});
