import type { Config } from '../config.ts';
import type { WriteContext } from '../db/request-writes.ts';
import type { Db } from '../db/tables.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Clock } from '../time/clock.ts';

/** What every area is built from; the composition root (app.ts) passes it. */
export type AreaDeps = {
  db: Db;
  clock: Clock;
  config: Config;
  /** Durable background work: areas queue jobs in their transactions and name the handlers of their kinds. */
  jobs: JobQueue;
  /** The request's write context: what a create hands its Idempotency-Key's answer to, in its transaction. */
  writes: WriteContext;
};
