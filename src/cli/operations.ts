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
  /** The body is the raw bytes of a file (application/octet-stream). */
  rawBody: boolean;
  /** A page of a list (`data`, `has_more`, `next_cursor`): the columns an item shows in a table. */
  list?: { columns: string[] };
  /** Answers 202 with a job to follow (`status`, `progress`) at its Location. */
  job: boolean;
};

type Schema = Record<string, unknown>;
type OpenApiDocument = {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

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

function resolver(doc: OpenApiDocument) {
  const resolve = (schema: unknown): Schema => {
    const s = (schema ?? {}) as Schema;
    const ref = s.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
      return resolve(doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)]);
    return s;
  };
  return resolve;
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

function argsOf(operation: Schema, resolve: (s: unknown) => Schema): { args: OperationArg[]; rawBody: boolean } {
  const args: OperationArg[] = [];
  for (const parameter of (operation.parameters ?? []) as Schema[]) {
    const place = parameter.in;
    if (place !== 'path' && place !== 'query') continue;
    const schema = resolve(parameter.schema);
    args.push({
      name: String(parameter.name),
      in: place,
      required: parameter.required === true,
      ...kindOf({ ...schema, description: parameter.description ?? schema.description }, resolve),
    });
  }
  const content = ((operation.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>;
  const body = content['application/json'] ? resolve(content['application/json'].schema) : undefined;
  const required = new Set((body?.required ?? []) as string[]);
  for (const [name, schema] of Object.entries((body?.properties ?? {}) as Record<string, unknown>))
    args.push({ name, in: 'body', required: required.has(name), ...kindOf(resolve(schema), resolve) });
  return { args, rawBody: Boolean(content['application/octet-stream']) };
}

/** Which fields of a list item a table shows: its scalar fields, the naming ones first, long texts left out. */
const PREFERRED = ['id', 'title', 'name', 'email', 'code', 'number', 'filename', 'status'];
const LONG_TEXT = /(^|_)(description|body|bio|note|excerpt|css|url|sha256|password)$/;

function listOf(operation: Schema, resolve: (s: unknown) => Schema): Operation['list'] {
  const ok = (operation.responses as Record<string, Schema> | undefined)?.['200'];
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

function isJob(operation: Schema, resolve: (s: unknown) => Schema): boolean {
  const accepted = (operation.responses as Record<string, Schema> | undefined)?.['202'];
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
  const operations: Operation[] = [];
  const skipped: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.operationId || typeof operation['x-required-scope'] !== 'string') continue;
      const operationId = String(operation.operationId);
      const tag = String((operation.tags as unknown[] | undefined)?.[0] ?? 'api');
      const { args, rawBody } = argsOf(operation, resolve);
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
