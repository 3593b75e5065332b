// STUB: replaced by the area implementation.
import type { FastifyInstance } from 'fastify';
import type { AccountService } from './service.ts';

export function accountRoutes(_app: FastifyInstance, _service: AccountService) {}
