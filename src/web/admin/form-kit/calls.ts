import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type CallOrigin, INTERNAL_CALL_HEADER, type InternalCalls } from '../../../http/internal-calls.ts';
import { effectiveScopes, type Principal } from '../../../http/principal.ts';
import type { User } from '../../../identity/schema.ts';
import type { OperationAnswer, OperationCaller } from '../../../operations/operation-calls.ts';
import { ALL_SCOPES } from '../../../security/scopes.ts';
import type { OperationIndex } from '../catalog.ts';

/**
 * The signed-in person as the principal of the admin's calls: no app stands between them and the school, so they act
 * with everything their role may grant — exactly what a token of theirs holding every scope could do, no more.
 */
export const sessionPrincipal = (viewer: User): Principal => ({
  kind: 'user',
  userId: viewer.id,
  role: viewer.role,
  clientId: '',
  scopes: effectiveScopes(viewer.role, ALL_SCOPES),
});

/** The admin's own request, which the audit log names as where a write came from. */
const adminOrigin = (request: FastifyRequest): CallOrigin => ({
  channel: 'admin',
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  requestId: request.id,
});

/**
 * Runs an API operation for the admin: the same route, validation, scope check and service as a REST, MCP or CLI
 * call, so the admin can never do what the API would refuse and no rule is written twice.
 */
export function adminCalls(deps: { operations: OperationIndex; call: OperationCaller }) {
  return async (request: FastifyRequest, name: string, args: Record<string, unknown>): Promise<OperationAnswer> => {
    const tool = deps.operations.get(name);
    if (!tool) throw new Error(`The admin asked for ${name}, which the API does not have`);
    if (!request.viewer) throw new Error('The admin called an operation without a signed-in person');
    return deps.call(tool, args, sessionPrincipal(request.viewer), adminOrigin(request));
  };
}

export type AdminCall = ReturnType<typeof adminCalls>;

/**
 * Calls an API route that is not JSON in or out (a CSV export, an upload's bytes) in-process as the signed-in staff
 * member, with the same one-time ticket the JSON operations use: the route checks its scope and rules as ever.
 */
export function adminRouteCalls(deps: { app: FastifyInstance; internalCalls: InternalCalls }) {
  return async (
    request: FastifyRequest,
    call: {
      method: 'GET' | 'PUT' | 'POST';
      url: string;
      payload?: Buffer | NodeJS.ReadableStream;
      headers?: Record<string, string>;
    },
  ) => {
    if (!request.viewer) throw new Error('The admin called a route without a signed-in person');
    const ticket = deps.internalCalls.issue(sessionPrincipal(request.viewer), adminOrigin(request));
    try {
      return await deps.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...call.headers, [INTERNAL_CALL_HEADER]: ticket },
        ...(call.payload ? { payload: call.payload } : {}),
      });
    } finally {
      deps.internalCalls.drop(ticket);
    }
  };
}

export type AdminRouteCall = ReturnType<typeof adminRouteCalls>;
