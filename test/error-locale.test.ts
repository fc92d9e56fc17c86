/// <reference types="vite/client" />
// The API's error texts follow Accept-Language (fr, en; en otherwise) with the errorCode and
// status unchanged; every error is raised with a message key whose English and French are in
// src/messages (docs/decisions-http.md).
import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { describeAction, RESERVATION_ACTIONS } from '../src/features/reservations/reservation-state';
import { preferredLocale } from '../src/lib/locale';
import { isMessageKey, MESSAGES, msg, render, slotNames } from '../src/messages';
import { frenchOfExternal } from '../src/messages/external';
import { toValidationError } from '../src/validation';
import { aCategory, aReservation, aTrip, aUser, bookingInput } from './helpers/factories';
import { errorBody, get, post, type ApiResponse } from './helpers/http';
import { scanErrorTexts, type Found } from './helpers/error-text-scan';

const PARTS = import.meta.glob('../src/messages/*.ts', { eager: true }) as Record<string, Record<string, unknown>>;
const SOURCES = import.meta.glob('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

const FR = { 'Accept-Language': 'fr-FR,fr;q=0.9,en;q=0.8' };
const EN = { 'Accept-Language': 'en' };

describe('Accept-Language negotiation', () => {
  it.each([
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr'],
    ['fr', 'fr'],
    ['en-US', 'en'],
    ['en-GB,en;q=0.9,fr;q=0.8', 'en'],
    ['de', 'en'],
    ['de-DE,fr;q=0.5', 'fr'],
    ['en;q=0.5,fr;q=0.6', 'fr'],
    ['fr;q=0,en', 'en'],
    ['*', 'en'],
    ['', 'en'],
    [undefined, 'en'],
  ] as const)('%s -> %s', (header, locale) => {
    expect(preferredLocale(header, 'en')).toBe(locale);
  });
});

// ---------------------------------------------------------------------------------------------
// The catalogue (src/messages): every key has an English and a French text with the same values,
// and every raise site in src/ names a key, never an English sentence. Each check is a function
// run on the real catalogue and sources, and on a planted mistake it must catch.

type Entry = { en: string; fr: string | ((values: Record<string, string>) => string | undefined) };
const sorted = (xs: string[]) => [...xs].sort();

/** What is wrong with catalogue entries: an empty or missing text, slots that differ between en and fr. */
function catalogueProblems(entries: Record<string, Entry>): string[] {
  const problems: string[] = [];
  for (const [key, entry] of Object.entries(entries)) {
    if (!/^[a-z][A-Za-z]*\.[A-Za-z0-9]+$/.test(key)) problems.push(`${key}: a key is area.name (the area in camelCase)`);
    if (typeof entry.en !== 'string' || !entry.en.trim()) problems.push(`${key}: no English`);
    if (typeof entry.fr === 'function') continue; // a French that rewords values; checked by its sample below
    if (typeof entry.fr !== 'string' || !entry.fr.trim()) problems.push(`${key}: no French`);
    else if (sorted(slotNames(entry.en)).join() !== sorted(slotNames(entry.fr)).join()) {
      problems.push(`${key}: slots {${slotNames(entry.en)}} in English, {${slotNames(entry.fr)}} in French`);
    }
  }
  return problems;
}

/** Texts a French function must answer (its values), or '7' for each slot. */
const FUNCTION_SAMPLES: Record<string, Record<string, string>[]> = {
  'error.notFound': [{ what: 'Reservation' }],
  'error.notFoundWithId': [{ what: 'Agency document', id: '12' }],
  'error.external': [{ text: 'Invalid email address' }],
  'agency.alreadyBelongsAgency': [{ who: 'You' }, { who: 'This user' }],
  'agency.branchAlready': [{ active: 'active' }, { active: 'deactivated' }],
  'auth.accountAlreadyExists': [{ field: 'email' }, { field: 'username' }],
  'booking.announcementTakesNoMore': [{ id: '3', status: 'closed' }, { id: '3', status: 'cancelled' }],
  'reservation.actionNotAllowed': RESERVATION_ACTIONS.map((a) => ({ action: describeAction(a), status: 'DELIVERED' })),
  'handover.qrCodeWrongPurpose': [{ pur: 'deposit', purpose: 'delivery' }, { pur: 'delivery', purpose: 'deposit' }],
  'kyc.alreadyVerified': [{ what: 'This document' }, { what: 'This KYC record' }],
  'kyc.alreadyRejected': [{ what: 'This document' }, { what: 'This KYC record' }],
  ...Object.fromEntries(
    ['validation.missing', 'validation.wrongType', 'validation.failed'].map((k) => [
      k,
      ['body', 'path parameter', 'query', 'header', 'cookie', 'form'].map((where) => ({ where, names: 'a, b.c' })),
    ]),
  ),
};

/** French functions that answer nothing (or the English) for the values they are meant for. */
function untranslatedFunctions(entries: Record<string, Entry>): string[] {
  return Object.entries(entries)
    .filter(([, e]) => typeof e.fr === 'function')
    .flatMap(([key, e]) =>
      (FUNCTION_SAMPLES[key] ?? [Object.fromEntries(slotNames(e.en).map((s) => [s, '7']))]).flatMap((values) => {
        const fr = (e.fr as (v: Record<string, string>) => string | undefined)(values);
        const en = e.en.replace(/\{(\w+)\}/g, (_, n: string) => values[n]);
        return fr && fr.trim() && fr !== en ? [] : [`${key} ${JSON.stringify(values)}: no French`];
      }),
    );
}

/** The ids of the catalogue's parts, so the source scan skips them. */
const isCatalogue = (file: string) => file.includes('/src/messages/');

/** Raise sites (constructors, suggestions, field errors, zod rules) whose literal text is not a key. */
function englishRaiseSites(sources: Record<string, string>): string[] {
  const code = Object.fromEntries(Object.entries(sources).filter(([file]) => !isCatalogue(file)));
  return scanErrorTexts(code)
    .filter((f) => f.text !== undefined && !isMessageKey(f.text))
    .map((f) => `${where(f)}: ${f.text}`);
}

/** String literals anywhere in src/ equal to a key's English text: an English sentence kept in a constant. */
function englishLiterals(sources: Record<string, string>, entries: Record<string, Entry>): string[] {
  const english = new Set(Object.values(entries).map((e) => e.en.replace(/\{\w+\}/g, '{}')).filter((t) => t.length > 12));
  const found: string[] = [];
  for (const [file, source] of Object.entries(sources)) {
    if (isCatalogue(file) || file.endsWith('/src/config.ts')) continue; // config.ts: operator text, English only
    for (const m of source.matchAll(/'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"|`((?:\\.|[^`\\])*)`/g)) {
      const text = (m[1] ?? m[2] ?? m[3]).replace(/\\(.)/g, '$1').replace(/\$\{[^}]*\}/g, '{}');
      if (english.has(text)) found.push(`${file.replace('../src/', '')}: ${text}`);
    }
  }
  return found;
}

const ENTRIES = MESSAGES as unknown as Record<string, Entry>;
const where = (f: Found) => `${f.file.replace('../src/', '')}:${f.line} (${f.kind})`;

describe('the message catalogue', () => {
  it('every key has an English and a French text, with the same {slots}', () => {
    expect(Object.keys(ENTRIES).length).toBeGreaterThan(250);
    // The parts are spread into one object: a key written in two parts would silently shadow one.
    const parts = Object.values(PARTS).flatMap((m) => Object.entries(m).filter(([name]) => name.endsWith('_MESSAGES')).map(([, part]) => part as object));
    expect(parts.reduce((n, part) => n + Object.keys(part).length, 0)).toBe(Object.keys(ENTRIES).length);
    expect(catalogueProblems(ENTRIES)).toEqual([]);
    expect(untranslatedFunctions(ENTRIES)).toEqual([]);
  });

  it('catches a planted mistake in the catalogue', () => {
    expect(catalogueProblems({ 'a.noFrench': { en: 'Text', fr: '' } })).toEqual(['a.noFrench: no French']);
    expect(catalogueProblems({ 'a.noEnglish': { en: ' ', fr: 'Texte' } })).toEqual(['a.noEnglish: no English']);
    expect(catalogueProblems({ 'a.slots': { en: 'Reservation {id} is {status}', fr: 'La réservation {id} est {statut}' } })).toEqual([
      'a.slots: slots {id,status} in English, {id,statut} in French',
    ]);
    expect(catalogueProblems({ 'a.missingSlot': { en: 'Wait {n} seconds', fr: 'Attendez' } })).toHaveLength(1);
    expect(untranslatedFunctions({ 'a.fn': { en: 'Branch is {state}', fr: ({ state }) => (state === 'x' ? 'Succursale' : undefined) } })).toEqual([
      'a.fn {"state":"7"}: no French',
    ]);
  });

  it('every raise site in src/ names a key, never an English sentence', () => {
    const found = scanErrorTexts(SOURCES);
    expect(Object.keys(SOURCES).length).toBeGreaterThan(150);
    expect(found.filter((f) => f.text !== undefined).length).toBeGreaterThan(200);
    expect(englishRaiseSites(SOURCES)).toEqual([]);
    expect(englishLiterals(SOURCES, ENTRIES)).toEqual([]);
  });

  it('catches a planted English sentence at a raise site or in a constant', () => {
    const planted = {
      '../src/features/x/x.service.ts': [
        "throw invalidState('reservation.actionNotAllowed', { action, status });",
        "throw invalidState(`Reservation ${id} cannot be paid`);",
        "throw businessRule('booking.cannotBookOwnAnnouncement', { suggestions: ['Try another trip'] });",
        "const fieldErrors = [{ field: 'a', message: 'Must be positive', rejectedValue: 1 }];",
        "const MESSAGE = 'Not enough remaining capacity on this announcement';",
      ].join('\n'),
    };
    expect(englishRaiseSites(planted)).toEqual([
      'features/x/x.service.ts:2 (invalidState): Reservation {} cannot be paid',
      'features/x/x.service.ts:3 (suggestion): Try another trip',
      'features/x/x.service.ts:4 (fieldError): Must be positive',
    ]);
    expect(englishLiterals(planted, ENTRIES)).toEqual(['features/x/x.service.ts: Not enough remaining capacity on this announcement']);
  });

  it("zod's own messages, for every kind of issue the API's schemas raise, have French", () => {
    const schemas: [z.ZodType, unknown][] = [
      [z.object({ a: z.string() }), {}],
      [z.object({ a: z.string() }), { a: 1 }],
      [z.object({ a: z.number() }), { a: 'x' }],
      [z.object({ a: z.number().int() }), { a: 1.5 }],
      [z.object({ a: z.boolean() }), { a: null }],
      [z.object({ a: z.array(z.number()) }), { a: {} }],
      [z.object({ a: z.object({}) }), { a: [] }],
      [z.enum(['A', 'B']), 'C'],
      [z.literal('A'), 'C'],
      [z.string().min(8), 'short'],
      [z.string().max(2), 'long'],
      [z.string().length(2), 'x'],
      [z.number().min(1), 0],
      [z.number().max(100), 101],
      [z.number().positive(), 0],
      [z.number().lt(5), 5],
      [z.array(z.number()).min(1), []],
      [z.array(z.number()).max(1), [1, 2]],
      [z.email(), 'nope'],
      [z.url(), 'nope'],
      [z.uuid(), 'nope'],
      [z.iso.datetime(), 'nope'],
      [z.iso.date(), 'nope'],
      [z.string().regex(/^\d+$/), 'x'],
      [z.string().startsWith('a'), 'b'],
      [z.number().multipleOf(5), 3],
      [z.strictObject({}), { a: 1 }],
      [z.strictObject({}), { a: 1, b: 2 }],
      [z.union([z.string(), z.number()]), null],
      [z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]), { kind: 'c' }],
      [z.record(z.enum(['a']), z.number()), { b: 1 }],
    ];
    const messages = schemas.flatMap(([schema, value]) => {
      const result = schema.safeParse(value);
      expect(result.success).toBe(false);
      return result.error!.issues.map((i) => i.message);
    });
    expect(messages.filter((m) => frenchOfExternal(m) === undefined)).toEqual([]);
    expect(frenchOfExternal('Too small: expected string to have >=8 characters')).toBe('Trop petit : texte attendu de >=8 caractères');
    expect(frenchOfExternal('Invalid input: expected string, received undefined')).toBe('Valeur invalide : texte attendu, aucune valeur reçue');
    expect(frenchOfExternal('Invalid input: expected date, received undefined')).toBe('Valeur invalide : date attendue, aucune valeur reçue');
  });

  it('renders the values it names in both languages, and an unknown external text as it is', () => {
    expect(render(msg('money.bookingTotalBelowPayment', { total: '€0.40', minimum: '€0.50' }), 'fr')).toBe(
      'Le total de la réservation, €0.40, est inférieur au minimum de paiement de €0.50',
    );
    expect(render(msg('error.notFoundWithId', { what: 'Agency document', id: 12 }), 'fr')).toBe("Document d'agence 12 introuvable");
    expect(render(msg('error.notFoundWithId', { what: 'Agency document', id: 12 }), 'en')).toBe('Agency document 12 not found');
    expect(render(msg('error.external', { text: 'Something nobody wrote' }), 'fr')).toBe('Something nobody wrote');
    expect(render('handover.wrongCode', 'en')).toBe('Wrong code');
    expect(render('handover.wrongCode', 'fr')).toBe('Code erroné');
  });

  it('the validation hook raises keys with their values', () => {
    const schema = z.object({ email: z.email(), age: z.number() });
    const result = schema.safeParse({ email: 'x', age: 'y' });
    const error = toValidationError(result.error!.issues, { email: 'x', age: 'y' }, 'json');
    expect(error.message).toBe('Validation failed for body: email, age');
    expect(render(error.text, 'fr')).toBe('Validation échouée pour le corps : email, age');
    expect(error.fieldErrors!.map((f) => render(f.message, 'fr'))).toEqual(['Adresse e-mail invalide', 'Valeur invalide : nombre attendu, texte reçu']);
  });
});

