// What people are told (CONTRACT 26, part A): every entry of GET /reference/prohibited-items
// enforced as published, at booking and at offer, by its categories and by its words; `reason`
// on error bodies; categories in the reader's language; no API paths, field names or codes in
// human texts; phone numbers as people write them.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../src/db/client';
import { categories, reservations, users } from '../src/db/schema';
import { PROHIBITED_ITEMS } from '../src/features/reference/prohibited-items.data';
import { matchedField, matcherOf, wordsOf } from '../src/features/reference/prohibited-items.rules';
import { errorBody, get, post, put } from './helpers/http';
import { readPhone } from '../src/lib/phone';
import { aCarrier, aTrip, aUser, bookingInput } from './helpers/factories';

const db = database(env.DB);
const LIST = '/v1/api/reference/prohibited-items';
const BOOK = '/v1/api/bookings';

interface Listed {
  code: string;
  name: string;
  categoryIds: number[];
  keywords: string[];
}

const idOf = new Map<string, number>();
beforeAll(async () => {
  for (const row of await db.select({ id: categories.id, code: categories.code }).from(categories)) idOf.set(row.code, row.id);
});

/** A parcel of one item, `name` under `category`, on a trip from -> to, acknowledging `acknowledged`. */
async function book(from: string, to: string, item: { categoryId: number; name: string; description?: string }, acknowledged: string[] = [], lang = 'en') {
  const sender = await aUser();
  const trip = await aTrip(await aCarrier(), { departureCountry: from, arrivalCountry: to });
  const input = bookingInput(trip.id, item.categoryId, 2, { acknowledgedRestrictions: acknowledged });
  input.items = [{ ...input.items[0], ...item }];
  return post(BOOK, input, { token: sender.token, headers: { 'Accept-Language': lang } });
}

const CORRIDORS = [
  ['FR', 'SN'],
  ['SN', 'FR'],
  ['FR', 'MA'],
  ['MA', 'FR'],
] as const;

describe.each(CORRIDORS)('every published entry from %s to %s is enforced', (from, to) => {
  let list: { prohibited: Listed[]; restricted: Listed[] };
  beforeAll(async () => {
    list = (await get(`${LIST}?from=${from}&to=${to}`)).body;
  });
  const restrictedBut = (code: string) => list.restricted.map((e) => e.code).filter((c) => c !== code);

  it('a neutral parcel books (the baseline of the refusals below)', async () => {
    const res = await book(from, to, { categoryId: idOf.get('CLOTHING')!, name: 'Boubou en bazin' }, list.restricted.map((e) => e.code));
    expect(res.status).toBe(201);
  });

  it('each prohibited entry: refused by each of its categories and by its words, naming the item and the entry', async () => {
    for (const entry of list.prohibited) {
      for (const categoryId of entry.categoryIds) {
        const res = await book(from, to, { categoryId, name: 'Colis' }, restrictedBut(''));
        expect(res.status, `${entry.code} by category ${categoryId}`).toBe(422);
        expect(res.body.reason).toBe('ITEM_PROHIBITED');
        expect(res.body.fieldErrors).toEqual([{ field: 'items[0].categoryId', message: expect.any(String), rejectedValue: categoryId }]);
      }
      // By its name (plural, accents and case as people write them) and by a keyword in the description.
      const byName = await book(from, to, { categoryId: idOf.get('GIFTS')!, name: entry.name.toUpperCase() }, restrictedBut(''));
      expect(byName.status, `${entry.code} by its name`).toBe(422);
      expect(byName.body).toMatchObject({ reason: 'ITEM_PROHIBITED', fieldErrors: [{ field: 'items[0].name', message: expect.stringContaining(entry.name) }] });
      const keyword = entry.keywords[0];
      const byWord = await book(from, to, { categoryId: idOf.get('GIFTS')!, name: 'Colis pour la famille', description: `Deux ${keyword}s` }, restrictedBut(''));
      expect(byWord.status, `${entry.code} by "${keyword}"`).toBe(422);
      expect(byWord.body).toMatchObject({ reason: 'ITEM_PROHIBITED', fieldErrors: [{ field: 'items[0].description', message: expect.stringContaining(entry.name) }] });
    }
  });

  it('each restricted entry: its categories and its words need its acknowledgement, and book with it', async () => {
    for (const entry of list.restricted) {
      const cases = [
        ...entry.categoryIds.map((categoryId) => ({ item: { categoryId, name: 'Colis' }, field: 'items[0].categoryId' })),
        { item: { categoryId: idOf.get('GIFTS')!, name: entry.name }, field: 'items[0].name' },
        { item: { categoryId: idOf.get('GIFTS')!, name: 'Colis', description: entry.keywords[0] }, field: 'items[0].description' },
      ];
      for (const { item, field } of cases) {
        const res = await book(from, to, item, restrictedBut(entry.code));
        expect(res.status, `${entry.code} ${field} ${item.categoryId}`).toBe(422);
        expect(res.body.reason).toBe('RESTRICTION_NOT_ACKNOWLEDGED');
        expect(res.body.fieldErrors).toContainEqual({ field, message: expect.stringContaining(entry.name), rejectedValue: expect.anything() });
        expect((await book(from, to, item, [...restrictedBut(''), entry.code])).status, `${entry.code} acknowledged`).toBe(201);
      }
    }
  });
});

