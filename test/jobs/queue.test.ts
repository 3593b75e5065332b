import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase, type Database } from '../../src/db/connect.ts';
import { type JobContext, type JobHandler, jobQueue, PermanentJobError } from '../../src/jobs/queue.ts';
import { engines, freshDatabaseUrl } from '../support/databases.ts';

const START = new Date('2026-03-01T09:00:00.000Z');

async function withDatabase(engine: (typeof engines)[number], run: (database: Database, url: string) => Promise<void>) {
  const url = await freshDatabaseUrl(engine);
  const database = connectDatabase(loadConfig({ DATABASE_URL: url }).database);
  await database.migrate();
  try {
    await run(database, url);
  } finally {
    await database.close();
  }
}

function manualClock() {
  let now = START.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

for (const engine of engines) {
  describe(`durable jobs (${engine})`, () => {
    test('a job runs once, with its payload, and records its result', async () => {
      await withDatabase(engine, async ({ db }) => {
        const seen: unknown[] = [];
        const queue = jobQueue({
          db,
          engine,
          clock: manualClock(),
          handlers: {
            greet: async (payload) => {
              seen.push(payload);
              return { greeted: payload.name };
            },
          },
        });
        const id = await queue.enqueue(db, 'greet', { name: 'Ada' });
        assert.equal((await queue.get(db, id))?.status, 'queued');
        assert.deepEqual(
          await Promise.all([queue.runDue(), queue.runDue()]),
          [1, 1],
          'the second call joins the first',
        );
        assert.equal(await queue.runDue(), 0, 'nothing is due any more');
        assert.deepEqual(seen, [{ name: 'Ada' }]);
        const job = await queue.get(db, id);
        assert.equal(job?.status, 'succeeded');
        assert.deepEqual(job?.result, { greeted: 'Ada' });
        assert.equal(job?.attempts, 1);
      });
    });

    test('a job asked for in a transaction that rolls back never exists', async () => {
      await withDatabase(engine, async ({ db }) => {
        const queue = jobQueue({ db, engine, clock: manualClock(), handlers: { greet: async () => undefined } });
        let id = '';
        await assert.rejects(
          db.transaction().execute(async (trx) => {
            id = await queue.enqueue(trx, 'greet', {});
            throw new Error('the change failed');
          }),
          /the change failed/,
        );
        assert.equal(await queue.get(db, id), undefined);
        assert.equal(await queue.runDue(), 0);
      });
    });

    test('a kind is handled by the handler named for it, and only one may be named', async () => {
      await withDatabase(engine, async ({ db }) => {
        const queue = jobQueue({ db, engine, clock: manualClock() });
        await assert.rejects(queue.enqueue(db, 'later', {}), /Unknown job kind "later"/);
        queue.handle('later', async (payload: { n: number }) => payload.n * 2);
        assert.throws(() => queue.handle('later', async () => undefined), /already have a handler/);
        const id = await queue.enqueue(db, 'later', { n: 21 });
        assert.equal(await queue.runDue(), 1);
        assert.equal((await queue.get(db, id))?.result, 42);
      });
    });

    test('a job due later waits for its time', async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        let runs = 0;
        const queue = jobQueue({ db, engine, clock, handlers: { remind: async () => void runs++ } });
        await queue.enqueue(db, 'remind', {}, { runAt: new Date(START.getTime() + 60_000) });
        assert.equal(await queue.runDue(), 0);
        clock.advance(59_999);
        assert.equal(await queue.runDue(), 0);
        clock.advance(1);
        assert.equal(await queue.runDue(), 1);
        assert.equal(runs, 1);
      });
    });

    test('a failing job is retried with exponential backoff, then fails with its last error', async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        const attempts: number[] = [];
        const logged: string[] = [];
        const queue = jobQueue({
          db,
          engine,
          clock,
          retryBaseMs: 10_000,
          log: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
          handlers: {
            flaky: async (_payload, job) => {
              attempts.push(job.attempt);
              throw new Error(`mail server said no (${job.attempt})`);
            },
          },
        });
        const id = await queue.enqueue(db, 'flaky', { secret: 'do-not-log' }, { maxAttempts: 3 });
        assert.equal(await queue.runDue(), 1);
        let job = await queue.get(db, id);
        assert.equal(job?.status, 'queued');
        assert.equal(job?.run_at, new Date(START.getTime() + 10_000).toISOString(), 'first retry after 10 s');
        clock.advance(9_999);
        assert.equal(await queue.runDue(), 0);
        clock.advance(1);
        assert.equal(await queue.runDue(), 1);
        job = await queue.get(db, id);
        assert.equal(job?.run_at, new Date(START.getTime() + 30_000).toISOString(), 'second retry 20 s later');
        clock.advance(20_000);
        assert.equal(await queue.runDue(), 1);
        job = await queue.get(db, id);
        assert.equal(job?.status, 'failed');
        assert.equal(job?.last_error, 'mail server said no (3)');
        assert.equal(job?.attempts, 3);
        clock.advance(HOURS(24));
        assert.equal(await queue.runDue(), 0, 'a failed job stays failed');
        assert.deepEqual(attempts, [1, 2, 3]);
        assert.equal(logged.length, 3);
        assert.ok(!logged.join('\n').includes('do-not-log'), 'payloads stay out of the log');
      });
    });

    test('a permanent error fails the job at once; an unknown kind cannot be enqueued', async () => {
      await withDatabase(engine, async ({ db }) => {
        const queue = jobQueue({
          db,
          engine,
          clock: manualClock(),
          handlers: {
            invite: async () => {
              throw new PermanentJobError('the address does not exist');
            },
          },
        });
        const id = await queue.enqueue(db, 'invite', {});
        await queue.runDue();
        const job = await queue.get(db, id);
        assert.equal(job?.status, 'failed');
        assert.equal(job?.attempts, 1);
        assert.equal(job?.last_error, 'the address does not exist');
        await assert.rejects(queue.enqueue(db, 'nobody-handles-this', {}), /Unknown job kind/);
      });
    });

    test("a running job's progress is readable and extends its lease", async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        let reading: unknown;
        let lease: { locked_until: string | null } | undefined;
        const queue = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 60_000,
          handlers: {
            bulk: async (_payload, job) => {
              clock.advance(50_000);
              await job.progress({ done: 500, of: 1000 });
              // Read while the job runs: awaited here, so the job's end cannot overtake them on another connection.
              reading = await queue.get(db, job.id);
              lease = await db.selectFrom('jobs').select('locked_until').where('id', '=', job.id).executeTakeFirst();
              return { done: 1000 };
            },
          },
        });
        const id = await queue.enqueue(db, 'bulk', {});
        await queue.runDue();
        const during = reading as Awaited<ReturnType<typeof queue.get>>;
        assert.equal(during?.status, 'running');
        assert.deepEqual(during?.progress, { done: 500, of: 1000 });
        assert.equal(
          lease?.locked_until,
          new Date(START.getTime() + 50_000 + 60_000).toISOString(),
          'the lease runs a full minute from the progress report',
        );
        const row = await db.selectFrom('jobs').select('locked_until').where('id', '=', id).executeTakeFirst();
        assert.equal(row?.locked_until, null, 'the lease is released when the job ends');
        assert.equal((await queue.get(db, id))?.status, 'succeeded');
      });
    });

    test("a job whose worker died runs again once the lease ran out; the dead worker's late answer is ignored", async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        let release: (value: unknown) => void = () => undefined;
        let firstContext: JobContext | undefined;
        const stuck: JobHandler = (_payload, job) => {
          firstContext = job;
          return new Promise((resolve) => (release = resolve));
        };
        const first = jobQueue({ db, engine, clock, leaseMs: 60_000, handlers: { report: stuck } });
        const second = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 60_000,
          handlers: { report: async (_p, job) => ({ by: 'second', attempt: job.attempt }) },
        });
        const id = await first.enqueue(db, 'report', {});
        const firstRun = first.runDue(1);
        await waitFor(async () => (await first.get(db, id))?.status === 'running');
        assert.equal(await second.runDue(), 0, 'held under the first worker’s lease');
        clock.advance(60_000);
        assert.equal(await second.runDue(), 1, 'taken over once the lease ran out');
        await assert.rejects(firstContext?.progress({ late: true }) ?? Promise.resolve(), /no longer holds the job/);
        release({ by: 'first' });
        await firstRun;
        const job = await first.get(db, id);
        assert.equal(job?.status, 'succeeded');
        assert.deepEqual(job?.result, { by: 'second', attempt: 2 });
      });
    });

    test('the heartbeat renews a running job’s lease, so a live worker keeps it past the lease; a dead one loses it', async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        const beats = manualHeartbeat();
        let release: (value: unknown) => void = () => undefined;
        let firstContext: JobContext | undefined;
        const first = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 15_000,
          every: beats.every,
          handlers: {
            report: (_payload, job) => {
              firstContext = job;
              return new Promise((resolve) => (release = resolve));
            },
          },
        });
        const second = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 15_000,
          every: manualHeartbeat().every,
          handlers: { report: async (_p, job) => ({ by: 'second', attempt: job.attempt }) },
        });
        const id = await first.enqueue(db, 'report', {});
        const firstRun = first.runDue(1);
        await waitFor(async () => firstContext !== undefined);
        for (let beat = 1; beat <= 6; beat++) {
          clock.advance(5_000);
          await beats.beat();
          assert.equal(await second.runDue(), 0, `held after ${beat * 5} s of a 15 s lease`);
        }
        const lease = await db.selectFrom('jobs').select('locked_until').where('id', '=', id).executeTakeFirst();
        assert.equal(lease?.locked_until, new Date(START.getTime() + 30_000 + 15_000).toISOString());
        assert.equal(firstContext?.signal.aborted, false);

        // The first worker stops beating (it died, or its process stalled): the lease runs out 15 s after the last beat.
        clock.advance(14_999);
        assert.equal(await second.runDue(), 0);
        clock.advance(1);
        assert.equal(await second.runDue(), 1, 'taken over as soon as the lease ran out');

        // The first worker comes back: its heartbeat finds the lease gone, aborts its handler and stops renewing.
        await beats.beat();
        assert.equal(firstContext?.signal.aborted, true);
        assert.match(String(firstContext?.signal.reason), /no longer holds the job/);
        assert.equal(beats.count(), 1, 'still beating until its handler returns');
        release({ by: 'first' });
        await firstRun;
        assert.equal(beats.count(), 0, 'no heartbeat outlives its job');
        const job = await first.get(db, id);
        assert.equal(job?.status, 'succeeded');
        assert.deepEqual(job?.result, { by: 'second', attempt: 2 }, 'the first worker’s late answer is ignored');
      });
    });

    test('a worker that could not renew in time gives the job up without failing it, and another runs it', async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        const beats = manualHeartbeat();
        let firstContext: JobContext | undefined;
        let giveUp: (error: unknown) => void = () => undefined;
        const first = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 15_000,
          every: beats.every,
          handlers: {
            mail: (_payload, job) => {
              firstContext = job;
              return new Promise((_resolve, reject) => (giveUp = reject));
            },
          },
        });
        const ran: number[] = [];
        const second = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 15_000,
          every: manualHeartbeat().every,
          handlers: { mail: async (_p, job) => void ran.push(job.attempt) },
        });
        const id = await first.enqueue(db, 'mail', {}, { maxAttempts: 1 });
        const firstRun = first.runDue(1);
        await waitFor(async () => firstContext !== undefined);
        // No beat for a whole lease (the event loop was blocked, the database away): nobody has taken the job yet,
        // but the worker must not count on it any more, since another may take it at any moment.
        clock.advance(15_000);
        await beats.beat();
        assert.equal(firstContext?.signal.aborted, true);
        await assert.rejects(firstContext?.progress({ done: 1 }) ?? Promise.resolve(), /no longer holds the job/);
        giveUp(firstContext?.signal.reason);
        await firstRun;
        assert.equal((await first.get(db, id))?.status, 'running', 'not failed by the worker that lost it');
        assert.equal(await second.runDue(), 1);
        const job = await second.get(db, id);
        assert.equal(job?.status, 'failed', 'its one attempt was spent by the worker that lost it');
        assert.match(job?.last_error ?? '', /lease ran out/);
        assert.deepEqual(ran, []);
      });
    });

    test('a job whose worker stopped during its last attempt is failed, not run a further time', async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        const first = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 60_000,
          handlers: { report: () => new Promise(() => {}) },
        });
        let ranAgain = false;
        const second = jobQueue({
          db,
          engine,
          clock,
          leaseMs: 60_000,
          handlers: {
            report: async () => {
              ranAgain = true;
            },
          },
        });
        const id = await first.enqueue(db, 'report', {}, { maxAttempts: 1 });
        void first.runDue(1);
        await waitFor(async () => (await first.get(db, id))?.status === 'running');
        clock.advance(60_000);
        assert.equal(await second.runDue(), 1);
        const job = await second.get(db, id);
        assert.equal(job?.status, 'failed');
        assert.match(job?.last_error ?? '', /lease ran out/);
        assert.equal(ranAgain, false);
      });
    });

    test('a kind this worker has no handler for fails at once; retries wait at most an hour apart', async () => {
      await withDatabase(engine, async ({ db }) => {
        const clock = manualClock();
        const older = jobQueue({ db, engine, clock, handlers: { retired: async () => undefined } });
        const newer = jobQueue({
          db,
          engine,
          clock,
          retryBaseMs: 40 * 60_000,
          handlers: {
            slow: async () => {
              throw new Error('not yet');
            },
          },
        });
        const retired = await older.enqueue(db, 'retired', {});
        const slow = await newer.enqueue(db, 'slow', {});
        assert.equal(await newer.runDue(), 2);
        const gone = await newer.get(db, retired);
        assert.equal(gone?.status, 'failed');
        assert.equal(gone?.attempts, 1);
        assert.match(gone?.last_error ?? '', /No handler for jobs of kind "retired"/);
        assert.equal((await newer.get(db, slow))?.run_at, new Date(START.getTime() + 40 * 60_000).toISOString());
        clock.advance(40 * 60_000);
        await newer.runDue();
        assert.equal(
          (await newer.get(db, slow))?.run_at,
          new Date(START.getTime() + 100 * 60_000).toISOString(),
          'the second retry waits an hour, not 80 minutes',
        );
      });
    });
  });
}

