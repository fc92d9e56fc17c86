// Two corrections applied to the whole generated document, in one place because the rule is the
// same for every field (CONTRACT section 23, interface-spec "Types"):
// - formats: the specification types every identifier, page number and size `int32`, the totals
//   over all pages `int64`, and every non-integer number `double`; a schema that states no format
//   gets the one its type and name call for (a route may still state its own, which wins).
// - nullable references: zod's `.nullable()` on a registered schema comes out as
//   `allOf: [{$ref}, {type: [object, null]}]`, which every validator and generator reads as never
//   null (allOf requires the referenced object too). It becomes `anyOf: [{$ref}, {type: null}]`.

type Node = Record<string, unknown>;

/** Integers that count rows over all pages: 64 bits, as the specification's `total`. */
const INT64_NAMES = new Set(['total', 'totalElements']);

const typesOf = (node: Node): unknown[] => (Array.isArray(node.type) ? node.type : [node.type]);

function withFormat(node: Node, name: string | undefined) {
  if (node.format !== undefined) return;
  const types = typesOf(node);
  if (types.includes('integer')) node.format = name && INT64_NAMES.has(name) ? 'int64' : 'int32';
  else if (types.includes('number')) node.format = 'double';
}

/** `allOf: [{$ref}, {type: [object, null], ...}]` -> `anyOf: [{$ref}, {type: null}]` keeping the rest. */
function nullableReference(node: Node) {
  const parts = node.allOf;
  if (!Array.isArray(parts) || parts.length !== 2) return;
  const [ref, nullable] = parts as Node[];
  if (typeof ref?.$ref !== 'string' || !Array.isArray(nullable?.type) || !nullable.type.includes('null')) return;
  if (Object.keys(nullable).some((k) => k !== 'type' && k !== 'description')) return;
  delete node.allOf;
  node.anyOf = [ref, { type: 'null' }];
  if (nullable.description !== undefined && node.description === undefined) node.description = nullable.description;
}

/** Walks every schema of the document (components, parameters, bodies, responses, headers). */
function walk(node: unknown, name: string | undefined) {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, name);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Node;
  // An example or default is a value, not a schema.
  nullableReference(obj);
  if ('type' in obj) withFormat(obj, name);
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'example' || key === 'examples' || key === 'default' || key === 'enum' || key === 'const') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [property, schema] of Object.entries(value)) walk(schema, property);
    } else if (key === 'parameters' && Array.isArray(value)) {
      for (const parameter of value as Node[]) walk(parameter, typeof parameter.name === 'string' ? parameter.name : undefined);
    } else if (key === 'items' || key === 'schema' || key === 'anyOf' || key === 'oneOf' || key === 'allOf') {
      walk(value, name);
    } else {
      walk(value, undefined);
    }
  }
}

/** Applies both corrections in place. */
export function truthfulSchemas<T>(doc: T): T {
  walk(doc, undefined);
  return doc;
}
