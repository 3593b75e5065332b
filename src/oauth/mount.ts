import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { sendError } from '../http/error-handler.ts';
import { errors } from '../http/errors.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
import { markRequestStart } from './adapter.ts';
import { OAUTH_PATHS } from './provider.ts';
import { withFormAction } from './redirect-csp.ts';

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

    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
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
