import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../db/clock.ts';
import type { Db } from '../db/tables.ts';
import { sendError } from './error-handler.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { owner: string; key: string; route: string; hash: string } | undefined;
  }
}

const KEY = /^[\x21-\x7e]{1,255}$/;
const TTL_MS = 24 * 3_600_000;

/**
 * `Idempotency-Key` on creating POSTs: the same key with the same body replays the first response (marked
 * `Idempotent-Replayed: true`); the same key with another body is a 409. Keys belong to the calling user and live
 * 24 hours. Only answers below 500 are remembered, so a failure can be retried with the same key.
 */
export function installIdempotency(app: FastifyInstance, deps: { db: Db; clock: Clock }) {
  app.decorateRequest('idempotency', undefined);
  const owner = (request: FastifyRequest) =>
    request.principal?.kind === 'user' ? request.principal.userId : 'anonymous';

  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (!request.routeOptions.config.idempotent || header === undefined) return;
    if (typeof header !== 'string' || !KEY.test(header)) {
      return sendError(
        request,
        reply,
        new ApiError('invalid_request', 'Idempotency-Key must be 1–255 visible ASCII characters.'),
      );
    }
    const route = `${request.method} ${request.routeOptions.url}`;
    const hash = createHash('sha256')
      .update(route)
      .update('\n')
      .update(JSON.stringify(request.params ?? {}))
      .update('\n')
      .update(JSON.stringify(request.body ?? null))
      .digest('base64url');
    const ownerId = owner(request);
    const now = deps.clock.now();
    // Expired keys of this owner make room; then the key is reserved (status 0) before the handler runs, so of two
    // parallel requests with one key exactly one runs and the other waits for or replays its answer.
    await deps.db
      .deleteFrom('idempotency_keys')
      .where('owner', '=', ownerId)
      .where('key', '=', header)
      .where('created_at', '<=', new Date(now.getTime() - TTL_MS).toISOString())
      .execute();
    const reserved = await deps.db
      .insertInto('idempotency_keys')
      .values({
        owner: ownerId,
        key: header,
        route,
        request_hash: hash,
        status: 0,
        response: '',
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['owner', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(reserved.numInsertedOrUpdatedRows ?? 0) === 1) {
      request.idempotency = { owner: ownerId, key: header, route, hash };
      return;
    }
    const stored = await deps.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('owner', '=', ownerId)
      .where('key', '=', header)
      .executeTakeFirst();
    if (!stored || stored.request_hash !== hash) {
      return sendError(
        request,
        reply,
        new ApiError('conflict', 'This Idempotency-Key was already used with a different request; use a new key.'),
      );
    }
    if (stored.status === 0) {
      // A reservation left by a request that never answered (the process died) is released after a minute.
      if (stored.created_at <= new Date(now.getTime() - 60_000).toISOString()) {
        await deps.db.deleteFrom('idempotency_keys').where('owner', '=', ownerId).where('key', '=', header).execute();
      }
      return sendError(
        request,
        reply,
        new ApiError('conflict', 'A request with this Idempotency-Key is still being processed; retry in a moment.'),
      );
    }
    return reply
      .code(stored.status)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(stored.response);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const pending = request.idempotency;
    if (!pending) return payload;
    const row = deps.db
      .updateTable('idempotency_keys')
      .where('owner', '=', pending.owner)
      .where('key', '=', pending.key);
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      // Not remembered: a failure may be retried with the same key.
      await deps.db
        .deleteFrom('idempotency_keys')
        .where('owner', '=', pending.owner)
        .where('key', '=', pending.key)
        .execute();
    } else {
      await row.set({ status: reply.statusCode, response: payload }).execute();
    }
    return payload;
  });
}
