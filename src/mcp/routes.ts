import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerResolver } from '../http/bearer-token.ts';
import { mayCall, type Principal } from '../http/principal.ts';
import { type ResponseCache, sharedView } from '../http/response-cache.ts';
import { bearerChallenge } from '../http/www-authenticate.ts';
import { resourceIdentifiers } from '../security/oauth-endpoints.ts';
import { ALL_SCOPES, isScope, roleMayGrant, type Scope } from '../security/scopes.ts';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import type { McpHandler } from './server.ts';

const LOOPBACK = ['127.0.0.1', '[::1]', 'localhost'];

const CACHE = 'mcp';
/** Requests longer than this (in characters of their cache key) are answered but not cached. */
const MAX_CACHED_REQUEST = 2048;
const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';
/** The SDK writes the JSON-RPC id last: `…,"jsonrpc":"2.0","id":7}` (and, framed as SSE, a blank line after). */
const ID_AT_END = /"id":(\d+|"(?:[^"\\]|\\.)*")\}(\n\n)?$/;

/** Whether an answer can be replayed for another request id: it ends with its id where the SDK puts it. */
const cacheable = (text: string, id: string | number) => ID_AT_END.exec(text)?.[1] === JSON.stringify(id);

/** A tool error (a rule failure, a bad argument) is answered again rather than kept. */
const isErrorResult = (text: string) => text.includes('"isError":true');

/** A cached answer given the id of the request it now answers. */
function withId(text: string, id: string | number): string | undefined {
  const match = ID_AT_END.exec(text);
  if (!match) return undefined;
  return `${text.slice(0, match.index)}"id":${JSON.stringify(id)}}${match[2] ?? ''}`;
}

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

const hostnameOf = (value: string, withScheme: boolean): string | undefined => {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
};

/**
 * DNS-rebinding protection (MCP transport security): a browser page on another origin must not drive this endpoint.
 * A present `Origin` must be the school's own origin; on a loopback school any loopback origin, and the `Host` too must
 * be a loopback name there (a rebound host name is what the attack needs). Clients outside browsers send no Origin.
 */
function originPolicy(baseUrl: string) {
  const base = new URL(baseUrl);
  const loopback = LOOPBACK.includes(base.hostname);
  return (request: FastifyRequest): string | undefined => {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const ok = loopback ? LOOPBACK.includes(hostnameOf(origin, true) ?? '') : origin === base.origin;
      if (!ok) return `Origin ${origin} is not allowed to call this MCP server.`;
    }
    if (loopback && !LOOPBACK.includes(hostnameOf(request.host, false) ?? ''))
      return `Host ${request.host} is not this MCP server.`;
    return undefined;
  };
}

/**
 * What the first sign-in asks for: the tool's scope, and for a write also its area's read scope, so one consent
 * covers reading back what the agent writes (each further scope would cost the person another consent).
 */
function firstSignInScopes(scope: Scope): Scope[] {
  const read = scope.replace(/:write$/, ':read');
  return read !== scope && isScope(read) ? [read, scope] : [scope];
}

type JsonRpcMessage = { method?: unknown; params?: { name?: unknown; arguments?: unknown } };

/**
 * `/mcp`: Streamable HTTP, stateless. The HTTP layer settles who is calling before the MCP SDK sees the request:
 * an invalid token is 401; a tools/call of a tool that needs a scope is 401 without a token (so MCP clients start
 * OAuth by themselves, following resource_metadata) and 403 insufficient_scope with a token lacking it (step-up).
 * Everything else — the anonymous catalog, tools/list, resources, prompts — is served without a token.
 */
