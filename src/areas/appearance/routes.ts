import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import { Appearance, AppearanceUpdate } from './schema.ts';
import type { AppearanceService } from './service.ts';

const tags = ['appearance'];

export function appearanceRoutes(fastify: FastifyInstance, service: AppearanceService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/appearance', {
    config: { scope: 'appearance:read', anonymous: true },
    schema: {
      operationId: 'getAppearance',
      tags,
      summary: "Get the school's logo, colours, fonts, navigation and custom CSS (the defaults until changed)",
      response: { 200: Appearance, ...errorResponses(401, 403) },
    },
    handler: async () => service.get(),
  });

  app.patch('/api/v1/appearance', {
    config: { scope: 'appearance:write' },
    schema: {
      operationId: 'updateAppearance',
      tags,
      summary: "Change the school's appearance (colours and fonts key by key; navigation as a whole)",
      body: AppearanceUpdate,
      response: { 200: Appearance, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.update(request.body),
  });
}