describe('the corridors of the report (issue 43)', () => {
  it('Dakar to Paris: dried meat under a neutral category is refused even with EU_FOOD_PLANTS acknowledged, named in the second item', async () => {
    const sender = await aUser();
    const trip = await aTrip(await aCarrier(), { departureCountry: 'SN', departureCity: 'Dakar', arrivalCountry: 'FR', arrivalCity: 'Paris' });
    const input = bookingInput(trip.id, idOf.get('CLOTHING')!, 2, { acknowledgedRestrictions: ['EU_FOOD_PLANTS'] });
    input.items.push({ categoryId: idOf.get('GIFTS')!, name: 'Viande séchée (kilichi)', reservedQuantity: 1, weight: 0.5, isFragile: false });
    const res = await post(BOOK, input, { token: sender.token, headers: { 'Accept-Language': 'fr-FR' } });
    expect(res.status).toBe(422);
    expect(errorBody(res)).toEqual({
      status: 422,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'ITEM_PROHIBITED',
      message: '« Viande séchée (kilichi) » ne peut pas être envoyé sur le trajet Sénégal → France : Viande, lait et leurs produits, interdit',
      path: BOOK,
      suggestions: ['Consultez les objets interdits et réglementés sur le trajet Sénégal → France'],
      fieldErrors: [
        {
          field: 'items[1].name',
          message: 'Viande, lait et leurs produits : interdit sur ce trajet (Les envois personnels venant de hors de l’UE ne peuvent pas en faire entrer (santé animale))',
          rejectedValue: 'Viande séchée (kilichi)',
        },
      ],
    });
    expect(await db.select().from(reservations).where(eq(reservations.announcementId, trip.id))).toEqual([]);
  });

  it('Paris to Dakar: frozen chicken legs are refused with nothing to acknowledge; shea butter and a phone case are not meat or phones', async () => {
    const refused = await book('FR', 'SN', { categoryId: idOf.get('FOOD')!, name: 'Cuisses de poulet congelées' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ reason: 'ITEM_PROHIBITED', fieldErrors: [{ field: 'items[0].name', rejectedValue: 'Cuisses de poulet congelées' }] });
    expect(refused.body.message).toBe('"Cuisses de poulet congelées" cannot be sent on the route France → Senegal: Chicken legs and poultry meat are prohibited');
    expect((await book('SN', 'FR', { categoryId: idOf.get('COSMETICS')!, name: 'Beurre de karité' })).status).toBe(201);
    expect((await book('FR', 'SN', { categoryId: idOf.get('ACCESSORIES')!, name: 'Coque de téléphone' })).status).toBe(201);
  });

  it('at offer as at booking: an offer for a prohibited item is refused the same way', async () => {
    const sender = await aUser();
    const trip = await aTrip(await aCarrier(), { departureCountry: 'FR', arrivalCountry: 'SN' });
    const input = bookingInput(trip.id, idOf.get('FOOD')!, 2);
    input.items[0].name = 'Poulets entiers';
    const res = await post(`/v1/api/annonces/${trip.id}/offers`, { reservedWeight: input.reservedWeight, items: input.items, recipient: input.recipient, pricePerKg: 9 }, { token: sender.token });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ reason: 'ITEM_PROHIBITED', fieldErrors: [{ field: 'items[0].name' }] });
  });

  it('a category prohibited everywhere is 422 ITEM_PROHIBITED naming the item, the category in the reader\'s language', async () => {
    const res = await book('FR', 'SN', { categoryId: idOf.get('WEAPONS')!, name: 'Colis' }, [], 'fr');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      reason: 'ITEM_PROHIBITED',
      message: 'Contenu interdit, ne peut pas être expédié : Armes et munitions',
      fieldErrors: [{ field: 'items[0].categoryId', message: 'Contenu interdit, ne peut pas être expédié : Armes et munitions', rejectedValue: idOf.get('WEAPONS') }],
    });
  });
});

