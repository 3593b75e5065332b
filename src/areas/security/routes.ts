import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import {
  OAuthClientDetail,
  OAuthClientIdParams,
  OAuthClientListQuery,
  OAuthClientPage,
  SignInListQuery,
  SignInPage,
} from './schema.ts';
import type { SecurityService } from './service.ts';

const tags = ['security'];
// The interface's scopes are an exact set: the front door is the school's own settings; rows are staff-only.
const read = { scope: 'school:read' } as const;
const write = { scope: 'school:write' } as const;

const actions = {
  'revoke-grants': [
    'revokeOAuthClientGrants',
    "End every grant of an app (all its users' tokens stop working)",
    'revokeGrants',
  ],
  block: ['blockOAuthClient', 'Block an app: its grants end and it can no longer authorize or get tokens', 'block'],
  unblock: ['unblockOAuthClient', 'Unblock an app (people connect it again from scratch)', 'unblock'],
} as const;

export function securityRoutes(fastify: FastifyInstance, service: SecurityService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/oauth-clients', {
    config: read,
    schema: {
      operationId: 'listOAuthClients',
      tags,
      summary: 'List the registered apps (OAuth clients) with their grants and last use (staff)',
      querystring: OAuthClientListQuery,
      response: { 200: OAuthClientPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.listClients(request.principal, request.query),
  });

  app.get('/api/v1/oauth-clients/:id', {
    config: read,
    schema: {
      operationId: 'getOAuthClient',
      tags,
      summary: 'Get a registered app with the people who connected it (staff)',
      params: OAuthClientIdParams,
      response: { 200: OAuthClientDetail, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.getClient(request.principal, request.params.id),
  });

  for (const [path, [operationId, summary, method]] of Object.entries(actions)) {
    app.post(`/api/v1/oauth-clients/:id/${path}`, {
      config: write,
      schema: {
        operationId,
        tags,
        summary,
        params: OAuthClientIdParams,
        response: { 200: OAuthClientDetail, ...errorResponses(401, 403, 404) },
      },
      handler: async (request) => service[method](request.principal, request.params.id),
    });
  }

  app.get('/api/v1/sign-in-activity', {
    config: read,
    schema: {
      operationId: 'listSignInActivity',
      tags,
      summary: "List the school's sign-in attempts, newest first, kept 90 days (staff)",
      querystring: SignInListQuery,
      response: { 200: SignInPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.listSignIns(request.principal, request.query),
  });
}
