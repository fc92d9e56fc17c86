/// <reference types="vite/client" />
// The API's error texts follow Accept-Language (fr, en; en otherwise) with the errorCode and
// status unchanged; every text raised anywhere in src/ has its French entry (docs/decisions-http.md).
import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { frenchErrorText, localizeErrorText } from '../src/error-messages';
import { publishRefusal } from '../src/access/agency-scope';
import { reviewRefusal, REVIEW_OUTCOMES } from '../src/features/kyc/kyc.rules';
import { describeAction, RESERVATION_ACTIONS } from '../src/features/reservations/reservation-state';
import { preferredLocale } from '../src/lib/locale';
import { toValidationError } from '../src/validation';
import { aCategory, aReservation, aTrip, aUser, bookingInput } from './helpers/factories';
import { errorBody, get, post, type ApiResponse } from './helpers/http';
import { scanErrorTexts, type Found } from './helpers/error-text-scan';

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

/**
 * Sites whose message is not text written at the call: where it comes from, and the texts it can
 * be. A new such site fails the test until it is listed here with its texts.
 */
const DYNAMIC: { file: string; expression: string; texts: string[] }[] = [
  { file: 'middleware/configuration.ts', expression: 'describeProblems(problems)', texts: ['The service is not configured: JWT_KEYS is missing'] },
  { file: 'middleware/rate-limit.ts', expression: 'message', texts: ['Too many requests; retry later'] },
  { file: 'features/auth/rate-limit.ts', expression: 'MESSAGE', texts: ['Too many attempts; retry later'] },
  {
    file: 'validation.ts',
    expression: 'messageFor(code, target, fieldErrors)',
    texts: ['body', 'path parameter', 'query', 'header', 'cookie', 'form'].flatMap((where) => [
      `Validation failed for ${where}: a, b.c`,
      `Missing required ${where}: a`,
      `Wrong type for ${where}: a`,
    ]).concat('Invalid argument'),
  },
  {
    file: 'validation.ts',
    expression: 'suggestionsFor(code)',
    texts: [
      'Check the type of each parameter against the API reference at /v1/api/docs',
      'Provide every required parameter',
      'Correct the fields listed in fieldErrors and retry',
    ],
  },
  ...['features/agencies/agency-documents.service.ts', 'features/kyc/kyc.service.ts'].map((file) => ({
    file,
    expression: 'refusal',
    texts: ['This document', 'This KYC record'].flatMap((what) =>
      (Object.keys(REVIEW_OUTCOMES) as (keyof typeof REVIEW_OUTCOMES)[]).map((d) => reviewRefusal(what, REVIEW_OUTCOMES[d], d)!),
    ),
  })),
  {
    file: 'access/agency-scope.ts',
    expression: 'refusal',
    texts: [
      publishRefusal({ agencySuspended: true, branchActive: true } as never)!,
      publishRefusal({ agencySuspended: false, branchActive: false } as never)!,
    ],
  },
  { file: 'features/money/payments/payments.webhook.ts', expression: 'err.message', texts: [] }, // MalformedEventError's, scanned
  {
    file: 'features/users/users.service.ts',
    expression: 'reason', // features/users/account-deletion-guards.ts
    texts: [
      'The account cannot be deleted while a reservation is in progress (R-1); wait until it is delivered, cancelled or its dispute is closed',
      'The account cannot be deleted while the wallet holds money; withdraw the balance first',
      'The account cannot be deleted while a withdrawal is pending; wait until it completes',
      'The account cannot be deleted while it owns an agency (4); contact support to close or transfer the agency',
    ],
  },
  { file: 'features/announcements/announcements.routes.ts', expression: 'e.message', texts: [] }, // announcement-rules' field errors, scanned
  {
    file: 'features/reports/reports.service.ts',
    expression: 'input.targetType.charAt(0) + input.targetType.slice(1).toLowerCase()',
    texts: ['User 7 not found', 'Announcement 7 not found', 'Review 7 not found'],
  },
  // errors.ts itself: the constructors pass their parameter on; Hono's HTTPException messages.
  { file: 'errors.ts', expression: 'message', texts: [] },
  { file: 'errors.ts', expression: "err.message || 'Malformed request'", texts: ['Malformed JSON in request body', 'Malformed request', 'Malformed FormData request. Unexpected end'] },
  { file: 'errors.ts', expression: "err.message || 'Authentication required'", texts: ['Authentication required'] },
  { file: 'errors.ts', expression: "err.message || 'Request failed'", texts: ['Request failed'] },
];

/** Values for the `{}` of an entry that rewords its values (nouns, units, actions). */
const WORDED: Record<string, string[]> = {
  '{} already belongs to an agency': ['You already belongs to an agency', 'This user already belongs to an agency'],
  'This branch is already {}': ['This branch is already active', 'This branch is already deactivated'],
  'Cannot {} a reservation in status {}': RESERVATION_ACTIONS.map((a) => `Cannot ${describeAction(a)} a reservation in status DELIVERED`),
  'This QR code is for {}, not {}': ['This QR code is for deposit, not delivery', 'This QR code is for delivery, not deposit'],
  'An account with this {} already exists': ['An account with this email already exists', 'An account with this username already exists'],
  'Announcement {} is {} and takes no more bookings': ['Announcement 3 is closed and takes no more bookings', 'Announcement 3 is cancelled and takes no more bookings'],
  // notFound(): each noun is checked below.
  '{} not found': [],
  '{} {} not found': [],
};

