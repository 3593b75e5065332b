import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../config.ts';
import type { RateLimiter } from '../security/rate-limiter.ts';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import type { Clock } from '../time/clock.ts';
import { introspectionFastPath } from './introspection.ts';
import { mountProvider } from './mount.ts';
import { registerProtectedResourceMetadata } from './protected-resource.ts';
import { registerUserinfo } from './userinfo.ts';

/**
 * The authorization server as a surface of the app: oidc-provider's own endpoints (with the introspection fast path
 * and the rate limits in front of registration and authorization), userinfo, and the protected resource metadata.
 * Its pages (sign-in and consent) are registered with the other pages.
 */
export async function registerOAuthSurface(
  app: FastifyInstance,
  deps: {
    /** The provider as it signs now (signing-key-keeper.ts): asked for each request. */
    provider: () => Provider;
    limiter: RateLimiter;
    config: Config;
    clock: Clock;
    verify: AccessTokenVerifier;
    /** The published signing keys, read from where rotations write them. */
    jwks: () => Promise<{ keys: Record<string, unknown>[] }>;
  },
) {
  const { provider, config } = deps;
  const introspection = introspectionFastPath({
    verify: deps.verify,
    issuer: config.BASE_URL,
    findClient: (clientId) => provider().Client.find(clientId),
  });
  await mountProvider(app, {
    provider,
    limiter: deps.limiter,
    registrationsPerHour: config.OAUTH_REGISTRATIONS_PER_HOUR,
    authorizationsPerMinute: config.OAUTH_AUTHORIZATIONS_PER_MINUTE,
    introspection,
    clock: deps.clock,
    jwks: deps.jwks,
  });
  registerUserinfo(app, { verify: deps.verify, baseUrl: config.BASE_URL });
  registerProtectedResourceMetadata(app, { baseUrl: config.BASE_URL });
}
