import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/tables.ts';
import type { Clock } from '../time/clock.ts';

/** Request and query times, in seconds: from a cached page to a slow report. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How long a scrape waits for one figure read from the database. */
const READ_TIMEOUT_MS = 2_000;

/** How far back the sign-in figures look. */
const SIGN_IN_WINDOW_MS = 3_600_000;

/**
 * The school's figures in the Prometheus text format (prom-client), one registry per app: what this instance
 * counted (requests by route and status with their times, query times, cache hits, the process's own figures) and,
 * read from the database at each scrape, what all instances share (the job queue, the outbox, payment events,
 * sign-ins). Labels are bounded: routes are their patterns, never the paths asked for.
 */
export function schoolMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'lyceum_' });
  const registers = [registry];
  const requests = new Counter({
    name: 'lyceum_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'lyceum_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: SECONDS,
    registers,
  });
  const querySeconds = new Histogram({
    name: 'lyceum_db_query_duration_seconds',
    help: 'Time of each database query',
    buckets: SECONDS,
    registers,
  });
  const cacheLookups = new Counter({
    name: 'lyceum_cache_lookups_total',
    help: 'Lookups in the in-memory caches, by cache (tokens, responses) and result (hit, miss)',
    labelNames: ['cache', 'result'] as const,
    registers,
  });
  return {
    registry,
    request(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status: String(status) });
      requestSeconds.observe({ route, method }, seconds);
    },
    query(seconds: number) {
      querySeconds.observe(seconds);
    },
    cacheLookup(cache: 'tokens' | 'responses', hit: boolean) {
      cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
    },
  };
}

export type SchoolMetrics = ReturnType<typeof schoolMetrics>;

/** The figures read at each scrape: the database pool, and the shared state of the school in its tables. */
export function watchSchool(
  metrics: SchoolMetrics,
  deps: {
    db: Db;
    clock: Clock;
    pool: () => { open: number; idle: number; waiting: number } | undefined;
  },
) {
  const { db, clock } = deps;
  const registers = [metrics.registry];
  const failures = new Counter({
    name: 'lyceum_metrics_read_failures_total',
    help: 'Figures that could not be read from the database at a scrape (they keep their last value), by figure',
    labelNames: ['figure'] as const,
    registers,
  });
  /**
   * A figure read from the database, within a bound: prom-client waits for every figure of a scrape, so one query
   * failing or hanging (the database away) must not take the process's own figures down with it.
   */
  const read = async (figure: string, query: () => Promise<void>) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        query(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), READ_TIMEOUT_MS);
        }),
      ]);
    } catch {
      failures.inc({ figure });
    } finally {
      clearTimeout(timer);
    }
  };
  /** A gauge of a table's rows counted by one column: every value named is shown, 0 when it has no row. */
  const countedBy = (opts: {
    name: string;
    help: string;
    label: string;
    values: readonly string[];
    count: () => Promise<{ value: string; count: number | string | bigint }[]>;
  }) =>
    new Gauge({
      name: opts.name,
      help: opts.help,
      labelNames: [opts.label],
      registers,
      async collect() {
        await read(opts.name.replace(/^lyceum_/, ''), async () => {
          const rows = await opts.count();
          for (const value of opts.values) this.set({ [opts.label]: value }, 0);
          for (const row of rows) this.set({ [opts.label]: row.value }, Number(row.count));
        });
      },
    });
  new Gauge({
    name: 'lyceum_db_pool_connections',
    help: "The PostgreSQL pool's connections, by state (open, idle, waiting: requests waiting for one)",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = deps.pool();
      if (!pool) return;
      for (const [state, count] of Object.entries(pool)) this.set({ state }, count);
    },
  });
  countedBy({
    name: 'lyceum_jobs',
    help: 'Durable jobs, by status (queued, running, failed)',
    label: 'status',
    values: ['queued', 'running', 'failed'],
    count: () =>
      db
        .selectFrom('jobs')
        .select(['status as value', (eb) => eb.fn.countAll<number>().as('count')])
        .where('status', 'in', ['queued', 'running', 'failed'])
        .groupBy('status')
        .execute(),
  });
  new Gauge({
    name: 'lyceum_jobs_oldest_due_seconds',
    help: 'How long the oldest queued job has been due (0 when none is): a worker falling behind shows here',
    registers,
    async collect() {
      await read('jobs_oldest_due_seconds', async () => {
        const now = clock.now();
        const row = await db
          .selectFrom('jobs')
          .select((eb) => eb.fn.min('run_at').as('due'))
          .where('status', '=', 'queued')
          .where('run_at', '<=', now.toISOString())
          .executeTakeFirst();
        this.set(row?.due ? Math.max(0, (now.getTime() - Date.parse(String(row.due))) / 1000) : 0);
      });
    },
  });
  countedBy({
    name: 'lyceum_outbox_messages',
    help: 'E-mail in the outbox, by status (queued: waiting to be sent; failed; held: no SMTP server configured)',
    label: 'status',
    values: ['queued', 'failed', 'held'],
    count: () =>
      db
        .selectFrom('outbox')
        .select(['status as value', (eb) => eb.fn.countAll<number>().as('count')])
        .where('status', 'in', ['queued', 'failed', 'held'])
        .groupBy('status')
        .execute(),
  });
  new Gauge({
    name: 'lyceum_payment_events',
    help: "Payment providers' events taken in (each once), by provider and type",
    labelNames: ['provider', 'type'] as const,
    registers,
    async collect() {
      await read('payment_events', async () => {
        const rows = await db
          .selectFrom('payment_events')
          .select(['provider', 'type', (eb) => eb.fn.countAll<number>().as('count')])
          .groupBy(['provider', 'type'])
          .execute();
        this.reset();
        for (const row of rows) this.set({ provider: row.provider, type: row.type }, Number(row.count));
      });
    },
  });
  countedBy({
    name: 'lyceum_sign_ins_last_hour',
    help: 'Sign-in attempts in the last hour, by outcome (success, wrong_password, unknown_email, suspended, rate_limited)',
    label: 'outcome',
    values: ['success', 'wrong_password', 'unknown_email', 'suspended', 'rate_limited'],
    count: () =>
      db
        .selectFrom('sign_in_events')
        .select(['outcome as value', (eb) => eb.fn.countAll<number>().as('count')])
        .where('at', '>=', new Date(clock.now().getTime() - SIGN_IN_WINDOW_MS).toISOString())
        .groupBy('outcome')
        .execute(),
  });
}
