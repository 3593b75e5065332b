import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import { School, SchoolUpdate } from './schema.ts';
import type { SchoolService } from './service.ts';

const tags = ['school'];

export function schoolRoutes(fastify: FastifyInstance, service: SchoolService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/school', {
    config: { scope: 'school:read', anonymous: true },
    schema: {
      operationId: 'getSchool',
      tags,
      summary: "Get the school's settings (anonymous callers: without the support address)",
      response: { 200: School, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal),
  });

  app.patch('/api/v1/school', {
    config: { scope: 'school:write' },
    schema: {
      operationId: 'updateSchool',
      tags,
      summary: "Change the school's settings",
      body: SchoolUpdate,
      response: { 200: School, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.update(request.body),
  });
}
