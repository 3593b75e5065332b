import {
  type CallToolResult,
  createMcpHandler,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type Tool,
} from '@modelcontextprotocol/server';
import type { Areas } from '../areas/index.ts';
import { unavailableDependency } from '../db/unavailable.ts';
import { ApiError, errors } from '../http/errors.ts';
import type { CallOrigin } from '../http/internal-calls.ts';
import { ANONYMOUS, type Principal } from '../http/principal.ts';
import type { OperationCaller } from '../operations/operation-calls.ts';
import type { OperationTool } from '../operations/operation-tools.ts';
import { type AgentDocument, type CatalogTool, catalogTools } from './catalog-tools.ts';
import { courseMarkdown } from './course-markdown.ts';

/**
 * How many tools, or resources, one list page holds. Every API operation is a tool (about 140 with the commerce
 * areas), and they still fit on one page: a client that reads only the first page misses none.
 */
export const PAGE_SIZE = 200;

export const SERVER_INSTRUCTIONS = `This is an online school run on Lyceum. Without signing in you can search and read its public catalog: start with listCourses (q= searches titles), then getCourseOutline for one course's sections, lessons and free previews; getPricing says what the school sells. The catalog tools come first in the tool list. Every other tool is one operation of the school's REST API, named by its OpenAPI operationId; its description names the scope it needs. Calling one without a token answers HTTP 401, and your MCP client then signs the person in (OAuth) and retries. Rule failures come back as tool errors with {error, error_description}: read error_description, it says what to do.`;

type AnyTool = OperationTool | CatalogTool;
const isOperation = (tool: AnyTool): tool is OperationTool => 'route' in tool;

/** The principal the HTTP layer established for this request (passed through the SDK's authInfo). */
export const principalOf = (extra: Record<string, unknown> | undefined): Principal =>
  (extra?.principal as Principal | undefined) ?? ANONYMOUS;

/** Where the MCP request came from, for the audit log of the operations it runs. */
const originOf = (extra: Record<string, unknown> | undefined) => extra?.origin as CallOrigin | undefined;

const page = <T>(items: readonly T[], cursor: string | undefined) => {
  const start = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
  if (!Number.isInteger(start) || start < 0 || start > items.length)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
  const end = start + PAGE_SIZE;
  return { items: items.slice(start, end), nextCursor: end < items.length ? String(end) : undefined };
};

/**
 * A rule failure the model can read and act on. The {error, error_description} object travels as the text, not as
 * structuredContent: clients validate structuredContent against the tool's outputSchema even on errors.
 */
