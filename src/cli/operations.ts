/**
 * The school's API operations as CLI commands, derived from its /openapi.json (nothing about any area is written
 * here). The naming rule, also in docs/cli.md:
 *
 * - the group is the operation's first tag, with `_` as `-` (`membership_plans` -> `membership-plans`);
 * - the verb is the operationId in kebab case without the group's noun, plural or singular, where it appears as whole
 *   words (`listCourses` -> `courses list`, `publishCourse` -> `courses publish`, `listStudentEnrollments` ->
 *   `students list-enrollments`, `listSections` -> `curriculum list-sections`); when that leaves nothing, or two
 *   operations of a group would get the same verb, the whole operationId is the verb;
 * - the operationId itself is a command too (`lyceum listCourses`): the name the MCP tools have.
 */

export type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'list' | 'json';

export type OperationArg = {
  /** The API's field name (snake_case). */
  name: string;
  in: 'path' | 'query' | 'body';
  kind: ValueKind;
  /** For `list`: the kind of each item. */
  itemKind?: Exclude<ValueKind, 'list' | 'json'>;
  choices?: string[];
  nullable: boolean;
  required: boolean;
  description: string;
  /** A realistic value for help's EXAMPLES and a JSON flag's shape, made from the field's schema. */
  example?: unknown;
  /** For a JSON flag of objects (or a list of them): each field, `?` after the optional ones. */
  fields?: string[];
};

export type Operation = {
  operationId: string;
  group: string;
  verb: string;
  method: string;
  /** `/api/v1/courses/{id}` */
  path: string;
  summary: string;
  scope: string;
  anonymous: boolean;
  args: OperationArg[];
  /** The body is the raw bytes of a file (application/octet-stream); only on a method with body semantics. */
  rawBody: boolean;
  /** The answer is a file (a media type other than JSON): its bytes go to standard output or `--output`. */
  download?: { type: string };
  /** A page of a list (`data`, `has_more`, `next_cursor`): the columns an item shows in a table. */
  list?: { columns: string[] };
  /** Answers 202 with a job to follow (`status`, `progress`) at its Location. */
  job: boolean;
};

type Schema = Record<string, unknown>;
type OpenApiDocument = {
  paths: Record<string, Record<string, Schema>>;
  components?: Record<string, Record<string, Schema>>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/**
 * The methods a request body means something on (RFC 9110 §9.3): a body a document declares on any other method is
 * never sent, so a GET stays a GET whatever the document says of its body.
 */
const BODY_METHODS = new Set(['post', 'put', 'patch']);

export const kebab = (value: string) =>
  value
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();

const singular = (word: string) => word.replace(/ies$/, 'y').replace(/s$/, '');

/** The verb an operation of `group` gets: its operationId's words without the group's noun. */
export function verbOf(operationId: string, group: string): string {
  const words = kebab(operationId).split('-');
  const noun = group.split('-');
  for (const form of [noun, [...noun.slice(0, -1), singular(noun.at(-1) ?? '')]]) {
    for (let at = 0; at + form.length <= words.length; at++) {
      if (form.every((word, i) => words[at + i] === word)) {
        const rest = [...words.slice(0, at), ...words.slice(at + form.length)];
        return rest.length ? rest.join('-') : words.join('-');
      }
    }
  }
  return words.join('-');
}

/**
 * Reads a document's local references (`#/components/schemas/…`, `…/parameters/…`, `…/responses/…`, any JSON pointer
 * into the document, RFC 6901) and merges `allOf` into one object schema, so a parameter, an answer or a schema reads
 * the same whether the document wrote it in place or shared it. A reference loop ends as an empty schema.
 */
function resolver(doc: OpenApiDocument) {
  const pointer = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Schema | undefined)?.[key], doc);
  const resolve = (schema: unknown, depth = 0): Schema => {
    const s = (schema ?? {}) as Schema;
    if (depth > 32) return {};
    if (typeof s.$ref === 'string' && s.$ref.startsWith('#/')) return resolve(pointer(s.$ref), depth + 1);
    if (!Array.isArray(s.allOf)) return s;
    const { allOf, ...own } = s;
    const parts = [...(allOf as unknown[]).map((part) => resolve(part, depth + 1)), own];
    return {
      ...Object.assign({}, ...parts),
      properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
      required: [...new Set(parts.flatMap((part) => (Array.isArray(part.required) ? part.required : [])))],
    };
  };
  return (schema: unknown) => resolve(schema);
}

