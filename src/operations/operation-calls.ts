import type { FastifyInstance } from 'fastify';
import { type CallOrigin, INTERNAL_CALL_HEADER, type InternalCalls } from '../http/internal-calls.ts';
import type { Principal } from '../http/principal.ts';
import { IDEMPOTENCY_KEY_ARGUMENT, type OperationTool } from './operation-tools.ts';

/** What an operation answered: its status and JSON body (`{done: true}` for 204). */
export type OperationAnswer = { status: number; body: Record<string, unknown> };

const invalid = (description: string): OperationAnswer => ({
  status: 400,
  body: { error: 'invalid_request', error_description: description },
});

/**
 * Runs an API operation in-process (app.inject) as the given principal: the route validates the arguments, checks the
 * scope and applies its principal rules exactly as it does for a REST call, so a tool can never do what the API would
 * refuse. Arguments are split back into path, query and body by the places the tool recorded; a keyed operation's
 * `idempotency_key` becomes its Idempotency-Key header, so a retried tool call is answered as the REST retry is.
 */
export function operationCaller(deps: { app: FastifyInstance; internalCalls: InternalCalls }) {
  return async (
    tool: OperationTool,
    args: Record<string, unknown>,
    principal: Principal,
    origin?: CallOrigin,
  ): Promise<OperationAnswer> => {
    const { params, query, body } = tool.route.args;
    const key = tool.route.keyed ? args[IDEMPOTENCY_KEY_ARGUMENT] : undefined;
    if (key !== undefined && typeof key !== 'string') return invalid(`"${IDEMPOTENCY_KEY_ARGUMENT}" must be text.`);
    const unknown = Object.keys(args).filter(
      (k) =>
        !params.includes(k) &&
        !query.includes(k) &&
        !body.includes(k) &&
        !(tool.route.keyed && k === IDEMPOTENCY_KEY_ARGUMENT),
    );
    if (unknown.length) return invalid(`Unknown argument "${unknown[0]}"; remove it.`);
    let path = tool.route.url;
    for (const name of params) {
      const value = args[name];
      if (typeof value !== 'string' || value === '') return invalid(`"${name}" is required.`);
      path = path.replace(`:${name}`, encodeURIComponent(value));
    }
    const search = new URLSearchParams();
    for (const name of query) {
      const value = args[name];
      if (value === undefined || value === null) continue;
      for (const item of [value].flat()) search.append(name, String(item));
    }
    const hasBody = tool.route.method !== 'GET' && tool.route.method !== 'DELETE';
    const payload = hasBody ? Object.fromEntries(body.filter((k) => k in args).map((k) => [k, args[k]])) : undefined;
    const ticket = principal.kind === 'user' ? deps.internalCalls.issue(principal, origin) : undefined;
    try {
      const response = await deps.app.inject({
        method: tool.route.method as 'GET',
        url: search.size ? `${path}?${search}` : path,
        headers: {
          ...(ticket ? { [INTERNAL_CALL_HEADER]: ticket } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(key !== undefined ? { 'idempotency-key': key } : {}),
        },
        ...(payload ? { payload: JSON.stringify(payload) } : {}),
      });
      if (response.statusCode === 204) return { status: 204, body: { done: true } };
      return { status: response.statusCode, body: response.json() as Record<string, unknown> };
    } finally {
      if (ticket) deps.internalCalls.drop(ticket);
    }
  };
}

export type OperationCaller = ReturnType<typeof operationCaller>;
