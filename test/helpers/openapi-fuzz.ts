// OpenAPI-driven request generation and response checking for the fuzz tests: reads the
// service's own document, so every route added later is fuzzed without touching this file.
import fc from 'fast-check';

type Schema = Record<string, any>;

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
  security?: unknown[];
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface FuzzOperation {
  method: string;
  path: string;
  op: Operation;
  pathParams: Parameter[];
  queryParams: Parameter[];
  bodySchema?: Schema;
  documented: Set<number>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, with its parameters and JSON body schema resolved. */
export function operationsOf(doc: OpenApiDoc): FuzzOperation[] {
  const ops: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = (op.parameters ?? []).map((p) => resolve(doc, p) as Parameter);
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        op,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        bodySchema: bodySchema ? (resolve(doc, bodySchema) as Schema) : undefined,
        documented: new Set(Object.keys(op.responses ?? {}).map(Number).filter(Number.isFinite)),
      });
    }
  }
  return ops;
}

export function resolve(doc: OpenApiDoc, node: any, depth = 0): any {
  if (depth > 20 || node === null || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/components/schemas/', '');
    return resolve(doc, doc.components?.schemas?.[name] ?? {}, depth + 1);
  }
  if (Array.isArray(node)) return node.map((n) => resolve(doc, n, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = resolve(doc, v, depth + 1);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Values

const HUGE = 'x'.repeat(20_000);
const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type);

/** A value the schema accepts (roughly: enough to get past validation into the handler). */
export function validValue(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant(null);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s: Schema) => validValue(s, depth + 1)));
  if (schema.allOf?.length) return validValue(Object.assign({}, ...schema.allOf), depth + 1);
  switch (typeOf(schema)) {
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? 1, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6) });
    case 'number':
      return fc.double({ min: Math.max(schema.minimum ?? 0.1, -1e6), max: Math.min(schema.maximum ?? 1000, 1e6), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      if (schema.format === 'email') return fc.constantFrom('fuzz@example.com', 'a.b@test.local');
      if (schema.format === 'date') return fc.constantFrom('2030-01-15', '2031-06-01');
      if (schema.format === 'date-time') return fc.constantFrom('2030-01-15T10:00:00.000Z');
      if (schema.format === 'uri' || schema.format === 'url') return fc.constantFrom('https://example.com/x');
      const min = schema.minLength ?? 1;
      const max = Math.max(min, Math.min(schema.maxLength ?? 30, 60));
      return fc.string({ minLength: min, maxLength: max });
    }
    case 'array':
      return fc.array(validValue(schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object':
    default: {
      const props: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      const entries = Object.entries(props);
      if (entries.length === 0) return fc.constant({});
      return fc.record(
        Object.fromEntries(entries.map(([k, s]) => [k, validValue(s, depth + 1)])),
        { requiredKeys: entries.map(([k]) => k).filter((k) => required.has(k)) },
      );
    }
  }
}

/** Values of the wrong type for any schema. */
const wrongType = (schema: Schema | undefined): fc.Arbitrary<unknown> => {
  const t = schema ? typeOf(schema) : undefined;
  const all: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.constantFrom('abc', '', '1e309', '<script>', '\u0000')],
    ['number', fc.constantFrom(-1, 0, 1.5, 1e308, -2147483649, 2 ** 53 + 1)],
    ['boolean', fc.boolean()],
    ['array', fc.constantFrom([], [1, 'a'], [null])],
    ['object', fc.constantFrom({}, { a: 1 })],
    ['null', fc.constant(null)],
  ];
  const keep = all.filter(([k]) => k !== t && !(k === 'number' && t === 'integer')).map(([, a]) => a);
  return fc.oneof(...keep);
};

/** Deeply nested JSON: objects and arrays up to 100,000 levels down (still under the 1 MiB body limit). */
export const deepNesting = fc.oneof(fc.integer({ min: 20, max: 2000 }), fc.constantFrom(10_000, 100_000)).chain((levels) =>
  fc.constantFrom('{"a":', '[').map((open) => {
    const close = open === '[' ? ']' : '}';
    return open.repeat(levels) + '1' + close.repeat(levels);
  }),
);

