import type { FastifyInstance } from 'fastify';
import type { RequestWrites } from '../db/request-writes.ts';
import type { Db, Engine } from '../db/tables.ts';
import { installAuditTrail } from '../http/audit-trail.ts';
import { installGuard } from '../http/guard.ts';
import { installIdempotency } from '../http/idempotency.ts';
import type { InternalCalls } from '../http/internal-calls.ts';
import { installResponseCache, type ResponseCache } from '../http/response-cache.ts';
import { installValidators } from '../http/validation.ts';
import type { AccessTokenVerifier } from '../security/token-principal.ts';
import type { Clock } from '../time/clock.ts';
import { type Areas, registerAreaRoutes } from './index.ts';

/**
 * The REST API (`/api/v1`) as a surface of the app: in its own scope, every route validated, guarded by its declared
 * scope, keyed by Idempotency-Key where it creates, micro-cached where it says so, and audited where it writes.
 * Answers the write routes the audit trail armed.
 */
export async function registerApiSurface(
  app: FastifyInstance,
  deps: {
    areas: Areas;
    db: Db;
    clock: Clock;
    engine: Engine;
    requestWrites: RequestWrites;
    verify: AccessTokenVerifier;
    baseUrl: string;
    internalCalls: InternalCalls;
    responses: ResponseCache;
    /** A write succeeded: what the generated agent documents show may have changed. */
    onWrite: () => void;
  },
) {
  let armed: ReturnType<typeof installAuditTrail>['armed'] = [];
  await app.register(async (api: FastifyInstance) => {
    installValidators(api);
    armed = installAuditTrail(api, { writes: deps.requestWrites, clock: deps.clock, engine: deps.engine }).armed;
    installGuard(api, { verify: deps.verify, baseUrl: deps.baseUrl, internalCalls: deps.internalCalls });
    installIdempotency(api, { db: deps.db, clock: deps.clock });
    installResponseCache(api, deps.responses);
    api.addHook('onResponse', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) deps.onWrite();
    });
    registerAreaRoutes(api, deps.areas);
  });
  return armed;
}
