import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import { Page, PageCreate, PageIdParams, PageKeyParams, PageList, PageListQuery, PageUpdate } from './schema.ts';
import type { PagesService } from './service.ts';

const tags = ['pages'];
const read = { scope: 'pages:read', anonymous: true } as const;
const write = { scope: 'pages:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function pagesRoutes(fastify: FastifyInstance, service: PagesService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/pages', {
    config: read,
    schema: {
      operationId: 'listPages',
      tags,
      summary: 'List pages (published ones only, unless the caller is staff)',
      querystring: PageListQuery,
      response: { 200: PageList, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/pages/:id', {
    config: read,
    schema: {
      operationId: 'getPage',
      tags,
      summary: 'Get a page by id or slug',
      params: PageKeyParams,
      response: { 200: Page, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/pages', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createPage',
      tags,
      summary: 'Create a draft page',
      body: PageCreate,
      response: { 201: Page, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/pages/:id', {
    config: write,
    schema: {
      operationId: 'updatePage',
      tags,
      summary: 'Update a page (body changes go to draft_body until the next publish)',
      params: PageIdParams,
      body: PageUpdate,
      response: { 200: Page, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/pages/:id', {
    config: write,
    schema: {
      operationId: 'deletePage',
      tags,
      summary: 'Delete a page that is not published',
      params: PageIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  for (const [action, operationId, summary] of [
    ['publish', 'publishPage', 'Publish a page: copy its draft body to the live body (it needs a body)'],
    ['unpublish', 'unpublishPage', 'Take a page off the site (the draft body is kept)'],
  ] as const) {
    app.post(`/api/v1/pages/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: PageIdParams, response: { 200: Page, ...writeErrors } },
      handler: async (request) => service[action](request.params.id),
    });
  }
}
