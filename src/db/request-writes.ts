import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditTrail } from './audited-dialect.ts';
import type { Db, Executor } from './tables.ts';

/**
 * What a write did, when it is not a plain create: an upsert that found the row (`existing`), or work accepted to be
 * done later (`accepted`). The Idempotency-Key's recorded answer says the same (200 and 202 instead of 201).
 */
export type WriteOutcome = 'created' | 'existing' | 'accepted';

/** Writes the request's answer in the transaction of the write that made it. */
export type RecordAnswer = (trx: Executor, created: unknown, outcome?: WriteOutcome) => Promise<void>;

/**
 * An Idempotency-Key on a write: its answer is committed with the write (`record`). Where a provider call follows (a
 * checkout, a refund), the key is committed with a provisional answer (`open`), the provider's answer replaces it
 * (`settle`), and a provider that refused leaves no key behind (`drop`), so a retry runs afresh.
 */
export type KeyedCall = {
  record: RecordAnswer;
  open: RecordAnswer;
  settle: (final: unknown) => Promise<void>;
  drop: () => Promise<void>;
};

/**
 * The one way "also this, in the request's transaction" is written. An API write runs in its request's write context:
 * its audit trail, whose row the database driver adds to each transaction the write commits (db/audited-dialect.ts),
 * and its Idempotency-Key, whose answer the service hands over with `made` in the transaction that creates. The
 * context is the request's, so services take no extra argument for either, and the routes pass nothing through.
 */
export type RequestWrite = {
  trail?: AuditTrail;
  keyed?: KeyedCall;
};

/** The write contexts of the requests in flight; made once by the composition root, read by the driver and services. */
export function requestWrites() {
  const contexts = new AsyncLocalStorage<RequestWrite>();
  return {
    run: <T>(write: RequestWrite, work: () => T) => contexts.run(write, work),
    /** The audit trail of the write under way in this async context, if one is. */
    trail: () => contexts.getStore()?.trail,
    /** The Idempotency-Key of the request under way, for a service whose write a provider call follows. */
    keyed: () => contexts.getStore()?.keyed,
    /**
     * Hands what a create made (or found: `existing`; or accepted: `accepted`) to the request's Idempotency-Key, if it
     * has one, in the create's transaction: the key and its answer commit with the write or not at all.
     */
    async made(trx: Executor, created: unknown, outcome: WriteOutcome = 'created') {
      // One create per keyed request answers it: a second `made` in the same request would find the key taken and
      // fail its own transaction, so services call it only where the operation's own create commits.
      await contexts.getStore()?.keyed?.record(trx, created, outcome);
    },
  };
}

export type RequestWrites = ReturnType<typeof requestWrites>;

/** What an area's service sees of the request's write context. */
export type WriteContext = Pick<RequestWrites, 'made' | 'keyed'>;

/** Runs `insert` on its own, or — when the request has an answer to write with it — in one transaction with it. */
export const insertWith = async <T>(
  db: Db,
  writes: WriteContext,
  insert: (ex: Executor) => Promise<unknown>,
  created: T,
): Promise<T> => {
  if (!writes.keyed()) await insert(db);
  else
    await db.transaction().execute(async (trx) => {
      await insert(trx);
      await writes.made(trx, created);
    });
  return created;
};
