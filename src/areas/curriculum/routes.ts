// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { CurriculumService } from './service.ts';

export function curriculumRoutes(_app: FastifyInstance, _service: CurriculumService) {}
