// Checks requests and responses against the service's own OpenAPI document, as a validating proxy
// (Prism) or a generated client would: the operation is found by method and path, the body is
// validated with the JSON Schema of its status and content type (@cfworker/json-schema: ajv
// compiles with `new Function`, which workerd forbids). A status the operation does not declare,
// a body where none is documented or a field of the wrong type or null where the document says
// it never is are mismatches. Objects of the document are also closed here (no property beyond
// the declared ones), so a field the server sends but the document hides is a mismatch too.
import { Validator, type Schema } from '@cfworker/json-schema';

type Json = Record<string, any>;

export interface Mismatch {
  operation: string;
  status?: number;
  where: 'request' | 'response';
  errors: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * Every object schema of the document closed to undeclared properties (a copy). An `allOf` of
 * objects (a schema extending a registered one) is merged into one object first: closed parts
 * would each refuse the other's properties.
 */
function closer(schemas: Json) {
  const merged = (parts: Json[]): Json | undefined => {
    const resolved = parts.map((p) => (typeof p.$ref === 'string' ? schemas[p.$ref.split('/').pop()!] : p));
    if (!resolved.every((p) => p && (p.type === 'object' || p.allOf))) return undefined;
    const flat = resolved.map((p) => (p.allOf ? merged(p.allOf) : p));
    if (flat.some((p) => !p)) return undefined;
    return {
      type: 'object',
      properties: Object.assign({}, ...flat.map((p) => p!.properties ?? {})),
      required: flat.flatMap((p) => p!.required ?? []),
    };
  };
  const closed = (node: any): any => {
    if (Array.isArray(node)) return node.map(closed);
    if (!node || typeof node !== 'object') return node;
    const source = node.allOf ? { ...node, ...(merged(node.allOf) ?? {}) } : node;
    if (source !== node && source.properties) delete source.allOf;
    const out: Json = {};
    for (const [k, v] of Object.entries(source)) {
      out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, closed(s)])) : closed(v);
    }
    const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
    if (isObject && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return closed;
}

export class DocumentValidator {
  private readonly routes: { method: string; pattern: RegExp; path: string; op: Json }[] = [];
  private readonly validators = new Map<string, Validator>();
  private readonly components: Json;
  private readonly closed: (node: any) => any;
  readonly mismatches: Mismatch[] = [];
  /** Operations seen, "GET /v1/api/..." with their statuses. */
  readonly seen = new Map<string, Set<number>>();

  constructor(private readonly doc: Json) {
    this.closed = closer(doc.components?.schemas ?? {});
    this.components = this.closed(doc.components ?? {});
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of METHODS) {
        if (!item[method]) continue;
        const source = path.split(/(\{\w+\})/).map((p) => (/^\{\w+\}$/.test(p) ? '[^/]+' : p.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('');
        this.routes.push({ method: method.toUpperCase(), pattern: new RegExp(`^${source}$`), path, op: item[method] });
      }
    }
    // Static paths before templated ones: /annonces/mine is not /annonces/{id}.
    this.routes.sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  }

  private find(method: string, url: string) {
    const path = new URL(url, 'http://api.test').pathname;
    return this.routes.find((r) => r.method === method && r.pattern.test(path));
  }

  private validator(key: string, schema: Json): Validator {
    let v = this.validators.get(key);
    if (!v) {
      v = new Validator({ ...this.closed(schema), components: this.components } as Schema, '2020-12', false);
      this.validators.set(key, v);
    }
    return v;
  }

  private check(operation: string, where: Mismatch['where'], status: number | undefined, key: string, schema: Json, value: unknown) {
    // What JSON.stringify sends: no undefined properties.
    const result = this.validator(key, schema).validate(JSON.parse(JSON.stringify(value ?? null)));
    if (result.valid) return;
    // The innermost errors say what is wrong; the outer ones only repeat "property X failed".
    const errors = result.errors.filter((e) => !/^Property .* does not match schema\.|^Items did not match schema\.|^A subschema had errors\./.test(e.error));
    this.mismatches.push({ operation, status, where, errors: (errors.length ? errors : result.errors).map((e) => `${e.instanceLocation}: ${e.error}`) });
  }

  /** Checks a JSON request body against the operation's request body schema. */
  request(method: string, url: string, body: unknown) {
    const route = this.find(method, url);
    const operation = `${method} ${route?.path ?? url}`;
    if (!route) return void this.mismatches.push({ operation, where: 'request', errors: ['no operation of the document matches'] });
    if (body === undefined) {
      if (route.op.requestBody?.required) this.mismatches.push({ operation, where: 'request', errors: ['the document requires a body'] });
      return;
    }
    const schema = route.op.requestBody?.content?.['application/json']?.schema;
    if (!schema) return void this.mismatches.push({ operation, where: 'request', errors: ['the document shows no JSON body'] });
    this.check(operation, 'request', undefined, `${operation} request`, schema, body);
  }

  /** Checks a response: its status is declared, and its JSON body matches that status's schema. */
  response(method: string, url: string, status: number, contentType: string | null, body: unknown) {
    const route = this.find(method, url);
    const operation = `${method} ${route?.path ?? url}`;
    if (!route) return void this.mismatches.push({ operation, status, where: 'response', errors: ['no operation of the document matches'] });
    if (!this.seen.has(operation)) this.seen.set(operation, new Set());
    this.seen.get(operation)!.add(status);
    const declared = route.op.responses?.[String(status)] ?? route.op.responses?.default;
    if (!declared) return void this.mismatches.push({ operation, status, where: 'response', errors: [`status ${status} is not documented`] });
    const response = declared.$ref ? this.doc.components.responses[declared.$ref.split('/').pop()] : declared;
    const media = (contentType ?? '').split(';')[0].trim();
    if (!media) return;
    const content = response.content?.[media];
    if (!content) return void this.mismatches.push({ operation, status, where: 'response', errors: [`no ${media} body is documented`] });
    if (media === 'application/json' && content.schema) this.check(operation, 'response', status, `${operation} ${status}`, content.schema, body);
  }
}
