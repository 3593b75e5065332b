import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../security/scopes.ts';
import { isScope } from '../security/scopes.ts';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import { bearerResolver } from './bearer-token.ts';
import { sendError } from './error-handler.ts';
import { ApiError } from './errors.ts';
import { type CallOrigin, INTERNAL_CALL_HEADER, type InternalCalls } from './internal-calls.ts';
import { mayCall, type Principal } from './principal.ts';
import { bearerChallenge } from './www-authenticate.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope an API route needs. */
    scope?: Scope;
    /** The route also serves anonymous callers (the public view). */
    anonymous?: boolean;
    /** Not an API route: no token is read (health, discovery, OAuth endpoints, assets). */
    public?: boolean;
    /** A server-rendered page: the browser session, not a token, says who is calling. */
    page?: boolean;
    oauth?: boolean;
    /** A POST that creates and honours Idempotency-Key. */
    idempotent?: boolean;
    /** Its body is raw bytes (an upload) or its answer a file (a CSV export), not JSON: no MCP tool is made of it. */
    binary?: boolean;
  }
  interface FastifyRequest {
    principal: Principal;
    /** For an in-process call (MCP, the admin): the outer request it was made for. */
    callOrigin: CallOrigin | undefined;
  }
}

/**
 * Refuses to register a route that declares neither its scope nor that it is public or a page: a route cannot be
 * added without saying who may call it.
 */
export type RouteEntry = {
  method: string;
  url: string;
  config: Record<string, unknown>;
  schema: Record<string, unknown> | undefined;
};

export function requireRouteDeclarations(app: FastifyInstance): RouteEntry[] {
  const table: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      table.push({
        method,
        url: route.url,
        config: (route.config ?? {}) as Record<string, unknown>,
        schema: route.schema as Record<string, unknown> | undefined,
      });
    }
    const config = (route.config ?? {}) as Record<string, unknown>;
    const declared =
      config.public === true || config.page === true || (typeof config.scope === 'string' && isScope(config.scope));
    if (!declared) {
      throw new Error(
        `Route ${route.method} ${route.url} declares no scope: set config.scope, or config.public / config.page`,
      );
    }
    if (
      route.url.startsWith('/api/v1') &&
      (config.public === true || config.page === true || typeof config.scope !== 'string')
    ) {
      throw new Error(`API route ${route.method} ${route.url} must declare a scope, not public or page`);
    }
    if (config.anonymous === true && [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD')) {
      throw new Error(`Route ${route.method} ${route.url} writes, so it cannot serve anonymous callers`);
    }
    if (route.url.startsWith('/api/v1') && !(route.schema as { operationId?: string } | undefined)?.operationId) {
      throw new Error(`Route ${route.method} ${route.url} has no operationId`);
    }
  });
  return table;
}

/**
 * The guard of every API route. No Authorization header: the anonymous principal, never a 401. A token is read only
 * from the header; it must be active, unrevoked, unexpired and bound to this API. Its power is its scopes ∩ the role.
 */
export function installGuard(
  app: FastifyInstance,
  deps: { verify: AccessTokenVerifier; baseUrl: string; internalCalls?: InternalCalls },
) {
  const resourceMetadata = `${deps.baseUrl}/.well-known/oauth-protected-resource`;
  const bearer = bearerResolver({
    verify: deps.verify,
    audiences: [deps.baseUrl],
    requestWith: deps.baseUrl,
    called: 'this API',
  });
  app.decorateRequest('principal', null as never);
  app.decorateRequest('callOrigin', undefined);

  const challenge = (
    request: FastifyRequest,
    reply: FastifyReply,
    error: 'invalid_token' | 'insufficient_scope',
    description: string,
    scope?: string,
  ) => {
    reply.header('www-authenticate', bearerChallenge({ error, description, scope, resourceMetadata }));
    return sendError(request, reply, new ApiError(error, description));
  };

  /** Who is calling: the principal an in-process call was issued for, else the bearer token (or nobody). */
  async function resolve(request: FastifyRequest, reply: FastifyReply, scope: Scope): Promise<Principal | undefined> {
    const internal = request.headers[INTERNAL_CALL_HEADER];
    const issued = typeof internal === 'string' ? deps.internalCalls?.take(internal) : undefined;
    if (issued) {
      request.callOrigin = issued.origin;
      return issued.principal;
    }
    const outcome = await bearer(request);
    if ('refused' in outcome) return void sendError(request, reply, outcome.refused);
    if ('invalid' in outcome) return void challenge(request, reply, 'invalid_token', outcome.invalid, scope);
    return outcome.principal;
  }

  app.addHook('preValidation', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!config.scope) return;
    const principal = await resolve(request, reply, config.scope);
    if (!principal) return reply;
    request.principal = principal;
    if (mayCall(principal, { scope: config.scope, anonymous: config.anonymous })) return;
    return challenge(
      request,
      reply,
      'insufficient_scope',
      principal.kind === 'anonymous'
        ? `This operation needs a token with the ${config.scope} scope.`
        : `This operation needs the ${config.scope} scope.`,
      config.scope,
    );
  });
}
