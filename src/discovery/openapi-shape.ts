import { STATUS_CODES } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { ErrorResponse, Money } from '../http/schemas.ts';

/**
 * The generated OpenAPI document, reshaped for readers with a context window: each named schema once under
 * `components` and `$ref`s to it, the error answers and repeated parameters likewise, unions of literals as one enum,
 * and an example request body on every operation that creates or updates.
 */

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keyword `markComponents` leaves on a schema that is to become a component (removed again by `shapeOpenApi`). */
const MARK = 'x-lyceum-component';

const canonical = (schema: unknown) => JSON.stringify(schema);
const ERROR_SHAPE = canonical({ ...ErrorResponse, $id: undefined });
/** Shared schemas of src/http/schemas.ts, by their shape (scalars stay inline: a reference would be longer). */
const SHARED = new Map(Object.entries({ Money }).map(([name, schema]) => [canonical(schema), name]));

/** The component name a route schema stands for: its TypeBox `$id`, or one of the shared schemas. */
function componentName(node: Node): string | undefined {
  if (typeof node.$id === 'string') return node.$id === 'ErrorResponse' ? 'Error' : node.$id;
  if (node.type === 'string' || isNode(node.properties)) {
    const shape = canonical(node);
    if (SHARED.has(shape)) return SHARED.get(shape);
    if (isNode(node.properties) && 'error_description' in node.properties) {
      if (canonical({ ...node, $id: undefined }) === ERROR_SHAPE) return 'Error';
    }
  }
  return undefined;
}

/**
 * A copy of a route schema with each named schema marked for `shapeOpenApi` (and its `$id` gone, so that
 * @fastify/swagger inlines it like any other schema rather than numbering it).
 */
export function markComponents(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(markComponents);
  if (!isNode(schema)) return schema;
  const copy: Node = {};
  for (const [key, value] of Object.entries(schema)) if (key !== '$id') copy[key] = markComponents(value);
  const name = componentName(schema);
  if (name) copy[MARK] = name;
  return copy;
}

/** `anyOf` of single literals as one `enum`; `anyOf [X, null]` as X, nullable. */
function simplify(node: Node): Node {
  const options = node.anyOf;
  if (!Array.isArray(options) || !options.every(isNode)) return node;
  const { anyOf: _, ...rest } = node;
  const literals = options.filter((o) => Array.isArray(o.enum) && o.enum.length === 1 && o.enum[0] !== null);
  const nulls = options.filter((o) => Array.isArray(o.enum) && o.enum.length === 1 && o.enum[0] === null);
  const types = new Set(literals.map((o) => o.type));
  if (literals.length + nulls.length === options.length && literals.length > 0 && types.size === 1)
    return {
      type: literals[0]?.type,
      enum: literals.map((o) => (o.enum as unknown[])[0]),
      ...(nulls.length ? { nullable: true } : {}),
      ...rest,
    };
  const others = options.filter((o) => !nulls.includes(o));
  const [only] = others;
  if (nulls.length === 1 && others.length === 1 && only && !('$ref' in only) && !(MARK in only))
    return { ...only, nullable: true, ...rest };
  return node;
}

type Components = { schemas: Node; responses: Node; parameters: Node };

const LIST_PAGE: Node = {
  type: 'object',
  description: 'One page of a list, newest first unless sorted otherwise',
  required: ['data', 'has_more', 'next_cursor'],
  properties: {
    data: { type: 'array', items: {} },
    has_more: { type: 'boolean', description: 'Whether another page follows' },
    next_cursor: {
      type: 'string',
      nullable: true,
      description: 'Pass as starting_after to get the next page; null on the last page',
    },
    total: { type: 'integer', description: 'With q= (courses): how many match' },
  },
};

/** A list page (`data`, `has_more`, `next_cursor`, `total`) as the shared ListPage with its own items. */
function paged(node: Node, components: Components): Node {
  const properties = isNode(node.properties) ? node.properties : undefined;
  if (
    node.type !== 'object' ||
    !properties ||
    Object.keys(properties).sort().join() !== 'data,has_more,next_cursor,total'
  )
    return node;
  components.schemas.ListPage ??= LIST_PAGE;
  return {
    allOf: [{ $ref: '#/components/schemas/ListPage' }, { properties: { data: properties.data } }],
  };
}

