import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import { OutboxIdParams, OutboxListQuery, OutboxMessage, OutboxPage } from './schema.ts';
import type { OutboxService } from './service.ts';

const tags = ['outbox'];
// The school's mail is the owner's to read; the scope is the school's, the rows the owner's (see the service).
const read = { scope: 'school:read' } as const;

export function outboxRoutes(fastify: FastifyInstance, service: OutboxService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/outbox', {
    config: read,
    schema: {
      operationId: 'listOutboxMessages',
      tags,
      summary: 'List the messages the school sent or holds (the owner only; others get an empty list)',
      querystring: OutboxListQuery,
      response: { 200: OutboxPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/outbox/:id', {
    config: read,
    schema: {
      operationId: 'getOutboxMessage',
      tags,
      summary: 'Get one message with its text and HTML bodies (the owner only)',
      params: OutboxIdParams,
      response: { 200: OutboxMessage, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });
}
