// The OpenAPI document is the contract client teams generate code from: any change to it shows
// up here as a diff of test/__snapshots__/openapi.json (local runs: sandbox and development routes
// included) and openapi.production.json (what a deployed API serves, what clients are generated
// from), to be reviewed and accepted on purpose (`npx vitest run test/openapi-document.test.ts -u`).
// `npm run contract` lints both snapshots and compiles a client generated from the production one.
import { createExecutionContext } from 'cloudflare:test';
import { expect, it } from 'vitest';
import worker from '../src/index';
import { get } from './helpers/http';
import { PRODUCTION_ENV } from './helpers/production';

it('the OpenAPI document is the reviewed one', async () => {
  const res = await get('/v1/api/openapi.json');
  expect(res.status).toBe(200);
  await expect(JSON.stringify(res.body, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/openapi.json');
});

it('the production OpenAPI document is the reviewed one', async () => {
  const res = await worker.fetch(new Request('https://api.test/v1/api/openapi.json'), PRODUCTION_ENV, createExecutionContext());
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths).filter((p) => p.startsWith('/sandbox') || p.includes('/dev/'))).toEqual([]);
  await expect(JSON.stringify(doc, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/openapi.production.json');
});

it('every list answers the generic page: no success response is a bare JSON array', async () => {
  const doc = (await get('/v1/api/openapi.json')).body;
  const resolve = (schema: { $ref?: string; type?: string }) =>
    schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
  const bare: string[] = [];
  for (const [path, operations] of Object.entries<Record<string, { responses?: Record<string, { content?: Record<string, { schema: object }> }> }>>(doc.paths)) {
    // Files whose format a platform fixes (Android's assetlinks.json is a JSON array), not API lists.
    if (path.startsWith('/.well-known/')) continue;
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        const json = response.content?.['application/json'];
        if (json && resolve(json.schema).type === 'array') bare.push(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  expect(bare).toEqual([]);
  // The one list with its own shape, by the specification: the carrier listing.
  const asCarrier = doc.paths['/v1/api/bookings/as-carrier'].get.responses['200'].content['application/json'].schema;
  expect(Object.keys(resolve(asCarrier).properties).sort()).toEqual(['data', 'limit', 'page', 'total', 'totalPages']);
});

// CONTRACT section 28: types that help. Walks every schema of the document; a status-like field
// that is a bare string lists its values only in prose, and generated clients get `string`.
it('every status-like field is an enum; dates carry a format; binary answers are binary; the recipient rule is in the schema', async () => {
  const doc = (await get('/v1/api/openapi.json')).body;
  const schemas: Record<string, any> = doc.components.schemas;
  const deref = (s: any) => (s?.$ref ? schemas[s.$ref.split('/').pop()] : s);
  const isString = (s: any) => s && (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')));
  const bareStatus: string[] = [];
  const undated: string[] = [];
  const walk = (where: string, node: any) => {
    for (const [name, prop] of Object.entries<any>(node?.properties ?? {})) {
      const s = deref(prop);
      const at = `${where}.${name}`;
      // Status-like: *status, type, kind (free texts such as `reason` or audit `action` are not lists).
      if (/(^status|Status|^type|^kind)$/.test(name) && isString(s) && !s.enum && !s.format && name !== 'contentType') bareStatus.push(at);
      if (/(At|Date)$/.test(name) && isString(s) && !s.format) undated.push(at);
      walk(at, s);
      if (s?.items) walk(`${at}[]`, deref(s.items));
    }
  };
  for (const [name, schema] of Object.entries(schemas)) walk(name, schema);
  expect(bareStatus).toEqual([]);
  expect(schemas.Reservation.properties.status).toEqual({ $ref: '#/components/schemas/ReservationStatus' });
  expect(schemas.Announcement.properties.departureDate).toEqual({ type: 'string', format: 'date' });
  expect(schemas.Announcement.properties.arrivalDate).toEqual({ type: 'string', format: 'date' });
  expect(undated).toEqual([]);
  // Every PDF answer is binary.
  const pdfs = Object.values<any>(doc.paths).flatMap((item) =>
    Object.values<any>(item).flatMap((op) => Object.values<any>(op.responses ?? {}).map((r) => r.content?.['application/pdf']?.schema).filter(Boolean)),
  );
  expect(pdfs.length).toBeGreaterThan(2);
  for (const schema of pdfs) expect(schema).toEqual({ type: 'string', format: 'binary' });
  // The recipient: a phone or an e-mail (a string, not null).
  expect(schemas.CreateBooking.properties.recipient.anyOf).toEqual([
    { required: ['phone'], properties: { phone: { type: 'string' } } },
    { required: ['email'], properties: { email: { type: 'string' } } },
  ]);
});
