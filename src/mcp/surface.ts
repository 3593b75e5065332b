import type { FastifyInstance } from 'fastify';
import type { ResponseCache } from '../http/response-cache.ts';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import { registerMcpRoutes } from './routes.ts';
import { mcpHandler } from './server.ts';

/** MCP at `/mcp` as a surface of the app: the catalog tools and every API operation as a tool. Answers the handler. */
export async function registerMcpSurface(
  app: FastifyInstance,
  deps: Omit<Parameters<typeof mcpHandler>[0], 'onError'> & { verify: AccessTokenVerifier; responses: ResponseCache },
) {
  const { verify, responses, ...handler } = deps;
  const mcp = mcpHandler({ ...handler, onError: (error) => app.log.error({ err: error }, 'MCP request failed') });
  await registerMcpRoutes(app, { mcp, verify, baseUrl: deps.baseUrl, responses });
  return mcp;
}
