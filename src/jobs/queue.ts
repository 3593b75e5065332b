import { newId } from '../db/ids.ts';
import type { Db, Engine, Executor, JobsTable } from '../db/tables.ts';
import { randomToken } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import { type HeldJob, jobsStore } from './store.ts';

/** What a running job is given besides its payload. */
export type JobContext = {
  id: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** Records how far the job has got (readable with `get`) and extends its lease; throws once the lease is lost. */
  progress(value: unknown): Promise<void>;
  /**
   * Aborted when this worker has lost the job's lease (it could not renew it in time, or another worker took the job
   * over): a handler that works in steps stops at the next one, as the job is, or soon will be, another worker's.
   */
  signal: AbortSignal;
};

// biome-ignore lint/suspicious/noExplicitAny: each kind's payload is the JSON its enqueuer wrote; the handler knows its shape.
export type JobHandler = (payload: any, job: JobContext) => Promise<unknown>;

export type Job = {
  id: string;
  kind: string;
  /** What the enqueuer wrote (it may carry personal data: the enqueuing area decides what of it to show). */
  payload: unknown;
  status: JobsTable['status'];
  attempts: number;
  max_attempts: number;
  run_at: string;
  progress: unknown;
  result: unknown;
  last_error: string | null;
  created_at: string;
  updated_at: string;
};

export type JobQueueDeps = {
  db: Db;
  engine: Engine;
  clock: Clock;
  /** Handlers known from the start; areas add theirs with `handle` while the app is built. */
  handlers?: Record<string, JobHandler>;
  /**
   * How long a claimed job stays this worker's without news from it: while its handler runs, the worker renews the
   * lease every `heartbeatMs`, so only a worker that died (or lost the database) lets it run out, and another
   * instance takes the job over that long after the last renewal (plus one poll).
   */
  leaseMs?: number;
  /** How often a running job's lease is renewed; a third of the lease by default, so two renewals may fail in a row. */
  heartbeatMs?: number;
  /** Calls `tick` every `ms` until the returned function is called; tests pass their own and tick by hand. */
  every?: (ms: number, tick: () => Promise<void>) => () => void;
  /** The wait before the first retry; each further retry waits twice as long, at most an hour. */
  retryBaseMs?: number;
  log?: (message: string, fields: Record<string, unknown>) => void;
};

const HOUR_MS = 3_600_000;
const ERROR_TEXT_MAX = 1000;
/**
 * 15 s: a crashed worker's jobs move on within about 16 s (the lease plus one poll) instead of minutes, while a live
 * worker renews every 5 s and so keeps its job through a missed renewal or two. Instances' clocks must agree to a few
 * seconds (NTP), since one instance compares the lease another wrote with its own time.
 */
export const DEFAULT_LEASE_MS = 15_000;

const everyInterval = (ms: number, tick: () => Promise<void>) => {
  const timer = setInterval(() => void tick(), ms);
  timer.unref();
  return () => clearInterval(timer);
};

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

