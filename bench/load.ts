import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { completeSetup } from '../test/support/web-client.ts';
import { type SeedSizes, seedSchool } from './seed.ts';
import {
  answers,
  benchEngines,
  type Child,
  type Engine,
  percentile,
  runFor,
  type SpawnedServer,
  spawnNode,
  spawnServer,
  table,
} from './support.ts';

export const CONNECTIONS = 32;
/** Seconds per rep of a row; every row runs BENCH_REPS reps, round-robin, after a BENCH_WARMUP_S warm-up of each. */
export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);
export const REPS = Number(process.env.BENCH_REPS ?? 3);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 1);
const TICKS_PER_SECOND = 100; // USER_HZ, the unit of utime and stime in /proc/<pid>/stat on Linux

/** User + system CPU time of a process so far (all its threads: scrypt's thread pool too), in milliseconds. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Operations (requests or flows) per second, latency in ms, and the server's CPU ms per operation. */
export type Measured = { rate: number; p50: number; p99: number; cpu: number };

/** One row of a table: how to run it for `seconds` against one server process. */
export type Row = {
  name: string;
  run(seconds: number): Promise<Measured>;
  /** Runs before each rep (e.g. a fresh token, so a rep never measures an evicted one). */
  prepare?: () => Promise<void>;
  /** The row this one is compared with (the reference authorization server's). */
  reference?: Row;
  /** HTTP requests per operation, when it is more than one. */
  requests?: () => number;
};

export type LoadRequest = { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

/**
 * An autocannon row: `path`, when given, picks the path (and query) of every request, so a row can vary its cursor or
 * search word; the server's CPU per request is read from /proc.
 */
export function loadRow(name: string, pid: number, url: string, request: LoadRequest = {}, path?: () => string): Row {
  return {
    name,
    async run(seconds) {
      const before = cpuMs(pid);
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: seconds,
        ...request,
        ...(path ? { requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: path() }) }] } : {}),
      });
      const cpu = cpuMs(pid) - before;
      if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return {
        rate: result.requests.total / seconds,
        p50: result.latency.p50,
        p99: result.latency.p99,
        cpu: cpu / result.requests.total,
      };
    },
  };
}

/**
 * A row of whole flows (several HTTP requests each), `concurrency` at a time, with the server's CPU per flow (the
 * servers' together, when the flows are spread over several).
 */
