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
      summary: "Get the school's look: theme, logo, colours, fonts, menus, home page (defaults until changed)",
      response: { 200: Appearance, ...errorResponses(401, 403) },
    },
    handler: async () => service.get(),
  });

  app.patch('/api/v1/appearance', {
    config: { scope: 'appearance:write' },
    schema: {
      operationId: 'updateAppearance',
      tags,
      summary: 'Change the look: a theme takes its colours and fonts; colours, fonts, home key by key; menus whole',
      body: AppearanceUpdate,
      response: { 200: Appearance, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.update(request.body),
  });
}
