import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/schemas.ts';
import { Comment, CommentIdParams, CommentListQuery, CommentPage } from './schema.ts';
import type { CommentsService } from './service.ts';

const tags = ['comments'];
const read = { scope: 'comments:read', anonymous: true } as const;
// Moderation is the school's administration (the interface's scopes have no comments:write): staff only by role.
const moderate = { scope: 'school:write' } as const;
const moderation = {
  hide: ['hideComment', 'Hide a comment (kept for review; shown to nobody but staff)'],
  restore: ['restoreComment', 'Show a hidden comment again'],
} as const;

/** Comments are written by signed-in users on the school's own pages (see web/site/post-page.ts); staff moderate here. */
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

  for (const [action, [operationId, summary]] of Object.entries(moderation) as [
    keyof typeof moderation,
    (typeof moderation)[keyof typeof moderation],
  ][]) {
    app.post(`/api/v1/comments/:id/${action}`, {
      config: moderate,
      schema: {
        operationId,
        tags,
        summary,
        params: CommentIdParams,
        response: { 200: Comment, ...errorResponses(401, 403, 404, 409) },
      },
      handler: async (request) => service.moderate(request.principal, request.params.id, action),
    });
  }

  app.delete('/api/v1/comments/:id', {
    config: moderate,
    schema: {
      operationId: 'deleteComment',
      tags,
      summary: 'Delete a comment (its text is erased; the comment stays as deleted)',
      params: CommentIdParams,
      response: { 200: Comment, ...errorResponses(401, 403, 404, 409) },
    },
    handler: async (request) => service.moderate(request.principal, request.params.id, 'delete'),
  });
}
