import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { etagMatches } from '../discovery/conditional.ts';
import { sendError } from '../http/error-handler.ts';
import { errors } from '../http/errors.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
import { markRequestStart } from './adapter.ts';
import { OAUTH_PATHS } from './provider.ts';
import { withFormAction } from './redirect-csp.ts';

const DISCOVERY_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/**
 * Hands the provider's own paths to oidc-provider, and nothing else. Fastify must not read the body on these routes
 * (the provider parses the raw stream itself), so this scope replaces every content-type parser with one that leaves
 * the stream untouched, and each handler hijacks the reply.
 */
export async function mountProvider(
  app: FastifyInstance,
  deps: { provider: Provider; limiter: RateLimiter; registrationsPerHour: number },
) {
  const callback = deps.provider.callback();
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
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

    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'GET') {
        const document = await discovery(request);
        if (document) {
          reply
            .header('access-control-allow-origin', '*')
            .header('vary', 'Origin')
            .header('etag', document.etag)
            .header('cache-control', 'public, max-age=300');
          if (etagMatches(request.headers['if-none-match'], document.etag)) return reply.code(304).send();
          return reply.type('application/json; charset=utf-8').send(document.body);
        }
      }
      markRequestStart(request.raw);
      // The security headers set by earlier hooks travel with the hijacked response.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.raw.setHeader('x-request-id', request.id);
      if (request.url.startsWith(OAUTH_PATHS.authorization)) {
        // response_mode=form_post answers with a form that posts to the client's redirect URI. CSP cannot name an
        // IPv6 literal (see redirect-csp.ts), so form_post to http://[::1] stays blocked; the default query mode works.
        const csp = String(reply.getHeader('content-security-policy') ?? '');
        reply.raw.setHeader(
          'content-security-policy',
          withFormAction(csp, ['http://127.0.0.1:*', 'http://localhost:*', 'https:']),
        );
      }
      reply.hijack();
      callback(request.raw, reply.raw);
    };

    const limitRegistrations = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'POST') return;
      const state = await deps.limiter.hit(`oauth:register:${request.ip}`, 3600);
      if (state.count > deps.registrationsPerHour)
        return sendError(request, reply, errors.rateLimited(state.retryAfterSeconds));
    };

    const routes: { url: string; methods: ('GET' | 'POST' | 'OPTIONS')[]; onRequest?: typeof limitRegistrations }[] = [
      // The spec's authorization endpoint is a browser GET; oidc-provider would answer a POST with a plain-text 404.
      { url: OAUTH_PATHS.authorization, methods: ['GET'] },
      { url: `${OAUTH_PATHS.authorization}/:uid`, methods: ['GET'] },
      { url: OAUTH_PATHS.token, methods: ['POST', 'OPTIONS'] },
      { url: OAUTH_PATHS.registration, methods: ['POST'], onRequest: limitRegistrations },
      { url: OAUTH_PATHS.revocation, methods: ['POST', 'OPTIONS'] },
      { url: OAUTH_PATHS.introspection, methods: ['POST', 'OPTIONS'] },
      { url: OAUTH_PATHS.jwks, methods: ['GET', 'OPTIONS'] },
      { url: '/.well-known/openid-configuration', methods: ['GET', 'OPTIONS'] },
      { url: '/.well-known/oauth-authorization-server', methods: ['GET', 'OPTIONS'] },
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
        handler: forward,
      });
    }
  });
}