describe('matching an item\'s words (pure)', () => {
  it('accents, case, punctuation and a plural -s are ignored; a phrase matches only whole and in order', () => {
    expect(wordsOf('Cuisses de POULET congelées!')).toEqual(['cuisse', 'de', 'poulet', 'congelee']);
    const poultry = matcherOf(PROHIBITED_ITEMS.find((e) => e.code === 'SN_POULTRY')!);
    expect(matchedField(poultry, { code: 'FOOD', name: 'Cuisses de poulet congelées' })).toBe('name');
    expect(matchedField(poultry, { code: 'FOOD', name: 'Riz', description: 'et des VOLAILLES' })).toBe('description');
    expect(matchedField(poultry, { code: 'FOOD', name: 'Bouillon de poulet' })).toBeNull();
    expect(matchedField(poultry, { code: 'POULTRY', name: 'Colis' })).toBe('categoryId');
    const meat = matcherOf(PROHIBITED_ITEMS.find((e) => e.code === 'EU_MEAT_DAIRY')!);
    expect(matchedField(meat, { code: 'COSMETICS', name: 'Beurre de karité pur' })).toBeNull();
    expect(matchedField(meat, { code: 'COSMETICS', name: 'Beurre de karité et beurre de vache' })).toBe('name');
    expect(matchedField(meat, { code: 'OTHER', name: 'Fromages de chèvre' })).toBe('name');
  });

  it('every keyword of every entry is found in an item that names it (singular or plural), and no entry lists a code-like word', () => {
    for (const entry of PROHIBITED_ITEMS) {
      const m = matcherOf(entry);
      for (const keyword of entry.keywords ?? []) {
        expect(matchedField(m, { code: null, name: keyword }), `${entry.code}: ${keyword}`).toBe('name');
        if (!/[sx]$/.test(keyword)) expect(matchedField(m, { code: null, name: `${keyword}s` }), `${entry.code}: ${keyword}s`).toBe('name');
        expect(keyword, entry.code).toMatch(/^[a-z][a-z ]*$/);
      }
      expect(matchedField(m, { code: null, name: entry.name.fr }), entry.code).toBe('name');
      expect(matchedField(m, { code: null, name: entry.name.en }), entry.code).toBe('name');
    }
  });

  it('every category an entry lists exists among the categories (migrations)', () => {
    for (const entry of PROHIBITED_ITEMS) for (const code of entry.categoryCodes ?? []) expect(idOf.has(code), `${entry.code}: ${code}`).toBe(true);
  });
});

