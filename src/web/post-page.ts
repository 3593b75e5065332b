// STUB: replaced by the posts/comments implementation.
import type { FastifyInstance } from 'fastify';
import type { CommentsService } from '../areas/comments/service.ts';
import type { PostsService } from '../areas/posts/service.ts';
import type { PageRenderer } from './page-context.ts';

export function registerPostPages(
  _app: FastifyInstance,
  _deps: { posts: PostsService; comments: CommentsService; render: PageRenderer },
) {}
