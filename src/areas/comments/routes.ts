import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import { Comment, CommentIdParams, CommentListQuery, CommentPage } from './schema.ts';
import type { CommentsService } from './service.ts';

const tags = ['comments'];
const read = { scope: 'comments:read', anonymous: true } as const;

/** Read-only: comments are written by signed-in users on the school's own pages (see web/post-page.ts). */
export function commentsRoutes(fastify: FastifyInstance, service: CommentsService) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/comments', {
    config: read,
    schema: {
      operationId: 'listComments',
      tags,
      summary: 'List comments on posts and lessons (visible ones the caller may read, unless the caller is staff)',
      querystring: CommentListQuery,
      response: { 200: CommentPage, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => service.list(request.principal, request.query),
  });

  app.get('/api/v1/comments/:id', {
    config: read,
    schema: {
      operationId: 'getComment',
      tags,
      summary: 'Get a comment',
      params: CommentIdParams,
      response: { 200: Comment, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => service.get(request.principal, request.params.id),
  });
}
