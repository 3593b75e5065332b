import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../db/clock.ts';
import type { Db } from '../db/tables.ts';
import { sendError } from './error-handler.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request reserved, answered in onSend. */
    idempotency: { owner: string; key: string } | undefined;
  }
}

const KEY = /^[\x21-\x7e]{1,255}$/;
const TTL_MS = 24 * 3_600_000;
/** A reservation whose request never answered (the process died) is released after this long. */
const ABANDONED_MS = 60_000;

/**
 * `Idempotency-Key` on creating POSTs: the same key with the same body replays the first response (marked
 * `Idempotent-Replayed: true`); the same key with another body is a 409. Keys belong to the calling user and live
 * 24 hours. The key is reserved before the handler runs, so of parallel requests with one key exactly one runs (the
 * others get 409 while it does). Only answers below 500 are remembered, so a failure can be retried with the same key.
 */
export function installIdempotency(app: FastifyInstance, deps: { db: Db; clock: Clock }) {
  app.decorateRequest('idempotency', undefined);
  const deleteKey = (owner: string, key: string) =>
    deps.db.deleteFrom('idempotency_keys').where('owner', '=', owner).where('key', '=', key);

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (!request.routeOptions.config.idempotent || key === undefined) return;
    if (typeof key !== 'string' || !KEY.test(key)) {
      return sendError(
        request,
        reply,
        new ApiError('invalid_request', 'Idempotency-Key must be 1–255 visible ASCII characters.'),
      );
    }
    const owner = request.principal?.kind === 'user' ? request.principal.userId : 'anonymous';
    const route = `${request.method} ${request.routeOptions.url}`;
    const hash = createHash('sha256')
      .update(`${route}\n${JSON.stringify(request.params ?? {})}\n${JSON.stringify(request.body ?? null)}`)
      .digest('base64url');
    const now = deps.clock.now();
    await deleteKey(owner, key)
      .where('created_at', '<=', new Date(now.getTime() - TTL_MS).toISOString())
      .execute();
    const reserved = await deps.db
      .insertInto('idempotency_keys')
      .values({ owner, key, route, request_hash: hash, status: 0, response: '', created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['owner', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(reserved.numInsertedOrUpdatedRows ?? 0) === 1) {
      request.idempotency = { owner, key };
      return;
    }
    const stored = await deps.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('owner', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!stored || stored.request_hash !== hash) {
      const error = 'This Idempotency-Key was already used with a different request; use a new key.';
      return sendError(request, reply, new ApiError('conflict', error));
    }
    if (stored.status === 0) {
      if (stored.created_at <= new Date(now.getTime() - ABANDONED_MS).toISOString())
        await deleteKey(owner, key).execute();
      const error = 'A request with this Idempotency-Key is still being processed; retry in a moment.';
      return sendError(request, reply, new ApiError('conflict', error));
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
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await deleteKey(pending.owner, pending.key).execute();
    } else {
      await deps.db
        .updateTable('idempotency_keys')
        .set({ status: reply.statusCode, response: payload })
        .where('owner', '=', pending.owner)
        .where('key', '=', pending.key)
        .execute();
    }
    return payload;
  });
}
