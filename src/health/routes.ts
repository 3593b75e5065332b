import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/connect.ts';
import { sendError } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';

export function registerHealthRoutes(app: FastifyInstance, deps: { database: Database }) {
  app.get('/healthz', { config: { public: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, logLevel: 'warn' }, async (request, reply) => {
    try {
      await deps.database.ping();
      return { status: 'ready', database: deps.database.engine };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return sendError(request, reply, new ApiError('service_unavailable', 'The database is not reachable.'));
    }
  });
}
