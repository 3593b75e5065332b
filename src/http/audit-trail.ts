import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { CompiledQuery } from 'kysely';
import type { AuditTrail } from '../db/audited-dialect.ts';
import { newId } from '../db/ids.ts';
import type { RequestWrites } from '../db/request-writes.ts';
import type { Engine } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Tables a write touches on the side (the Idempotency-Key, queued work and e-mail): never the object of a create. */
const SIDE_TABLES = new Set([
  'idempotency_keys',
  'jobs',
  'outbox',
  'user_tokens',
  'counters',
  'revenue_slots',
  'audit_log',
]);

const COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor_email',
  'actor_role',
  'client_id',
  'client_name',
  'channel',
  'operation',
  'method',
  'path',
  'object_type',
  'object_id',
  'fields',
  'ip',
  'user_agent',
  'request_id',
] as const;

/**
 * The audit row as SQL: the person's e-mail and the app's name are copied in by subqueries of the same statement, so
 * writing the row costs one statement in the write's transaction and reads nothing beforehand.
 */
function rowQuery(engine: Engine, values: Record<(typeof COLUMNS)[number], unknown>): CompiledQuery {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value ?? null);
    return engine === 'postgres' ? `$${params.length}` : '?';
  };
  const name = engine === 'postgres' ? `payload::json ->> 'client_name'` : `json_extract(payload, '$.client_name')`;
  // Placeholders are numbered (PostgreSQL) or positional (SQLite) in the order they are made: one pass, in order.
  const placeholders = COLUMNS.map((column) => {
    if (column === 'actor_email') return `(select email from users where id = ${p(values.actor_id)})`;
    if (column === 'client_name')
      return `(select ${name} from oauth_models where model = 'Client' and id = ${p(values.client_id)})`;
    return p(values[column]);
  });
  return CompiledQuery.raw(`insert into audit_log (${COLUMNS.join(', ')}) values (${placeholders.join(', ')})`, params);
}

/** The one route of the API a request runs, as the audit log names it. */
type AuditedRoute = { method: string; url: string; operation: string };

function trailOf(
  request: FastifyRequest,
  route: AuditedRoute,
  deps: { clock: Clock; engine: Engine },
): AuditTrail & {
  close(): void;
} {
  let claimed = false;
  let closed = false;
  let created: { table: string; id: string } | undefined;
  const params = (request.params ?? {}) as Record<string, string>;
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const objectParam =
    params.id ?? (paramNames.length ? params[paramNames[paramNames.length - 1] as string] : undefined);
  const area = route.url.replace(/^\/api\/v1\//, '').split('/')[0] ?? '';
  const principal = request.principal;
  const user = principal?.kind === 'user' ? principal : undefined;
  const origin = request.callOrigin ?? {
    channel: 'api' as const,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    requestId: request.id,
  };
  const body = request.body;
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  return {
    get pending() {
      return !claimed && !closed;
    },
    claim() {
      if (claimed || closed) return false;
      claimed = true;
      return true;
    },
    release() {
      claimed = false;
    },
    inserted(table, id) {
      if (!created && id && !SIDE_TABLES.has(table)) created = { table, id };
    },
    row() {
      const makes = route.operation.startsWith('create') || !objectParam;
      const object =
        makes && created ? { type: created.table, id: created.id } : { type: area, id: objectParam ?? created?.id };
      return rowQuery(deps.engine, {
        id: newId('aud'),
        at: deps.clock.now().toISOString(),
        actor_id: user?.userId,
        actor_email: undefined,
        actor_role: user?.role,
        client_id: user?.clientId || null,
        client_name: undefined,
        channel: origin.channel,
        operation: route.operation,
        method: route.method,
        path: (request.url.split('?')[0] ?? '').slice(0, 500),
        object_type: object.type || null,
        object_id: object.id ?? null,
        fields: JSON.stringify(fields),
        ip: origin.ip,
        user_agent: origin.userAgent?.slice(0, 300),
        request_id: origin.requestId ?? request.id,
      });
    },
    close() {
      closed = true;
    },
  };
}

/**
 * Wraps the handler of every write route of the API in its request's write context (db/request-writes.ts): its audit
 * trail, whose row db/audited-dialect.ts writes in each transaction the handler's writes commit, and its
 * Idempotency-Key (http/idempotency.ts, set before the handler runs), whose answer the service writes with the create. Only the handler runs under the trail: the guard's token bookkeeping before it is
 * not the operation, and work the handler leaves running after it answers (a job it kicked) is not the operation's
 * either. Returns the routes it armed, so a test can check that none was missed.
 */
export function installAuditTrail(app: FastifyInstance, deps: { writes: RequestWrites; clock: Clock; engine: Engine }) {
  const armed: AuditedRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().filter((m) => WRITE_METHODS.has(m));
    if (!route.url.startsWith('/api/v1/') || methods.length === 0) return;
    const audited = { method: methods[0] as string, url: route.url, operation: String(route.schema?.operationId) };
    armed.push(audited);
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function (request, reply) {
      const trail = trailOf(request, { ...audited, method: request.method }, deps);
      try {
        return await deps.writes.run({ trail, keyed: request.idempotency }, () => handler.call(this, request, reply));
      } finally {
        trail.close();
      }
    };
  });
  return { armed };
}