/** Replaces marked schemas by `$ref`s, depth first, filling `components.schemas`. */
function extractSchemas(value: unknown, components: Components): unknown {
  if (Array.isArray(value)) return value.map((v) => extractSchemas(v, components));
  if (!isNode(value)) return value;
  const node: Node = {};
  for (const [key, child] of Object.entries(value)) node[key] = extractSchemas(child, components);
  const shaped = paged(simplify(node), components);
  const name = shaped[MARK];
  if (typeof name !== 'string') return shaped;
  const { [MARK]: _, ...schema } = shaped;
  // A named schema made nullable or described otherwise where it is used keeps that beside the reference.
  const { nullable, ...own } = schema;
  const { description, ...core } = own;
  const known = components.schemas[name];
  if (known === undefined) components.schemas[name] = own;
  else if (
    !isNode(known) ||
    !isDeepStrictEqual({ ...known, description: undefined }, { ...core, description: undefined })
  )
    return schema;
  const ref = { $ref: `#/components/schemas/${name}` };
  const stored = (components.schemas[name] as Node).description;
  const said = description !== undefined && description !== stored ? { description } : {};
  if (nullable === true) return { allOf: [ref], nullable: true, ...said };
  return 'description' in said ? { allOf: [ref], ...said } : ref;
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');

/** Parameters used alike by more than one operation become `components.parameters`. */
function extractParameters(operations: Node[], components: Components) {
  // `required: false` is what an absent `required` means.
  for (const operation of operations)
    for (const parameter of (operation.parameters as Node[] | undefined) ?? [])
      if (parameter.required === false) delete parameter.required;
  const uses = new Map<string, { parameter: Node; count: number }>();
  for (const operation of operations)
    for (const parameter of (operation.parameters as Node[] | undefined) ?? []) {
      const key = canonical(parameter);
      const seen = uses.get(key) ?? { parameter, count: 0 };
      seen.count++;
      uses.set(key, seen);
    }
  const names = new Map<string, string>();
  for (const [key, { parameter, count }] of [...uses].sort((a, b) => b[1].count - a[1].count)) {
    if (count < 2) continue;
    // Path ids differ by their prefix (`id` of a course, of a lesson…): the prefix tells the names apart.
    const prefix = /^\^([a-z]+)_/.exec(String(isNode(parameter.schema) ? parameter.schema.pattern : ''))?.[1];
    const base = pascal(String(parameter.name));
    const name = [base, prefix ? `${base}_${prefix}` : undefined].find((n) => n && !(n in components.parameters));
    if (!name) continue;
    components.parameters[name] = parameter;
    names.set(key, name);
  }
  for (const operation of operations) {
    if (!Array.isArray(operation.parameters)) continue;
    operation.parameters = operation.parameters.map((p: Node) => {
      const name = names.get(canonical(p));
      return name ? { $ref: `#/components/parameters/${name}` } : p;
    });
  }
}

/**
 * Answers that are one named schema become shared responses: the error object once per status (BadRequest,
 * NotFound…), and an area's object by its name (`Course`, `CourseCreated`). The generator's "Default Response"
 * becomes the status text.
 */
function extractResponses(operations: Node[], components: Components) {
  for (const operation of operations) {
    const responses = operation.responses;
    if (!isNode(responses)) continue;
    for (const [status, response] of Object.entries(responses)) {
      if (!isNode(response)) continue;
      const text = STATUS_CODES[Number(status)] ?? 'Answer';
      if (response.description === 'Default Response') response.description = text;
      const content = isNode(response.content) ? response.content : undefined;
      const schema = content && isNode(content['application/json']) ? content['application/json'].schema : undefined;
      const ref = isNode(schema) && Object.keys(schema).length === 1 ? schema.$ref : undefined;
      if (Object.keys(content ?? {}).length !== 1 || typeof ref !== 'string') continue;
      const schemaName = ref.replace('#/components/schemas/', '');
      const error = schemaName === 'Error';
      const name = error ? pascal(text) : Number(status) === 200 ? schemaName : `${schemaName}${pascal(text)}`;
      const shared = error
        ? { description: `${text}: the error object`, content: { 'application/json': { schema: { $ref: ref } } } }
        : response;
      const known = components.responses[name];
      if (known === undefined) components.responses[name] = shared;
      else if (!isDeepStrictEqual(known, shared)) continue;
      responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
}

/** "A crs_… id" beside the pattern ^crs_…$ says nothing the pattern does not; nor "RFC 3339" beside date-time. */
function dropEchoes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEchoes);
  if (!isNode(value)) return value;
  const node: Node = {};
  for (const [key, child] of Object.entries(value)) node[key] = dropEchoes(child);
  const prefix = /^\^([a-z]+)_\[0-9a-z\]\{26\}\$$/.exec(String(node.pattern ?? ''))?.[1];
  if (prefix && node.description === `A ${prefix}_… id`) delete node.description;
  // Said once in info.description instead.
  if (node.format === 'date-time' && node.description === 'RFC 3339 UTC timestamp') delete node.description;
  return node;
}

/** Below this size a repeated schema stays inline: a reference and its component would not be much shorter. */
const REPEATED_MIN = 240;

/** Keys that say where a schema sits rather than what it describes: its name comes from further up. */
const STRUCTURAL = new Set([
  'properties',
  'anyOf',
  'allOf',
  'schema',
  'content',
  'application/json',
  'requestBody',
  'responses',
]);

const schemaLike = (node: Node) => ('type' in node || 'anyOf' in node) && !('in' in node) && !('content' in node);

/**
 * Any other schema written out more than once (an update body's nested object that the area's object repeats, say)
 * becomes a component named after the property it describes, outermost first.
 */
function extractRepeated(document: Node, components: Components) {
  const seen = new Map<string, { count: number; name: string }>();
  // `map`: a `properties` object, whose keys are names (a property may be called "type"), not a schema.
  const count = (value: unknown, key: string, map = false) => {
    if (Array.isArray(value)) {
      for (const v of value) count(v, key);
      return;
    }
    if (!isNode(value)) return;
    const shape = canonical(value);
    if (!map && shape.length >= REPEATED_MIN && schemaLike(value)) {
      const entry = seen.get(shape) ?? { count: 0, name: key };
      entry.count++;
      seen.set(shape, entry);
    }
    const here = typeof value.operationId === 'string' ? value.operationId : key;
    for (const [k, child] of Object.entries(value))
      count(child, k === 'items' ? `${here}Item` : STRUCTURAL.has(k) || /^\d+$/.test(k) ? here : k, k === 'properties');
  };
  // The named components too: an update body's nested object that the area's object (a component) repeats.
  for (const [name, schema] of Object.entries(components.schemas)) count(schema, name);
  count(document, 'Schema');
  const names = new Map<string, string>();
  for (const [shape, { count: uses, name }] of seen) {
    if (uses < 2) continue;
    const base = pascal(name) || 'Schema';
    let unique = base;
    for (let n = 2; unique in components.schemas; n++) unique = `${base}${n}`;
    names.set(shape, unique);
    components.schemas[unique] = JSON.parse(shape);
  }
  const replace = (value: unknown, keep?: string, map = false): unknown => {
    if (Array.isArray(value)) return value.map((v) => replace(v));
    if (!isNode(value)) return value;
    const name = map ? undefined : names.get(canonical(value));
    if (name && name !== keep) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v, undefined, k === 'properties')]));
  };
  for (const [name, schema] of Object.entries(components.schemas)) components.schemas[name] = replace(schema, name);
  document.paths = replace(document.paths);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document, with its method and path. */
