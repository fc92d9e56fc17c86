// Prohibited and restricted items per corridor (CONTRACT 21): GET /reference/prohibited-items in
// the caller's language with the reference data's caching; the super-admins' additions (audited);
// POST /bookings refuses an item prohibited on the trip's corridor (422 naming it), needs
// acknowledgedRestrictions for a restricted one, and keeps the declarations with the reservation.
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { auditLogs, categories, reservations } from '../src/db/schema';
import { PROHIBITED_ITEMS } from '../src/features/reference/prohibited-items.data';
import { corridorVerdict } from '../src/features/reference/prohibited-items.rules';
import { errorBody, get, post } from './helpers/http';
import { aCarrier, aCategory, aSuperAdmin, aTrip, aUser, anAdmin, bookingInput } from './helpers/factories';

const db = database(env.DB);
const LIST = '/v1/api/reference/prohibited-items';
const ADD = '/v1/api/superadmin/prohibited-items';
const BOOK = '/v1/api/bookings';

const categoryId = async (code: string) => (await db.select({ id: categories.id }).from(categories).where(eq(categories.code, code)))[0].id;
const codes = (list: { code: string }[]) => list.map((e) => e.code);

describe('GET /reference/prohibited-items', () => {
  it('FR to SN: the general prohibitions and Senegal\'s, the restrictions, in English by default, public and cached', async () => {
    const res = await get(`${LIST}?from=FR&to=SN`);
    expect(res.status).toBe(200);
    expect(res.body.from).toBe('FR');
    expect(res.body.to).toBe('SN');
    expect(codes(res.body.prohibited)).toEqual(['WEAPONS', 'DRUGS', 'DANGEROUS_GOODS', 'CASH', 'LIVE_ANIMALS', 'COUNTERFEIT', 'OBSCENE', 'SN_POULTRY', 'SN_USED_GOODS']);
    expect(codes(res.body.restricted)).toEqual(['MEDICINES', 'LITHIUM_IN_DEVICE', 'PERFUMES_AEROSOLS']);
    expect(res.body.prohibited[0]).toEqual({
      categoryId: await categoryId('WEAPONS'),
      categoryIds: [await categoryId('WEAPONS')],
      code: 'WEAPONS',
      name: 'Weapons, ammunition and their parts',
      reason: 'Not admitted in international mail; war weapons and ammunition are banned at import',
      keywords: PROHIBITED_ITEMS[0].keywords,
    });
    // Senegal's poultry ban has its category now (CONTRACT 26), and its words.
    expect(res.body.prohibited.find((e: { code: string }) => e.code === 'SN_POULTRY')).toMatchObject({
      categoryId: await categoryId('POULTRY'),
      categoryIds: [await categoryId('POULTRY')],
      name: 'Chicken legs and poultry meat',
      reason: 'Import banned in Senegal since 2005',
    });
    // An entry recognised by its words only has no category.
    expect(res.body.prohibited.find((e: { code: string }) => e.code === 'COUNTERFEIT')).toMatchObject({ categoryIds: [], keywords: expect.arrayContaining(['contrefacon', 'counterfeit']) });
    expect(res.body.prohibited.find((e: { code: string }) => e.code === 'COUNTERFEIT').categoryId).toBeUndefined();
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(res.headers.get('Vary')).toContain('Accept-Language');
    expect(res.headers.get('ETag')).toBeTruthy();
  });

  it('in French for a French caller; the corridor decides (SN to FR: the EU rules; FR to MA: Morocco\'s)', async () => {
    const fr = await get(`${LIST}?from=SN&to=FR`, { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(fr.status).toBe(200);
    expect(codes(fr.body.prohibited)).toContain('EU_MEAT_DAIRY');
    expect(codes(fr.body.prohibited)).not.toContain('SN_POULTRY');
    expect(fr.body.prohibited.find((e: { code: string }) => e.code === 'EU_MEAT_DAIRY')).toMatchObject({
      categoryIds: [await categoryId('MEAT_DAIRY'), await categoryId('POULTRY')],
      name: 'Viande, lait et leurs produits',
    });
    expect(fr.body.restricted.find((e: { code: string }) => e.code === 'EU_FOOD_PLANTS')).toMatchObject({
      categoryId: await categoryId('FOOD'),
      categoryIds: [await categoryId('FOOD'), await categoryId('FISH')],
      code: 'EU_FOOD_PLANTS',
      name: 'Aliments et produits végétaux venant de hors de l’UE',
      reason: 'Scellés, non périssables et pour usage personnel ; fruits, légumes et plantes exigent un certificat phytosanitaire',
    });
    // Inside the EU, the EU's import rules do not apply.
    const inside = await get(`${LIST}?from=BE&to=FR`);
    expect(codes(inside.body.prohibited)).not.toContain('EU_MEAT_DAIRY');
    const ma = await get(`${LIST}?from=FR&to=MA`);
    expect(codes(ma.body.prohibited)).toContain('MA_DRONES');
    expect(codes(ma.body.restricted)).toContain('MA_ANIMAL_PLANT_PRODUCTS');
    expect(codes((await get(`${LIST}?from=MA&to=FR`)).body.restricted)).toContain('MA_ANTIQUITIES');
  });

  it('a missing or malformed country is 400 VALIDATION_ERROR', async () => {
    const res = await get(`${LIST}?from=fr&to=SN`);
    expect(res.status).toBe(400);
    expect(errorBody(res)).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      fieldErrors: [{ field: 'from', message: 'ISO 3166-1 alpha-2 country code', rejectedValue: 'fr' }],
    });
    const missing = await get(`${LIST}?from=FR`);
    expect(missing.status).toBe(400);
  });

  it('every entry of the maintained file names its source and speaks both languages', () => {
    for (const e of PROHIBITED_ITEMS) {
      expect(e.source, e.code).toMatch(/^(UPU|IATA|LAPOSTE|DOUANE-FR|DOUANE-SN|ADII)(; (UPU|IATA|LAPOSTE|DOUANE-FR|DOUANE-SN|ADII))*$/);
      expect(e.name.fr && e.name.en && e.reason.fr && e.reason.en, e.code).toBeTruthy();
    }
    expect(new Set(PROHIBITED_ITEMS.map((e) => e.code)).size).toBe(PROHIBITED_ITEMS.length);
  });
});

