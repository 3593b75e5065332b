import { createHash } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { sendError } from '../http/error-handler.ts';
import { errors } from '../http/errors.ts';
import { etagMatches } from '../http/etag.ts';
import { OAUTH_PATHS } from '../security/oauth-endpoints.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
import type { Clock } from '../time/clock.ts';
import { markRequestStart } from './adapter.ts';
import type { IntrospectionFastPath } from './introspection.ts';
import { JWKS_MAX_AGE_SECONDS } from './keys.ts';
import { withFormAction } from './redirect-csp.ts';

const DISCOVERY_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/**
 * Hands the provider's own paths to oidc-provider, and nothing else. The provider parses the body itself, so this
 * scope reads forms and JSON only as bytes (within the provider's own limit), which the app's hooks can judge (a NUL
 * is refused at the edge like everywhere else) and the provider is then handed as a replay of the request; any other
 * body is left an untouched stream. Each handler hijacks the reply.
 */
export async function mountProvider(
  app: FastifyInstance,
  deps: {
    provider: () => Provider;
    limiter: RateLimiter;
    registrationsPerHour: number;
    authorizationsPerMinute: number;
    introspection: IntrospectionFastPath;
    clock: Clock;
    jwks: () => Promise<{ keys: Record<string, unknown>[] }>;
  },
) {
  /** The provider's request handler, made again when the provider is (a new signing key). */
  let handling: { provider: Provider; handle: ReturnType<Provider['callback']> } | undefined;
  const callback: ReturnType<Provider['callback']> = (req, res) => {
    const provider = deps.provider();
    if (handling?.provider !== provider) handling = { provider, handle: provider.callback() };
    return handling.handle(req, res);
  };
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'application/json'],
      { parseAs: 'buffer', bodyLimit: FORM_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    /**
     * The two discovery documents depend only on the configuration and on the origin the request came to (the provider
     * writes its endpoints for the Host, and the forwarded host and protocol where proxies are trusted). So each is
     * asked of the provider once per origin, with those same headers, and then served as bytes with a strong ETag.
     * While the first answer is being fetched (in-process), requests go to the provider as before.
     */
    const discovered = new Map<string, { body: Buffer; etag: string }>();
    const fetching = new Set<string>();
    async function discovery(request: FastifyRequest) {
      // With a query string the request is the provider's to answer.
      if (!DISCOVERY_PATHS.includes(request.url)) return undefined;
      const origin: Record<string, string> = {};
      for (const name of ['host', 'x-forwarded-host', 'x-forwarded-proto']) {
        const value = request.headers[name];
        if (typeof value === 'string') origin[name] = value;
      }
      const key = `${request.url} ${JSON.stringify(origin)}`;
      const known = discovered.get(key);
      if (known || fetching.has(key) || discovered.size >= 32) return known;
      fetching.add(key);
      try {
        const response = await app.inject({ method: 'GET', url: request.url, headers: origin });
        if (response.statusCode === 200) {
          const body = response.rawPayload;
          const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
          discovered.set(key, { body, etag });
        }
      } finally {
        fetching.delete(key);
      }
      return discovered.get(key);
    }

    /** Hands the request to oidc-provider: as it is, or a replay of it when its body was read above. */
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      const raw = Buffer.isBuffer(request.body) ? replayOf(request.raw, request.body) : request.raw;
      markRequestStart(raw, deps.clock.now().getTime());
      // The security headers set by earlier hooks travel with the hijacked response.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.raw.setHeader('x-request-id', request.id);
      reply.hijack();
      callback(raw, reply.raw);
    };

    const authorize = async (request: FastifyRequest, reply: FastifyReply) => {
      // response_mode=form_post answers with a form that posts to the client's redirect URI. CSP cannot name an
      // IPv6 literal (see redirect-csp.ts), so form_post to http://[::1] stays blocked; the default query mode works.
      const csp = String(reply.getHeader('content-security-policy') ?? '');
      reply.header(
        'content-security-policy',
        withFormAction(csp, ['http://127.0.0.1:*', 'http://localhost:*', 'https:']),
      );
      return forward(request, reply);
    };

    const serveDiscovery = async (request: FastifyRequest, reply: FastifyReply) => {
      const document = request.method === 'GET' ? await discovery(request) : undefined;
      if (!document) return forward(request, reply);
      reply
        .header('access-control-allow-origin', '*')
        .header('vary', 'Origin')
        .header('etag', document.etag)
        .header('cache-control', 'public, max-age=300');
      if (etagMatches(request.headers['if-none-match'], document.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(document.body);
    };

    const introspect = async (request: FastifyRequest, reply: FastifyReply) => {
      // A browser's request (Origin: CORS rules are per client) and any credentials outside the form (Basic,
      // client attestation) go to the provider, which knows how to refuse or accept them; their body is not read here.
      const plain = ['origin', 'authorization', 'oauth-client-attestation', 'oauth-client-attestation-pop'].every(
        (name) => request.headers[name] === undefined,
      );
      if (request.method !== 'POST' || !plain || !isForm(request.raw)) return forward(request, reply);
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await deps.introspection.answer(parseForm(body.toString('utf8')));
      if (answer) return reply.header('cache-control', 'no-store').send(answer);
      return forward(request, reply);
    };

    /**
     * The JWKS from the database rather than this instance's memory: a key a rotation published is on every instance
     * within a minute, before any instance signs with it. Preflights go to the provider, which answers CORS.
     */
    const serveKeys = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET') return forward(request, reply);
      return reply
        .header('content-type', 'application/jwk-set+json; charset=utf-8')
        .header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
        .header('access-control-allow-origin', '*')
        .send(await deps.jwks());
    };

    /** At most `max` requests per address per window; the rest get 429 with Retry-After. */
    const perAddress =
      (name: string, windowSeconds: number, max: number) => async (request: FastifyRequest, reply: FastifyReply) => {
        const state = await deps.limiter.hit(`oauth:${name}:${request.ip}`, windowSeconds);
        if (state.count > max) return sendError(request, reply, errors.rateLimited(state.retryAfterSeconds));
      };
    const limitRegistrations = perAddress('register', 3600, deps.registrationsPerHour);
    // Every authorization request stores an interaction for 10 minutes: a flood must not fill the short-lived store.
    const limitAuthorizations = perAddress('authorize', 60, deps.authorizationsPerMinute);

    type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
    const routes: { url: string; methods: ('GET' | 'POST' | 'OPTIONS')[]; onRequest?: Handler; handler?: Handler }[] = [
      // The spec's authorization endpoint is a browser GET; oidc-provider would answer a POST with a plain-text 404.
      { url: OAUTH_PATHS.authorization, methods: ['GET'], onRequest: limitAuthorizations, handler: authorize },
      { url: `${OAUTH_PATHS.authorization}/:uid`, methods: ['GET'], handler: authorize },
      { url: OAUTH_PATHS.token, methods: ['POST', 'OPTIONS'] },
      { url: OAUTH_PATHS.registration, methods: ['POST'], onRequest: limitRegistrations },
      { url: OAUTH_PATHS.revocation, methods: ['POST', 'OPTIONS'] },
      { url: OAUTH_PATHS.introspection, methods: ['POST', 'OPTIONS'], handler: introspect },
      { url: OAUTH_PATHS.jwks, methods: ['GET', 'OPTIONS'], handler: serveKeys },
      ...DISCOVERY_PATHS.map((url) => ({
        url,
        methods: ['GET', 'OPTIONS'] as ('GET' | 'OPTIONS')[],
        handler: serveDiscovery,
      })),
    ];
    const notAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
      const route = routes.find((r) => r.url === request.routeOptions.url);
      reply.header('allow', (route?.methods ?? []).join(', '));
      return sendError(request, reply, errors.methodNotAllowed(request.method));
    };
    for (const route of routes) {
      const others = (['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
        (m) => !(route.methods as string[]).includes(m),
      );
      scope.route({ method: others, url: route.url, config: { public: true, oauth: true }, handler: notAllowed });
      scope.route({
        method: route.methods,
        url: route.url,
        exposeHeadRoute: false,
        config: { public: true, oauth: true },
        ...(route.onRequest ? { onRequest: route.onRequest } : {}),
        handler: route.handler ?? forward,
      });
    }
  });
}

/** oidc-provider's own limit on a form body. */
const FORM_LIMIT_BYTES = 56 * 1024;

const isForm = (request: IncomingMessage) =>
  /^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers['content-type'] ?? '');

/** A request the provider can read `body` from again (the original stream was spent reading it). */
function replayOf(request: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(request.socket);
  Object.assign(replay, {
    method: request.method,
    url: request.url,
    headers: request.headers,
    rawHeaders: request.rawHeaders,
    httpVersion: request.httpVersion,
    httpVersionMajor: request.httpVersionMajor,
    httpVersionMinor: request.httpVersionMinor,
    // The body is all here: an incomplete message is taken for an aborted one, whose socket Node destroys.
    complete: true,
  });
  replay.push(body);
  replay.push(null);
  return replay;
}
