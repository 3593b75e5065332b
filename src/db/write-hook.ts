import type { Db, Executor } from './tables.ts';

/**
 * More to write in the same transaction as a create, given what was created — the way an Idempotency-Key's answer is
 * committed together with the resource. A service that takes one runs it after its own writes; if it throws, the
 * whole create rolls back.
 */
export type AlsoWrite = (trx: Executor, created: unknown, outcome?: WriteOutcome) => Promise<void>;

/**
 * An Idempotency-Key on a write that a provider call follows (a checkout, a refund): the key is committed with the
 * write and a provisional answer (`open`, in the write's transaction), the provider's answer replaces it (`settle`),
 * and a provider that refused leaves no key behind (`drop`), so a retry runs afresh.
 */
export type KeyedCall = {
  /** The final answer, when no provider call follows after all (a free checkout). */
  record: AlsoWrite;
  open: AlsoWrite;
  settle: (final: unknown) => Promise<void>;
  drop: () => Promise<void>;
};

/**
 * What a write did, when it is not a plain create: an upsert that found the row (`existing`), or work accepted to be
 * done later (`accepted`). The Idempotency-Key's recorded answer says the same (200 and 202 instead of 201).
 */
export type WriteOutcome = 'created' | 'existing' | 'accepted';

/** Runs `insert` on its own, or — when there is more to write — in one transaction with it. */
export const insertWith = async <T>(
  db: Db,
  insert: (ex: Executor) => Promise<unknown>,
  created: T,
  also: AlsoWrite | undefined,
): Promise<T> => {
  if (!also) await insert(db);
  else
    await db.transaction().execute(async (trx) => {
      await insert(trx);
      await also(trx, created);
    });
  return created;
};