export function operationsOf(document: { paths?: unknown }) {
  const found: { method: string; path: string; operation: Node }[] = [];
  for (const [path, item] of Object.entries(isNode(document.paths) ? document.paths : {}))
    for (const method of METHODS) {
      const operation = isNode(item) ? item[method] : undefined;
      if (isNode(operation)) found.push({ method, path, operation });
    }
  return found;
}

/** Reshapes the document @fastify/swagger generated from routes whose schemas went through `markComponents`. */
export function shapeOpenApi<T extends { paths?: unknown; components?: unknown }>(document: T): T {
  const existing = isNode(document.components) ? document.components : {};
  const components: Components = { schemas: {}, responses: {}, parameters: {} };
  const paths = extractSchemas(dropEchoes(document.paths), components) as Node;
  const shaped: Node = { ...document, paths };
  extractRepeated(shaped, components);
  const operations = operationsOf(shaped).map((o) => o.operation);
  extractResponses(operations, components);
  extractParameters(operations, components);
  for (const { method, operation } of operationsOf(shaped)) addExample(method, operation, components);
  const sorted = (node: Node) => Object.fromEntries(Object.entries(node).sort(([a], [b]) => a.localeCompare(b)));
  return {
    ...(shaped as T),
    components: {
      ...existing,
      schemas: sorted(components.schemas),
      responses: sorted(components.responses),
      parameters: sorted(components.parameters),
    },
  };
}

