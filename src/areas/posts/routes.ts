// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { PostsService } from './service.ts';

export function postsRoutes(_app: FastifyInstance, _service: PostsService) {}
