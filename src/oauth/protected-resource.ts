import type { FastifyInstance } from 'fastify';
import { resourceIdentifiers } from '../security/oauth-endpoints.ts';
import { ALL_SCOPES } from '../security/scopes.ts';

/** Protected Resource Metadata (RFC 9728) for the REST API and for the MCP server. */
export function registerProtectedResourceMetadata(app: FastifyInstance, deps: { baseUrl: string }) {
  const resources = resourceIdentifiers(deps.baseUrl);
  const document = (resource: string) => ({
    resource,
    authorization_servers: [deps.baseUrl],
    scopes_supported: ALL_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: resource === resources.mcp ? 'Lyceum MCP server' : 'Lyceum API',
    resource_documentation: `${deps.baseUrl}/auth.md`,
  });
  const config = { public: true };
  app.get('/.well-known/oauth-protected-resource', { config }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return document(resources.api);
  });
  app.get('/.well-known/oauth-protected-resource/mcp', { config }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return document(resources.mcp);
  });
}
