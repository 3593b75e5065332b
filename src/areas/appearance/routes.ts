// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { AppearanceService } from './service.ts';

export function appearanceRoutes(_app: FastifyInstance, _service: AppearanceService) {}
