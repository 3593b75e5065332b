/**
 * npm run bench:api — one run, side by side, at 32 connections: GET /healthz (the floor of the stack), anonymous
 * GET /api/v1/courses, and the same with a valid bearer token, on SQLite and PostgreSQL with 10,000 courses stored.
 */
import autocannon from 'autocannon';
import { tokenFor } from '../test/support/api.ts';
import type { TestServer } from '../test/support/server.ts';
import { completeSetup } from '../test/support/web-client.ts';
import { seedCatalog } from './seed.ts';
import { benchEngines, type Engine, spawnServer, table } from './support.ts';

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const COURSES = Number(process.env.BENCH_COURSES ?? 10_000);

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function prepare(engine: Engine, env: Record<string, string>) {
  const server = await spawnServer(engine, {
    ...env,
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  await completeSetup(server.url, server.setupUrl ?? '');
  const staff = await seedCatalog(server.databaseUrl, COURSES);
  const token = await tokenFor({ url: server.url } as TestServer, staff, 'courses:read');
  await measure(`${server.url}/api/v1/courses`); // warm-up: JIT, statement caches, pool
  return { server, token, list: `${server.url}/api/v1/courses` };
}

const output: string[] = [];
for (const engine of benchEngines()) {
  // The school as configured by default (list micro-cache on), and the same with the cache off, in one run.
  const cached = await prepare(engine, {});
  const rows: (string | number)[][] = [];
  let health: Awaited<ReturnType<typeof measure>>;
  const row = (name: string, r: typeof health) => [
    name,
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    (r.rps / health.rps).toFixed(2),
  ];
  try {
    health = await measure(`${cached.server.url}/healthz`);
    rows.push(row('GET /healthz', health));
    rows.push(row('GET /api/v1/courses (anonymous)', await measure(cached.list)));
    rows.push(
      row('GET /api/v1/courses (bearer)', await measure(cached.list, { authorization: `Bearer ${cached.token}` })),
    );
  } finally {
    await cached.server.stop();
  }
  const uncached = await prepare(engine, { LIST_CACHE_MS: '0' });
  try {
    rows.push(row('… anonymous, LIST_CACHE_MS=0', await measure(uncached.list)));
    rows.push(
      row('… bearer, LIST_CACHE_MS=0', await measure(uncached.list, { authorization: `Bearer ${uncached.token}` })),
    );
  } finally {
    await uncached.server.stop();
  }
  output.push(
    `### ${engine} — ${COURSES.toLocaleString('en')} courses, ${CONNECTIONS} connections, ${DURATION_S} s each`,
    '',
    table(['request', 'req/s', 'p50 ms', 'p99 ms', '÷ /healthz'], rows),
    '',
  );
}
console.log(`node ${process.version}, ${new Date().toISOString()}\n`);
console.log(output.join('\n'));