const toJob = (row: JobsTable): Job => ({
  id: row.id,
  kind: row.kind,
  payload: parse(row.payload),
  status: row.status,
  attempts: row.attempts,
  max_attempts: row.max_attempts,
  run_at: row.run_at,
  progress: parse(row.progress),
  result: parse(row.result),
  last_error: row.last_error,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * Durable background work: a job is a row, written in the same transaction as the change that asks for it, so it
 * exists exactly when that change does. Any instance's worker claims due jobs under a lease (see `jobsStore`), runs
 * the kind's handler, and records the result; a failure is retried with exponential backoff until `max_attempts`,
 * then the job is `failed` with its last error. A worker that dies mid-job loses its lease and the job runs again
 * elsewhere, so handlers must be safe to run twice (the at-least-once contract of every durable queue).
 */
export function jobQueue(deps: JobQueueDeps) {
  const store = jobsStore(deps.engine);
  const handlers: Record<string, JobHandler> = { ...deps.handlers };
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const heartbeatMs = deps.heartbeatMs ?? Math.floor(leaseMs / 3);
  const every = deps.every ?? everyInterval;
  const retryBaseMs = deps.retryBaseMs ?? 10_000;
  const worker = `wrk_${randomToken(9)}`;
  const at = (offsetMs = 0) => new Date(deps.clock.now().getTime() + offsetMs).toISOString();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  /** Set by `stop`: no further job is claimed. */
  let stopping = false;
  /** The job this worker runs now, to hand back if a stop cannot wait for it. */
  let current: { row: JobsTable; lease: ReturnType<typeof leaseOf> } | undefined;

  /**
   * The lease of one claimed job while its handler runs. Renewals (the heartbeat, and each progress report) extend it
   * only while this worker still holds it and it has not run out; once it has (renewals failed for a whole lease, or
   * another worker took the job over), the lease is lost for good: the handler's signal is aborted, renewals stop, and
   * this worker writes nothing more to the job — its late result must not land on the new holder's run.
   */
  function leaseOf(row: JobsTable) {
    const held: HeldJob = { id: row.id, worker, attempt: row.attempts };
    const controller = new AbortController();
    let until = Date.parse(row.locked_until ?? at());
    let renewing: Promise<void> | undefined;
    const lose = (why: string) => {
      if (controller.signal.aborted) return;
      controller.abort(new LeaseLostError(why));
      deps.log?.('job lease lost', { job_id: row.id, kind: row.kind, attempt: row.attempts, reason: why });
    };
    const renew = async (changes: Partial<JobsTable> = {}) => {
      if (controller.signal.aborted) throw controller.signal.reason;
      const now = deps.clock.now().getTime();
      if (now >= until) {
        lose('the lease ran out before it could be renewed');
        throw controller.signal.reason;
      }
      const next = now + leaseMs;
      const renewed = await store.updateHeld(
        deps.db,
        held,
        { ...changes, locked_until: new Date(next).toISOString(), updated_at: new Date(now).toISOString() },
        { liveAt: new Date(now).toISOString() },
      );
      if (!renewed) {
        lose('another worker holds the job now');
        throw controller.signal.reason;
      }
      until = Math.max(until, next);
    };
    const heartbeat = async () => {
      if (renewing || controller.signal.aborted) return;
      renewing = renew()
        .catch((error: unknown) => {
          // A failed renewal (the database is unreachable) is tried again on the next beat; the lease is lost only
          // when it runs out first, which the next beat sees.
          if (!(error instanceof LeaseLostError))
            deps.log?.('job lease not renewed', { job_id: row.id, kind: row.kind, err: errorText(error) });
        })
        .finally(() => {
          renewing = undefined;
        });
      await renewing;
    };
    const stop = every(heartbeatMs, heartbeat);
    /** Gives the job up on purpose (this instance is stopping): the handler's signal is aborted, nothing more is written. */
    const release = () => {
      stop();
      if (!controller.signal.aborted) controller.abort(new LeaseLostError('this instance is stopping'));
    };
    return { held, signal: controller.signal, renew, stop, release };
  }

  async function runOne(row: JobsTable) {
    const lease = leaseOf(row);
    current = { row, lease };
    const context: JobContext = {
      id: row.id,
      attempt: row.attempts,
      signal: lease.signal,
      progress: (value) => lease.renew({ progress: JSON.stringify(value) }),
    };
    let result: string | null;
    try {
      try {
        // Claimed again after the worker of its last attempt stopped (the lease ran out): not run a further time.
        if (row.attempts > row.max_attempts)
          throw new PermanentJobError('The worker of its last attempt stopped before it finished (the lease ran out).');
        const handler = handlers[row.kind];
        if (!handler) throw new PermanentJobError(`No handler for jobs of kind "${row.kind}".`);
        const value = await handler(JSON.parse(row.payload), context);
        result = value === undefined ? null : JSON.stringify(value);
      } catch (error) {
        // A job whose lease was lost is not this worker's to fail or retry: it stays running until its lease runs
        // out (or is already another worker's), and is taken over then.
        if (!lease.signal.aborted) await fail(lease.held, row, error);
        return;
      }
      await store.updateHeld(deps.db, lease.held, {
        status: 'succeeded',
        result,
        locked_by: null,
        locked_until: null,
        last_error: null,
        updated_at: at(),
      });
    } finally {
      lease.stop();
      current = undefined;
    }
  }

  /**
   * Hands the job under way back to the queue, due now and its attempt not counted (it was cut off by a stop, not
   * failed), so another instance takes it over at its next poll instead of after the lease runs out.
   */
  async function handBack({ row, lease }: { row: JobsTable; lease: ReturnType<typeof leaseOf> }) {
    lease.release();
    const handed = await store.updateHeld(deps.db, lease.held, {
      status: 'queued',
      attempts: row.attempts - 1,
      run_at: at(),
      locked_by: null,
      locked_until: null,
      updated_at: at(),
    });
    if (handed) deps.log?.('job handed back', { job_id: row.id, kind: row.kind, attempt: row.attempts });
  }

  async function fail(held: HeldJob, row: JobsTable, error: unknown) {
    const message = errorText(error).slice(0, ERROR_TEXT_MAX);
    const last = error instanceof PermanentJobError || row.attempts >= row.max_attempts;
    const wait = Math.min(retryBaseMs * 2 ** (row.attempts - 1), HOUR_MS);
    await store.updateHeld(deps.db, held, {
      status: last ? 'failed' : 'queued',
      run_at: last ? row.run_at : at(wait),
      locked_by: null,
      locked_until: null,
      last_error: message,
      updated_at: at(),
    });
    // The payload may carry personal data; the log names the job only.
    deps.log?.(last ? 'job failed' : 'job will be retried', {
      job_id: row.id,
      kind: row.kind,
      attempt: row.attempts,
      ...(last ? {} : { retry_in_ms: wait }),
    });
  }

  async function drain(max: number) {
    let ran = 0;
    while (ran < max && !stopping) {
      const row = await store.claimDue(deps.db, worker, at(), at(leaseMs));
      if (!row) break;
      await runOne(row);
      ran += 1;
    }
    return ran;
  }

  const queue = {
    /** The worker's name, as written in `locked_by`. */
    worker,

    /** Says who runs jobs of `kind`; a kind has one handler, named once while the app is built. */
    handle(kind: string, handler: JobHandler) {
      if (handlers[kind]) throw new Error(`Jobs of kind "${kind}" already have a handler.`);
      handlers[kind] = handler;
    },

    /** Adds a job; pass the transaction of the change that asks for it. Returns the job's id. */
    async enqueue(
      ex: Executor,
      kind: string,
      payload: unknown,
      options: { runAt?: Date; maxAttempts?: number } = {},
    ): Promise<string> {
      if (!handlers[kind]) throw new Error(`Unknown job kind "${kind}".`);
      const id = newId('job');
      const now = at();
      await store.insert(ex, {
        id,
        kind,
        payload: JSON.stringify(payload ?? null),
        status: 'queued',
        attempts: 0,
        max_attempts: options.maxAttempts ?? 5,
        run_at: options.runAt ? options.runAt.toISOString() : now,
        locked_by: null,
        locked_until: null,
        progress: null,
        result: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      });
      return id;
    },

    async get(ex: Executor, id: string): Promise<Job | undefined> {
      const row = await store.find(ex, id);
      return row ? toJob(row) : undefined;
    },

    /**
     * Runs due jobs one after another until none is due (or `max` have run); returns how many ran. Calls made while
     * one is under way join it, so one worker never runs two jobs at once.
     */
    runDue(max = Number.POSITIVE_INFINITY): Promise<number> {
      running ??= drain(max).finally(() => {
        running = undefined;
      });
      return running;
    },

    /** Looks for due jobs every `intervalMs` until `stop`. */
    start(intervalMs = 1000) {
      timer ??= setInterval(() => {
        queue
          .runDue()
          // The database may be away for a while (a restart, a failover): the next poll tries again.
          .catch((error: unknown) => deps.log?.('running jobs failed', { err: errorText(error) }));
      }, intervalMs);
      timer.unref();
    },

    /**
     * Stops looking for jobs and waits for the one under way, if any, for `graceMs` at most; a job still running then
     * is handed back to the queue for another instance (its handler's signal is aborted).
     */
    async stop(options: { graceMs?: number } = {}) {
      stopping = true;
      clearInterval(timer);
      timer = undefined;
      const under = running?.catch(() => undefined);
      if (!under) return;
      if (options.graceMs === undefined) return void (await under);
      let timeout: NodeJS.Timeout | undefined;
      const cutOff = await Promise.race([
        under.then(() => false),
        new Promise<boolean>((resolve) => {
          timeout = setTimeout(() => resolve(true), options.graceMs);
        }),
      ]);
      clearTimeout(timeout);
      if (cutOff && current) await handBack(current).catch(() => undefined);
    },
  };
  return queue;
}

/** Thrown by a handler (or for a kind nobody handles) when trying again cannot help: the job fails at once. */
export class PermanentJobError extends Error {}

/** The reason of a job's aborted signal, and what `progress` throws, once this worker no longer holds the job. */
export class LeaseLostError extends Error {
  constructor(why: string) {
    super(`This worker no longer holds the job: ${why}.`);
    this.name = 'LeaseLostError';
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export type JobQueue = ReturnType<typeof jobQueue>;