export type BodyCase = { kind: string; raw: string; contentType: string };

/** Bodies built from the operation's schema, each broken in one way (or not at all). */
export function bodyCases(schema: Schema | undefined): fc.Arbitrary<BodyCase | undefined> {
  const json = (kind: string) => (value: unknown): BodyCase => ({ kind, raw: JSON.stringify(value), contentType: 'application/json' });
  const base = validValue(schema) as fc.Arbitrary<Record<string, unknown>>;
  const props = Object.keys(schema?.properties ?? {});
  const required: string[] = schema?.required ?? [];
  const cases: fc.Arbitrary<BodyCase | undefined>[] = [
    fc.constant(undefined),
    base.map(json('valid-looking')),
    wrongType(schema).map(json('wrong top-level type')),
    base.map((b) => ({ ...(b as object), isAdmin: true, roles: ['ROLE_SUPERADMIN'], balance: 1e9, status: 'DELIVERED', __proto__x: 1 })).map(json('extra fields')),
    deepNesting.map((raw) => ({ kind: 'deep nesting', raw, contentType: 'application/json' })),
    fc.constantFrom('{', '{"a":', 'null', '', 'not json', '{"a":1}{"b":2}', '\u0000').map((raw) => ({ kind: 'malformed', raw, contentType: 'application/json' })),
    base.map((b) => ({ kind: 'wrong content type', raw: JSON.stringify(b), contentType: 'text/plain' })),
  ];
  if (props.length) {
    cases.push(
      fc.tuple(base, fc.constantFrom(...props), wrongType(undefined)).map(([b, k, v]) => json(`wrong type for ${k}`)({ ...(b as object), [k]: v })),
      fc.tuple(base, fc.constantFrom(...props)).map(([b, k]) => json(`huge ${k}`)({ ...(b as object), [k]: HUGE })),
      fc.tuple(base, fc.constantFrom(...props), deepNesting).map(([b, k, nested]) => ({
        kind: `deep nesting in ${k}`,
        raw: JSON.stringify({ ...(b as object), [k]: '__NESTED__' }).replace('"__NESTED__"', nested),
        contentType: 'application/json',
      })),
    );
  }
  if (required.length) {
    cases.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([b, k]) => {
        const copy = { ...(b as object) } as Record<string, unknown>;
        delete copy[k];
        return json(`missing ${k}`)(copy);
      }),
    );
  }
  return fc.oneof(...cases);
}

/** Values for a path parameter: unknown ids, wrong types, out of range, huge, a known id. */
export const pathValue = (knownIds: number[]) =>
  fc.oneof(
    fc.constantFrom(...knownIds.map(String)),
    fc.constantFrom('2147483000', '999999', '0', '-1', '1.5', 'abc', '1e3', '2147483648', '99999999999999999999', '%20', 'null'),
    fc.string({ minLength: 1, maxLength: 20 }),
    fc.constant('9'.repeat(5000)),
  );

/** Values for a query parameter, with pagination and sort specials. */
export function queryValue(param: Parameter): fc.Arbitrary<string | undefined> {
  const specials: Record<string, string[]> = {
    page: ['-1', '0', '1', 'abc', '1.5', '2147483648', '99999999999999999999', ''],
    size: ['0', '-5', '1', '100', '101', '100000', 'abc', '1e2', ''],
    sort: ['createdAt,asc', 'createdAt,desc', 'createdAt,sideways', 'unknownField,asc', ',', 'createdAt,asc,extra', 'password,asc', 'id;DROP TABLE users', ''],
  };
  const schemaValue = validValue(param.schema).map((v) => (v === null || v === undefined ? undefined : String(v)));
  return fc.oneof(
    fc.constant(undefined),
    schemaValue,
    fc.constantFrom(...(specials[param.name] ?? ['abc', '-1', '', 'true', '2030-13-45'])),
    fc.constant(HUGE.slice(0, 5000)),
  );
}