/** The same request in French and in English: same status, errorCode and shape, the texts in each language. */
async function inBothLanguages(send: (headers: Record<string, string>) => Promise<ApiResponse>) {
  const fr = await send(FR);
  const en = await send(EN);
  const none = await send({});
  expect(fr.status).toBe(en.status);
  expect(fr.body.errorCode).toBe(en.body.errorCode);
  expect(fr.body.path).toBe(en.body.path);
  expect(Object.keys(fr.body).sort()).toEqual(Object.keys(en.body).sort());
  expect(fr.headers.get('Content-Language')).toBe('fr');
  expect(en.headers.get('Content-Language')).toBe('en');
  expect(fr.headers.get('Vary')).toMatch(/Accept-Language/);
  // No Accept-Language: English, exactly as before.
  expect(errorBody(none)).toEqual(errorBody(en));
  expect(none.headers.get('Content-Language')).toBe('en');
  return { fr: errorBody(fr), en: errorBody(en) };
}

describe('error answers in the language of Accept-Language', () => {
  it('validation: message and field errors (custom and zod messages), suggestions', async () => {
    const { fr, en } = await inBothLanguages((headers) =>
      post('/v1/api/auth/register', { email: 'not-an-email', password: 'Secret-123', firstName: 42, lastName: 'B' }, { headers }),
    );
    expect(en).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation failed for body: email, firstName',
      suggestions: ['Correct the fields listed and try again'],
      fieldErrors: [
        { field: 'email', message: 'Invalid email address', rejectedValue: 'not-an-email' },
        { field: 'firstName', message: 'Invalid input: expected string, received number', rejectedValue: 42 },
      ],
    });
    expect(fr).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation échouée pour le corps : email, firstName',
      suggestions: ['Corrigez les champs indiqués et réessayez'],
      fieldErrors: [
        { field: 'email', message: 'Adresse e-mail invalide', rejectedValue: 'not-an-email' },
        { field: 'firstName', message: 'Valeur invalide : texte attendu, nombre reçu', rejectedValue: 42 },
      ],
    });
  });

  it('a path parameter of the wrong type', async () => {
    const { fr, en } = await inBothLanguages((headers) => get('/v1/api/annonces/abc', { headers }));
    expect(en).toMatchObject({ status: 400, errorCode: 'TYPE_MISMATCH', message: 'Wrong type for path parameter: id' });
    expect(fr).toMatchObject({ status: 400, errorCode: 'TYPE_MISMATCH', message: 'Type incorrect dans le paramètre de chemin : id' });
  });

  it('resource not found names the resource and its id; a public path answers no-store', async () => {
    const { fr, en } = await inBothLanguages((headers) => get('/v1/api/annonces/987654', { headers }));
    expect(en).toEqual({ status: 404, errorCode: 'RESOURCE_NOT_FOUND', message: 'Announcement 987654 not found', path: '/v1/api/annonces/987654', suggestions: [] });
    expect(fr).toEqual({ status: 404, errorCode: 'RESOURCE_NOT_FOUND', message: 'Annonce 987654 introuvable', path: '/v1/api/annonces/987654', suggestions: [] });
    // A cacheable public path: its errors are never stored, so no cache hands a French error to an English client.
    const res = await get('/v1/api/annonces/987654', { headers: FR });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('unknown endpoint', async () => {
    const { fr, en } = await inBothLanguages((headers) => get('/v1/api/nothing-here', { headers }));
    expect(en).toMatchObject({ errorCode: 'ENDPOINT_NOT_FOUND', message: 'No endpoint GET /v1/api/nothing-here', suggestions: ['See the API reference for the paths this service answers'] });
    expect(fr).toMatchObject({
      errorCode: 'ENDPOINT_NOT_FOUND',
      message: 'Aucun point de terminaison GET /v1/api/nothing-here',
      suggestions: ["Consultez la référence de l'API pour les chemins que ce service connaît"],
    });
  });

  it('unauthorized and access denied', async () => {
    const unauthorized = await inBothLanguages((headers) => get('/v1/api/user/me', { headers }));
    expect(unauthorized.en).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED', message: 'Authentication required: send Authorization: Bearer <access token>' });
    expect(unauthorized.fr).toMatchObject({
      status: 401,
      errorCode: 'UNAUTHORIZED',
      message: "Authentification requise : envoyez Authorization: Bearer <jeton d'accès>",
      suggestions: ["Connectez-vous ou rafraîchissez le jeton d'accès, puis réessayez"],
    });
    const client = await aUser();
    const denied = await inBothLanguages((headers) => get('/v1/api/admin/users', { headers, token: client.token }));
    expect(denied.en).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED', message: expect.stringMatching(/^Requires one of: ROLE_/) });
    expect(denied.fr).toMatchObject({ status: 403, errorCode: 'ACCESS_DENIED', message: expect.stringMatching(/^Nécessite l'un des rôles : ROLE_/) });
  });

  it('invalid state names the reservation status in both languages', async () => {
    const { sender, reservation } = await aReservation({ status: 'DELIVERED' });
    const { fr, en } = await inBothLanguages((headers) => post(`/v1/api/bookings/${reservation.id}/cancel`, undefined, { headers, token: sender.token }));
    expect(en).toMatchObject({
      status: 409,
      errorCode: 'INVALID_STATE',
      message: 'A reservation in status DELIVERED can no longer be cancelled',
      suggestions: ['Cancellation is possible before the parcel is deposited'],
    });
    expect(fr).toMatchObject({
      status: 409,
      errorCode: 'INVALID_STATE',
      message: 'Une réservation au statut DELIVERED ne peut plus être annulée',
      suggestions: ["L'annulation est possible avant le dépôt du colis"],
    });
  });

  it('business rule naming values: booking one own announcement, remaining capacity', async () => {
    const carrier = await aUser({ roles: ['ROLE_CLIENT', 'ROLE_VERIFIED_USER'] });
    const category = await aCategory();
    const trip = await aTrip(carrier);
    const own = await inBothLanguages((headers) => post('/v1/api/bookings', bookingInput(trip.id, category.id), { headers, token: carrier.token }));
    expect(own.en).toMatchObject({ status: 422, errorCode: 'BUSINESS_RULE_VIOLATION', message: 'You cannot book your own announcement' });
    expect(own.fr).toMatchObject({ status: 422, errorCode: 'BUSINESS_RULE_VIOLATION', message: 'Vous ne pouvez pas réserver votre propre annonce' });
    const sender = await aUser();
    const full = await inBothLanguages((headers) => post('/v1/api/bookings', bookingInput(trip.id, category.id, 500), { headers, token: sender.token }));
    expect(full.en).toMatchObject({ status: 422, message: 'Not enough remaining capacity on this announcement', suggestions: [expect.stringMatching(/^Remaining capacity: [\d.]+ kg$/)] });
    const kg = /([\d.]+) kg/.exec((full.en.suggestions as string[])[0])![1];
    expect(full.fr).toMatchObject({ status: 422, message: 'Capacité restante insuffisante sur cette annonce', suggestions: [`Capacité restante : ${kg} kg`] });
  });

  it('rate limit: 429 with Retry-After, the message and suggestion in French', async () => {
    const email = `rl-fr-${crypto.randomUUID()}@test.local`;
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 11 && !limited; i++) {
      const res = await post('/v1/api/auth/login', { email, password: 'Wrong-password-1' }, { headers: FR });
      if (res.status === 429) limited = res;
    }
    expect(limited).toBeDefined();
    expect(limited!.headers.get('Retry-After')).toBe('60');
    expect(errorBody(limited!)).toEqual({
      status: 429,
      errorCode: 'BUSINESS_RULE_VIOLATION',
      reason: 'RATE_LIMITED',
      message: 'Trop de tentatives ; réessayez plus tard',
      path: '/v1/api/auth/login',
      suggestions: ['Attendez 60 secondes avant de réessayer'],
    });
    expect(limited!.headers.get('Content-Language')).toBe('fr');
  });

  it('a successful answer without words has no Content-Language and is the same in both languages', async () => {
    const fr = await get('/v1/api/reference/countries/SN/cities', { headers: FR });
    const en = await get('/v1/api/reference/countries/SN/cities', { headers: EN });
    expect(fr.status).toBe(200);
    expect(fr.body).toEqual(en.body);
    expect(fr.headers.get('Content-Language')).toBeNull();
    expect(fr.headers.get('ETag')).toBe(en.headers.get('ETag'));
  });

  it('the categories are named in the reader\'s language (CONTRACT 26), each language its own ETag', async () => {
    const fr = await get('/v1/api/categories?size=100', { headers: FR });
    const en = await get('/v1/api/categories?size=100', { headers: EN });
    expect(fr.headers.get('Content-Language')).toBe('fr');
    expect(en.headers.get('Content-Language')).toBe('en');
    expect(fr.headers.get('Vary')).toContain('Accept-Language');
    expect(fr.headers.get('ETag')).not.toBe(en.headers.get('ETag'));
    const named = (body: { content: { code: string; name: string; description: string | null }[] }, code: string) => body.content.find((c) => c.code === code);
    expect(named(fr.body, 'WEAPONS')).toMatchObject({ name: 'Armes et munitions', description: 'Interdit : armes à feu, munitions, lames' });
    expect(named(en.body, 'WEAPONS')).toMatchObject({ name: 'Weapons and ammunition', description: 'Prohibited: firearms, ammunition, blades' });
    expect(named(fr.body, 'MEAT_DAIRY')?.name).toBe('Viande et produits laitiers');
    // Sorted by the name the reader reads: "Accessoires" before "Aliments non périssables" in French.
    const frNames = fr.body.content.filter((c: { prohibited: boolean }) => !c.prohibited).map((c: { name: string }) => c.name);
    expect(frNames.slice(0, 2)).toEqual(['Accessoires', 'Aliments non périssables']);
  });
});
