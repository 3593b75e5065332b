import type { RouteEntry } from '../http/guard.ts';
import type { Scope } from '../security/scopes.ts';
import { type JsonSchema, standaloneSchema as plain, type ToolDescription } from './tool-description.ts';

/** Where each argument of a tool goes when the operation's route is called. */
export type ArgumentPlaces = { params: string[]; query: string[]; body: string[] };

/** An MCP tool and the API operation it runs: the same operationId, input, scope and principal rules. */
export type OperationTool = ToolDescription & {
  /** `keyed`: the route takes an Idempotency-Key (`config.idempotent`), which the tool takes as `idempotency_key`. */
  route: { method: string; url: string; args: ArgumentPlaces; keyed: boolean };
};

/** The tool argument a keyed operation's Idempotency-Key travels in (not a path, query or body field). */
export const IDEMPOTENCY_KEY_ARGUMENT = 'idempotency_key';

const IDEMPOTENCY_KEY_SCHEMA: JsonSchema = {
  type: 'string',
  pattern: '^[\\x21-\\x7e]{1,255}$',
  description: 'Optional. The same key again within 24 h answers the first call instead of doing it twice.',
};

/** The result a tool gives for an operation that answers 204 No Content. */
export const DONE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { done: { type: 'boolean', description: 'true: the operation completed' } },
  required: ['done'],
  additionalProperties: false,
};

const propertiesOf = (schema: unknown) => (plain(schema).properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (schema: unknown) => (plain(schema).required ?? []) as string[];

/** The operation's arguments as one flat object: path parameters, query parameters and body fields side by side. */
function inputOf(route: RouteEntry, name: string, keyed: boolean): { schema: JsonSchema; args: ArgumentPlaces } {
  const parts = { params: route.schema?.params, query: route.schema?.querystring, body: route.schema?.body };
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const args: ArgumentPlaces = { params: [], query: [], body: [] };
  for (const [place, schema] of Object.entries(parts) as [keyof ArgumentPlaces, unknown][]) {
    if (!schema) continue;
    if (plain(schema).type !== 'object') throw new Error(`${name}: the ${place} schema must be an object`);
    for (const [field, fieldSchema] of Object.entries(propertiesOf(schema))) {
      if (properties[field]) throw new Error(`${name}: "${field}" is both a path, query or body field; rename one`);
      properties[field] = fieldSchema;
      args[place].push(field);
    }
    required.push(...requiredOf(schema));
  }
  if (keyed) {
    if (properties[IDEMPOTENCY_KEY_ARGUMENT]) throw new Error(`${name}: "${IDEMPOTENCY_KEY_ARGUMENT}" is taken`);
    properties[IDEMPOTENCY_KEY_ARGUMENT] = IDEMPOTENCY_KEY_SCHEMA;
  }
  return {
    schema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    args,
  };
}

function outputOf(route: RouteEntry): JsonSchema {
  const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
  if (!status || status === '204') return DONE_SCHEMA;
  return plain(responses[status]);
}

/**
 * Behaviour hints for clients (MCP tool annotations), from what the route declares it does rather than its name.
 * Reads change nothing. A call makes something new each time when its route takes an Idempotency-Key (it creates)
 * and has no 200 answer for "found it, made nothing" (an upsert is idempotent), or when it is a POST taking no input
 * at all — nothing it could set to a given value, so it acts anew (sends) on every call. Everything else sets state to
 * what it is given (updates, publish/archive, deletes) and is idempotent. A delete, an overwrite (PATCH) or taking
 * something out of view is destructive; every operation acts on this school only (a closed world).
 */
function annotationsOf(route: RouteEntry, name: string, hasInput: boolean): OperationTool['annotations'] {
  const method = route.method;
  const readOnly = method === 'GET';
  const answers = Object.keys((route.schema?.response ?? {}) as object);
  const creates = route.config.idempotent === true && !answers.includes('200');
  const actsEachCall = method === 'POST' && !hasInput;
  return {
    readOnlyHint: readOnly,
    destructiveHint:
      !readOnly && (method === 'DELETE' || method === 'PATCH' || /^(unpublish|archive|revoke)/.test(name)),
    idempotentHint: readOnly || !(creates || actsEachCall),
    openWorldHint: false,
  };
}

/** What the operation does, for a model: its summary and any details. The scope is said once, in `_meta`. */
function describe(route: RouteEntry): string {
  const summary = String(route.schema?.summary ?? '');
  const details = route.schema?.description ? ` ${String(route.schema.description)}` : '';
  return `${summary}.${details}`;
}

/**
 * Every API operation as an MCP tool, derived from the live route table (the same one /openapi.json is generated
 * from), so a new area's routes are tools without any MCP code.
 */
export function operationTools(routes: readonly RouteEntry[]): OperationTool[] {
  const tools: OperationTool[] = [];
  for (const route of routes) {
    if (!route.url.startsWith('/api/v1') || route.method === 'HEAD' || route.config.binary === true) continue;
    const name = String(route.schema?.operationId);
    const scope = route.config.scope as Scope;
    const anonymous = route.config.anonymous === true;
    const keyed = route.config.idempotent === true;
    const input = inputOf(route, name, keyed);
    const output = outputOf(route);
    const hasInput = Object.values(input.args).some((places) => places.length > 0);
    tools.push({
      name,
      title: String(route.schema?.summary ?? name),
      description: describe(route),
      inputSchema: input.schema,
      outputSchema: output,
      annotations: annotationsOf(route, name, hasInput),
      _meta: {
        'lyceum/scope': scope,
        'lyceum/anonymous': anonymous,
        'lyceum/area': ((route.schema?.tags as string[] | undefined) ?? [])[0] ?? 'api',
        'lyceum/http': `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`,
      },
      scope,
      anonymous,
      route: { method: route.method, url: route.url, args: input.args, keyed },
    });
  }
  return tools;
}
