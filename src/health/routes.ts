import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '../db/connect.ts';
import { sendError } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';
import { sha256 } from '../security/tokens.ts';
import type { Draining } from './draining.ts';
import type { SchoolMetrics } from './metrics.ts';

/** How long /readyz waits for each dependency's answer: a load balancer's check must not hang on a blackholed one. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * `/healthz`: the process is alive (a restart would not help a school whose database is away, so this never looks at
 * the dependencies). `/readyz`: this instance can serve — its database answers, and Redis when one is configured
 * (the authorization server's flows need it); 503 naming what is unreachable otherwise, so a load balancer sends
 * traffic elsewhere until it is back; 503 too while the instance is stopping (STOP_DRAIN_SECONDS).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { database: Database; redis?: Redis; stopping: Draining },
) {
  app.get('/healthz', { config: { public: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  /** Once the schema is found current it stays so: migrations only move forward. */
  let schemaCurrent = false;
  const schemaBehind = async (): Promise<string[]> => {
    if (schemaCurrent) return [];
    const { pending } = await deps.database.schema();
    schemaCurrent = pending.length === 0;
    return pending;
  };
  app.get('/readyz', { config: { public: true }, logLevel: 'warn' }, async (request, reply) => {
    if (deps.stopping.on)
      return sendError(request, reply, new ApiError('service_unavailable', 'Not ready: this instance is stopping.'));
    const { redis } = deps;
    const [database, redisDown] = await Promise.all([
      deps.database.ping(CHECK_TIMEOUT_MS).then(
        () => undefined,
        (error: unknown) => error,
      ),
      redis
        ? redis.ping().then(
            () => undefined,
            (error: unknown) => error,
          )
        : undefined,
    ]);
    const pending = database ? [] : await schemaBehind().catch(() => []);
    if (pending.length) {
      request.log.warn({ pending }, 'not ready: migrations pending');
      return sendError(
        request,
        reply,
        new ApiError(
          'service_unavailable',
          `Not ready: the database schema is behind this version (${pending.join(', ')} not applied); run npm run migrate.`,
        ),
      );
    }
    const down = [...(database ? ['the database'] : []), ...(redisDown ? ['Redis'] : [])];
    if (down.length === 0)
      return { status: 'ready', database: deps.database.engine, ...(redis ? { redis: 'ready' } : {}) };
    request.log.warn(
      { database: database ? String((database as Error).message) : 'ok', redis: redisDown ? 'down' : 'ok' },
      'not ready',
    );
    return sendError(
      request,
      reply,
      new ApiError(
        'service_unavailable',
        `Not ready: ${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} not reachable.`,
      ),
    );
  });
}

/**
 * `/metrics`, for a Prometheus scraper holding METRICS_TOKEN; not served at all without one, so the school's figures
 * are never public by default. The token is compared in constant time (as hashes, so lengths do not leak either).
 */
export function registerMetricsRoute(app: FastifyInstance, deps: { metrics: SchoolMetrics; token: string }) {
  if (!deps.token) return;
  const expected = Buffer.from(sha256(deps.token));
  app.get('/metrics', { config: { public: true }, logLevel: 'warn' }, async (request, reply) => {
    const given = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(Buffer.from(sha256(given)), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(request, reply, new ApiError('invalid_token', 'Send the METRICS_TOKEN as a Bearer token.'));
    }
    return reply
      .header('content-type', deps.metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await deps.metrics.registry.metrics());
  });
}