/** Writing methods get an example body, made from their schema. */
function addExample(method: string, operation: Node, components: Components) {
  if (!['post', 'put', 'patch'].includes(method)) return;
  const body = operation.requestBody;
  const media = isNode(body) && isNode(body.content) ? body.content['application/json'] : undefined;
  if (!isNode(media) || media.example !== undefined || !isNode(media.schema)) return;
  media.example = exampleOf(media.schema, components.schemas, '');
}

const SAMPLE_ID_TAIL = '01jd8x3k5m7q9s1t3v5w7y9z2b';

/** A value the schema accepts, as a person would write it: required properties, the first option of a choice. */
export function exampleOf(schema: Node, schemas: Node, name: string, depth = 0): unknown {
  if (depth > 8) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = schemas[schema.$ref.replace('#/components/schemas/', '')];
    return isNode(target) ? exampleOf(target, schemas, name, depth + 1) : undefined;
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    if (key === 'allOf')
      return Object.assign({}, ...options.map((o) => exampleOf(o as Node, schemas, name, depth + 1) as object));
    const first = options.find((o) => isNode(o) && !(Array.isArray(o.enum) && o.enum[0] === null));
    return isNode(first) ? exampleOf(first, schemas, name, depth + 1) : null;
  }
  switch (schema.type) {
    case 'object': {
      const properties = isNode(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const wanted = Math.max(Number(schema.minProperties ?? 0), required.length ? 0 : 1);
      const keys = [
        ...required,
        ...Object.keys(properties)
          .filter((k) => !required.includes(k))
          .slice(0, wanted),
      ];
      return Object.fromEntries(
        keys
          .filter((k) => isNode(properties[k]))
          .map((k) => [k, exampleOf(properties[k] as Node, schemas, k, depth + 1)]),
      );
    }
    case 'array': {
      const items = isNode(schema.items) ? exampleOf(schema.items, schemas, name, depth + 1) : 'item';
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => items);
    }
    case 'integer':
    case 'number': {
      const low = Number(schema.minimum ?? 0);
      const high = Number(schema.maximum ?? Number.MAX_SAFE_INTEGER);
      const wish = /amount/.test(name) ? 4900 : /percent/.test(name) ? 20 : Math.max(low, 1);
      return Math.min(Math.max(wish, low), high);
    }
    case 'boolean':
      return true;
    default:
      return stringExample(schema, name);
  }
}

function stringExample(schema: Node, name: string): string {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  const id = /^\^([a-z]+)_\[0-9a-z\]\{26\}\$$/.exec(pattern);
  if (id) return `${id[1]}_${SAMPLE_ID_TAIL}`;
  if (pattern === '^[A-Z]{3}$') return 'EUR';
  if (pattern.startsWith('^[a-z0-9]+(?:-')) return 'drawing-for-beginners';
  if (schema.format === 'date-time') return '2026-03-02T09:00:00Z';
  if (schema.format === 'date') return '2026-03-02';
  if (schema.format === 'email' || /email/.test(name)) return 'ada@example.com';
  if (schema.format === 'uri' || /url$/.test(name)) return 'https://example.com/';
  const words: Record<string, string> = {
    title: 'Drawing for beginners',
    name: 'Ada Lovelace',
    code: 'SPRING20',
    timezone: 'Europe/Berlin',
    locale: 'en',
    filename: 'notes.pdf',
    content_type: 'application/pdf',
  };
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Number.POSITIVE_INFINITY);
  const fit = (text: string) => text.padEnd(min, 'x').slice(0, max);
  const candidates = [words[name] ?? (name ? name.replace(/_/g, ' ') : 'text'), name || 'text', 'example', 'a'];
  if (!pattern) return fit(candidates[0] as string);
  const accepts = new RegExp(pattern, 'u');
  return candidates.map(fit).find((c) => accepts.test(c)) ?? fit(candidates[0] as string);
}
