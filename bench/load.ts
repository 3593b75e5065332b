import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { completeSetup } from '../test/support/web-client.ts';
import { seedCatalog } from './seed.ts';
import { type Engine, spawnServer } from './support.ts';

export const CONNECTIONS = 32;
export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const TICKS_PER_SECOND = 100; // USER_HZ, the unit of utime and stime in /proc/<pid>/stat on Linux

/** User + system CPU time of a process so far, in milliseconds. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

export type LoadRequest = { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };
export type Measured = { rps: number; p50: number; p99: number; cpuPerRequest: number };

/**
 * One autocannon row against a server process: throughput, latency, and the server's CPU milliseconds per request
 * (from /proc), which stays steady when the shared machine's throughput swings.
 */
export async function measure(url: string, pid: number, request: LoadRequest = {}): Promise<Measured> {
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

export const ROW_HEADERS = ['request', 'req/s', 'p50 ms', 'p99 ms', '÷ /healthz', 'server CPU ms/req'];

/** A table row, with its ratio to the /healthz row of the same run. */
export const row = (name: string, r: Measured, health: Measured) => [
  name,
  r.rps.toFixed(0),
  r.p50.toFixed(1),
  r.p99.toFixed(1),
  (r.rps / health.rps).toFixed(2),
  r.cpuPerRequest.toFixed(3),
];

/** A server process with a school, `courses` courses and a staff account (BENCH_LOG_LEVEL, BENCH_SERVER_NODE_OPTIONS). */
export async function seededServer(engine: Engine, env: Record<string, string>, courses: number) {
  const server = await spawnServer(engine, {
    ...env,
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  await completeSetup(server.url, server.setupUrl ?? '');
  const staff = await seedCatalog(server.databaseUrl, courses);
  return { server, staff, pid: server.child.pid ?? 0 };
}
