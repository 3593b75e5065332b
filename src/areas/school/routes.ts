// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { SchoolService } from './service.ts';

export function schoolRoutes(_app: FastifyInstance, _service: SchoolService) {}