const isNull = (s: Schema) => Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null;

/** The kind of value a flag takes, from its JSON schema. */
function kindOf(schema: Schema, resolve: (s: unknown) => Schema): Omit<OperationArg, 'name' | 'in' | 'required'> {
  const description = String(schema.description ?? '');
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]).map(resolve) : [schema];
  const nullable = schema.nullable === true || variants.some((v) => v.nullable === true || isNull(v));
  const values = variants.filter((v) => !isNull(v));
  const types = new Set(values.map((v) => v.type));
  const described = description || String(values.find((v) => v.description)?.description ?? '');
  if (types.size === 1) {
    const [type] = types;
    if (type === 'string') {
      const choices = values.every((v) => Array.isArray(v.enum))
        ? values.flatMap((v) => (v.enum as unknown[]).map(String))
        : undefined;
      return { kind: 'string', choices, nullable, description: described };
    }
    if (type === 'integer' || type === 'number' || type === 'boolean')
      return { kind: type, nullable, description: described };
    if (type === 'array' && values.length === 1) {
      const item = kindOf(resolve(values[0]?.items), resolve);
      if (item.kind !== 'list' && item.kind !== 'json' && !item.nullable)
        return { kind: 'list', itemKind: item.kind, choices: item.choices, nullable, description: described };
    }
  }
  return { kind: 'json', nullable, description: described };
}

/** The noun a path parameter names: `id` after `/courses/` is a course's (`course_id`). */
const nounOf = (path: string, name: string) => {
  const before = new RegExp(`/([\\w-]+)/\\{${name}\\}`).exec(path)?.[1];
  return name === 'id' && before ? `${singular(before.replace(/-/g, '_'))}_id` : name;
};

/** Each noun's id prefix, from path parameters whose pattern names one (`/courses/{id}`, `^crs_…` -> course: crs). */
function idPrefixes(doc: OpenApiDocument, resolve: (s: unknown) => Schema): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const operation of Object.values(item))
      for (const parameter of ((operation?.parameters ?? []) as unknown[]).map(resolve)) {
        const prefix = /^\^([a-z]+)_\[/.exec(String(resolve(parameter.schema).pattern ?? ''))?.[1];
        const noun = nounOf(path, String(parameter.name));
        if (parameter.in === 'path' && prefix && noun.endsWith('_id')) prefixes.set(noun.slice(0, -3), prefix);
      }
  return prefixes;
}

function argsOf(
  operation: Schema,
  method: string,
  path: string,
  ctx: SampleContext,
): { args: OperationArg[]; rawBody: boolean } {
  const { resolve } = ctx;
  const args: OperationArg[] = [];
  for (const parameter of ((operation.parameters ?? []) as unknown[]).map(resolve)) {
    const place = parameter.in;
    if (place !== 'path' && place !== 'query') continue;
    const schema = resolve(parameter.schema);
    args.push({
      name: String(parameter.name),
      in: place,
      required: parameter.required === true,
      ...kindOf({ ...schema, description: parameter.description ?? schema.description }, resolve),
      ...exampleOf(place === 'path' ? nounOf(path, String(parameter.name)) : String(parameter.name), schema, ctx),
    });
  }
  if (!BODY_METHODS.has(method)) return { args, rawBody: false };
  const content = (resolve(operation.requestBody).content ?? {}) as Record<string, Schema>;
  const body = content['application/json'] ? resolve(content['application/json'].schema) : undefined;
  const required = new Set((body?.required ?? []) as string[]);
  for (const [name, schema] of Object.entries((body?.properties ?? {}) as Record<string, unknown>))
    args.push({
      name,
      in: 'body',
      required: required.has(name),
      ...kindOf(resolve(schema), resolve),
      ...exampleOf(name, resolve(schema), ctx),
    });
  return { args, rawBody: Boolean(content['application/octet-stream']) };
}

const SAMPLE_ID = '01j9x2k7m4n6p8q3r5s7t9v2w4';
const SAMPLE_TEXT: [RegExp, unknown][] = [
  [/(^|_)email$/, 'ada@example.com'],
  [/(^|_)(name|author)$/, 'Ada Lovelace'],
  [/(^|_)title$/, 'Watercolour basics'],
  [/(^|_)currency$/, 'EUR'],
  [/(^|_)(code|prefix)$/, 'SPRING'],
  [/(^|_)(locale|language)$/, 'en'],
  [/(^|_)(amount|price)$/, 4900],
];

