import type { RouteEntry } from '../http/guard.ts';
import type { Scope } from '../security/scopes.ts';
import { type JsonSchema, standaloneSchema as plain, type ToolDescription } from './tool-description.ts';

/** Where each argument of a tool goes when the operation's route is called. */
export type ArgumentPlaces = { params: string[]; query: string[]; body: string[] };

/** An MCP tool and the API operation it runs: the same operationId, input, scope and principal rules. */
export type OperationTool = ToolDescription & {
  route: { method: string; url: string; args: ArgumentPlaces };
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
function inputOf(route: RouteEntry, name: string): { schema: JsonSchema; args: ArgumentPlaces } {
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
 * Behaviour hints for clients (MCP tool annotations). Reads change nothing; a delete, an overwrite (PATCH) or taking
 * something out of view is destructive; repeating a call with the same arguments has no further effect except for
 * creates; every operation acts on this school only (a closed world).
 */
function annotationsOf(method: string, name: string): OperationTool['annotations'] {
  const readOnly = method === 'GET';
  return {
    readOnlyHint: readOnly,
    destructiveHint:
      !readOnly && (method === 'DELETE' || method === 'PATCH' || /^(unpublish|archive|revoke)/.test(name)),
    idempotentHint: readOnly || !name.startsWith('create'),
    openWorldHint: false,
  };
}

function describe(route: RouteEntry, scope: string, anonymous: boolean): string {
  const summary = String(route.schema?.summary ?? '');
  const details = route.schema?.description ? ` ${String(route.schema.description)}` : '';
  const who = anonymous
    ? `Works without signing in (the public view: published, public items); a token with ${scope} shows more.`
    : `Needs the ${scope} scope: called without a token it answers HTTP 401 and your client signs the person in.`;
  return `${summary}.${details} ${who} Same as ${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')} of the REST API.`;
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
    const input = inputOf(route, name);
    const output = outputOf(route);
    tools.push({
      name,
      title: String(route.schema?.summary ?? name),
      description: describe(route, scope, anonymous),
      inputSchema: input.schema,
      outputSchema: output,
      annotations: annotationsOf(route.method, name),
      _meta: {
        'lyceum/scope': scope,
        'lyceum/anonymous': anonymous,
        'lyceum/area': ((route.schema?.tags as string[] | undefined) ?? [])[0] ?? 'api',
        'lyceum/http': `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`,
      },
      scope,
      anonymous,
      route: { method: route.method, url: route.url, args: input.args },
    });
  }
  return tools;
}
