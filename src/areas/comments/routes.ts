// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { CommentsService } from './service.ts';

export function commentsRoutes(_app: FastifyInstance, _service: CommentsService) {}
