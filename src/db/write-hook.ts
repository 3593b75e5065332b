import type { Db, Executor } from './tables.ts';

/**
 * More to write in the same transaction as a create, given what was created — the way an Idempotency-Key's answer is
 * committed together with the resource. A service that takes one runs it after its own writes; if it throws, the
 * whole create rolls back.
 */
export type AlsoWrite = (trx: Executor, created: unknown) => Promise<void>;

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