function errorResult(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

function successResult(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * The MCP server: stateless, one fresh low-level Server per HTTP request (the SDK's createMcpHandler), serving the
 * 2026-07-28 revision and 2025-era clients from the same factory. Tools are the catalog tools and every API
 * operation (derived from the route table); resources are the agent documents and the public courses.
 */
export function mcpHandler(deps: {
  baseUrl: string;
  version: string;
  areas: Areas;
  operations: readonly OperationTool[];
  documents: readonly AgentDocument[];
  callOperation: OperationCaller;
  onError: (error: unknown) => void;
}) {
  const catalog = catalogTools({ areas: deps.areas, documents: deps.documents });
  const catalogNames = new Set(catalog.map((t) => t.name));
  for (const op of deps.operations)
    if (catalogNames.has(op.name)) throw new Error(`MCP tool ${op.name} is both a catalog tool and an operation`);
  // The anonymous catalog first (what an agent without a token can use), then every other operation, area by area.
  const isCatalogRead = (t: OperationTool) => t.anonymous && t.route.method === 'GET';
  const tools: AnyTool[] = [
    ...deps.operations.filter(isCatalogRead),
    ...catalog,
    ...deps.operations.filter((t) => !isCatalogRead(t)),
  ];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed: Tool[] = tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as Tool['inputSchema'],
    outputSchema: t.outputSchema as Tool['outputSchema'],
    annotations: { title: t.title, ...t.annotations },
    _meta: t._meta,
  }));
  const coursePrefix = `${deps.baseUrl}/courses/`;
  const outline = byName.get('getCourseOutline') as CatalogTool;

  async function callTool(name: string, args: Record<string, unknown>, principal: Principal, origin?: CallOrigin) {
    const tool = byName.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    if (isOperation(tool)) {
      const answer = await deps.callOperation(tool, args, principal, origin);
      return answer.status < 300 ? successResult(answer.body) : errorResult(answer.body);
    }
    try {
      return successResult(await tool.run(args, principal));
    } catch (error) {
      if (error instanceof ApiError) return errorResult(error.toBody());
      // The database restarting: the same answer as the API's 503, and nothing for the error log.
      if (unavailableDependency(error)) return errorResult(errors.temporarilyUnavailable().toBody());
      deps.onError(error);
      return errorResult({ error: 'server_error', error_description: 'The server could not complete the request.' });
    }
  }

  function build(principal: Principal, origin?: CallOrigin) {
    const server = new Server(
      { name: 'lyceum', title: 'Lyceum school', version: deps.version },
      { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: SERVER_INSTRUCTIONS },
    );
    server.setRequestHandler('tools/list', async (request) => {
      const { items, nextCursor } = page(listed, request.params?.cursor);
      return { tools: items, ...(nextCursor ? { nextCursor } : {}) };
    });
    server.setRequestHandler('tools/call', async (request) =>
      callTool(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, principal, origin),
    );
    server.setRequestHandler('resources/list', async (request) => {
      const cursor = request.params?.cursor;
      const documents = cursor
        ? []
        : deps.documents.map((d) => ({ uri: d.url, name: d.name, title: d.title, mimeType: d.mimeType }));
      const courses = await deps.areas.courses.list(ANONYMOUS, {
        limit: PAGE_SIZE,
        ...(cursor ? { starting_after: cursor } : {}),
      });
      return {
        resources: [
          ...documents,
          ...courses.data.map((c) => ({
            uri: `${coursePrefix}${c.slug}`,
            name: c.slug,
            title: c.title,
            description: c.subtitle || undefined,
            mimeType: 'text/markdown',
          })),
        ],
        ...(courses.next_cursor ? { nextCursor: courses.next_cursor } : {}),
      };
    });
    server.setRequestHandler('resources/templates/list', async () => ({
      resourceTemplates: [
        {
          uriTemplate: `${coursePrefix}{slug}`,
          name: 'course',
          title: 'A course with its outline',
          description: 'A published course by its slug: description, price, lecturers and curriculum outline.',
          mimeType: 'text/markdown',
        },
      ],
    }));
    server.setRequestHandler('resources/read', async (request) => {
      const uri = request.params.uri;
      const document = deps.documents.find((d) => d.url === uri);
      if (document) return { contents: [{ uri, mimeType: document.mimeType, text: await document.load() }] };
      if (uri.startsWith(coursePrefix)) {
        try {
          const slug = decodeURIComponent(uri.slice(coursePrefix.length));
          const course = await outline.run({ course: slug }, ANONYMOUS);
          return { contents: [{ uri, mimeType: 'text/markdown', text: courseMarkdown(course, deps.baseUrl) }] };
        } catch (error) {
          if (!(error instanceof ApiError) && !(error instanceof URIError)) throw error;
        }
      }
      throw new ResourceNotFoundError(uri);
    });
    server.setRequestHandler('prompts/list', async () => ({
      prompts: [
        {
          name: 'find_a_course',
          title: 'Find a course',
          description: 'Search this school for a course on a topic and explain what it covers and costs.',
          arguments: [{ name: 'topic', description: 'What the person wants to learn', required: true }],
        },
      ],
    }));
    server.setRequestHandler('prompts/get', async (request) => {
      if (request.params.name !== 'find_a_course')
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
      const topic = String(request.params.arguments?.topic ?? '').trim();
      if (!topic) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'The topic argument is required.');
      return {
        description: 'Find a course',
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: `Find courses about "${topic}" at this school. Call listCourses with q set to a key word of the topic (try a few), then getCourseOutline for the best matches, and tell me what each covers, how long it is, what it costs (getPricing) and which lessons I can preview for free.`,
            },
          },
        ],
      };
    });
    return server;
  }

  const handler = createMcpHandler(({ authInfo }) => build(principalOf(authInfo?.extra), originOf(authInfo?.extra)), {
    onerror: (error) => deps.onError(error),
  });
  return { handler, byName };
}

export type McpHandler = ReturnType<typeof mcpHandler>;
