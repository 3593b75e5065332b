import type { Db, Engine, Executor, JobsTable } from '../db/tables.ts';

/** The jobs table: inserting, claiming under a lease, and writes that only the lease's holder may make. */
export function jobsStore(engine: Engine) {
  return {
    insert: async (ex: Executor, row: JobsTable) => {
      await ex.insertInto('jobs').values(row).execute();
    },

    find: (ex: Executor, id: string) => ex.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst(),

    /**
     * Takes the oldest due job — queued and due, or running under a lease that ran out (its worker died) — for
     * `worker` until `until`, in one statement. On PostgreSQL the candidate row is locked with SKIP LOCKED, so workers
     * on several instances never take the same job; SQLite runs one writer at a time, which does the same.
     */
    claimDue: (db: Db, worker: string, now: string, until: string) => {
      const due = db
        .selectFrom('jobs')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
            eb.and([eb('status', '=', 'running'), eb('locked_until', '<=', now)]),
          ]),
        )
        .orderBy('run_at')
        .orderBy('id')
        .limit(1);
      return db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          locked_by: worker,
          locked_until: until,
          attempts: eb('attempts', '+', 1),
          updated_at: now,
        }))
        .where('id', '=', engine === 'postgres' ? due.forUpdate().skipLocked() : due)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Applies `changes` only while `held` is still the job's claim — the same worker and the same attempt, so a
     * worker's late write can never land on a later claim of the job, even its own — and, with `liveAt`, only while
     * the lease has not run out at that time (a renewal must not revive a lease another worker may already take).
     * Returns whether it did.
     */
    updateHeld: async (db: Db, held: HeldJob, changes: Partial<JobsTable>, options: { liveAt?: string } = {}) => {
      let update = db
        .updateTable('jobs')
        .set(changes)
        .where('id', '=', held.id)
        .where('status', '=', 'running')
        .where('locked_by', '=', held.worker)
        .where('attempts', '=', held.attempt);
      if (options.liveAt !== undefined) update = update.where('locked_until', '>', options.liveAt);
      const result = await update.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

/** One claim of a job: the worker that made it, and the attempt it counts as. */
export type HeldJob = { id: string; worker: string; attempt: number };
