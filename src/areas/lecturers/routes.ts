// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { LecturersService } from './service.ts';

export function lecturersRoutes(_app: FastifyInstance, _service: LecturersService) {}
