import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/connect.ts';
import { sendError } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';

/** How long /readyz waits for the database's answer: a load balancer's check must not hang on a blackholed one. */
const CHECK_TIMEOUT_MS = 2_000;

export function registerHealthRoutes(app: FastifyInstance, deps: { database: Database }) {
  app.get('/healthz', { config: { public: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, logLevel: 'warn' }, async (request, reply) => {
    try {
      await deps.database.ping(CHECK_TIMEOUT_MS);
      return { status: 'ready', database: deps.database.engine };
    } catch (error) {
      request.log.warn({ database: (error as Error).message }, 'not ready');
      return sendError(
        request,
        reply,
        new ApiError('service_unavailable', 'Not ready: the database is not reachable.'),
      );
    }
  });
}