// ---------------------------------------------------------------------------------------------
// Response checking

/** CONTRACT section 2: the errorCodes each status may carry. */
export const CODES_BY_STATUS: Record<number, string[]> = {
  400: ['VALIDATION_ERROR', 'INVALID_ARGUMENT', 'MISSING_PARAMETER', 'TYPE_MISMATCH'],
  401: ['AUTHENTICATION_ERROR', 'UNAUTHORIZED'],
  402: ['PAYMENT_ERROR'],
  403: ['ACCESS_DENIED'],
  404: ['RESOURCE_NOT_FOUND', 'ENDPOINT_NOT_FOUND'],
  405: ['ENDPOINT_NOT_FOUND'],
  409: ['ALREADY_EXISTS', 'INVALID_STATE'],
  413: ['INVALID_ARGUMENT'],
  415: ['INVALID_ARGUMENT'],
  422: ['BUSINESS_RULE_VIOLATION', 'INSUFFICIENT_FUNDS', 'STRIPE_CONNECT_NOT_CONFIGURED'],
  429: ['BUSINESS_RULE_VIOLATION'],
  500: ['INTERNAL_ERROR'],
  502: ['PAYMENT_PROCESSING_ERROR'],
};

/** Statuses any route may give whatever its documentation says. */
export const ALWAYS_ALLOWED = [401, 403, 404, 405, 413, 415];

/** Problems with one response, as readable strings (empty when it is right). */
export function responseProblems(
  res: { status: number; contentType: string | null; body: unknown },
  requestPath: string,
  documented: Set<number>,
  specCodes: string[],
): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`server error ${res.status}`);
  if (!documented.has(res.status) && !ALWAYS_ALLOWED.includes(res.status)) problems.push(`undocumented status ${res.status}`);
  if (res.status < 400) return problems;
  // Pages at the root (recipient page, sandbox pages) are for browsers: their errors are HTML pages.
  if (!requestPath.startsWith('/v1/api/') && res.contentType?.includes('text/html')) return problems;
  if (!res.contentType?.includes('application/json')) return [...problems, `error without a JSON body (${res.contentType})`];
  const body = res.body as Record<string, unknown>;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, 'error body is not an object'];
  const allowedKeys = new Set(['status', 'errorCode', 'message', 'timestamp', 'path', 'suggestions', 'fieldErrors', 'reason']);
  const extra = Object.keys(body).filter((k) => !allowedKeys.has(k));
  if (extra.length) problems.push(`unexpected keys ${extra.join(', ')}`);
  if (body.status !== res.status) problems.push(`body status ${String(body.status)} != ${res.status}`);
  if (typeof body.errorCode !== 'string' || !specCodes.includes(body.errorCode)) problems.push(`errorCode ${String(body.errorCode)} not in the spec`);
  else if (!(CODES_BY_STATUS[res.status] ?? []).includes(body.errorCode)) problems.push(`errorCode ${body.errorCode} with status ${res.status}`);
  if (typeof body.message !== 'string' || body.message.length === 0) problems.push('message missing');
  if (typeof body.timestamp !== 'string' || Number.isNaN(Date.parse(body.timestamp))) problems.push('timestamp invalid');
  if (body.path !== requestPath) problems.push(`path ${String(body.path)} != ${requestPath}`);
  if (!Array.isArray(body.suggestions) || body.suggestions.some((s) => typeof s !== 'string')) problems.push('suggestions not an array of strings');
  if (res.status === 400) {
    const fe = body.fieldErrors;
    if (!Array.isArray(fe)) problems.push('400 without fieldErrors');
    else
      for (const e of fe as Record<string, unknown>[]) {
        if (typeof e?.field !== 'string' || typeof e?.message !== 'string' || !('rejectedValue' in e)) {
          problems.push(`bad field error ${JSON.stringify(e).slice(0, 200)}`);
          break;
        }
      }
  } else if ('fieldErrors' in body) problems.push(`fieldErrors on a ${res.status}`);
  return problems;
}
