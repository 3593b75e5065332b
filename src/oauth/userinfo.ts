import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../http/bearer-token.ts';
import { sendError } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';
import { bearerChallenge } from '../http/www-authenticate.ts';
import { OAUTH_PATHS, resourceIdentifiers } from '../security/oauth-endpoints.ts';
import type { AccessTokenVerifier } from '../security/token-principal.ts';

/**
 * OIDC UserInfo served from the same token validation the API uses: oidc-provider's built-in endpoint refuses
 * tokens bound to a resource, and every token here is bound to one.
 */
export function registerUserinfo(app: FastifyInstance, deps: { verify: AccessTokenVerifier; baseUrl: string }) {
  const resources = resourceIdentifiers(deps.baseUrl);
  const resourceMetadata = `${deps.baseUrl}/.well-known/oauth-protected-resource`;
  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    error: 'invalid_token' | 'insufficient_scope',
    description: string,
  ) => {
    reply.header('www-authenticate', bearerChallenge({ error, description, scope: 'openid', resourceMetadata }));
    return sendError(request, reply, new ApiError(error, description));
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const { token, malformed } = bearerToken(request.headers.authorization);
    if (malformed)
      return refuse(request, reply, 'invalid_token', 'The Authorization header must be "Bearer <access token>".');
    if (!token)
      return refuse(request, reply, 'insufficient_scope', 'UserInfo needs an access token with the openid scope.');
    const principal = await deps.verify(token);
    if (!principal || (principal.audience !== resources.api && principal.audience !== resources.mcp)) {
      return refuse(request, reply, 'invalid_token', 'The access token is invalid, expired or revoked.');
    }
    if (!principal.scopes.has('openid'))
      return refuse(request, reply, 'insufficient_scope', 'The access token lacks the openid scope.');
    return {
      sub: principal.userId,
      ...(principal.scopes.has('profile') ? { name: principal.name } : {}),
      ...(principal.scopes.has('email') ? { email: principal.email, email_verified: principal.emailVerified } : {}),
    };
  };
  const config = { public: true, oauth: true };
  app.get(OAUTH_PATHS.userinfo, { config }, handler);
  app.post(OAUTH_PATHS.userinfo, { config }, handler);
}