/**
 * A realistic value for a field, from its schema: its own example or default, the first choice, an id of the pattern's
 * prefix, a time, a sample by the field's name; objects with their required fields (all, when none is), lists of one.
 */
type SampleContext = { resolve: (s: unknown) => Schema; prefixes: Map<string, string> };

function sampleOf(name: string, schema: Schema, ctx: SampleContext, depth = 0): unknown {
  const { resolve } = ctx;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  if (Array.isArray(schema.anyOf)) {
    const variant = (schema.anyOf as unknown[]).map(resolve).find((v) => !isNull(v) && v.type !== 'null');
    return variant ? sampleOf(name, variant, ctx, depth) : null;
  }
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  if (schema.const !== undefined) return schema.const;
  const named = SAMPLE_TEXT.find(([pattern]) => pattern.test(name))?.[1];
  switch (schema.type) {
    case 'object': {
      if (depth > 3) return {};
      const props = Object.entries((schema.properties ?? {}) as Record<string, unknown>);
      const required = new Set((schema.required ?? []) as string[]);
      const shown = required.size ? props.filter(([key]) => required.has(key)) : props.slice(0, 4);
      return Object.fromEntries(shown.map(([key, value]) => [key, sampleOf(key, resolve(value), ctx, depth + 1)]));
    }
    case 'array':
      return [sampleOf(name.replace(/s$/, ''), resolve(schema.items), ctx, depth + 1)];
    case 'integer':
    case 'number':
      return typeof named === 'number' ? named : typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'string': {
      const prefix =
        /^\^([a-z]+)_\[/.exec(String(schema.pattern ?? ''))?.[1] ??
        (name.endsWith('_id') ? ctx.prefixes.get(name.slice(0, -3)) : undefined);
      if (prefix) return `${prefix}_${SAMPLE_ID}`;
      if (schema.format === 'date-time' || name.endsWith('_at')) return '2026-09-01T09:00:00Z';
      if (schema.format === 'date') return '2026-09-01';
      if (schema.format === 'uri' || name.endsWith('url')) return 'https://example.com/';
      if (typeof named === 'string') return named;
      if (String(schema.pattern ?? '').startsWith('^[a-z0-9]+')) return 'watercolour-basics';
      return name.replace(/_/g, ' ');
    }
    default:
      return named ?? 'value';
  }
}

/** A field's sample and, for an object or a list of them, its fields (optional ones with `?`). */
function exampleOf(name: string, schema: Schema, ctx: SampleContext): Pick<OperationArg, 'example' | 'fields'> {
  const { resolve } = ctx;
  const example = sampleOf(name, schema, ctx);
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]).map(resolve) : [schema];
  const shaped = variants.find(
    (v) => v.type === 'object' || (v.type === 'array' && resolve(v.items).type === 'object'),
  );
  if (!shaped) return { example };
  const object = shaped.type === 'array' ? resolve(shaped.items) : shaped;
  const required = new Set((object.required ?? []) as string[]);
  const fields = Object.keys((object.properties ?? {}) as Record<string, unknown>).map((key) =>
    required.has(key) ? key : `${key}?`,
  );
  return { example, fields };
}

/** Which fields of a list item a table shows: its scalar fields, the naming ones first, long texts left out. */
const PREFERRED = ['id', 'title', 'name', 'email', 'code', 'number', 'filename', 'status'];
const LONG_TEXT = /(^|_)(description|body|bio|note|excerpt|css|url|sha256|password)$/;

function listOf(operation: Schema, resolve: (s: unknown) => Schema): Operation['list'] {
  const ok = resolve((operation.responses as Record<string, Schema> | undefined)?.['200']);
  const page = resolve((ok?.content as Record<string, Schema> | undefined)?.['application/json']?.schema);
  const props = (page.properties ?? {}) as Record<string, unknown>;
  if (!props.data || !props.has_more || !props.next_cursor) return undefined;
  const item = resolve(resolve(props.data).items);
  const scalar = Object.entries((item.properties ?? {}) as Record<string, unknown>)
    .filter(([name, schema]) => {
      const kind = kindOf(resolve(schema), resolve).kind;
      return kind !== 'json' && kind !== 'list' && !LONG_TEXT.test(name);
    })
    .map(([name]) => name);
  const columns = [
    ...PREFERRED.filter((name) => scalar.includes(name)),
    ...scalar.filter((n) => !PREFERRED.includes(n)),
  ];
  return { columns };
}

