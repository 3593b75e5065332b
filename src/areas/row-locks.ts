import type { Db, Executor, Tables } from '../db/tables.ts';

/** The tables whose writes check a rule on the row under its lock. */
type Locked = 'pages' | 'posts' | 'products' | 'membership_plans' | 'events' | 'forms';

/**
 * Takes row `id` of `table`'s lock inside the caller's transaction and returns the row (undefined when there is none).
 * The lock is a no-op update: a PostgreSQL row lock; SQLite already runs one writing transaction at a time.
 */
export const lockRow = async <T extends Locked>(trx: Executor, table: T, id: string) =>
  // One query shape serves every table: they share the id and updated_at columns the lock touches.
  (await trx
    .updateTable(table as Locked)
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()) as Tables[T] | undefined;

/**
 * Runs `fn` on row `id` of `table` inside a transaction that holds the row's lock, so a rule `fn` checks on the row
 * still holds when it writes; concurrent writes to the same row wait their turn.
 */
export const withRowLock = <T extends Locked, R>(
  db: Db,
  table: T,
  id: string,
  notFound: () => Error,
  fn: (trx: Executor, row: Tables[T]) => Promise<R>,
) =>
  db.transaction().execute(async (trx) => {
    const row = await lockRow(trx, table, id);
    if (!row) throw notFound();
    return fn(trx, row);
  });
