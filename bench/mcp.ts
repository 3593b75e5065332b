/**
 * npm run bench:mcp — one run, side by side, at 32 connections: GET /healthz (the floor of the stack), the MCP
 * tools/call of the anonymous course search, and an authenticated tools/call of getCourse, with 1,000 courses
 * stored; then the two MCP rows again on a second server with the list micro-cache off (LIST_CACHE_MS=0). Besides
 * throughput it reports the server's CPU milliseconds per request, read from /proc (steady when the shared machine's
 * throughput swings).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { tokenFor } from '../test/support/api.ts';
import type { TestServer } from '../test/support/server.ts';
import { completeSetup } from '../test/support/web-client.ts';
import { seedCatalog } from './seed.ts';
import { benchEngines, type Engine, spawnServer, table } from './support.ts';

const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const COURSES = Number(process.env.BENCH_COURSES ?? 1_000);
const TICKS_PER_SECOND = 100; // USER_HZ, the unit of utime and stime in /proc/<pid>/stat on Linux

/** User + system CPU time of a process so far, in milliseconds. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

type Request = { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

async function measure(url: string, pid: number, request: Request = {}) {
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, ...request });
  const cpu = cpuMs(pid) - before;
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: cpu / result.requests.total,
  };
}

const mcpCall = (name: string, args: Record<string, unknown>, token?: string): Request => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

async function prepare(engine: Engine, env: Record<string, string>) {
  const server = await spawnServer(engine, {
    ...env,
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  await completeSetup(server.url, server.setupUrl ?? '');
  const staff = await seedCatalog(server.databaseUrl, COURSES);
  const token = await tokenFor({ url: server.url } as TestServer, staff, 'courses:read', `${server.url}/mcp`);
  const list = await fetch(`${server.url}/api/v1/courses?limit=1`);
  const [course] = ((await list.json()) as { data: { id: string }[] }).data;
  if (!course) throw new Error('no course to get');
  const pid = server.child.pid ?? 0;
  const search = mcpCall('listCourses', { q: 'study', limit: 20 });
  const get = mcpCall('getCourse', { id: course.id }, token);
  await measure(`${server.url}/mcp`, pid, search); // warm-up: JIT, statement caches, pool
  return { server, pid, mcp: `${server.url}/mcp`, search, get };
}

const output: string[] = [];
for (const engine of benchEngines()) {
  const rows: (string | number)[][] = [];
  let health: Awaited<ReturnType<typeof measure>>;
  const row = (name: string, r: typeof health) => [
    name,
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    (r.rps / health.rps).toFixed(2),
    r.cpuPerRequest.toFixed(3),
  ];
  const cached = await prepare(engine, {});
  try {
    health = await measure(`${cached.server.url}/healthz`, cached.pid);
    rows.push(row('GET /healthz', health));
    rows.push(row('tools/call listCourses {q} (anonymous)', await measure(cached.mcp, cached.pid, cached.search)));
    rows.push(row('tools/call getCourse (bearer, /mcp token)', await measure(cached.mcp, cached.pid, cached.get)));
  } finally {
    await cached.server.stop();
  }
  const uncached = await prepare(engine, { LIST_CACHE_MS: '0' });
  try {
    rows.push(row('… listCourses, LIST_CACHE_MS=0', await measure(uncached.mcp, uncached.pid, uncached.search)));
    rows.push(row('… getCourse, LIST_CACHE_MS=0', await measure(uncached.mcp, uncached.pid, uncached.get)));
  } finally {
    await uncached.server.stop();
  }
  output.push(
    `### ${engine} — ${COURSES.toLocaleString('en')} courses, ${CONNECTIONS} connections, ${DURATION_S} s each`,
    '',
    table(['request', 'req/s', 'p50 ms', 'p99 ms', '÷ /healthz', 'server CPU ms/req'], rows),
    '',
  );
}
console.log(`node ${process.version}, ${new Date().toISOString()}\n`);
console.log(output.join('\n'));