describe('words, not internals', () => {
  // An API path, a field name (camelCase) or a code (UPPER_SNAKE) in a text a person reads.
  const PATH = /\b(?:GET|POST|PUT|PATCH|DELETE)\s+\/|\/v1\/api|\/(?:user|bookings|agencies|payout-accounts|reference|files|offers|payments)\b/;
  const FIELD = /\b[a-z]+[A-Z][A-Za-z]*\b/;
  const CODE = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
  // Read by programs and operators, not by people using the apps: the identity provider's webhook,
  // a socket opened without its protocol, the operators' metrics configuration.
  const FOR_DEVELOPERS = new Set(['kyc.sendJsonEvent', 'conversation.openWebSocketClientAccess', 'metrics.retryLater']);
  // Names people read as they are written, though they look like a field: brands.
  const BRANDS = /\bpawaPay\b/g;

  const internalsIn = (text: string) => [PATH, FIELD, CODE].flatMap((re) => re.exec(text.replace(/\{\w+\}/g, '').replace(BRANDS, ''))?.[0] ?? []);

  it('no message text (errors, suggestions, field errors, money history lines) names a path, a field or a code, in English or French', async () => {
    const { MESSAGES } = await import('../src/messages');
    const found: string[] = [];
    for (const [key, entry] of Object.entries(MESSAGES as Record<string, { en: string; fr: unknown }>)) {
      if (FOR_DEVELOPERS.has(key)) continue;
      const fr = typeof entry.fr === 'function' ? (entry.fr as (v: Record<string, string>) => string | undefined)({}) : entry.fr;
      for (const text of [entry.en, fr]) if (typeof text === 'string' && internalsIn(text).length) found.push(`${key}: ${text}`);
    }
    expect(found).toEqual([]);
  });

  it('the corridor\'s published names and reasons, and the CN23\'s words, say no code', async () => {
    const { cn23Texts } = await import('../src/features/customs/cn23.texts');
    for (const entry of PROHIBITED_ITEMS) for (const text of [entry.name.en, entry.name.fr, entry.reason.en, entry.reason.fr]) expect(internalsIn(text), entry.code).toEqual([]);
    for (const locale of ['en', 'fr'] as const) {
      for (const [key, text] of Object.entries(cn23Texts(locale))) if (typeof text === 'string') expect(internalsIn(text), key).toEqual([]);
    }
  });

  it('the scan itself catches what issue 43 saw', () => {
    expect(internalsIn('acceptez EU_FOOD_PLANTS dans acknowledgedRestrictions')).toEqual(['acknowledgedRestrictions', 'EU_FOOD_PLANTS']);
    expect(internalsIn('ajoutez-en un avec POST /payout-accounts')).toEqual(['POST /']);
  });
});

describe('phone numbers as people write them', () => {
  it('pure: read in the writer\'s country, or international; unreadable is null', () => {
    expect(readPhone('77 123 45 67', ['SN'])).toBe('+221771234567');
    expect(readPhone('77-123-45-67', [null, 'SN'])).toBe('+221771234567');
    expect(readPhone('06 12 34 56 78', ['SN', 'FR'])).toBe('+33612345678');
    expect(readPhone('+221 77 123 45 67', [])).toBe('+221771234567');
    expect(readPhone('00221771234567', [])).toBe('+221771234567');
    expect(readPhone('77 123 45 67', [])).toBeNull();
    expect(readPhone('77 123', ['SN'])).toBeNull();
    expect(readPhone('+123', ['SN'])).toBeNull();
  });

  it('a Senegalese user\'s "77 123 45 67" gets its code at +221771234567; the profile keeps the number in E.164', async () => {
    const user = await aUser();
    await db.update(users).set({ nationality: 'SN' }).where(eq(users.id, user.id));
    const sent = await post('/v1/api/user/me/phone/verification', { phone: '77 123 45 67' }, { token: user.token });
    expect(sent.status).toBe(202);
    expect(sent.body.phone).toBe('+221771234567');
    const profile = await put('/v1/api/user/me', { phoneNumber: '78 765 43 21' }, { token: user.token });
    expect(profile.status).toBe(200);
    expect(profile.body.phoneNumber).toBe('+221787654321');
    const bad = await put('/v1/api/user/me', { phoneNumber: '12 34 56' }, { token: user.token, headers: { 'Accept-Language': 'fr' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual([{ field: 'phoneNumber', message: 'Écrivez le numéro avec son indicatif pays, par exemple +221 77 123 45 67 ou +33 6 12 34 56 78', rejectedValue: '12 34 56' }]);
  });

  it('a recipient on a trip to Dakar written "77 123 45 67" is stored as +221771234567; an unreadable one is 400 naming recipient.phone', async () => {
    const sender = await aUser();
    const trip = await aTrip(await aCarrier(), { departureCountry: 'FR', arrivalCountry: 'SN' });
    const input = bookingInput(trip.id, idOf.get('CLOTHING')!, 2);
    input.recipient.phone = '77 123 45 67';
    const res = await post(BOOK, input, { token: sender.token });
    expect(res.status).toBe(201);
    const [row] = await db.select().from(reservations).where(eq(reservations.id, res.body.id));
    expect(row.recipient?.phone).toBe('+221771234567');
    input.recipient.phone = '12 34 56';
    const bad = await post(BOOK, input, { token: sender.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: 'VALIDATION_ERROR', message: 'This phone number cannot be read', fieldErrors: [{ field: 'recipient.phone', rejectedValue: '12 34 56' }] });
  });
});
