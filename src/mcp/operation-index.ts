import { errors } from '../http/errors.ts';
import type { OperationTool } from '../operations/operation-tools.ts';
import type { JsonSchema } from '../operations/tool-description.ts';
import type { CatalogTool } from './catalog-tools.ts';

/** The three tools that reach every API operation not in the default list: find, describe, call. */
export const FIND_TOOL = 'findOperations';
export const DESCRIBE_TOOL = 'describeOperation';
export const CALL_TOOL = 'callOperation';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const OPERATION_ARGUMENT: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'An operationId, as findOperations lists it',
};

const FOUND_LIMIT = 25;

/** operationId words ("bulkCreateCoupons" → "bulk create coupons"), so a search for "create coupon" finds it. */
const wordsOf = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** One line an agent can skim: name, what it does, the scope it needs, whether it changes anything. */
export function operationLine(op: OperationTool) {
  return {
    name: op.name,
    summary: String(op.title),
    scope: op.scope,
    ...(op.anonymous ? { anonymous: true } : {}),
    ...(op.annotations.readOnlyHint ? {} : { writes: true }),
  };
}

/**
 * The generic tools over the operation table: `findOperations` (words and/or area → one line per operation) and
 * `describeOperation` (one operation's schemas, on demand). `callOperation` is described here and run by the server,
 * which answers it exactly as the named operation's own tool (same scope check, same result).
 */
export function operationIndexTools(operations: readonly OperationTool[]) {
  const byName = new Map(operations.map((op) => [op.name, op]));
  const areas = [...new Set(operations.map((op) => String(op._meta['lyceum/area'])))];
  const haystack = new Map(
    operations.map((op) => [
      op.name,
      `${wordsOf(op.name)} ${op.name.toLowerCase()} ${op.title.toLowerCase()} ${String(op._meta['lyceum/area'])}`,
    ]),
  );
  const meta = { 'lyceum/scope': 'courses:read', 'lyceum/anonymous': true, 'lyceum/area': 'operations' };

  const find: CatalogTool = {
    name: FIND_TOOL,
    title: 'Find API operations',
    description:
      'Search every operation of the school API by words (e.g. "refund order", "coupon") and/or area. Answers one ' +
      'line each: operationId, summary, scope. Then describeOperation for its arguments, callOperation to run it.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: 200, description: 'Words to match in the operationId or summary' },
        area: { type: 'string', enum: areas, description: 'Only this area' },
        limit: { type: 'integer', minimum: 1, maximum: 200, default: FOUND_LIMIT },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        operations: { type: 'array', items: { type: 'object' } },
        total: { type: 'integer' },
        areas: { type: 'array', items: { type: 'string' } },
      },
      required: ['operations', 'total', 'areas'],
    },
    annotations: READ,
    _meta: meta,
    scope: 'courses:read',
    anonymous: true,
    async run(args) {
      const words = String(args.query ?? '')
        .toLowerCase()
        .split(/\W+/)
        .filter(Boolean)
        // "coupons" finds "Coupon": a trailing s is not a word of its own.
        .map((word) => (word.length > 3 ? word.replace(/s$/, '') : word));
      const matched = operations.filter(
        (op) =>
          (args.area === undefined || op._meta['lyceum/area'] === args.area) &&
          words.every((word) => haystack.get(op.name)?.includes(word)),
      );
      const limit = typeof args.limit === 'number' ? args.limit : FOUND_LIMIT;
      return { operations: matched.slice(0, limit).map(operationLine), total: matched.length, areas };
    },
  };

  const describe: CatalogTool = {
    name: DESCRIBE_TOOL,
    title: 'Describe an API operation',
    description:
      'One operation by operationId: what it does, its scope, HTTP call, hints, and its input and output JSON ' +
      'Schemas — the arguments callOperation takes for it.',
    inputSchema: {
      type: 'object',
      properties: { operation: OPERATION_ARGUMENT },
      required: ['operation'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object' },
      },
      required: ['name', 'inputSchema', 'outputSchema'],
    },
    annotations: READ,
    _meta: meta,
    scope: 'courses:read',
    anonymous: true,
    async run(args) {
      const op = byName.get(String(args.operation));
      if (!op) throw unknownOperation(String(args.operation));
      return {
        name: op.name,
        description: op.description,
        scope: op.scope,
        anonymous: op.anonymous,
        http: op._meta['lyceum/http'],
        annotations: op.annotations,
        inputSchema: op.inputSchema,
        outputSchema: op.outputSchema,
      };
    },
  };

  const call: Omit<CatalogTool, 'run'> = {
    name: CALL_TOOL,
    title: 'Call an API operation',
    description:
      'Run any operation by operationId with its arguments (see describeOperation), as the signed-in person. ' +
      'Answers exactly as that operation would; one needing a scope you lack starts sign-in (HTTP 401/403).',
    inputSchema: {
      type: 'object',
      properties: {
        operation: OPERATION_ARGUMENT,
        arguments: { type: 'object', description: "The operation's arguments", default: {} },
      },
      required: ['operation'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object' },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    _meta: meta,
    scope: 'courses:read',
    anonymous: true,
  };

  return { find, describe, call, byName };
}

/** An operationId that names no operation: an invalid_request, as a wrong argument of any tool is. */
export const unknownOperation = (name: string) =>
  errors.invalidRequest(`operation: no operation "${name}"; findOperations lists them.`, [
    { field: 'operation', code: 'unknown', message: `No operation "${name}".` },
  ]);

/**
 * The tool a tools/call runs: the named tool, or for callOperation the operation it names (a string, else none), so
 * the HTTP layer checks the scope of what will actually run.
 */
export function targetOf(name: string, args: unknown): string | undefined {
  if (name !== CALL_TOOL) return name;
  const operation = (args as { operation?: unknown } | null | undefined)?.operation;
  return typeof operation === 'string' ? operation : undefined;
}
