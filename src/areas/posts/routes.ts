import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { noContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import {
  Post,
  PostCreate,
  PostIdParams,
  PostKeyParams,
  PostListQuery,
  PostPage,
  PostSchedule,
  PostUpdate,
} from './schema.ts';
import type { PostsService } from './service.ts';

const tags = ['posts'];
const read = { scope: 'posts:read', anonymous: true } as const;
const write = { scope: 'posts:write' } as const;
const writeErrors = errorResponses(400, 401, 403, 404, 409);

export function postsRoutes(fastify: FastifyInstance, service: PostsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/posts', {
    config: read,
    schema: {
      operationId: 'listPosts',
      tags,
      summary: 'List posts (published ones the caller may read, unless the caller is staff)',
      querystring: PostListQuery,
      response: { 200: PostPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/posts/:id', {
    config: read,
    schema: {
      operationId: 'getPost',
      tags,
      summary: 'Get a post by id or slug',
      params: PostKeyParams,
      response: { 200: Post, ...errorResponses(401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });

  app.post('/api/v1/posts', {
    config: { ...write, idempotent: true },
    schema: {
      operationId: 'createPost',
      tags,
      summary: 'Create a draft post',
      body: PostCreate,
      response: { 201: Post, ...writeErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.patch('/api/v1/posts/:id', {
    config: write,
    schema: {
      operationId: 'updatePost',
      tags,
      summary: 'Update a post',
      params: PostIdParams,
      body: PostUpdate,
      response: { 200: Post, ...writeErrors },
    },
    handler: async (request) => service.update(request.params.id, request.body),
  });

  app.delete('/api/v1/posts/:id', {
    config: write,
    schema: {
      operationId: 'deletePost',
      tags,
      summary: 'Delete a post that is not published, with its comments',
      params: PostIdParams,
      response: { 204: Type.Null(), ...writeErrors },
    },
    handler: async (request, reply) => noContent(reply, service.delete(request.params.id)),
  });

  app.post('/api/v1/posts/:id/schedule', {
    config: write,
    schema: {
      operationId: 'schedulePost',
      tags,
      summary: 'Schedule a draft post to publish itself at publish_at (in the future)',
      params: PostIdParams,
      body: PostSchedule,
      response: { 200: Post, ...writeErrors },
    },
    handler: async (request) => service.schedule(request.params.id, request.body),
  });

  for (const [action, operationId, summary] of [
    ['publish', 'publishPost', 'Publish a post now (a draft or a scheduled post)'],
    ['unpublish', 'unpublishPost', 'Return a published or scheduled post to draft'],
  ] as const) {
    app.post(`/api/v1/posts/:id/${action}`, {
      config: write,
      schema: { operationId, tags, summary, params: PostIdParams, response: { 200: Post, ...writeErrors } },
      handler: async (request) => service[action](request.params.id),
    });
  }
}
