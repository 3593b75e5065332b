import type { FastifyInstance } from 'fastify';
import type { Areas } from '../areas/index.ts';
import type { ResponseCache } from '../http/response-cache.ts';
import type { OperationCaller } from '../operations/operation-calls.ts';
import type { OperationTool } from '../operations/operation-tools.ts';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import type { AgentDocument } from './catalog-tools.ts';
import { registerMcpRoutes } from './routes.ts';
import { mcpHandler } from './server.ts';

/** MCP at `/mcp` as a surface of the app: the catalog tools and every API operation as a tool. Answers the handler. */
export async function registerMcpSurface(
  app: FastifyInstance,
  deps: {
    baseUrl: string;
    version: string;
    areas: Areas;
    operations: readonly OperationTool[];
    documents: readonly AgentDocument[];
    callOperation: OperationCaller;
    verify: AccessTokenVerifier;
    responses: ResponseCache;
  },
) {
  const mcp = mcpHandler({
    baseUrl: deps.baseUrl,
    version: deps.version,
    areas: deps.areas,
    operations: deps.operations,
    documents: deps.documents,
    callOperation: deps.callOperation,
    onError: (error) => app.log.error({ err: error }, 'MCP request failed'),
  });
  await registerMcpRoutes(app, { mcp, verify: deps.verify, baseUrl: deps.baseUrl, responses: deps.responses });
  return mcp;
}