export async function registerMcpRoutes(
  app: FastifyInstance,
  deps: { mcp: McpHandler; verify: AccessTokenVerifier; baseUrl: string; responses: ResponseCache },
) {
  const resources = resourceIdentifiers(deps.baseUrl);
  const resourceMetadata = `${deps.baseUrl}/.well-known/oauth-protected-resource/mcp`;
  const forbiddenOrigin = originPolicy(deps.baseUrl);

  const challenge = (
    reply: FastifyReply,
    status: 401 | 403,
    params: {
      error?: 'invalid_token' | 'insufficient_scope';
      description: string;
      scope?: string;
      body?: 'insufficient_scope';
    },
  ) =>
    reply
      .code(status)
      .header(
        'www-authenticate',
        bearerChallenge({
          error: params.error,
          description: params.error ? params.description : undefined,
          scope: params.scope,
          resourceMetadata,
        }),
      )
      .type('application/json; charset=utf-8')
      .send({ error: params.body ?? params.error ?? 'invalid_token', error_description: params.description });

  // MCP takes tokens bound to itself or to the REST API (DESIGN: "/mcp accepts {base_url}/mcp or {base_url}").
  const bearer = bearerResolver({
    verify: deps.verify,
    audiences: [resources.mcp, resources.api],
    requestWith: resources.mcp,
    called: 'this server',
  });

  async function principalFor(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
    const outcome = await bearer(request);
    if ('refused' in outcome) return void reply.code(outcome.refused.status).send(outcome.refused.toBody());
    if ('invalid' in outcome)
      return void challenge(reply, 401, { error: 'invalid_token', description: outcome.invalid });
    return outcome.principal;
  }

  /** The scope a tools/call needs and the caller lacks, if any. */
  function missingScope(messages: JsonRpcMessage[], principal: Principal): { tool: string; scope: Scope } | undefined {
    for (const message of messages) {
      if (message?.method !== 'tools/call' || typeof message.params?.name !== 'string') continue;
      // callOperation is checked as the operation it runs, so it is challenged exactly as that tool would be.
      const tool = deps.mcp.toolFor(message.params.name, message.params.arguments);
      if (!tool) continue;
      // The REST API's own rule: anonymous callers get the public view where there is one; a token needs the scope.
      if (!mayCall(principal, tool)) return { tool: tool.name, scope: tool.scope };
    }
    return undefined;
  }

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const refused = forbiddenOrigin(request);
    if (refused) return reply.code(403).send(jsonRpcError(-32000, refused));
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? ''))
      return reply.code(415).send(jsonRpcError(-32000, 'Content-Type must be application/json.'));
    let body: unknown;
    try {
      body = JSON.parse(String(request.body ?? ''));
    } catch {
      return reply.code(400).send(jsonRpcError(-32700, 'Parse error: the body is not valid JSON.'));
    }
    const principal = await principalFor(request, reply);
    if (!principal) return reply;
    const missing = missingScope([body].flat() as JsonRpcMessage[], principal);
    if (missing && principal.kind === 'anonymous')
      return challenge(reply, 401, {
        description: `The tool ${missing.tool} needs the ${missing.scope} scope: sign in through this school's authorization server (see the resource metadata).`,
        scope: firstSignInScopes(missing.scope).join(' '),
      });
    if (missing && principal.kind === 'user') {
      if (!roleMayGrant(principal.role, missing.scope)) {
        // Stepping up cannot help (the role may never hold the scope), so the challenge carries no error code that
        // would send the client back to the browser for nothing; the body says what the person may grant instead.
        const grantable = ALL_SCOPES.filter((scope) => roleMayGrant(principal.role, scope)).join(' ');
        return challenge(reply, 403, {
          body: 'insufficient_scope',
          description: `The tool ${missing.tool} needs the ${missing.scope} scope, which a ${principal.role} cannot grant. A ${principal.role} may grant: ${grantable}.`,
        });
      }
      const stepUp = [...new Set([...principal.scopes, missing.scope])].join(' ');
      return challenge(reply, 403, {
        error: 'insufficient_scope',
        // No "name=value" in the text: clients find scope= in the header with a regex, and the first match wins.
        description: `The tool ${missing.tool} needs the ${missing.scope} scope, which this token does not hold. Refreshing the token cannot add it: authorize again with the same client registration, asking for these scopes: ${stepUp} (the one this tool needs plus those already held); the person is asked to consent once more.`,
        scope: stepUp,
      });
    }
    const cacheKey = answerCacheKey(body, principal, request.headers);
    const cached = cacheKey && deps.responses.get(CACHE, cacheKey.key);
    if (cached) {
      const text = withId(cached.toString(), cacheKey.id);
      if (text)
        return reply
          .type(cacheKey.sse ? SSE : JSON_TYPE)
          .header('cache-control', 'no-cache, no-transform')
          .header('x-cache', 'hit')
          .send(text);
    }
    const generation = deps.responses.generation(CACHE);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || name === 'content-length' || name === 'connection') continue;
      for (const item of [value].flat()) headers.append(name, item);
    }
    const authInfo: AuthInfo | undefined =
      principal.kind === 'user'
        ? {
            token: '',
            clientId: principal.clientId,
            scopes: [...principal.scopes],
            extra: {
              principal,
              origin: {
                channel: 'mcp',
                ip: request.ip,
                userAgent: request.headers['user-agent'],
                requestId: request.id,
              },
            },
          }
        : undefined;
    const response = await deps.mcp.handler.fetch(new Request(`${deps.baseUrl}/mcp`, { method: 'POST', headers }), {
      authInfo,
      parsedBody: body,
    });
    reply.code(response.status);
    // The connection is Fastify's to manage; the SDK's own framing headers are not.
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'connection') reply.header(name, value);
    });
    const text = response.status === 202 ? null : await response.text();
    if (cacheKey && text && response.status === 200 && cacheable(text, cacheKey.id) && !isErrorResult(text)) {
      const type = response.headers.get('content-type') ?? '';
      if (type.startsWith(cacheKey.sse ? SSE : JSON_TYPE)) deps.responses.set(CACHE, cacheKey.key, text, generation);
    }
    return reply.send(text);
  };

  /**
   * The micro-cache of tool answers for the two shared views (anonymous callers and staff), as the REST catalog list
   * has (LIST_CACHE_MS), and of tools/list for everyone. Only read-only tools that serve anonymous callers qualify: only their staff answer is the same
   * for every staff member (getAccount, for one, is not). The whole request but its id is the key, with every header
   * the SDK judges a request by, so a cached answer never skips a check; large requests are not cached.
   */
  function answerCacheKey(body: unknown, principal: Principal, headers: FastifyRequest['headers']) {
    if (!deps.responses.enabled || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const { method, params, id, jsonrpc } = body as {
      method?: unknown;
      params?: { name?: unknown; arguments?: unknown };
      id?: unknown;
      jsonrpc?: unknown;
    };
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    let view: string | undefined;
    // The tool list is the same for every caller: one entry serves them all.
    if (method === 'tools/list') view = 'everyone';
    else if (method === 'tools/call' && typeof params?.name === 'string') {
      const tool = deps.mcp.toolFor(params.name, params.arguments);
      if (tool?.annotations.readOnlyHint && tool.anonymous) view = sharedView(principal);
    }
    if (!view) return undefined;
    const checked = Object.keys(headers)
      .filter((name) => name.startsWith('mcp-') || name === 'accept')
      .sort()
      .map((name) => `${name}:${String(headers[name])}`);
    const key = `${view} ${JSON.stringify([checked, jsonrpc, params])}`;
    if (key.length > MAX_CACHED_REQUEST) return undefined;
    const protocolVersion = headers['mcp-protocol-version'];
    const sse = typeof protocolVersion === 'string' && !protocolVersion.startsWith('2026');
    return { key, id, sse };
  }

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post('/mcp', { config: { public: true } }, handle);
    scope.route({
      method: ['GET', 'DELETE'],
      url: '/mcp',
      exposeHeadRoute: false,
      config: { public: true },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send(
            jsonRpcError(
              -32000,
              'Method not allowed: this MCP server is stateless and offers no event stream; send JSON-RPC messages with POST.',
            ),
          ),
    });
  });
}