if (engines.includes('postgres')) {
  test('two processes on one PostgreSQL share the work: each of 60 jobs runs exactly once', async () => {
    await withDatabase('postgres', async ({ db }, url) => {
      await sql`create table job_runs (job_id text not null, worker text not null)`.execute(db);
      const queue = jobQueue({ db, engine: 'postgres', clock: manualClock(), handlers: { record: async () => null } });
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) ids.push(await queue.enqueue(db, 'record', { i }));
      const src = (path: string) => JSON.stringify(new URL(`../../src/${path}`, import.meta.url).href);
      // Each process waits for "go" on stdin, so both start claiming together.
      const script = `const { connectDatabase } = await import(${src('db/connect.ts')});
        const { loadConfig } = await import(${src('config.ts')});
        const { jobQueue } = await import(${src('jobs/queue.ts')});
        const { sql } = await import('kysely');
        const d = connectDatabase(loadConfig({ DATABASE_URL: process.env.URL }).database);
        const q = jobQueue({ db: d.db, engine: 'postgres', clock: { now: () => new Date() }, handlers: {
          record: async (_p, job) => { await sql\`select pg_sleep(0.002)\`.execute(d.db);
            await sql\`insert into job_runs (job_id, worker) values (\${job.id}, \${q.worker})\`.execute(d.db); } } });
        console.log('ready');
        process.stdin.once('data', async () => { await q.runDue(); await d.close(); process.exit(0); });`;
      const workers = [0, 1].map(() =>
        spawn(process.execPath, ['--input-type=module', '-e', script], {
          env: { ...process.env, URL: url },
          cwd: new URL('../..', import.meta.url).pathname,
          stdio: ['pipe', 'pipe', 'inherit'],
        }),
      );
      await Promise.all(workers.map((w) => once(w.stdout, 'data')));
      for (const w of workers) w.stdin.write('go\n');
      assert.deepEqual(await Promise.all(workers.map(async (w) => (await once(w, 'exit'))[0])), [0, 0]);
      const runs = await db
        .selectFrom('job_runs' as never)
        .selectAll()
        .execute();
      const byJob = new Map<string, number>();
      const byWorker = new Map<string, number>();
      for (const run of runs as { job_id: string; worker: string }[]) {
        byJob.set(run.job_id, (byJob.get(run.job_id) ?? 0) + 1);
        byWorker.set(run.worker, (byWorker.get(run.worker) ?? 0) + 1);
      }
      assert.equal(runs.length, 60, 'sixty runs in all');
      assert.deepEqual(
        [...byJob.values()].filter((n) => n !== 1),
        [],
        'no job ran twice',
      );
      assert.deepEqual(new Set(byJob.keys()), new Set(ids));
      assert.equal(byWorker.size, 2, `both processes took jobs: ${JSON.stringify([...byWorker.values()])}`);
      const statuses = await db.selectFrom('jobs').select('status').distinct().execute();
      assert.deepEqual(
        statuses.map((s) => s.status),
        ['succeeded'],
      );
    });
  });
}

function HOURS(n: number) {
  return n * 3_600_000;
}

/** A heartbeat the test beats by hand (after moving the clock), in place of the queue's interval timer. */
function manualHeartbeat() {
  const ticks = new Set<() => Promise<void>>();
  return {
    every: (_ms: number, tick: () => Promise<void>) => {
      ticks.add(tick);
      return () => void ticks.delete(tick);
    },
    beat: async () => {
      await Promise.all([...ticks].map((tick) => tick()));
    },
    count: () => ticks.size,
  };
}

/**
 * Polls `check` between turns of the event loop (no timers): the other side is in this process. Bounded by 10 s of
 * wall time, not by a number of turns: on PostgreSQL each turn may wait on the database, and a thousand turns passed
 * before a loaded machine's database had answered the claim.
 */
async function waitFor(check: () => Promise<boolean>) {
  const until = performance.now() + 10_000;
  while (performance.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}