const sample = (template: string) => template.replaceAll('{}', '7');
const where = (f: Found) => `${f.file.replace('../src/', '')}:${f.line} (${f.kind})`;

describe('the French catalogue covers every error text', () => {
  const found = scanErrorTexts(SOURCES);

  it('scans the whole source tree', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(150);
    expect(found.filter((f) => f.text !== undefined).length).toBeGreaterThan(250);
  });

  it('every message, suggestion, field error and zod rule message written in src/', () => {
    const missing = found
      .filter((f) => f.text !== undefined)
      .filter((f) => (WORDED[f.text!] ? WORDED[f.text!].some((t) => frenchErrorText(t) === undefined) : frenchErrorText(sample(f.text!)) === undefined))
      .map((f) => `${where(f)}: ${f.text}`);
    expect(missing).toEqual([]);
  });

  it('every noun notFound() names', () => {
    const missing = found
      .filter((f) => f.noun)
      .map((f) => `${f.noun!.text}${f.noun!.withId ? ' 42' : ''} not found`)
      .filter((text) => frenchErrorText(text) === undefined);
    expect(missing).toEqual([]);
    expect(frenchErrorText('Agency document 12 not found')).toBe("Document d'agence 12 introuvable");
    expect(frenchErrorText('User with email a.b@example.com not found')).toBe("Utilisateur avec l'e-mail a.b@example.com introuvable");
  });

  it('every message computed away from its call is listed, with the texts it can be', () => {
    const unlisted = found
      .filter((f) => f.expression !== undefined)
      .filter((f) => !DYNAMIC.some((d) => f.file === `../src/${d.file}` && f.expression === d.expression))
      .map((f) => `${where(f)}: ${f.expression}`);
    expect(unlisted).toEqual([]);
    const missing = DYNAMIC.flatMap((d) => d.texts).filter((text) => frenchErrorText(text) === undefined);
    expect(missing).toEqual([]);
  });

  it("zod's own messages, for every kind of issue the API's schemas raise", () => {
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
    expect(messages.filter((m) => frenchErrorText(m) === undefined)).toEqual([]);
    expect(frenchErrorText('Too small: expected string to have >=8 characters')).toBe('Trop petit : texte attendu de >=8 caractères');
    expect(frenchErrorText('Invalid input: expected string, received undefined')).toBe('Valeur invalide : texte attendu, aucune valeur reçue');
    expect(frenchErrorText('Invalid input: expected date, received undefined')).toBe('Valeur invalide : date attendue, aucune valeur reçue');
  });

  it('keeps the values it names, and falls back to English for an unknown text', () => {
    expect(frenchErrorText('The booking total €0.40 is below the payment minimum of €0.50')).toBe(
      'Le total de la réservation, €0.40, est inférieur au minimum de paiement de €0.50',
    );
    expect(frenchErrorText('Reservation 17 is CONFIRMED; only a PENDING_PAYMENT reservation can be paid')).toBe(
      'La réservation 17 est CONFIRMED ; seule une réservation PENDING_PAYMENT peut être payée',
    );
    expect(localizeErrorText('Something nobody wrote', 'fr')).toBe('Something nobody wrote');
    expect(localizeErrorText('Wrong code', 'en')).toBe('Wrong code');
  });

  it('the validation hook builds the texts the catalogue reads', () => {
    const schema = z.object({ email: z.email(), age: z.number() });
    const result = schema.safeParse({ email: 'x', age: 'y' });
    const error = toValidationError(result.error!.issues, { email: 'x', age: 'y' }, 'json');
    expect(frenchErrorText(error.message)).toBe('Validation échouée pour le corps : email, age');
    expect(error.fieldErrors!.map((f) => frenchErrorText(f.message))).toEqual(['Adresse e-mail invalide', 'Valeur invalide : nombre attendu, texte reçu']);
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
      suggestions: ['Correct the fields listed in fieldErrors and retry'],
      fieldErrors: [
        { field: 'email', message: 'Invalid email address', rejectedValue: 'not-an-email' },
        { field: 'firstName', message: 'Invalid input: expected string, received number', rejectedValue: 42 },
      ],
    });
    expect(fr).toMatchObject({
      status: 400,
      errorCode: 'VALIDATION_ERROR',
      message: 'Validation échouée pour le corps : email, firstName',
      suggestions: ['Corrigez les champs listés dans fieldErrors et réessayez'],
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
    expect(en).toMatchObject({ errorCode: 'ENDPOINT_NOT_FOUND', message: 'No endpoint GET /v1/api/nothing-here', suggestions: ['See the API reference at /v1/api/docs'] });
    expect(fr).toMatchObject({
      errorCode: 'ENDPOINT_NOT_FOUND',
      message: 'Aucun point de terminaison GET /v1/api/nothing-here',
      suggestions: ["Consultez la référence de l'API à /v1/api/docs"],
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
      message: 'Trop de tentatives ; réessayez plus tard',
      path: '/v1/api/auth/login',
      suggestions: ['Attendez 60 secondes avant de réessayer'],
    });
    expect(limited!.headers.get('Content-Language')).toBe('fr');
  });

  it('a successful answer has no Content-Language and is the same in both languages', async () => {
    const fr = await get('/v1/api/categories', { headers: FR });
    const en = await get('/v1/api/categories', { headers: EN });
    expect(fr.status).toBe(200);
    expect(fr.body).toEqual(en.body);
    expect(fr.headers.get('Content-Language')).toBeNull();
    expect(fr.headers.get('ETag')).toBe(en.headers.get('ETag'));
  });
});
