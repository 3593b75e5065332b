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
import type { ToolDescription } from '../operations/tool-description.ts';
import { argumentChecker } from './arguments.ts';
import { type AgentDocument, type CatalogTool, catalogTools } from './catalog-tools.ts';
import { courseMarkdown } from './course-markdown.ts';
import {
  CALL_TOOL,
  DESCRIBE_TOOL,
  FIND_TOOL,
  operationIndexTools,
  targetOf,
  unknownOperation,
} from './operation-index.ts';

/** How many tools, or resources, one list page holds; the default tool list is far shorter than one page. */
export const PAGE_SIZE = 200;

/**
 * The default `tools/list`: what an agent needs before it knows anything else, small enough for any host's context.
 * The anonymous catalog, the signed-in learner's essentials, and the operation index (find, describe, call) that
 * reaches every other operation. Everything else is reachable by name too, for clients that already know it.
 */
export const DEFAULT_TOOLS = [
  // The public catalog: no token needed.
  'listCourses',
  'getCourse',
  'getCourseOutline',
  'getLesson',
  'getPricing',
  'listEvents',
  'listMembershipPlans',
  'getSchool',
  // The signed-in learner: their courses and progress, learning, buying.
  'listStudentEnrollments',
  'getStudentProgress',
  'completeMyLesson',
  'submitMyQuizAttempt',
  'enrollMyself',
  'quoteCheckout',
  'startCheckout',
  'registerForEvent',
  // Everything else.
  FIND_TOOL,
  DESCRIBE_TOOL,
  CALL_TOOL,
] as const;

export const SERVER_INSTRUCTIONS = `This is an online school run on Lyceum. Without signing in you can search and read its public catalog: listCourses (q= searches titles), getCourseOutline for a course's sections, lessons and free previews, getPricing for what the school sells. A signed-in learner's tools take "me" for their own student id (listStudentEnrollments, getStudentProgress). Every other operation of the school's REST API is reached with findOperations (by words or area), describeOperation (its arguments) and callOperation (run it by operationId). A tool that needs a scope answers HTTP 401 without a token: your MCP client then signs the person in (OAuth) and retries. Operations that create take an optional idempotency_key: reuse it when retrying. Rule failures come back as tool errors with {error, error_description}: read error_description, it says what to do.`;

type AnyTool = OperationTool | CatalogTool;
const isOperation = (tool: ToolDescription): tool is OperationTool => 'route' in tool;

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
 * 2026-07-28 revision and 2025-era clients from the same factory. Every API operation is a tool (derived from the
 * route table); `tools/list` shows the default few (DEFAULT_TOOLS) and the operation index reaches the rest.
 * Resources are the agent documents and the public courses.
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
  const index = operationIndexTools(deps.operations);
  const handWritten: CatalogTool[] = [
    ...catalogTools({ areas: deps.areas, documents: deps.documents }),
    index.find,
    index.describe,
  ];
  const names = new Set([...handWritten.map((t) => t.name), CALL_TOOL]);
  for (const op of deps.operations)
    if (names.has(op.name)) throw new Error(`MCP tool ${op.name} is both written by hand and an operation`);
  const tools: AnyTool[] = [...deps.operations, ...handWritten];
  const byName = new Map<string, AnyTool | typeof index.call>(tools.map((t) => [t.name, t]));
  byName.set(CALL_TOOL, index.call);
  const listed: Tool[] = DEFAULT_TOOLS.flatMap((name) => {
    const t = byName.get(name);
    // getPricing exists only when the school serves /pricing.md.
    if (!t) return [];
    return [
      {
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema as Tool['inputSchema'],
        // Structured output where a model reads fields; the lists and records say their shape in describeOperation.
        ...(isOperation(t) ? {} : { outputSchema: t.outputSchema as Tool['outputSchema'] }),
        annotations: t.annotations,
        _meta: t._meta,
      },
    ];
  });
  const check = argumentChecker();
  const checks = new Map([...handWritten, index.call].map((t) => [t.name, check(t.inputSchema)]));
  const coursePrefix = `${deps.baseUrl}/courses/`;
  const outline = byName.get('getCourseOutline') as CatalogTool;

  async function callTool(
    name: string,
    given: Record<string, unknown>,
    principal: Principal,
    origin?: CallOrigin,
  ): Promise<CallToolResult> {
    const tool = byName.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    if ('route' in tool) {
      const answer = await deps.callOperation(tool, given, principal, origin);
      return answer.status < 300 ? successResult(answer.body) : errorResult(answer.body);
    }
    const args = structuredClone(given);
    const invalid = checks.get(name)?.(args);
    if (invalid) return errorResult(invalid.toBody());
    if (name === CALL_TOOL) {
      const target = byName.get(String(args.operation));
      if (!target || !isOperation(target)) return errorResult(unknownOperation(String(args.operation)).toBody());
      return callTool(target.name, args.arguments as Record<string, unknown>, principal, origin);
    }
    try {
      return successResult(await (tool as CatalogTool).run(args, principal));
    } catch (error) {
      if (error instanceof ApiError) return errorResult(error.toBody());
      // The database restarting: the same answer as the API's 503, and nothing for the error log.
      if (unavailableDependency(error)) return errorResult(errors.temporarilyUnavailable().toBody());
      deps.onError(error);
      return errorResult({ error: 'server_error', error_description: 'The server could not complete the request.' });
    }
  }

  /** The tool a tools/call of `name` with `args` runs (callOperation: the operation it names), if there is one. */
  const toolFor = (name: string, args: unknown): AnyTool | undefined => {
    const target = targetOf(name, args);
    const tool = target === undefined ? undefined : byName.get(target);
    return tool && tool.name !== CALL_TOOL ? (tool as AnyTool) : undefined;
  };

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
          const course = await outline.run({ id: slug }, ANONYMOUS);
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
  return { handler, toolFor, listed };
}

export type McpHandler = ReturnType<typeof mcpHandler>;
