// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { PagesService } from './service.ts';

export function pagesRoutes(_app: FastifyInstance, _service: PagesService) {}