/** A 2xx answer in a media type other than JSON: the operation downloads a file. */
function downloadOf(operation: Schema, resolve: (s: unknown) => Schema): Operation['download'] {
  const responses = (operation.responses ?? {}) as Record<string, Schema>;
  for (const [status, shared] of Object.entries(responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    const response = resolve(shared);
    const types = Object.keys((response.content ?? {}) as Record<string, unknown>);
    if (types.length && !types.some((type) => /[/+]json$/.test(type))) return { type: types[0] ?? '' };
  }
  return undefined;
}

function isJob(operation: Schema, resolve: (s: unknown) => Schema): boolean {
  const accepted = resolve((operation.responses as Record<string, Schema> | undefined)?.['202']);
  const schema = resolve((accepted?.content as Record<string, Schema> | undefined)?.['application/json']?.schema);
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  return Boolean(props.status && props.progress);
}

/**
 * What a name from the document may be made of. Names end up in shell completion scripts (case patterns, fish `-a`,
 * zsh arrays, bash `compgen -W`), so a school must not be able to put shell syntax there.
 */
export const SAFE_NAME = /^[A-Za-z0-9_-]+$/;
export const SAFE_FLAG = /^[a-z0-9-]+$/;

/** Why an operation cannot be a command, or undefined when its names are safe. */
function unsafeName(operationId: string, tag: string, args: OperationArg[]): string | undefined {
  if (!SAFE_NAME.test(operationId)) return 'operationId';
  if (!SAFE_NAME.test(tag)) return 'tag';
  const flag = args.find((arg) => arg.in !== 'path' && !SAFE_FLAG.test(kebab(arg.name)));
  return flag ? `field ${JSON.stringify(flag.name)}` : undefined;
}

/**
 * Every operation of the document that declares a scope (the API's), as a command. Operations with a name that is not
 * plain letters, digits, `_` and `-` are left out, and `warn` is told once which.
 */
export function operationsOf(document: unknown, warn: (line: string) => void = () => undefined): Operation[] {
  const doc = document as OpenApiDocument;
  if (typeof doc?.paths !== 'object') throw new Error('not an OpenAPI document (no paths)');
  const resolve = resolver(doc);
  const ctx: SampleContext = { resolve, prefixes: idPrefixes(doc, resolve) };
  const operations: Operation[] = [];
  const skipped: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.operationId || typeof operation['x-required-scope'] !== 'string') continue;
      const operationId = String(operation.operationId);
      const tag = String((operation.tags as unknown[] | undefined)?.[0] ?? 'api');
      const { args, rawBody } = argsOf(operation, method, path, ctx);
      const unsafe = unsafeName(operationId, tag, args);
      if (unsafe) {
        skipped.push(`${JSON.stringify(`${method.toUpperCase()} ${path}`)} (its ${unsafe})`);
        continue;
      }
      const group = kebab(tag);
      const security = (operation.security ?? []) as Schema[];
      operations.push({
        operationId,
        group,
        verb: verbOf(operationId, group),
        method: method.toUpperCase(),
        path,
        summary: String(operation.summary ?? operationId),
        scope: operation['x-required-scope'],
        anonymous: security.some((requirement) => Object.keys(requirement).length === 0),
        args,
        rawBody,
        download: downloadOf(operation, resolve),
        list: listOf(operation, resolve),
        job: isJob(operation, resolve),
      });
    }
  }
  if (skipped.length)
    warn(
      `Warning: ${skipped.length} operation(s) of the school left out, their names are not plain: ${skipped.join(', ')}`,
    );
  // Two operations of a group with one verb: both are named by their whole operationId instead.
  const seen = new Map<string, number>();
  for (const op of operations) seen.set(`${op.group} ${op.verb}`, (seen.get(`${op.group} ${op.verb}`) ?? 0) + 1);
  for (const op of operations) if ((seen.get(`${op.group} ${op.verb}`) ?? 0) > 1) op.verb = kebab(op.operationId);
  return operations;
}