export function flowRow(name: string, pid: number | number[], flow: () => Promise<void>, concurrency = 16): Row {
  const pids = Array.isArray(pid) ? pid : [pid];
  const cpu = () => pids.reduce((sum, p) => sum + cpuMs(p), 0);
  return {
    name,
    async run(seconds) {
      const samples: number[] = [];
      const before = cpu();
      const done = await runFor(seconds * 1000, concurrency, async () => {
        const started = performance.now();
        await flow();
        samples.push(performance.now() - started);
      });
      const used = cpu() - before;
      samples.sort((a, b) => a - b);
      return {
        rate: done.count / done.seconds,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        cpu: used / done.count,
      };
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * Runs every row: a warm-up of each, then REPS reps in round-robin order (row A, row B, …, row A, …), so a swing in
 * the shared machine's load hits every row alike; each figure is the median of its reps.
 */
export async function interleave(rows: Row[]): Promise<Map<Row, Measured>> {
  const reps = new Map<Row, Measured[]>(rows.map((r) => [r, []]));
  for (const row of rows) {
    await row.prepare?.();
    await row.run(WARMUP_S);
  }
  for (let rep = 0; rep < REPS; rep++) {
    for (const row of rows) {
      await row.prepare?.();
      reps.get(row)?.push(await row.run(DURATION_S));
    }
  }
  const medians = new Map<Row, Measured>();
  for (const [row, ms] of reps) {
    medians.set(row, {
      rate: median(ms.map((m) => m.rate)),
      p50: median(ms.map((m) => m.p50)),
      p99: median(ms.map((m) => m.p99)),
      cpu: median(ms.map((m) => m.cpu)),
    });
  }
  return medians;
}

/** The bare Fastify process of bench/bare-fastify.ts (GET / → a small JSON), the floor below /healthz. */
const startBare = () => spawnNode('bench/bare-fastify.ts', {}, (c) => answers(`${c.url}/`));

/** The two floors every table is read against: the server's own GET /healthz, and the bare Fastify process's GET /. */
export const floorRows = (server: { url: string; pid: number }, bare: Child): [Row, Row] => [
  loadRow('GET /healthz', server.pid, `${server.url}/healthz`),
  loadRow('bare Fastify GET /', bare.pid, `${bare.url}/`),
];

/**
 * Measures `rows` interleaved with the two floors and renders the table: per row its rate, latency, server CPU per
 * operation, and that CPU as a multiple of /healthz's and of bare Fastify's (and of its reference row's, if any).
 */
export async function measureTable(title: string, floors: [Row, Row], rows: Row[], unit = 'req'): Promise<string> {
  // BENCH_ONLY (a regular expression on row names) measures just those rows, floors included only if they match:
  // for profiling one operation (BENCH_SERVER_NODE_OPTIONS="--cpu-prof …") without the others' samples.
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
  const all = [...floors, ...rows].filter((row) => !only || only.test(row.name));
  const results = await interleave(all);
  const cpu = (row: Row | undefined) => (row ? (results.get(row)?.cpu ?? Number.NaN) : Number.NaN);
  const withReference = rows.some((r) => r.reference);
  const withRequests = rows.some((r) => r.requests);
  const headers = [
    unit === 'req' ? 'request' : 'operation',
    `${unit}/s`,
    'p50 ms',
    'p99 ms',
    `server CPU ms/${unit}`,
    'CPU ÷ /healthz',
    'CPU ÷ bare',
    ...(withReference ? ['CPU ÷ reference'] : []),
    ...(withRequests ? ['HTTP requests'] : []),
  ];
  const body = all.map((row) => {
    const m = results.get(row) as Measured;
    return [
      row.name,
      m.rate.toFixed(m.rate < 100 ? 1 : 0),
      m.p50.toFixed(1),
      m.p99.toFixed(1),
      m.cpu.toFixed(3),
      (m.cpu / cpu(floors[0])).toFixed(1),
      (m.cpu / cpu(floors[1])).toFixed(1),
      ...(withReference ? [row.reference ? (m.cpu / cpu(row.reference)).toFixed(2) : ''] : []),
      ...(withRequests ? [row.requests ? String(row.requests()) : '1'] : []),
    ];
  });
  return [
    `### ${title} — ${REPS} reps × ${DURATION_S} s per row, interleaved; medians`,
    '',
    table(headers, body),
    '',
  ].join('\n');
}

/** BENCH_LOG_LEVEL and BENCH_SERVER_NODE_OPTIONS, passed on to every server process. */
const serverEnv = () => ({
  ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
  ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
});

/**
 * One school on a fresh database, set up and seeded (see seed.ts), served by one server process per entry of `envs`
 * (e.g. the default configuration and LIST_CACHE_MS=0), all on that same database and public origin. `use` runs with them; they are
 * stopped afterwards.
 */
export async function withSchool<T>(
  engine: Engine,
  envs: Record<string, string>[],
  sizes: SeedSizes,
  use: (servers: SpawnedServer[], people: Awaited<ReturnType<typeof seedSchool>>) => Promise<T>,
): Promise<T> {
  const servers: SpawnedServer[] = [];
  try {
    const [first, ...others] = envs;
    const primary = await spawnServer(engine, { ...first, ...serverEnv() });
    servers.push(primary);
    await completeSetup(primary.url, primary.setupUrl ?? '');
    const people = await seedSchool(primary.databaseUrl, sizes);
    // Further instances of the same school: same database, same public origin (tokens are bound to it).
    for (const env of others) {
      servers.push(await spawnServer(engine, { BASE_URL: primary.url, ...env, ...serverEnv() }, primary.databaseUrl));
    }
    return await use(servers, people);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/**
 * A bench: starts the bare Fastify process, has `measure` make one table per engine (SQLite; PostgreSQL too when
 * configured), prints them, and stops the bare process and `others` (e.g. the reference authorization server).
 */
export async function benchEachEngine(measure: (engine: Engine, bare: Child) => Promise<string>, others: Child[] = []) {
  const bare = await startBare();
  const tables: string[] = [];
  try {
    for (const engine of benchEngines()) tables.push(await measure(engine, bare));
  } finally {
    await Promise.all([bare, ...others].map((child) => child.stop()));
  }
  console.log(`node ${process.version}, ${new Date().toISOString()}\n`);
  console.log(tables.join('\n'));
}
