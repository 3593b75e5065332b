import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { KeyedCall, WriteOutcome } from '../db/request-writes.ts';
import type { Db, Executor, IdempotencyKeysTable } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';
import { sendError } from './error-handler.ts';
import { ApiError, errors } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * On an idempotent route called with an Idempotency-Key: what the route hands its service, which runs it in the
     * transaction that creates the resource, so the key and its answer are committed with the write or not at all.
     */
    idempotency:
      | (KeyedCall & {
          /** The key's committed record, if a request committed it (this one, or a parallel one that won). */
          winner: () => Promise<IdempotencyKeysTable | undefined>;
          /** Whether `winner` answered this same request (or another request under the same key). */
          hash: string;
          /** The response `record` committed, already serialized: sent as it is. */
          response?: string;
        })
      | undefined;
  }
}

const OUTCOME_STATUS: Record<WriteOutcome, number> = { created: 201, existing: 200, accepted: 202 };

const KEY = /^[\x21-\x7e]{1,255}$/;
const TTL_MS = 24 * 3_600_000;
/**
 * How long a provisional answer (a provider call still under way) makes copies wait. Past it the call is taken to
 * have died with its process, and the answer committed with the write is replayed as it stands.
 */
const PENDING_MS = 60_000;

/** Thrown inside the creating transaction when another request committed the same key first: roll back, then answer as it did. */
class KeyTaken extends Error {}

const mismatch = () =>
  new ApiError('conflict', 'This Idempotency-Key was already used with a different request; use a new key.');

const stillRunning = () =>
  errors.conflict('A request with this Idempotency-Key is still being processed; retry it in a moment.');

const replay = (reply: FastifyReply, stored: IdempotencyKeysTable) =>
  reply
    .code(stored.status)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(stored.response);

/**
 * `Idempotency-Key` on creating POSTs (routes with `config.idempotent`, which answer 201 with what they created —
 * or 200 for an upsert that found it, 202 for accepted work): the
 * same key with the same request replays the first response (marked `Idempotent-Replayed: true`); the same key with
 * another request is a 409. Keys belong to the calling user and live 24 hours.
 *
 * The key and its response are written in the same transaction as the resource (the service runs `record` in it), so
 * whatever happens to the process, a retry finds either the committed resource with its answer, or nothing at all and
 * runs afresh — never a second resource, never a key stuck "in progress". Of parallel requests with one key, the
 * first to commit wins; the others' inserts of the key wait for it (PostgreSQL) or run after it (SQLite's single
 * writer), find the key taken, roll their own write back and replay the winner's answer (as does one whose own write failed
 * because of the winner's, on a slug the winner just took, say). Only successful creates are
 * remembered: a refused request wrote nothing, so retrying it with the same key simply runs it again.
 */
export function installIdempotency(app: FastifyInstance, deps: { db: Db; clock: Clock }) {
  app.decorateRequest('idempotency', undefined);

  /** The answer to a copy of a request whose key is stored: a replay, a 409 for another request, or "retry soon". */
  const answerFrom = (request: FastifyRequest, reply: FastifyReply, stored: IdempotencyKeysTable, hash: string) => {
    if (stored.request_hash !== hash) return sendError(request, reply, mismatch());
    const running =
      Number(stored.pending) === 1 && Date.parse(stored.created_at) > deps.clock.now().getTime() - PENDING_MS;
    return running ? sendError(request, reply, stillRunning()) : replay(reply, stored);
  };

  const find = (ex: Executor, owner: string, key: string) =>
    ex.selectFrom('idempotency_keys').selectAll().where('owner', '=', owner).where('key', '=', key).executeTakeFirst();

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function (request, reply) {
      try {
        const result = await handler.call(this, request, reply);
        const recorded = request.idempotency?.response;
        // A handler that sent its answer itself (reply.code(201).send(…)) sent what `record` serialized; sending the
        // record again would only log "Reply was already sent".
        return recorded === undefined || reply.sent
          ? result
          : reply.type('application/json; charset=utf-8').send(recorded);
      } catch (error) {
        // A parallel request with the key won: it committed the key first (KeyTaken), or its write made this one
        // fail on its own terms (the slug it just took, say). Answer as it did, or 409 if it was another request.
        const idempotency = request.idempotency;
        const winner = await idempotency?.winner();
        if (winner) return answerFrom(request, reply, winner, idempotency?.hash ?? '');
        throw error;
      }
    };
  });

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
    await deps.db
      .deleteFrom('idempotency_keys')
      .where('owner', '=', owner)
      .where('key', '=', key)
      .where('created_at', '<=', new Date(now.getTime() - TTL_MS).toISOString())
      .execute();
    const stored = await find(deps.db, owner, key);
    if (stored) return answerFrom(request, reply, stored, hash);

    const write = async (trx: Executor, created: unknown, outcome: WriteOutcome, pending: 0 | 1) => {
      const status = OUTCOME_STATUS[outcome];
      reply.code(status);
      const response = String(reply.serialize(created));
      const inserted = await trx
        .insertInto('idempotency_keys')
        .values({ owner, key, route, request_hash: hash, status, response, pending, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['owner', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new KeyTaken();
      idempotency.response = response;
    };
    const mine = () => deps.db.updateTable('idempotency_keys').where('owner', '=', owner).where('key', '=', key);
    const idempotency: NonNullable<typeof request.idempotency> = {
      hash,
      winner: () => find(deps.db, owner, key),
      record: (trx, created, outcome = 'created') => write(trx, created, outcome, 0),
      open: (trx, created, outcome = 'created') => write(trx, created, outcome, 1),
      async settle(final) {
        const response = String(reply.serialize(final));
        await mine().set({ response, pending: 0 }).execute();
        idempotency.response = response;
      },
      async drop() {
        await deps.db.deleteFrom('idempotency_keys').where('owner', '=', owner).where('key', '=', key).execute();
        idempotency.response = undefined;
      },
    };
    request.idempotency = idempotency;
  });
}
