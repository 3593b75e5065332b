import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import { AuditEntry, AuditIdParams, AuditListQuery, AuditPage } from './schema.ts';
import type { AuditService } from './service.ts';

const tags = ['audit'];
// The interface's scopes are an exact set, so the log is read under the school's own scope; its rows are staff-only
// (see the service), as the outbox's are the owner's.
const read = { scope: 'school:read' } as const;

/** Read-only by design: there is no route that writes, changes or removes an entry. */
export function auditRoutes(fastify: FastifyInstance, service: AuditService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/audit-log', {
    config: read,
    schema: {
      operationId: 'listAuditLog',
      tags,
      summary: 'List the audit log: every write, newest first (staff; others get an empty list)',
      description:
        'Who (person and app), what (operation and object), when and from where, for every write made through the API, MCP, the CLI or the admin. `since`/`until` bound the time.',
      querystring: AuditListQuery,
      response: { 200: AuditPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/audit-log/:id', {
    config: read,
    schema: {
      operationId: 'getAuditLogEntry',
      tags,
      summary: 'Get one entry of the audit log (staff)',
      params: AuditIdParams,
      response: { 200: AuditEntry, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });
}