describe('POST /superadmin/prohibited-items', () => {
  const entry = (code: string, extra: Record<string, unknown> = {}) => ({
    code,
    level: 'PROHIBITED',
    from: 'FR',
    to: 'MA',
    name: { en: 'Skin-lightening creams', fr: 'Crèmes éclaircissantes' },
    reason: { en: 'Seized at import', fr: 'Saisies à l’importation' },
    ...extra,
  });

  it('adds an entry to the corridor, audited; only super-admins; a code taken is 409', async () => {
    const superAdmin = await aSuperAdmin();
    const code = `TEST_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const res = await post(ADD, entry(code), { token: superAdmin.token, headers: { 'CF-Connecting-IP': '203.0.113.9' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code, level: 'PROHIBITED', categoryCode: null, fromCountry: 'FR', toCountry: 'MA' });
    const [logged] = await db.select().from(auditLogs).where(and(eq(auditLogs.action, 'PROHIBITED_ITEM_ADDED'), eq(auditLogs.targetId, code)));
    expect(logged).toMatchObject({ actorId: superAdmin.id, targetType: 'PROHIBITED_ITEM', ip: '203.0.113.9' });

    const fr = await get(`${LIST}?from=FR&to=MA`, { headers: { 'Accept-Language': 'fr' } });
    expect(fr.body.prohibited.find((e: { code: string }) => e.code === code)).toEqual({ categoryIds: [], code, name: 'Crèmes éclaircissantes', reason: 'Saisies à l’importation', keywords: [] });
    expect(codes((await get(`${LIST}?from=FR&to=SN`)).body.prohibited)).not.toContain(code);

    const again = await post(ADD, entry(code), { token: superAdmin.token });
    expect(again.status).toBe(409);
    expect(errorBody(again)).toMatchObject({ errorCode: 'ALREADY_EXISTS', message: `A prohibited or restricted item with the code ${code} already exists` });
    expect((await post(ADD, entry('WEAPONS'), { token: superAdmin.token })).status).toBe(409);

    const admin = await anAdmin();
    expect((await post(ADD, entry('OTHER_CODE'), { token: admin.token })).status).toBe(403);
    expect((await post(ADD, entry('OTHER_CODE'))).status).toBe(401);
    const bad = await post(ADD, entry('lower case'), { token: superAdmin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual([{ field: 'code', message: 'capital letters, digits and underscores (2 to 60)', rejectedValue: 'lower case' }]);
  });
});

describe('POST /bookings against the corridor', () => {
  async function corridorTrip(departureCountry: string, arrivalCountry: string) {
    const carrier = await aCarrier();
    return aTrip(carrier, { departureCountry, arrivalCountry });
  }

  it('an item of a category prohibited on the trip\'s corridor is 422 naming the item (English and French); elsewhere it books', async () => {
    const superAdmin = await aSuperAdmin();
    const category = await aCategory();
    const code = `DRONE_${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const added = await post(ADD, { code, level: 'PROHIBITED', categoryCode: category.code, to: 'MA', name: { en: 'Drones', fr: 'Drones' }, reason: { en: 'Authorisation', fr: 'Autorisation' } }, { token: superAdmin.token });
    expect(added.status).toBe(201);
    const sender = await aUser();
    const toMorocco = await corridorTrip('FR', 'MA');
    const input = bookingInput(toMorocco.id, category.id, 2);
    input.items[0].name = 'DJI Mini 4';
    const res = await post(BOOK, input, { token: sender.token });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'ITEM_PROHIBITED',
      message: '"DJI Mini 4" cannot be sent on the route France → Morocco: Drones are prohibited',
      path: BOOK,
      suggestions: ['See the items prohibited and restricted on the route France → Morocco'],
      fieldErrors: [{ field: 'items[0].categoryId', message: 'Drones: prohibited on this route (Authorisation)', rejectedValue: category.id }],
    });
    const fr = await post(BOOK, input, { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(fr.body.message).toBe('« DJI Mini 4 » ne peut pas être envoyé sur le trajet France → Maroc : Drones, interdit');
    expect(fr.body.fieldErrors).toEqual([{ field: 'items[0].categoryId', message: 'Drones : interdit sur ce trajet (Autorisation)', rejectedValue: category.id }]);
    expect(await db.select().from(reservations).where(eq(reservations.announcementId, toMorocco.id))).toEqual([]);

    const toSenegal = await corridorTrip('FR', 'SN');
    expect((await post(BOOK, bookingInput(toSenegal.id, category.id, 2), { token: sender.token })).status).toBe(201);
  });

  it('a restricted category needs its code in acknowledgedRestrictions; the declarations are kept and shown to the carrier', async () => {
    const sender = await aUser();
    const trip = await corridorTrip('SN', 'FR');
    const carrier = { id: trip.carrierId };
    const input = bookingInput(trip.id, await categoryId('FOOD'), 2);
    input.items.push({ categoryId: await categoryId('MEDICINES'), name: 'Paracetamol', reservedQuantity: 1, weight: 0.1, isFragile: false });
    const refused = await post(BOOK, input, { token: sender.token });
    expect(refused.status).toBe(422);
    expect(errorBody(refused)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'RESTRICTION_NOT_ACKNOWLEDGED',
      message: 'Some items need your agreement to their conditions on the route Senegal → France: Food and plant products from outside the EU, Medicines',
      path: BOOK,
      suggestions: ['See the items prohibited and restricted on the route Senegal → France'],
      fieldErrors: [
        { field: 'items[0].categoryId', message: expect.stringMatching(/^Food and plant products from outside the EU: Sealed, .*\. Confirm you accept these conditions$/), rejectedValue: await categoryId('FOOD') },
        { field: 'items[1].categoryId', message: expect.stringMatching(/^Medicines: Personal quantities only/), rejectedValue: await categoryId('MEDICINES') },
      ],
    });
    const partly = await post(BOOK, { ...input, acknowledgedRestrictions: ['MEDICINES'] }, { token: sender.token, headers: { 'Accept-Language': 'fr' } });
    expect(partly.status).toBe(422);
    expect(partly.body.message).toBe('Certains objets demandent votre accord sur leurs conditions pour le trajet Sénégal → France : Aliments et produits végétaux venant de hors de l’UE');

    const booked = await post(
      BOOK,
      { ...input, acknowledgedRestrictions: ['EU_FOOD_PLANTS', 'MEDICINES', 'MEDICINES'], declarations: { noProhibitedItems: true } },
      { token: sender.token },
    );
    expect(booked.status).toBe(201);
    const declarations = { noProhibitedItems: true, acknowledgedRestrictions: ['EU_FOOD_PLANTS', 'MEDICINES'] };
    expect(booked.body.declarations).toEqual(declarations);
    const [row] = await db.select().from(reservations).where(eq(reservations.id, booked.body.id));
    expect(row.declarations).toEqual(declarations);
    const carrierToken = (await import('./helpers/factories')).tokenFor(carrier.id, ['ROLE_CLIENT', 'ROLE_VERIFIED_USER']);
    const seen = await get(`${BOOK}/${booked.body.id}`, { token: await carrierToken });
    expect(seen.status).toBe(200);
    expect(seen.body.declarations).toEqual(declarations);
  });

  it('a v1 client that declares nothing books as before (declarations null) where nothing is restricted', async () => {
    const sender = await aUser();
    const trip = await corridorTrip('FR', 'SN');
    const res = await post(BOOK, bookingInput(trip.id, await categoryId('FOOD'), 2), { token: sender.token });
    expect(res.status).toBe(201);
    expect(res.body.declarations).toBeNull();
    const bad = await post(BOOK, bookingInput(trip.id, await categoryId('FOOD'), 2, { declarations: { noProhibitedItems: 'yes' } }), { token: sender.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errorCode).toBe('VALIDATION_ERROR');
    expect(bad.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['declarations.noProhibitedItems']);
  });
});

describe('the corridor verdict (pure)', () => {
  const entries = PROHIBITED_ITEMS.filter((e) => !e.to && !e.from);
  it('prohibited first, by category code; restricted entries not acknowledged, each once', () => {
    expect(corridorVerdict(entries, [{ code: 'BOOKS', name: 'Books' }, { code: 'WEAPONS', name: 'Knife' }], [])).toEqual({
      prohibited: [{ index: 1, item: { code: 'WEAPONS', name: 'Knife' }, entry: entries.find((e) => e.code === 'WEAPONS'), field: 'categoryId' }],
      unacknowledged: [],
    });
    const verdict = corridorVerdict(entries, [{ code: 'ELECTRONICS', name: 'Phone' }, { code: 'ELECTRONICS', name: 'Laptop' }], []);
    expect(verdict.unacknowledged.map((m) => [m.index, m.entry.code])).toEqual([[0, 'LITHIUM_IN_DEVICE'], [1, 'LITHIUM_IN_DEVICE']]);
    const done = corridorVerdict(entries, [{ code: 'ELECTRONICS', name: 'Phone' }], ['LITHIUM_IN_DEVICE']);
    expect(done.unacknowledged).toEqual([]);
    expect(corridorVerdict(entries, [{ code: null, name: 'x' }], [])).toEqual({ prohibited: [], unacknowledged: [] });
  });
});
